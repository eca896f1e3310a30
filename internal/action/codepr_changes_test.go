package action_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

// vendored returns n files under vendor/, none of them under src/.
func vendored(n int) []fakegithub.File {
	out := make([]fakegithub.File, n)
	for i := range out {
		out[i] = fakegithub.File{Name: fmt.Sprintf("vendor/lib/f%04d.go", i), Additions: 1}
	}
	return out
}

// lastMessage is the prompt of the last follow-up the Agent API got.
func (w *codeWorld) lastMessage() string {
	msg := ""
	for _, r := range w.api.Requests() {
		if r.Method == "POST" && strings.HasSuffix(r.Path, "/message") {
			msg = r.Prompt()
		}
	}
	return msg
}

// TestCodePRAtGitHubsCap: GitHub lists at most 3,000 files of a pull
// request. A listing that reaches the cap may leave files out, so the run
// claims no success from it: with nothing under paths among the files
// listed, it sends nothing and sets error, never "No change under paths";
// with some, the job hears of them, told that the list was cut, and the
// head's status is error from the start (no pending a later run would
// settle as success).
func TestCodePRAtGitHubsCap(t *testing.T) {
	t.Parallel()
	const cut = "1111 error: GitHub listed only 3000 files: the rest went unseen, so no success is claimed; see the run https://github.com/acme/docs/actions/runs/4242"
	for _, tt := range []struct {
		name    string
		files   []fakegithub.File
		creates int
		log     string
	}{
		{"nothing under paths among them", vendored(3000), 0, "the pull request changes at least 3000 files, as many as GitHub lists, none of them under paths: nothing to send to the docs job, and the files past them were not seen"},
		{"some under paths", append(codeFiles[:1:1], vendored(2999)...), 1, "the pull request changes at least 3000 files, as many as GitHub lists: files past them are not seen"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
			w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: head1, Files: tt.files})
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("run: %v\n%s", err, w.stdout.String())
			}
			w.wantRequests(tt.creates, 0)
			w.wantLog(tt.log)
			if got := w.statuses(); !slices.Equal(got, []string{cut}) {
				t.Errorf("statuses:\n%s\nwant only:\n%s", strings.Join(got, "\n"), cut)
			}
			pages := 0
			for _, c := range w.ghCalls(0) {
				if strings.HasPrefix(c, "GET /repos/acme/docs/pulls/7/files") {
					pages++
				}
			}
			if pages != 30 {
				t.Errorf("GitHub got %d requests for the files, want the 30 pages it lists", pages)
			}
			if tt.creates == 1 {
				p := w.api.Requests()[0].Prompt()
				if !strings.Contains(p, "The files it changes (1; GitHub listed only the first files the pull request changes, so more may be relevant: read the rest in the repository):\n- \"src/limits.go\"") {
					t.Errorf("prompt:\n%.800s", p)
				}
			}
		})
	}
}

// TestCodePRCutStaysCut: a later push that GitHub compares whole does not
// make the job's end a success for a pull request whose listing was cut:
// the record keeps the cut, and the new head's status claims no success
// either, until the whole change is listed again.
func TestCodePRCutStaysCut(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	files := append(codeFiles[:1:1], vendored(2999)...)
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: head1, Files: files})
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	if c := w.gh.Comments(7); len(c) != 1 || !recordIn(c[0].Body).Cut {
		t.Fatalf("comment: %+v, want the cut recorded", c)
	}
	retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
	w.moveHead(head1, head2, []fakegithub.File{retry}, append(slices.Clone(files), retry))
	w.setEvent("pull_request", push(head1, head2))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	for _, s := range w.statuses() {
		if strings.Contains(s, " success: ") {
			t.Errorf("a status claims success for a cut pull request: %s", s)
		}
	}
}

// TestCodePRPushPastTheComparisonsCap: a push that changes 300 files or
// more, as many as GitHub lists in a comparison, cannot be told from what
// it leaves out: the job hears the pull request's whole change again,
// told why, read from the pull request's own listing.
func TestCodePRPushPastTheComparisonsCap(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	w.moveHead(head1, head2, vendored(300), append(slices.Clone(codeFiles), vendored(300)...))
	w.setEvent("pull_request", push(head1, head2))
	from := len(w.gh.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	w.wantLog("the push changes at least 300 files, as many as GitHub lists in a comparison: sending the pull request's whole change again")
	if m := w.lastMessage(); !strings.Contains(m, "changing more files than GitHub lists in a comparison of two commits") ||
		!strings.Contains(m, "The files the pull request now changes (2):\n- \"src/limits.go\"") {
		t.Errorf("follow-up:\n%.800s", m)
	}
	calls := w.ghCalls(from)
	for _, want := range []string{"GET /repos/acme/docs/compare/" + head1 + "..." + head2 + "?per_page=1", "GET /repos/acme/docs/pulls/7/files?page=1&per_page=100"} {
		if !slices.Contains(calls, want) {
			t.Errorf("GitHub did not get %q; it got:\n%s", want, strings.Join(calls, "\n"))
		}
	}
	if got := w.statuses(); len(got) != 4 || !strings.HasPrefix(got[3], "2222 success: ") {
		t.Errorf("statuses:\n%s", strings.Join(got, "\n"))
	}
}

// TestCodePRPushTooLargeToCompare: a push whose comparison GitHub answers
// with more than a run reads (4 MiB; 100 files of 48 KiB diffs) is not a
// failed run: the job hears the pull request's whole change, read page by
// page (a page too large itself in parts of ten), and the head's status
// follows the job.
func TestCodePRPushTooLargeToCompare(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	huge := vendored(100)
	for i := range huge {
		huge[i].Patch = "@@ +1 @@\n+" + strings.Repeat("x", 48<<10)
	}
	w.moveHead(head1, head2, huge, append(slices.Clone(codeFiles), huge...))
	w.setEvent("pull_request", push(head1, head2))
	from := len(w.gh.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	w.wantLog("GitHub's comparison of the push is too large to read: sending the pull request's whole change again, read page by page")
	if m := w.lastMessage(); !strings.Contains(m, "whose comparison with what you last heard is too large to read") ||
		!strings.Contains(m, "The files the pull request now changes (2):\n- \"src/limits.go\"") {
		t.Errorf("follow-up:\n%.800s", m)
	}
	calls := w.ghCalls(from)
	for _, want := range []string{"GET /repos/acme/docs/compare/" + head1 + "..." + head2 + "?per_page=1",
		"GET /repos/acme/docs/pulls/7/files?page=1&per_page=100", "GET /repos/acme/docs/pulls/7/files?page=1&per_page=10"} {
		if !slices.Contains(calls, want) {
			t.Errorf("GitHub did not get %q; it got:\n%s", want, strings.Join(calls, "\n"))
		}
	}
	if got := w.statuses(); len(got) != 4 || !strings.HasPrefix(got[3], "2222 success: ") {
		t.Errorf("statuses:\n%s", strings.Join(got, "\n"))
	}
}

// TestCodePRPushMergesTheBase: a push that merges the base branch into the
// pull request changes, from the old head to the new, what the base
// brought too. GitHub's base...head is the pull request's own change
// since the merge base; when that moved, the job hears only the files the
// pull request itself changes, each with its own change, and a push that
// brought nothing of its own under paths sends nothing.
func TestCodePRPushMergesTheBase(t *testing.T) {
	t.Parallel()
	const (
		merged  = "6666666666666666666666666666666666666666"
		merged2 = "7777777777777777777777777777777777777777"
		ownSHA  = "8888888888888888888888888888888888888888"
	)
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	// The base branch went from mergeBase to baseSHA, the commit the
	// events name, through merged and merged2: merged changed src/auth.go
	// and src/limits.go, merged2 src/auth.go again.
	w.gh.SeedCommits("acme/docs",
		fakegithub.Commit{SHA: merged, Parents: []string{mergeBase}, Files: []fakegithub.File{
			{Name: "src/auth.go", Additions: 40, Patch: "@@ the base's auth @@"},
			{Name: "src/limits.go", Additions: 2, Patch: "@@ the base's limits @@"},
		}},
		fakegithub.Commit{SHA: merged2, Parents: []string{merged}, Files: []fakegithub.File{{Name: "src/auth.go", Patch: "@@ more of the base @@"}}},
		fakegithub.Commit{SHA: baseSHA, Parents: []string{merged2}})
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	// The push changes src/limits.go, then merges the base at merged.
	own := fakegithub.File{Name: "src/limits.go", Additions: 3, Patch: "@@ own change @@"}
	w.gh.SeedCommits("acme/docs",
		fakegithub.Commit{SHA: ownSHA, Parents: []string{head1}, Files: []fakegithub.File{own}},
		fakegithub.Commit{SHA: head2, Parents: []string{ownSHA, merged}})
	w.setHead(head2, []fakegithub.File{own, codeFiles[1], codeFiles[2]})
	w.setEvent("pull_request", push(head1, head2))
	from := len(w.gh.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	w.wantLog("the push merged the base branch: what it brought is left out (1 under paths)")
	m := w.lastMessage()
	// src/limits.go with the pull request's own change as it is now:
	// head1's (+2 -1) and the push's (+3).
	if !strings.Contains(m, "The push merged the base branch into it") || !strings.Contains(m, "The files the push changes (1):\n- \"src/limits.go\" (modified, +5 -1)") ||
		!strings.Contains(m, "@@ own change @@") || strings.Contains(m, "auth") || strings.Contains(m, "the base's") {
		t.Errorf("follow-up:\n%s", m)
	}
	calls := w.ghCalls(from)
	for _, want := range []string{
		"GET /repos/acme/docs/compare/" + head1 + "..." + head2 + "?per_page=1",
		"GET /repos/acme/docs/compare/" + baseSHA + "..." + head2 + "?per_page=1",
		"GET /repos/acme/docs/compare/" + baseSHA + "..." + head1 + "?per_page=1",
	} {
		if !slices.Contains(calls, want) {
			t.Errorf("GitHub did not get %q; it got:\n%s", want, strings.Join(calls, "\n"))
		}
	}

	// A second merge of the base, at merged2, bringing only the base's
	// change under paths.
	w.gh.SeedCommits("acme/docs", fakegithub.Commit{SHA: head3, Parents: []string{head2, merged2}})
	w.setHead(head3, []fakegithub.File{own, codeFiles[1], codeFiles[2]})
	w.setEvent("pull_request", push(head2, head3))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("second merge: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	w.wantLog("the new commits change 1 file: the 1 under paths came from merging the base branch: nothing to send to the docs job")
	if got := w.statuses(); len(got) != 5 || !strings.HasPrefix(got[4], "3333 success: ") {
		t.Errorf("statuses:\n%s", strings.Join(got, "\n"))
	}
}

// TestCodePRRetargeted: moving the pull request to another base branch
// (edited, with changes.base) changes what it changes: the job hears its
// whole change again, told why, and the head's status follows the job. An
// edit of the title alone sends nothing.
func TestCodePRRetargeted(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	titled := codePR("edited", head1, nil)
	titled["changes"] = map[string]any{"title": map[string]any{"from": "Rate limits"}}
	w.setEvent("pull_request", titled)
	from := len(w.gh.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("title edited: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 0)
	w.wantLog("pull request #7 was edited but not moved to another base: its change is the same")
	if calls := w.ghCalls(from); len(calls) != 0 {
		t.Errorf("a title edit sent GitHub:\n%s", strings.Join(calls, "\n"))
	}

	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: head1, Files: codeFiles[:1]})
	retarget := codePR("edited", head1, nil)
	retarget["changes"] = map[string]any{"base": map[string]any{"ref": map[string]any{"from": "develop"}, "sha": map[string]any{"from": mergeBase}}}
	w.setEvent("pull_request", retarget)
	from = len(w.gh.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("retargeted: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	w.wantLog("the pull request was moved to another base branch: sending its whole change again")
	if m := w.lastMessage(); !strings.Contains(m, "was moved to another base branch") || !strings.Contains(m, "The files the pull request now changes (1):\n- \"src/limits.go\"") {
		t.Errorf("follow-up:\n%s", m)
	}
	calls := w.ghCalls(from)
	if !slices.Contains(calls, "GET /repos/acme/docs/pulls/7/files?page=1&per_page=100") || slices.ContainsFunc(calls, func(c string) bool { return strings.Contains(c, "/compare/") }) {
		t.Errorf("GitHub got:\n%s\nwant the pull request's files and no comparison", strings.Join(calls, "\n"))
	}
	if got := w.statuses(); len(got) != 4 || got[2] != "1111 pending: The docs agent is updating the docs for this change https://github.com/acme/docs/actions/runs/4242" || !strings.HasPrefix(got[3], "1111 success: ") {
		t.Errorf("statuses:\n%s", strings.Join(got, "\n"))
	}
}
