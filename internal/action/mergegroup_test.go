package action_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	mergequeue "github.com/agentjob/agent-job-action/internal/queue"
	"github.com/agentjob/agent-job-action/internal/report"
)

const (
	groupBase = "ba5e0000ba5e0000ba5e0000ba5e0000ba5e0000"
	groupHead = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00"
)

// groupSHA is a commit of the merge group's world.
func groupSHA(n int) string { return fmt.Sprintf("%040x", n) }

// mergeGroupEvent is a merge queue's request for checks on the group
// whose last pull request is number, as ann queued it.
func mergeGroupEvent(number int) map[string]any {
	return map[string]any{
		"action": "checks_requested",
		"merge_group": map[string]any{
			"head_sha": groupHead, "base_sha": groupBase, "base_ref": "refs/heads/main",
			"head_ref": fmt.Sprintf("refs/heads/gh-readonly-queue/main/pr-%d-%s", number, groupHead),
			"head_commit": map[string]any{"id": groupHead, "tree_id": groupSHA(99), "message": "Merge pull request",
				"timestamp": "2025-03-04T10:00:00Z", "author": map[string]any{"name": "Ann", "email": "ann@example.com"},
				"committer": map[string]any{"name": "GitHub", "email": "noreply@github.com"}},
		},
		"repository": map[string]any{"name": "docs", "full_name": "acme/docs", "owner": map[string]any{"login": "acme"}},
		"sender":     user("ann"),
	}
}

// queued builds a merge group of two pull requests, #12 and #13, as the
// queue builds it with method: by merge commits (each pull request's
// commit, then the queue's merge commit), or squashed (one commit each),
// #13's group on #12's, whose queue branch stays at its own head. The
// docs check of each pull request's head is in the state given ("" for
// none). It runs the code workflow's step on the group.
func queued(t *testing.T, method string, states map[int]string) (Got, *fakegithub.Server) {
	t.Helper()
	h := newHarness(t, fakeapi.Scenario{})
	gh := h.withGitHub(fakegithub.Options{}, "merge_group", mergeGroupEvent(13))
	// The code workflow's inputs, as docs/scenarios.md copies them.
	h.vars["INPUT_PROMPT"] = "Update the docs for this change."
	h.vars["INPUT_PATHS"] = "src/**"
	h.vars["INPUT_WAIT"] = "false"
	commits := []fakegithub.Commit{
		{SHA: groupSHA(1), Parents: []string{groupBase}},
		{SHA: groupSHA(2), Parents: []string{groupBase, groupSHA(1)}},
		{SHA: groupSHA(3), Parents: []string{groupSHA(2)}},
		{SHA: groupHead, Parents: []string{groupSHA(2), groupSHA(3)}},
	}
	if method == "squash" {
		commits = []fakegithub.Commit{{SHA: groupSHA(2), Parents: []string{groupBase}}, {SHA: groupHead, Parents: []string{groupSHA(2)}}}
	}
	gh.SeedComparison("acme/docs", groupBase, groupHead, fakegithub.Comparison{Commits: commits})
	gh.SeedBranch("acme/docs", "gh-readonly-queue/main/pr-12-"+groupBase, groupSHA(2))
	gh.SeedBranch("acme/docs", "gh-readonly-queue/main/pr-13-"+groupHead, groupHead)
	gh.SeedBranch("acme/docs", "feature-12", groupSHA(1))
	for n, head := range map[int]string{12: groupSHA(1), 13: groupSHA(3)} {
		gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: n, Author: "ann", HeadRef: fmt.Sprintf("feature-%d", n), HeadSHA: head})
		if st := states[n]; st != "" {
			gh.SeedStatus(fakegithub.Status{Repo: "acme/docs", SHA: head, State: st, Context: check.Context, Description: "as the action set it"})
		}
	}
	g := h.got(context.Background())
	if u := gh.Unexpected(); len(u) != 0 {
		t.Errorf("unexpected GitHub requests: %q", u)
	}
	if len(g.API) != 0 {
		t.Errorf("the Agent API received %q: a merge group's check sends the agent nothing", g.apiCalls())
	}
	return g, gh
}

// TestMergeGroupCheck: the check on a merge group's head commit is green
// when every pull request in the group has its docs settled, and fails
// naming the one that holds the group back otherwise, whether the queue
// merges by merge commits or squashes; the run reads GitHub, sets the one
// status, and sends the agent nothing.
func TestMergeGroupCheck(t *testing.T) {
	t.Parallel()
	for _, method := range []string{"merge", "squash"} {
		t.Run(method, func(t *testing.T) {
			t.Parallel()
			mergeGroupCheck(t, method)
		})
	}
}

func mergeGroupCheck(t *testing.T, method string) {
	cases := []struct {
		name   string
		states map[int]string
		state  string
		desc   string
		reads  int // status reads: the run stops at the first not settled
	}{
		{name: "both settled", states: map[int]string{12: "success", 13: "success"}, state: "success",
			desc: "Docs settled for all 2 pull requests in the merge group", reads: 2},
		{name: "the second not settled", states: map[int]string{12: "success", 13: "pending"}, state: "failure",
			desc: "#13 holds the merge group back: its docs check is pending", reads: 2},
		{name: "the first never checked", states: map[int]string{13: "success"}, state: "failure",
			desc: "#12 holds the merge group back: its docs check is not set", reads: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g, gh := queued(t, method, tc.states)
			if g.Err != nil {
				t.Fatalf("run: %v\n%s", g.Err, g.Log)
			}
			want := []fakegithub.Status{{Repo: "acme/docs", SHA: groupHead, State: tc.state, Context: check.Context,
				Description: tc.desc, TargetURL: "https://github.com/acme/docs/actions/runs/4242"}}
			if got := gh.Statuses(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("statuses set = %+v\nwant %+v", got, want)
			}
			var calls []string
			for _, r := range g.GitHub {
				calls = append(calls, r.Method+" "+r.Path)
			}
			wantCalls := []string{"GET /repos/acme/docs/compare/" + groupBase + "..." + groupHead}
			shas := []int{1, 2, 3}
			if method == "squash" {
				shas = []int{2}
			}
			for _, n := range shas {
				wantCalls = append(wantCalls, "GET /repos/acme/docs/commits/"+groupSHA(n)+"/branches-where-head")
			}
			for i, head := range []string{groupSHA(1), groupSHA(3)}[:tc.reads] {
				wantCalls = append(wantCalls, fmt.Sprintf("GET /repos/acme/docs/pulls/%d", 12+i), "GET /repos/acme/docs/commits/"+head+"/status")
			}
			// What the group's head shows is read before its status is
			// written: a check it already shows is not written again.
			wantCalls = append(wantCalls, "GET /repos/acme/docs/commits/"+groupHead+"/status", "POST /repos/acme/docs/statuses/"+groupHead)
			if strings.Join(calls, "\n") != strings.Join(wantCalls, "\n") {
				t.Errorf("GitHub received:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(wantCalls, "\n"))
			}
			if len(calls) > 2+3*mergequeue.MaxCommits {
				t.Errorf("%d GitHub requests, over the bound", len(calls))
			}
			if g.Outputs["status"] != report.StatusSettled || !strings.Contains(g.Log, tc.desc) {
				t.Errorf("status output %q, log:\n%s\nwant settled and %q", g.Outputs["status"], g.Log, tc.desc)
			}
			if gh.CommentsCreated() != 0 || len(gh.Reactions()) != 0 {
				t.Errorf("the run commented or reacted: a merge group's check writes only its status")
			}
		})
	}
}

// TestMergeGroupUnread: a group the run cannot read does not pass: its
// check is set to error, naming no pull request, and the run fails.
func TestMergeGroupUnread(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{})
	gh := h.withGitHub(fakegithub.Options{}, "merge_group", mergeGroupEvent(13))
	// No comparison seeded: GitHub answers 404.
	g := h.got(context.Background())
	if g.Err == nil || g.End != report.Errored {
		t.Fatalf("run: %v (end %d), want an error\n%s", g.Err, g.End, g.Log)
	}
	st := gh.Statuses()
	if len(st) != 1 || st[0].SHA != groupHead || st[0].State != "error" || st[0].Context != check.Context {
		t.Errorf("statuses = %+v, want one error on the group's head", st)
	}
	if len(g.API) != 0 {
		t.Errorf("the Agent API received %q", g.apiCalls())
	}
}
