package action_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
)

// TestWeeklyRunsKeepOneDocsPullRequest: a weekly run with a tracking issue
// (issue-number) continues the job the last week's run left while that
// job's docs pull request is open, so the weeks do not pile up pull
// requests; once the docs pull request is merged, the next week starts a
// new job.
func TestWeeklyRunsKeepOneDocsPullRequest(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: 3 * time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "schedule", map[string]any{"schedule": "0 9 * * 1"})
	h.vars["INPUT_PROMPT"] = "Review the docs against this week's changes."
	h.vars["INPUT_ISSUE-NUMBER"] = "12"
	week := func(n int) {
		t.Helper()
		if err := h.run(context.Background()); err != nil {
			t.Fatalf("week %d: %v\n%s", n, err, h.stdout.String())
		}
		h.clk.Advance(7 * 24 * time.Hour)
	}

	week(1)
	h.wantRequests(1, 0)
	from, apiFrom := len(gh.Requests()), len(h.api.Requests())
	week(2)
	h.wantRequests(1, 1)
	if got := h.apiCalls(apiFrom); len(got) == 0 || got[0] != "POST /v2/agent/proj-1/job/job_0001/message" {
		t.Errorf("week 2 sent the Agent API %q, want a follow-up to job_0001 first", got)
	}
	if calls := ghCalls(gh, from); !slices.Contains(calls, "GET /repos/acme/docs/pulls/101") {
		t.Errorf("week 2 did not read the docs pull request: %q", calls)
	}
	h.wantLog("sent follow-up to job job_0001")

	gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", State: "closed", Merged: true})
	apiFrom = len(h.api.Requests())
	week(3)
	h.wantRequests(2, 1)
	if got := h.apiCalls(apiFrom); len(got) == 0 || got[0] != "POST /v2/agent/proj-1/job" {
		t.Errorf("week 3 sent the Agent API %q, want a new job first", got)
	}
	h.wantLog("the docs pull request of job job_0001, #101, is merged: starting a new job")
}

// ghCalls are the requests gh received since from, as "METHOD path?query".
func ghCalls(gh *fakegithub.Server, from int) []string {
	var out []string
	for _, r := range gh.Requests()[from:] {
		q := ""
		if r.Query != "" {
			q = "?" + r.Query
		}
		out = append(out, r.Method+" "+r.Path+q)
	}
	return out
}

func (h *harness) wantLog(want string) {
	h.t.Helper()
	if !strings.Contains(h.stdout.String(), want) {
		h.t.Errorf("log lacks %q:\n%s", want, h.stdout.String())
	}
}
