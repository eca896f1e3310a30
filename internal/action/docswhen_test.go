package action_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/testbed/workflows"
)

const (
	head5 = "a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5"
	head6 = "a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6"
	head7 = "a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7"
)

// TestDocsWhenApproved plays one code pull request's review cycle on
// init's files under each choice of docs-when: opened as a draft, pushed
// three times, marked ready, reviewed with changes requested, pushed twice
// more and approved, then pushed once more and approved again. At every
// push, the job hears each push (one create, three follow-ups); once
// approved, nothing is sent before the first approval, one create goes at
// it, and one follow-up at the second, each with every change since the
// job last heard. The check on every head that is not a draft says what
// it waits for, and ends as the docs did.
func TestDocsWhenApproved(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		approved bool
		wait     bool     // the waiting setup (init --wait)
		sends    []string // what the Agent Job API got, in order: create or follow-up, and the files it named
		final    map[string]string
	}{
		{name: "at every push", sends: []string{
			"create: src/limits.go src/push2.go src/push3.go src/push4.go",
			"follow-up: src/push5.go", "follow-up: src/push6.go", "follow-up: src/push7.go"},
			final: map[string]string{
				head4: "success: Docs updated in a pull request", head5: "success: Docs updated in a pull request",
				head6: "success: Docs updated in a pull request", head7: "success: Docs updated in a pull request"}},
		{name: "once approved, waiting", approved: true, wait: true, sends: []string{
			"create: src/limits.go src/push2.go src/push3.go src/push4.go src/push5.go src/push6.go",
			"follow-up: src/push7.go"},
			// The waiting run waits for the preview too.
			final: map[string]string{
				head4: "pending: Waits for the code's approval before writing the docs", head5: "pending: Waits for the code's approval before writing the docs",
				head6: "success: Docs updated: preview ready", head7: "success: Docs updated: preview ready"}},
		{name: "once approved", approved: true, sends: []string{
			"create: src/limits.go src/push2.go src/push3.go src/push4.go src/push5.go src/push6.go",
			"follow-up: src/push7.go"},
			final: map[string]string{
				head4: "pending: Waits for the code's approval before writing the docs", head5: "pending: Waits for the code's approval before writing the docs",
				head6: "success: Docs updated in a pull request", head7: "success: Docs updated in a pull request"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := initNoWait()
			c.WhenApproved, c.Wait = tc.approved, tc.wait
			w := newInitWorld(t, fakeapi.Scenario{Runtime: 4 * time.Minute}, true, -10*time.Second, false, *c)
			heads := []string{head1, head2, head3, head4, head5, head6, head7}
			files := slices.Clone(codeFiles)
			at, pushed := time.Duration(0), 1
			next := func(what string, fire func()) {
				at += time.Hour
				w.at(at, what, fire)
			}
			draft := func(pr map[string]any) { pr["draft"] = true }
			push := func(isDraft bool) {
				next(fmt.Sprintf("push %d", pushed+1), func() {
					pushed++
					f := fakegithub.File{Name: fmt.Sprintf("src/push%d.go", pushed), Status: "added", Additions: 1, Patch: "@@ +1 @@"}
					files = append(files, f)
					w.moveHead(heads[pushed-2], heads[pushed-1], []fakegithub.File{f}, files)
					ev := codePR("synchronize", heads[pushed-1], nil)
					if isDraft {
						ev = codePR("synchronize", heads[pushed-1], draft)
					}
					ev["before"], ev["after"] = heads[pushed-2], heads[pushed-1]
					w.pullRequest(ev)
				})
			}
			review := func(state string) {
				next("a review: "+state, func() {
					head := heads[pushed-1]
					w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: strings.ToUpper(state), CommitID: head})
					ev := codePR("submitted", head, nil)
					ev["sender"] = user("writer")
					ev["review"] = map[string]any{"id": 900 + pushed, "user": user("writer"), "body": "", "state": state, "commit_id": head,
						"html_url": fmt.Sprintf("https://github.com/acme/docs/pull/7#pullrequestreview-%d", 900+pushed)}
					w.event("code", workflows.Event{Name: "pull_request_review", Payload: ev})
				})
			}
			w.at(0, "opened as a draft", func() { w.pullRequest(codePR("opened", head1, draft)) })
			push(true)
			push(true)
			push(true)
			next("ready for review", func() { w.pullRequest(codePR("ready_for_review", head4, nil)) })
			review("changes_requested")
			push(false)
			push(false)
			review("approved")
			push(false)
			review("approved")
			w.play(24 * time.Hour)
			var sends []string
			for _, r := range w.api.Requests() {
				if r.Method != "POST" {
					continue
				}
				kind := "create"
				if strings.HasSuffix(r.Path, "/message") {
					kind = "follow-up"
				}
				var named []string
				for _, l := range strings.Split(r.Prompt(), "\n") {
					if f, ok := strings.CutPrefix(l, "- \""); ok {
						named = append(named, f[:strings.Index(f, "\"")])
					}
				}
				sends = append(sends, kind+": "+strings.Join(named, " "))
			}
			if !slices.Equal(sends, tc.sends) {
				t.Errorf("the Agent Job API got\n%s\nwant\n%s", strings.Join(sends, "\n"), strings.Join(tc.sends, "\n"))
			}
			// No draft head gets a status; every other head ends as the
			// table says.
			for _, h := range []string{head1, head2, head3} {
				if _, n := w.final(h); n != 0 {
					t.Errorf("the draft head %s got %d statuses", h[:4], n)
				}
			}
			for h, want := range tc.final {
				var last string
				for _, s := range w.statuses() {
					if strings.HasPrefix(s, h[:4]+" ") {
						last = strings.TrimPrefix(s, h[:4]+" ")
					}
				}
				if !strings.HasPrefix(last, want) {
					t.Errorf("head %s ends %q, want %q", h[:4], last, want)
				}
			}
			if tc.approved {
				// Before the first approval, every head that is not a
				// draft says what it waits for.
				for _, h := range []string{head4, head5, head6, head7} {
					if first := firstStatus(w, h); !strings.HasPrefix(first, "pending: Waits for the code's approval before writing the docs") {
						t.Errorf("head %s's first status %q, want it waiting for the code's approval", h[:4], first)
					}
				}
				c := w.gh.Comments(7)
				if len(c) != 1 {
					t.Fatalf("%d comments on #7, want its one", len(c))
				}
			}
		})
	}
}

// firstStatus is the first status head got, without its sha.
func firstStatus(w *copiedWorld, head string) string {
	for _, s := range w.statuses() {
		if strings.HasPrefix(s, head[:4]+" ") {
			return strings.TrimPrefix(s, head[:4]+" ")
		}
	}
	return ""
}

// TestHeldPushLeavesTheSettledJob: with docs-when: approved, a push after
// the job's end was reported (the job heard the approved head, its
// preview was built, the comment says it is done) sends nothing, and
// leaves that end as reported: no later settle run reads the job again,
// builds its preview again or writes its end over the comment, which says
// that the latest head waits for the code's approval, as its check does.
func TestHeldPushLeavesTheSettledJob(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name           string
		wait, approval bool
	}{
		{name: "without waiting"},
		{name: "waiting", wait: true},
		{name: "with docs-check: approved", approval: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := initNoWait()
			c.WhenApproved, c.Wait, c.Approval = true, tc.wait, tc.approval
			w := newInitWorld(t, fakeapi.Scenario{Runtime: 4 * time.Minute}, true, -10*time.Second, false, *c)
			w.at(0, "opened", func() { w.pullRequest(codePR("opened", head1, nil)) })
			w.at(10*time.Minute, "approved", func() {
				w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head1})
				ev := codePR("submitted", head1, nil)
				ev["sender"] = user("writer")
				ev["review"] = map[string]any{"id": 901, "user": user("writer"), "body": "", "state": "approved", "commit_id": head1,
					"html_url": "https://github.com/acme/docs/pull/7#pullrequestreview-901"}
				w.event("code", workflows.Event{Name: "pull_request_review", Payload: ev})
			})
			var reads, previews int
			w.at(3*time.Hour, "push 2", func() {
				reads, previews = len(w.api.Requests()), builds(w)
				f := fakegithub.File{Name: "src/push2.go", Status: "added", Additions: 1, Patch: "@@ +1 @@"}
				w.moveHead(head1, head2, []fakegithub.File{f}, append(slices.Clone(codeFiles), f))
				ev := codePR("synchronize", head2, nil)
				ev["before"], ev["after"] = head1, head2
				w.pullRequest(ev)
			})
			w.schedules(8 * time.Hour)
			w.play(8 * time.Hour)
			if previews != 1 {
				t.Fatalf("%d preview builds before the push, want the job's end's 1", previews)
			}
			if n := builds(w) - previews; n != 0 {
				t.Errorf("%d more preview builds after the push: the job's end, reported before it, was reported again", n)
			}
			for _, r := range w.api.Requests()[reads:] {
				if r.Method != "GET" {
					t.Errorf("the Agent Job API got %s %s after the push: nothing is sent before the code's approval", r.Method, r.Path)
				}
			}
			if last := lastStatus(w, head2); !strings.HasPrefix(last, "pending: Waits for the code's approval before writing the docs") {
				t.Errorf("head %s ends %q, want it waiting for the code's approval", head2[:4], last)
			}
			comments := w.gh.Comments(7)
			if len(comments) != 1 {
				t.Fatalf("%d comments on #7, want its one", len(comments))
			}
			if body := comments[0].Body; !strings.Contains(body, "Waits for the code's approval") {
				t.Errorf("the comment ends\n%s\nwant it to say that the latest head waits for the code's approval", body)
			}
		})
	}
}

// lastStatus is the last status head got, without its sha.
func lastStatus(w *copiedWorld, head string) string {
	last := ""
	for _, s := range w.statuses() {
		if strings.HasPrefix(s, head[:4]+" ") {
			last = strings.TrimPrefix(s, head[:4]+" ")
		}
	}
	return last
}

// builds is how many preview builds w's preview API was asked for.
func builds(w *copiedWorld) int {
	n := 0
	for _, r := range w.preview.Requests() {
		if r.Method == "POST" {
			n++
		}
	}
	return n
}
