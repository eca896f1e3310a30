package action_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/record"
)

// TestRunsKeepDocsMerged: once the docs pull request #101 is merged
// (docs: merged), a run that judges no docs pull request (a release, the
// code pull request closed without docs-close and reopened, a push at the
// cap) keeps that in the record, so that the next push starts a new job:
// its head never gets "Docs merged in pull request #101" for a change no
// docs pull request holds.
func TestRunsKeepDocsMerged(t *testing.T) {
	t.Parallel()
	retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
	run := func(t *testing.T, w *codeWorld, what string) {
		t.Helper()
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, w.stdout.String())
		}
	}
	keeps := func(t *testing.T, w *codeWorld, what string) {
		t.Helper()
		if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsMerged {
			t.Errorf("the %s run's record forgets the docs were merged: %+v", what, r)
		}
	}
	for _, tc := range []struct {
		name string
		// between is the run that judges nothing; it returns the head the
		// next push starts from.
		between func(t *testing.T, w *codeWorld) string
	}{
		{"a release", func(t *testing.T, w *codeWorld) string {
			w.setEvent("pull_request", labeled("writer", "docs-not-needed", head2))
			run(t, w, "release")
			keeps(t, w, "release")
			return head2
		}},
		{"closed without docs-close, then reopened", func(t *testing.T, w *codeWorld) string {
			w.setEvent("pull_request", codePR("closed", head2, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", false }))
			run(t, w, "closed")
			keeps(t, w, "closed")
			w.setEvent("pull_request", codePR("reopened", head2, nil))
			run(t, w, "reopened")
			return head2
		}},
		{"a push at the cap", func(t *testing.T, w *codeWorld) string {
			w.vars["INPUT_WAIT"] = "true"
			w.vars["INPUT_MAX-SENDS-PER-THREAD"] = "2"
			w.pushCode(t, head2, head3, []fakegithub.File{retry}, append(slices.Clone(codeFiles), retry))
			keeps(t, w, "capped")
			delete(w.vars, "INPUT_MAX-SENDS-PER-THREAD")
			return head3
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := approvalWorld(t, false)
			w.docsMerged(t)
			delete(w.vars, "INPUT_SETTLE")
			keeps(t, w, "settle")
			from := tc.between(t, w)
			w.vars["INPUT_WAIT"] = "true"
			more := fakegithub.File{Name: "src/more.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
			apiFrom := w.pushCode(t, from, head4, []fakegithub.File{more}, append(slices.Clone(codeFiles), retry, more))
			if s := w.finalStatuses()["4444"]; strings.Contains(s, " success: ") {
				t.Errorf("head4 ends %q; the Agent API got %q", s, w.sends(apiFrom))
			}
		})
	}
}

// TestUnjudgeableFirstLinkIsNotSuccess: approval asked, the job's first
// end names a docs pull request the action cannot judge (a /files suffix,
// another host): nothing pairs it yet, and the check claims no success
// (Decide took such a job for one that changed nothing).
func TestUnjudgeableFirstLinkIsNotSuccess(t *testing.T) {
	t.Parallel()
	for _, link := range []string{"https://github.com/acme/docs/pull/101/files", "https://gitlab.com/acme/docs/pull/101"} {
		t.Run(link, func(t *testing.T) {
			t.Parallel()
			w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
			w.vars["INPUT_DOCS-CHECK"] = "approved"
			w.vars["INPUT_PREVIEW"] = "false"
			w.gh.SeedPull(docsPull("open"))
			jobNames(w, link)
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("opened: %v\n%s", err, w.stdout.String())
			}
			if s := w.finalStatuses()["1111"]; strings.Contains(s, " success: ") {
				t.Errorf("head1 ends %q with docs-check: approved and no approval judged", s)
			}
		})
	}
}

// TestReleaseHoldsAgainstDocsClose: a release while the job works on the
// released head; the job then ends with a docs pull request, which a
// maintainer closes (the docs are not needed): the settle run on the close
// leaves the released head green.
func TestReleaseHoldsAgainstDocsClose(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, func(vars map[string]string) { vars["INPUT_DOCS-CHECK"] = "approved" })
	w.gh.SeedPull(docsPull("open"))
	w.setEvent("pull_request", labeled("writer", "docs-not-needed", head1))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("release: %v\n%s", err, w.stdout.String())
	}
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	if got := w.finalStatuses()["1111"]; !strings.HasPrefix(got, "1111 success: Docs check released by writer") {
		t.Fatalf("after the job's end: %q", got)
	}
	w.docsClosed()
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle on close: %v\n%s", err, w.stdout.String())
	}
	if got := w.finalStatuses()["1111"]; !strings.HasPrefix(got, "1111 success: Docs check released by writer") {
		t.Errorf("the released head ends %q after the unneeded docs pull request was closed", got)
	}
}

// TestSettleSendKeepsApproval: the no-wait setup (docs-check: approved in
// the code workflow only). A settle run sends the change that waited, and
// the record it writes keeps the approval asked and the paired pull
// request: when the follow-up ends, the next settle run sets no success
// without an approving review.
func TestSettleSendKeepsApproval(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, func(vars map[string]string) { vars["INPUT_DOCS-CHECK"] = "approved" })
	w.gh.SeedPull(docsPull("open"))
	pushWhileWorking(t, w)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	delete(w.vars, "INPUT_DOCS-CHECK")
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle (send): %v\n%s", err, w.stdout.String())
	}
	w.wantLog("sent job job_0001 the change that waited")
	if r := recordIn(w.gh.Comments(7)[0].Body); !r.Approval {
		t.Errorf("the record after the settle run's send drops approval: %+v", r)
	}
	w.clk.Advance(10 * time.Minute)
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle (end): %v\n%s", err, w.stdout.String())
	}
	if got := successes(w.statuses()); len(got) != 0 {
		t.Errorf("statuses %q: a success with no approving review of the docs pull request", got)
	}
}

// TestSettleReportKeepsThePairing: a settle run that reports a job's end
// (not a follow) keeps the record's pull request, not the one the job
// names now (#102, approved): no later settle run judges #102.
func TestSettleReportKeepsThePairing(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 102, Author: "docs-agent[bot]", HeadRef: "docs/other", HeadSHA: docsHead2})
	w.gh.SeedReview(102, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead2})
	jobNames(w, "https://github.com/acme/docs/pull/102")
	w.clk.Advance(10 * time.Minute)
	w.vars["INPUT_WAIT"] = "false"
	retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
	w.pushCode(t, head2, head3, []fakegithub.File{retry}, append(slices.Clone(codeFiles), retry))
	if r := recordIn(w.gh.Comments(7)[0].Body); r.PR != "https://github.com/acme/docs/pull/101" {
		t.Fatalf("record after the push: %+v", r)
	}
	statuses := len(w.statuses())
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle 1: %v\n%s", err, w.stdout.String())
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); r.PR != "https://github.com/acme/docs/pull/101" {
		t.Errorf("the settle run re-paired the record: %+v", r)
	}
	w.clk.Advance(10 * time.Minute)
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle 2: %v\n%s", err, w.stdout.String())
	}
	if got := successes(w.statuses()[statuses:]); len(got) != 0 {
		t.Errorf("settle runs set %q from a docs pull request the record did not pair", got)
	}
}

// TestOwnRepoDocsWithShortSource: a job whose source.repository is not an
// https address ("acme/docs", as the API's own record may give it) still
// gets github-token on its pull request in the workflow's own repository:
// an approved docs pull request turns the check green, never Unread for
// ever.
func TestOwnRepoDocsWithShortSource(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute, Repository: "acme/docs", PRRepository: "https://github.com/acme/docs"}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_DOCS-CHECK"] = "approved"
	w.vars["INPUT_PREVIEW"] = "false"
	w.gh.SeedPull(docsPull("open"))
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	if s := w.finalStatuses()["1111"]; !strings.HasPrefix(s, "1111 success: Docs approved") {
		t.Errorf("head1 ends %q with an approved docs pull request in the workflow's own repository", s)
	}
}
