package action_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

// TestApprovalBeforeReadyOrReopenCounts: with docs-when: approved, an
// approval of the code's latest commit given while the pull request was a
// draft, or before it was closed and reopened, counts when it is ready for
// review or reopened: that run reads the reviews, and sends the change,
// rather than holding the head for an approval that already came and
// whose event is gone.
func TestApprovalBeforeReadyOrReopenCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		before func(w *codeWorld)
		event  map[string]any
	}{
		{"a draft made ready", func(w *codeWorld) {
			w.setEvent("pull_request", codePR("opened", head1, func(pr map[string]any) { pr["draft"] = true }))
			w.mustRun("opened as a draft")
			w.setEvent("pull_request_review", approvalOf(head1, true))
			w.mustRun("the approval of the draft")
		}, codePR("ready_for_review", head1, nil)},
		{"closed, approved, reopened", func(w *codeWorld) {
			w.setEvent("pull_request", codePR("closed", head1, func(pr map[string]any) { pr["state"] = "closed" }))
			w.mustRun("closed")
		}, codePR("reopened", head1, nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
			w.vars["INPUT_DOCS-WHEN"] = "approved"
			w.vars["INPUT_PREVIEW"], w.vars["INPUT_WAIT"] = "false", "false"
			tc.before(w)
			w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head1})
			w.setEvent("pull_request", tc.event)
			w.mustRun(tc.name)
			w.wantRequests(1, 0)
			if got := w.shownOn(head1); !strings.HasPrefix(got, "pending: The docs agent is updating the docs for this change") {
				t.Errorf("head1: %q, want the docs job working on the approved change", got)
			}
		})
	}
}

// approvalOf is a writer's approval of code pull request #7 at head.
func approvalOf(head string, draft bool) map[string]any {
	ev := codePR("submitted", head, func(pr map[string]any) { pr["draft"] = draft })
	ev["review"] = map[string]any{"id": 901, "user": user("writer"), "body": "", "state": "approved", "commit_id": head,
		"html_url": "https://github.com/acme/docs/pull/7#pullrequestreview-901"}
	return ev
}

// mustRun runs the step, failing the test with what as its name when the
// run fails.
func (w *codeWorld) mustRun(what string) {
	w.t.Helper()
	if err := w.run(context.Background()); err != nil {
		w.t.Fatalf("%s: %v\n%s", what, err, w.stdout.String())
	}
}

// approvedAndWritten is code pull request #7 with docs-when: approved, in
// runs that do not wait: opened, approved at head1, which its job heard,
// and the schedule that found the job ended.
func approvedAndWritten(t *testing.T) *codeWorld {
	t.Helper()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_DOCS-WHEN"] = "approved"
	w.vars["INPUT_PREVIEW"], w.vars["INPUT_WAIT"] = "false", "false"
	w.mustRun("opened")
	w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head1})
	w.setEvent("pull_request_review", approvalOf(head1, false))
	w.mustRun("the approval")
	w.wantRequests(1, 0)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	w.mustRun("the schedule")
	return w
}

// TestReopenKeepsTheApprovedCheck: with docs-when: approved, a code pull
// request whose approved head got its docs, and a green check, is closed
// and reopened with no push: the reopen reads the approval again, finds
// nothing new to send, and the head keeps its check instead of going back
// to waiting for an approval it has.
func TestReopenKeepsTheApprovedCheck(t *testing.T) {
	t.Parallel()
	w := approvedAndWritten(t)
	green := w.shownOn(head1)
	if !strings.HasPrefix(green, "success: ") {
		t.Fatalf("head1 after the job's end: %q, want success", green)
	}
	delete(w.vars, "INPUT_SETTLE")
	w.setEvent("pull_request", codePR("closed", head1, func(pr map[string]any) { pr["state"] = "closed" }))
	w.mustRun("closed")
	w.setEvent("pull_request", codePR("reopened", head1, nil))
	w.mustRun("reopened")
	w.wantRequests(1, 0)
	if got := w.shownOn(head1); !strings.HasPrefix(got, "success: ") {
		t.Errorf("head1 after the reopen with no push: %q, want its check kept (%q)", got, green)
	}
}
