package action_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
	"github.com/agentjob/agent-job-action/internal/record"
)

// failsNext makes job_0001's next follow-up active and every later read
// failed, still naming docs pull request #101.
func failsNext(w *codeWorld) {
	w.t.Helper()
	jobAnswers(w, "https://github.com/acme/docs/pull/101", "failed")
}

// TestFailedFollowUpAfterApprovalIsNotPendingForEver: the docs pull
// request #101 is approved (docs: approved); a push follows the job up and
// the follow-up fails. The send made the record stop following the
// approval, so the failure stands, and no settle run turns it pending for
// ever.
func TestFailedFollowUpAfterApprovalIsNotPendingForEver(t *testing.T) {
	t.Parallel()
	for _, wait := range []string{"true", "false"} {
		t.Run("wait "+wait, func(t *testing.T) {
			t.Parallel()
			w := approvalWorld(t, false)
			w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
			w.settleOnReview("writer", "APPROVED", false)
			if s := w.finalStatuses()["2222"]; !strings.HasPrefix(s, "2222 success: Docs approved") {
				t.Fatalf("head2 after the approval: %q", s)
			}
			delete(w.vars, "INPUT_SETTLE")
			w.vars["INPUT_WAIT"] = wait
			failsNext(w)
			retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
			w.moveHead(head2, head3, []fakegithub.File{retry}, append(slices.Clone(codeFiles), retry))
			w.setEvent("pull_request", push(head2, head3))
			_ = w.run(context.Background()) // a failed job fails the waiting run
			t.Logf("head3 after the push: %q; record %+v", w.finalStatuses()["3333"], recordIn(w.gh.Comments(7)[0].Body))
			for i := 0; i < 2; i++ {
				w.settleRun()
				if err := w.run(context.Background()); err != nil {
					t.Fatalf("settle: %v\n%s", err, w.stdout.String())
				}
			}
			r := recordIn(w.gh.Comments(7)[0].Body)
			if s := w.finalStatuses()["3333"]; !strings.Contains(s, " failure: ") {
				t.Errorf("head3, whose job failed, ends %q; record %+v", s, r)
			}
			if r.Docs == record.DocsApproved && r.Unsettled {
				t.Errorf("the failed job's record still follows an approval of docs the job never finished: %+v", r)
			}
		})
	}
}

// TestClosedCodeUnreadLeavesTheRecord: as TestCodeClosedWhileTheJobWorks,
// but GitHub answers the settle run's read of the closed code pull
// request with a 502. The run leaves the record for the next settle run,
// which closes the docs pull request docs-close asked to close, and
// nobody is asked to review it.
func TestClosedCodeUnreadLeavesTheRecord(t *testing.T) {
	t.Parallel()
	w := closedWhileWorking(t)
	failed, fails, done := false, 0, false
	w.gh.SetFault(func(rw http.ResponseWriter, r *http.Request) bool {
		if fails < 30 && !done && r.Method == http.MethodGet && r.URL.Path == "/repos/acme/docs/pulls/7" {
			failed = true
			fails++
			rw.WriteHeader(http.StatusBadGateway)
			return true
		}
		return false
	})
	from := len(w.gh.Requests())
	for i := 0; i < 2; i++ {
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("settle: %v\n%s", err, w.stdout.String())
		}
		done = true
	}
	closed, reviewers := docsClosedOrAsked(w, from)
	if !failed {
		t.Fatalf("the fault never hit")
	}
	if !closed || reviewers {
		t.Errorf("after a failed read of the closed code: docs closed %v, reviewers asked %v; want closed and nobody asked; record %+v\n%s", closed, reviewers, recordIn(w.gh.Comments(7)[0].Body), w.stdout.String())
	}
}

// TestUnjudgeableLinkSettledIsNotSuccess: TestUnjudgeableFirstLinkIsNotSuccess
// in the no-wait setup: the settle run that reports the job's end claims no
// success for a job whose pull request link the action cannot judge.
func TestUnjudgeableLinkSettledIsNotSuccess(t *testing.T) {
	t.Parallel()
	for _, link := range []string{"https://github.com/acme/docs/pull/101/files", "https://gitlab.com/acme/docs/pull/101"} {
		t.Run(link, func(t *testing.T) {
			t.Parallel()
			w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, func(vars map[string]string) { vars["INPUT_DOCS-CHECK"] = "approved" })
			w.gh.SeedPull(docsPull("open"))
			jobNames(w, link)
			w.clk.Advance(10 * time.Minute)
			w.settleRun()
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("settle: %v\n%s", err, w.stdout.String())
			}
			if s := w.finalStatuses()["1111"]; strings.Contains(s, " success: ") {
				t.Errorf("head1 ends %q with docs-check: approved and no approval judged", s)
			}
		})
	}
}

// TestReopenedDocsFoundByAnySettleRun: the docs pull request is closed,
// then reopened, and the settle run of the reopening is lost (a review's
// run replaces it in the settle workflow's concurrency group, or it fails
// once). The record keeps watching the closed docs pull request, so the
// approval's settle run or the schedule's finds it: the approved, reopened
// docs turn the check green.
func TestReopenedDocsFoundByAnySettleRun(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	ev := reviewed("writer", "APPROVED")
	delete(ev, "review")
	ev["action"] = "closed"
	ev["pull_request"].(map[string]any)["state"] = "closed"
	w.gh.SeedPull(docsPull("closed"))
	w.setEvent("pull_request", ev)
	w.vars["INPUT_SETTLE"], w.vars["INPUT_WAIT"] = "true", "false"
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle on close: %v", err)
	}
	// Reopened; its own settle run never runs.
	w.gh.SeedPull(docsPull("open"))
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	w.settleOnReview("writer", "APPROVED", false)
	w.settleRun()
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("scheduled settle: %v", err)
	}
	if s := w.finalStatuses()["2222"]; !strings.HasPrefix(s, "2222 success: Docs approved") {
		t.Errorf("head2 after the reopened docs pull request's approval: %q", s)
	}
}

// TestFailedCreateAfterDocsMergedIsNotSuccess: after the docs pull request
// #101 merged (docs: merged), a push starts a new job (codejob's newCodeJob), whose
// create fails. The head is owed to no job: no settle run reports the old
// job's end on it ("Docs merged in pull request #101" for a change no job
// ever heard).
func TestFailedCreateAfterDocsMergedIsNotSuccess(t *testing.T) {
	t.Parallel()
	for _, code := range []int{http.StatusBadRequest, http.StatusInternalServerError} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			t.Parallel()
			w := approvalWorld(t, false)
			w.docsMerged(t)
			delete(w.vars, "INPUT_SETTLE")
			w.vars["INPUT_WAIT"] = "true"
			from := len(w.api.Requests()) + 1
			for n := from; n < from+10; n++ {
				w.api.FailOn(n, func(rw http.ResponseWriter, r *http.Request) bool {
					if r.Method == http.MethodPost {
						return faults.Status(code)(rw, r)
					}
					return false
				})
			}
			retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
			w.moveHead(head2, head3, []fakegithub.File{retry}, append(slices.Clone(codeFiles), retry))
			w.setEvent("pull_request", push(head2, head3))
			err := w.run(context.Background())
			t.Logf("push: %v; head3 %q; record %+v", err, w.finalStatuses()["3333"], recordIn(w.gh.Comments(7)[0].Body))
			w.settleRun()
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("settle: %v\n%s", err, w.stdout.String())
			}
			if s := w.finalStatuses()["3333"]; strings.Contains(s, " success: ") {
				t.Errorf("head3, whose change no job heard, ends %q; record %+v", s, recordIn(w.gh.Comments(7)[0].Body))
			}
		})
	}
}
