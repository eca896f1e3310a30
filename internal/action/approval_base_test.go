package action_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
)

// retargeted is #7's edited event that moved it from develop to main.
func retargeted(head string) map[string]any {
	ev := codePR("edited", head, nil)
	ev["changes"] = map[string]any{"base": map[string]any{"ref": map[string]any{"from": "develop"}, "sha": map[string]any{"from": mergeBase}}}
	return ev
}

// TestBaseChangeAfterApprovalIsSent: with docs-when: approved, the code
// pull request's approved head got its docs; then it is moved to another
// base, which changes its change with no push. The move waits for the
// code's approval, as a push does; the next approval sends the agent the
// whole change, said to be measured against the new base, instead of
// finding no new commit and sending nothing.
func TestBaseChangeAfterApprovalIsSent(t *testing.T) {
	t.Parallel()
	w := approvedAndWritten(t)
	delete(w.vars, "INPUT_SETTLE")

	w.setEvent("pull_request", retargeted(head1))
	w.mustRun("moved to another base")
	w.wantRequests(1, 0)
	if got := w.shownOn(head1); !strings.HasPrefix(got, "pending: Waits for the code's approval") {
		t.Errorf("head1 after the move: %q, want it waiting for the code's approval", got)
	}
	w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head1})
	w.setEvent("pull_request_review", approvalOf(head1, false))
	w.mustRun("the approval after the move")
	w.wantRequests(1, 1)
	var msg string
	for _, r := range w.api.Requests() {
		if strings.HasSuffix(r.Path, "/message") {
			msg = r.Prompt()
		}
	}
	if !strings.Contains(msg, "was moved to another base branch") || !strings.Contains(msg, "src/limits.go") {
		t.Fatalf("the follow-up after the move:\n%s\nwant the whole change against the new base", msg)
	}
	// Sent once: a later approval of the same head has nothing new.
	w.clk.Advance(10 * time.Minute)
	w.mustRun("approved again")
	w.wantRequests(1, 1)
}

// TestBaseChangeWhileTheJobWorksIsSent: in a run that does not wait, a
// move to another base while the job works waits in the record, as a push
// does; the run that finds the job ended (the schedule) sends the whole
// change against the new base, not the empty change between one head and
// itself.
func TestBaseChangeWhileTheJobWorksIsSent(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	w.clk.Advance(time.Minute)
	w.setEvent("pull_request", retargeted(head1))
	w.mustRun("moved to another base while the job works")
	w.wantRequests(1, 0)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	w.mustRun("the schedule finds the job ended")
	w.wantRequests(1, 1)
	if msg := w.api.Requests()[len(w.api.Requests())-1]; !strings.Contains(msg.Prompt(), "was moved to another base branch") {
		t.Errorf("the follow-up after the move:\n%s\nwant the whole change against the new base", msg.Prompt())
	}
}
