package action_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/report"
)

// TestApprovalWhoseReviewsCannotBeReadFailsTheRun: with docs-when:
// approved, the run of a writer's approval of code pull request #7 reads
// #7's reviews before it sends anything. When GitHub cannot answer (after
// the retries that are safe), the run does not call that "not approved"
// and end skipped with exit 0, which loses the approval: it fails with
// GitHub's error (exit 4), sends the agent nothing, and leaves the head's
// check waiting for the approval.
func TestApprovalWhoseReviewsCannotBeReadFailsTheRun(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_DOCS-WHEN"] = "approved"
	w.vars["INPUT_PREVIEW"], w.vars["INPUT_WAIT"] = "false", "false"
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	if got := w.shownOn(head1); got != "pending: Waits for the code's approval before writing the docs https://github.com/acme/docs/actions/runs/4242" {
		t.Fatalf("head1 after opening: %q", got)
	}
	w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head1})
	w.gh.SetFault(func(rw http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/pulls/7/reviews") {
			http.Error(rw, `{"message":"Server Error"}`, http.StatusBadGateway)
			return true
		}
		return false
	})
	ev := codePR("submitted", head1, nil)
	ev["review"] = map[string]any{"id": 901, "user": user("writer"), "body": "", "state": "approved", "commit_id": head1,
		"html_url": "https://github.com/acme/docs/pull/7#pullrequestreview-901"}
	w.setEvent("pull_request_review", ev)
	err := w.run(context.Background())
	var runErr *report.Error
	if !errors.As(err, &runErr) || runErr.End != report.Errored {
		t.Fatalf("the approval's run ended %v, want report.Errored (exit 4)\n%s", err, w.stdout.String())
	}
	w.wantLog("could not read the reviews")
	if out := w.outputs()["status"]; out == report.StatusSkipped {
		t.Errorf("status output %q: an approval GitHub could not show is no skip", out)
	}
	w.wantRequests(0, 0)
	if got := w.shownOn(head1); !strings.HasPrefix(got, "pending: Waits for the code's approval") {
		t.Errorf("head1 after the failed run: %q, want it waiting still", got)
	}
}
