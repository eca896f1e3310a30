package action_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
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
// check waiting for the approval, which the next scheduled run reads and
// acts on.
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

	// The next scheduled run reads the reviews GitHub could not show, and
	// acts on the approval as its run would have: the agent gets the
	// pull request's whole change, the record names the job, and the
	// head's check says the docs are being written.
	w.gh.SetFault(nil)
	w.clk.Advance(40 * time.Minute)
	w.settleRun()
	w.mustRun("the schedule")
	reqs := w.api.Requests()
	if len(reqs) != 1 || !strings.HasSuffix(reqs[0].Path, "/job") || !strings.Contains(reqs[0].Prompt(), `#7 in acme/docs "Send rate-limit headers" (https://github.com/acme/docs/pull/7)`) ||
		!strings.Contains(reqs[0].Prompt(), `"src/limits.go"`) || !strings.Contains(reqs[0].Prompt(), `"src/limits_test.go"`) {
		t.Fatalf("the Agent Job API got %+v, want one create with #7's whole change\n%s", reqs, w.stdout.String())
	}
	if got := recordIn(w.gh.Comments(7)[0].Body); got.JobID != "job_0001" || got.Head != head1 || got.Held != "" || !got.Unsettled {
		t.Errorf("#7's record after the schedule: %+v, want job_0001 working on head1, nothing held", got)
	}
	if got := w.shownOn(head1); !strings.HasPrefix(got, "pending: The docs agent is updating the docs") {
		t.Errorf("head1 after the schedule: %q, want the docs being written", got)
	}
	// Acted on once: the next scheduled run sends nothing more.
	w.clk.Advance(10 * time.Minute)
	w.mustRun("the next schedule")
	w.wantRequests(1, 0)
}

// TestScheduleSendsAnApprovedHeldPush: #7's job heard head1 and ended; a
// push of head2 is held for the code's approval, and the approval's run
// cannot read the reviews. The next scheduled run finds head2 approved
// and sends the job what head2 changed, in one follow-up, as the approval's
// run would have: head2, which the record did not owe, turns from waiting
// for the approval to the docs being written.
func TestScheduleSendsAnApprovedHeldPush(t *testing.T) {
	t.Parallel()
	w := approvedAndWritten(t)
	delete(w.vars, "INPUT_SETTLE")
	w.moveHead(head1, head2, codeFiles[:1], codeFiles)
	w.setEvent("pull_request", push(head1, head2))
	w.mustRun("#7 pushed head2, held")
	if got := w.shownOn(head2); !strings.HasPrefix(got, "pending: Waits for the code's approval") {
		t.Fatalf("head2 after the push: %q, want it held\n%s", got, w.stdout.String())
	}
	w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head2})
	w.clk.Advance(5 * time.Minute)
	w.settleRun()
	w.mustRun("the schedule")
	w.wantRequests(1, 1)
	if m := w.lastMessage(); !strings.Contains(m, "New commits were pushed to the code pull request #7") || !strings.Contains(m, `"src/limits.go"`) {
		t.Errorf("the follow-up: %q, want head2's change", m)
	}
	if got := recordIn(w.gh.Comments(7)[0].Body); got.Head != head2 || got.Held != "" || got.Waiting != "" || !got.Unsettled || !slices.Contains(got.Owed, head2) {
		t.Errorf("#7's record after the schedule: %+v, want the job working on head2, which it owes", got)
	}
	if got := w.shownOn(head2); !strings.HasPrefix(got, "pending: The docs agent is updating the docs") {
		t.Errorf("head2 after the schedule: %q, want the docs being written", got)
	}
}
