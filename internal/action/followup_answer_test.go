package action_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
)

// TestFollowUpAnswerIsNoEnd: the Agent API may answer a follow-up with
// the status the job had before the message, completed. That is no end of
// the change the follow-up carried, which the agent has not read: the
// push's run leaves its head pending, the job working, and no success is
// claimed for a change nobody wrote the docs of.
func TestFollowUpAnswerIsNoEnd(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	w.clk.Advance(10 * time.Minute)
	// Requests: 1 the create, 2 the settling read, 3 the follow-up.
	w.api.FailOn(3, faults.JSON(http.StatusOK, map[string]any{"id": "job_0001", "status": "completed",
		"source": map[string]any{"repository": "https://github.com/acme/docs", "ref": "docs/agent-job_0001"}, "model": "sonnet",
		"prLink": "https://github.com/acme/docs/pull/101", "createdAt": "2026-11-22T09:00:00Z", "archivedAt": nil}))
	retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
	w.moveHead(head1, head2, []fakegithub.File{retry}, append(codeFiles[:1:1], retry))
	w.setEvent("pull_request", push(head1, head2))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	if got := w.shownOn(head2); !strings.HasPrefix(got, "pending: The docs agent is updating the docs for this change") {
		t.Errorf("head2 after the follow-up: %q, want it pending while the agent works on it", got)
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); !r.Unsettled || r.Head != head2 {
		t.Errorf("the record after the follow-up: %+v, want the job working on head2", r)
	}
}
