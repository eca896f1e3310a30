package action_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/setup"
	"github.com/agentjob/agent-job-action/internal/testbed/workflows"
)

// initLanding are init's choices for the landing setup: the approval, the
// merge by squash, the close, the merge queue, the page's paths.
func initLanding() *setup.Choices {
	c := setup.Defaults
	c.Merge, c.Close, c.MergeQueue, c.AgentApp, c.Paths = "squash", true, true, agentApp, []string{"src/**", "!src/**/*_test.go"}
	return &c
}

// TestInitFilesHearEveryEvent plays init's files for the landing setup,
// docs here and in another repository, through every event they hear: a
// person's pull request opened, its title edited, a /docs comment in it,
// pushed; the agent's pull request opened and pushed (each after its
// job), a change request, its dismissal and an approval on it; a merge
// group; the code merged, and the agent's pull request closed with it;
// the schedule; and, with the docs apart, the docs repository's dispatch
// of each. A fork's pull request and another bot's run nothing. Each step
// holds which jobs ran, the check on the head, and what the Agent Job API
// received.
func TestInitFilesHearEveryEvent(t *testing.T) {
	t.Parallel()
	for _, elsewhere := range []bool{false, true} {
		t.Run(map[bool]string{false: "docs here", true: "docs elsewhere"}[elsewhere], func(t *testing.T) {
			t.Parallel()
			initLife(t, elsewhere)
		})
		t.Run(map[bool]string{false: "docs here", true: "docs elsewhere"}[elsewhere]+", closed unmerged", func(t *testing.T) {
			t.Parallel()
			initClosedUnmerged(t, elsewhere)
		})
	}
}

func initLife(t *testing.T, elsewhere bool) {
	w := newInitWorld(t, fakeapi.Scenario{Runtime: 4 * time.Minute}, true, -10*time.Second, elsewhere, *initLanding())
	docsRepo, docsURL, docsEvents := "acme/docs", "https://github.com/acme/docs/pull/101", "code"
	if elsewhere {
		docsRepo, docsURL, docsEvents = "acme/handbook", "https://github.com/acme/handbook/pull/101", "docs"
	}
	w.gh.SeedPull(fakegithub.Pull{Repo: docsRepo, Number: 101, Author: agentApp, HeadRef: "docs/agent-job_0001", HeadSHA: agentHead})
	// The settle job's runs, on the agent's pull request's own events in
	// this repository, or on the docs repository's dispatch of them.
	// With the docs apart, each event of the agent's pull request runs the
	// docs repository's file first, which dispatches the settle job.
	agentRuns := func(event string) []string {
		if event == "pull_request" {
			// Its pull request's own events reach both files as
			// pull_request_target only.
			event = "pull_request_target"
		}
		if elsewhere {
			return []string{"Docs agent, tell the code repository on " + event, "Docs agent/settle on workflow_dispatch"}
		}
		return []string{"Docs agent/settle on " + event}
	}
	at := time.Duration(0)
	// sends are the creates and follow-ups each step may send, by step.
	sends := map[string]int{"a person opens the code pull request": 1, "a writer asks with /docs in it": 1, "a person pushes": 1}
	step := func(what string, fire func(), want []string, status string) {
		t.Helper()
		from, sent := len(w.runs), len(w.api.Requests())
		at += time.Hour
		w.at(at, what, fire)
		w.play(at + 30*time.Minute)
		var ran []string
		for _, r := range w.runs[from:] {
			if r.runs {
				ran = append(ran, r.workflow+" on "+strings.Fields(r.event)[0])
			}
		}
		if !slices.Equal(ran, want) {
			t.Errorf("%s: ran %q, want %q", what, ran, want)
		}
		if got := w.statuses(); status != "" && got[len(got)-1] != status {
			t.Errorf("%s: the last status %q, want %q", what, got[len(got)-1], status)
		}
		posts := 0
		for _, r := range w.api.Requests()[sent:] {
			if r.Method != "GET" {
				posts++
			}
		}
		if posts != sends[what] {
			t.Errorf("%s: the Agent API got %d creates and follow-ups, want %d", what, posts, sends[what])
		}
	}
	waits := "1111 pending: Waits for an approving review of docs pull request #101 " + docsURL
	review := func(action, state string, id int64) {
		ev := agentPREvent("opened", docsURL)
		ev["action"], ev["sender"] = action, user("writer")
		ev["review"] = map[string]any{"id": id, "user": user("writer"), "body": "", "state": state, "commit_id": agentHead, "html_url": docsURL + "#pullrequestreview-1"}
		w.event(docsEvents, workflows.Event{Name: "pull_request_review", Payload: ev})
	}

	step("a person opens the code pull request", func() { w.pullRequest(codePR("opened", head1, nil)) },
		append([]string{"Docs agent/code on pull_request"}, agentRuns("pull_request")...), waits)
	if c := w.api.Creates(); c != 1 {
		t.Errorf("%d creates after the opening, want 1", c)
	}
	step("its title is edited", func() {
		ev := codePR("edited", head1, nil)
		ev["changes"] = map[string]any{"title": map[string]any{"from": "Rate headers"}}
		w.pullRequest(ev)
	}, nil, waits)
	step("a writer asks with /docs in it", func() {
		ev := threadCommentEvent(7, true, 8801, request{who: "writer", body: "/docs Name the header in the page's title."})
		w.event("code", workflows.Event{Name: "issue_comment", Payload: ev})
	}, append([]string{"Docs agent/request on issue_comment"}, agentRuns("pull_request")...), "")
	sent := false
	for _, r := range w.api.Requests() {
		sent = sent || r.Method == "POST" && strings.Contains(r.Prompt(), "Name the header in the page's title.")
	}
	if !sent {
		t.Errorf("the /docs request was not sent to the job")
	}
	step("a person pushes", func() {
		w.moveHead(head1, head2, []fakegithub.File{{Name: "src/more.go", Status: "added", Additions: 1, Patch: "@@ +1 @@"}},
			append(slices.Clone(codeFiles), fakegithub.File{Name: "src/more.go", Status: "added", Additions: 1, Patch: "@@ +1 @@"}))
		w.pullRequest(push(head1, head2))
	}, append([]string{"Docs agent/code on pull_request"}, agentRuns("pull_request")...), "2222 pending: Waits for an approving review of docs pull request #101 "+docsURL)
	requested := w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "CHANGES_REQUESTED", CommitID: agentHead})
	step("a writer requests changes on the docs pull request", func() { review("submitted", "changes_requested", requested) },
		agentRuns("pull_request_review"), "")
	if got := w.statuses(); !strings.Contains(got[len(got)-1], "2222 pending: ") {
		t.Errorf("after the change request: %q", got[len(got)-1])
	}
	step("the change request is dismissed", func() {
		w.gh.DismissReview(101, requested)
		review("dismissed", "dismissed", requested)
	}, agentRuns("pull_request_review"),
		"2222 pending: Waits for an approving review of docs pull request #101 "+docsURL)
	step("a writer approves it", func() {
		id := w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: agentHead})
		review("submitted", "approved", id)
	}, agentRuns("pull_request_review"),
		"2222 success: Docs approved in pull request #101 "+docsURL)
	step("a merge queue asks for the group's check", func() {
		w.gh.SeedComparison("acme/docs", groupBase, groupHead, fakegithub.Comparison{Commits: []fakegithub.Commit{{SHA: groupHead, Parents: []string{groupBase}}}})
		w.event("code", workflows.Event{Name: "merge_group", Payload: mergeGroupEvent(7)})
	}, []string{"Docs agent/code on merge_group"}, "")
	if got := w.statuses(); !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "c0ff success: Docs settled for #7") }) {
		t.Errorf("the merge group's statuses: %q", got)
	}
	closed := []string{"Docs agent/code on pull_request"}
	if elsewhere {
		closed = append(closed, agentRuns("pull_request")...)
	}
	step("the queue merges the code, and the docs with it", func() { w.queueMerges(head2, docsURL) }, closed, "")
	if pr, _ := w.gh.PullRequest(docsRepo, 101); !pr.Merged || pr.MergeMethod != "squash" {
		t.Errorf("the docs pull request after the code's merge: %+v, want merged by squash", pr)
	}
	step("the schedule", func() {
		w.event("code", workflows.Event{Name: "schedule", Payload: map[string]any{"schedule": "17 * * * *"}})
	}, []string{"Docs agent/settle on schedule"}, "")
	if r := w.runs[len(w.runs)-1]; len(r.writes) != 0 {
		t.Errorf("the schedule, with nothing left working, wrote %q", r.writes)
	}
	step("a fork's pull request and another bot's", func() {
		fork := codePR("opened", head3, func(pr map[string]any) {
			pr["number"], pr["user"] = 8, user("mallory")
			pr["head"].(map[string]any)["repo"] = map[string]any{"full_name": "mallory/docs"}
		})
		fork["number"], fork["sender"] = 8, user("mallory")
		w.pullRequest(fork)
		bot := codePR("opened", head4, func(pr map[string]any) { pr["number"], pr["user"] = 9, user("dependabot[bot]") })
		bot["number"], bot["sender"] = 9, user("dependabot[bot]")
		w.pullRequest(bot)
	}, []string{"Docs agent/outside on pull_request_target", "Docs agent/outside on pull_request_target"}, "")
	// Neither gets a docs job; the fork's waits for a maintainer, the
	// bot's is released, saying why.
	if got := lastStatus(w, head3); !strings.HasPrefix(got, "pending: From a fork, where no docs job runs: a maintainer adds the label docs-not-needed") {
		t.Errorf("the fork's head: %q, want it waiting for a maintainer", got)
	}
	if got := lastStatus(w, head4); !strings.HasPrefix(got, "success: Opened by dependabot[bot], whose pull requests need no docs job") {
		t.Errorf("the bot's head: %q, want it released", got)
	}
	if c, m := w.api.Creates(), w.api.Messages(); c != 1 || m != 2 {
		t.Errorf("the Agent Job API got %d creates and %d follow-ups, want 1 and 2 (the /docs request, the push)", c, m)
	}
}

// initClosedUnmerged: on init's files, a code pull request closed without
// being merged closes its docs pull request (docs-close), sends the agent
// nothing more, and with the docs apart the docs pull request's close is
// passed on and settles nothing more.
func initClosedUnmerged(t *testing.T, elsewhere bool) {
	w := newInitWorld(t, fakeapi.Scenario{Runtime: 4 * time.Minute}, true, -10*time.Second, elsewhere, *initLanding())
	docsRepo, docsURL := "acme/docs", "https://github.com/acme/docs/pull/101"
	if elsewhere {
		docsRepo, docsURL = "acme/handbook", "https://github.com/acme/handbook/pull/101"
	}
	w.gh.SeedPull(fakegithub.Pull{Repo: docsRepo, Number: 101, Author: agentApp, HeadRef: "docs/agent-job_0001", HeadSHA: agentHead})
	w.at(0, "opened", func() { w.pullRequest(codePR("opened", head1, nil)) })
	w.play(time.Hour)
	from := len(w.runs)
	w.at(2*time.Hour, "closed", func() {
		ev := codePR("closed", head1, func(pr map[string]any) { pr["state"] = "closed" })
		w.pullRequest(ev)
		if elsewhere {
			closed := agentPREvent("closed", docsURL)
			w.event("docs", workflows.Event{Name: "pull_request", Payload: closed})
		}
	})
	w.play(3 * time.Hour)
	var ran []string
	for _, r := range w.runs[from:] {
		if r.runs {
			ran = append(ran, r.workflow+" on "+r.event)
		}
	}
	want := []string{"Docs agent/code on pull_request closed"}
	if elsewhere {
		want = append(want, "Docs agent, tell the code repository on pull_request_target closed", "Docs agent/settle on workflow_dispatch")
	}
	if !slices.Equal(ran, want) {
		t.Errorf("the close ran %q, want %q", ran, want)
	}
	if pr, _ := w.gh.PullRequest(docsRepo, 101); pr.State != "closed" || pr.Merged {
		t.Errorf("the docs pull request after the code's close: %+v, want closed unmerged", pr)
	}
	// Reopened, the code would need its docs again: the check says so.
	if got := w.statuses(); got[len(got)-1] != "1111 error: Docs pull request #101 was closed unmerged: reopen it, or push to start a new docs job "+docsURL {
		t.Errorf("the last status after the close %q, want the docs pull request closed", got[len(got)-1])
	}
	if c, m := w.api.Creates(), w.api.Messages(); c != 1 || m != 0 {
		t.Errorf("the Agent Job API got %d creates and %d follow-ups, want the one create", c, m)
	}
}
