package action_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/record"
)

// the release run rewrites the record without docs: merged, so
// the next push follows up the job whose docs were merged, and its head
// gets success "Docs merged in pull request #101" for a change no docs
// pull request holds.
func TestReleaseKeepsDocsMerged(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.docsMerged(t)
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsMerged {
		t.Fatalf("record before the release: %+v", r)
	}
	delete(w.vars, "INPUT_SETTLE")
	w.setEvent("pull_request", labeled("writer", "docs-not-needed", head2))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("release: %v\n%s", err, w.stdout.String())
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsMerged {
		t.Errorf("the release run's record forgets the docs were merged: %+v", r)
	}
	w.vars["INPUT_WAIT"] = "true"
	retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
	apiFrom := w.pushCode(t, head2, head3, []fakegithub.File{retry}, append(slices.Clone(codeFiles), retry))
	if s := w.finalStatuses()["3333"]; strings.Contains(s, " success: ") {
		t.Errorf("head3 ends %q; the Agent API got %q", s, w.sends(apiFrom))
	}
}

// Review 1b: the same loss through a code pull request closed (no
// docs-close) and reopened, then pushed.
func TestCloseKeepsDocsMerged(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.docsMerged(t)
	delete(w.vars, "INPUT_SETTLE")
	w.setEvent("pull_request", codePR("closed", head2, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", false }))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("closed: %v\n%s", err, w.stdout.String())
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsMerged {
		t.Errorf("the closed run's record forgets the docs were merged: %+v", r)
	}
	w.setEvent("pull_request", codePR("reopened", head2, nil))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("reopened: %v\n%s", err, w.stdout.String())
	}
	w.vars["INPUT_WAIT"] = "true"
	retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
	apiFrom := w.pushCode(t, head2, head3, []fakegithub.File{retry}, append(slices.Clone(codeFiles), retry))
	if s := w.finalStatuses()["3333"]; strings.Contains(s, " success: ") {
		t.Errorf("head3 ends %q; the Agent API got %q", s, w.sends(apiFrom))
	}
}

// Review 1c: the same loss through a push at the cap.
func TestCapKeepsDocsMerged(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.docsMerged(t)
	delete(w.vars, "INPUT_SETTLE")
	w.vars["INPUT_WAIT"] = "true"
	w.vars["INPUT_MAX-SENDS-PER-THREAD"] = "2"
	retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
	w.pushCode(t, head2, head3, []fakegithub.File{retry}, append(slices.Clone(codeFiles), retry))
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsMerged {
		t.Errorf("the capped run's record forgets the docs were merged: %+v", r)
	}
	delete(w.vars, "INPUT_MAX-SENDS-PER-THREAD")
	more := fakegithub.File{Name: "src/more.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
	apiFrom := w.pushCode(t, head3, head4, []fakegithub.File{more}, append(slices.Clone(codeFiles), retry, more))
	if s := w.finalStatuses()["4444"]; strings.Contains(s, " success: ") {
		t.Errorf("head4 ends %q; the Agent API got %q", s, w.sends(apiFrom))
	}
}

// approval asked, the job's first end names a docs pull request
// the action cannot judge (a /files suffix, another host): nothing pairs
// it yet, and Decide takes the job for one that changed nothing.
func TestUnjudgeableFirstLinkIsNotSuccess(t *testing.T) {
	t.Parallel()
	for _, link := range []string{"https://github.com/acme/docs/pull/101/files", "https://gitlab.com/acme/docs/pull/101"} {
		t.Run(link, func(t *testing.T) {
			t.Parallel()
			w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
			w.vars["INPUT_DOCS-CHECK"] = "approved"
			w.vars["INPUT_PREVIEW"] = "false"
			w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", HeadSHA: docsHead})
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

// a release while the job works on the released head, then the
// job ends with a docs pull request, which a maintainer closes (the docs
// are not needed): the settle run on the close turns the released head red.
func TestReleaseHoldsAgainstDocsClose(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, func(vars map[string]string) { vars["INPUT_DOCS-CHECK"] = "approved" })
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", HeadSHA: docsHead})
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
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", HeadSHA: docsHead, State: "closed"})
	ev := reviewed("writer", "APPROVED")
	delete(ev, "review")
	ev["action"] = "closed"
	ev["pull_request"].(map[string]any)["state"] = "closed"
	w.setEvent("pull_request", ev)
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle on close: %v\n%s", err, w.stdout.String())
	}
	if got := w.finalStatuses()["1111"]; !strings.HasPrefix(got, "1111 success: Docs check released by writer") {
		t.Errorf("the released head ends %q after the unneeded docs pull request was closed", got)
	}
}

// the no-wait setup (docs-check: approved in the code workflow
// only). A settle run sends the change that waited: the record it writes
// drops approval (and the paired pull request). When the follow-up ends,
// the next settle run sets success with no approving review.
func TestSettleSendKeepsApproval(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, func(vars map[string]string) { vars["INPUT_DOCS-CHECK"] = "approved" })
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", HeadSHA: docsHead})
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

// a settle run that reports a job's end (not a follow) writes
// the pull request the job names now into the record (Reporter.Settled:
// state's PRURL), so the record re-pairs with #102, which the next settle
// run judges: approved, success.
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
	statuses := len(w.gh.Statuses())
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

// a job whose source.repository is not an https address
// ("acme/docs", as the API's own record may give it) now gets no
// github-token on its pull request in the workflow's own repository: the
// approved docs pull request is Unread, and the check waits for ever.
func TestOwnRepoDocsWithShortSource(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute, Repository: "acme/docs", PRRepository: "https://github.com/acme/docs"}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_DOCS-CHECK"] = "approved"
	w.vars["INPUT_PREVIEW"] = "false"
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", HeadSHA: docsHead})
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	if s := w.finalStatuses()["1111"]; !strings.HasPrefix(s, "1111 success: Docs approved") {
		t.Errorf("head1 ends %q with an approved docs pull request in the workflow's own repository", s)
	}
}
