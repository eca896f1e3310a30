package action_test

// The tests of this file reproduce findings where the required check
// docs / agent-job turns green without the approval (or the docs job) it
// promises. Each asserts the correct behaviour, and fails on main today
// for the reason its comment gives: they are meant to fail until the
// product is fixed.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
	"github.com/agentjob/agent-job-action/internal/record"
)

// docsHead2 is the latest commit of another docs pull request, #102.
const docsHead2 = "d0c5d0c5d0c5d0c5d0c5d0c5d0c5d0c5d0c5d102"

// jobNames makes the fake Agent API, from its next request on (for the
// next 50), answer for job_0001 as a job whose pull request link is link
// (nil: prLink null): a read finds it completed, a follow-up active (its
// next read completed again). The fake's own jobs are not changed.
func jobNames(w *codeWorld, link any) { jobAnswers(w, link, "completed") }

// jobAnswers makes the fake Agent API, for its next 50 requests, answer
// for job_0001 as a job whose pull request link is link: a follow-up
// active, a read with status read.
func jobAnswers(w *codeWorld, link any, read string) {
	w.t.Helper()
	job := func(status string) map[string]any {
		return map[string]any{"id": "job_0001", "status": status,
			"source": map[string]any{"repository": w.api.Scenario().Repository, "ref": "docs/agent-job_0001"}, "model": "sonnet",
			"prLink": link, "createdAt": "2026-11-22T09:00:00Z", "archivedAt": nil}
	}
	from := len(w.api.Requests()) + 1
	for n := from; n < from+50; n++ {
		w.api.FailOn(n, func(rw http.ResponseWriter, r *http.Request) bool {
			if r.Method == http.MethodPost {
				return faults.JSON(http.StatusOK, job("active"))(rw, r)
			}
			return faults.JSON(http.StatusOK, job(read))(rw, r)
		})
	}
}

// successes are the statuses of got (as codeWorld.statuses writes them)
// whose state is success.
func successes(got []string) []string {
	return slices.DeleteFunc(slices.Clone(got), func(s string) bool { return !strings.Contains(s, " success: ") })
}

// sends are the Agent API requests since from that are not reads.
func (w *codeWorld) sends(from int) []string {
	return slices.DeleteFunc(w.apiCalls(from), func(c string) bool { return strings.HasPrefix(c, "GET ") })
}

// Finding 1. The record follows a waiting docs pull request (#101, with
// docs-check: approved). When the Agent API later gives the job no pull
// request link, or one the action cannot judge (another host, a /files
// suffix), a settle run must keep the check waiting for the recorded
// docs pull request: the record alone pairs the two. At 50b77d7 it set
// success "No docs change needed" on the code's head.
func TestFollowedDocsPRWithoutLinkKeepsWaiting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		link any
	}{
		{"prLink null", nil},
		{"another host", "https://gitlab.com/acme/docs/pull/101"},
		{"a /files suffix", "https://github.com/acme/docs/pull/101/files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := approvalWorld(t, false)
			if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsWaiting || r.PR != "https://github.com/acme/docs/pull/101" || r.Head != head2 {
				t.Fatalf("the record before the settle run: %+v", r)
			}
			statuses, apiFrom := len(w.statuses()), len(w.api.Requests())
			jobNames(w, tc.link)
			w.clk.Advance(10 * time.Minute)
			w.settleRun()
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("settle: %v\n%s", err, w.stdout.String())
			}
			if got := successes(w.statuses()[statuses:]); len(got) != 0 {
				t.Errorf("the settle run set %q: a success without the approval of the recorded docs pull request #101", got)
			}
			if r := recordIn(w.gh.Comments(7)[0].Body); r.PR != "https://github.com/acme/docs/pull/101" || r.Docs == "" {
				t.Errorf("the record after the settle run: %+v, want it still following docs pull request #101", r)
			}
			if got := w.sends(apiFrom); len(got) != 0 {
				t.Errorf("the settle run sent the Agent API %q", got)
			}
		})
	}
}

// Finding 2. The no-wait setup: the code workflow runs with docs-check:
// approved and wait: false; the settle workflow (settle: true) does not
// set docs-check. The job ends with a docs pull request: the settle run
// must leave the check pending, waiting for an approving review. At 50b77d7 it
// sets success "Docs updated in a pull request". At a cap (a change
// waits, max-sends-per-thread reached) the same settle run sets success
// "Docs job cap reached" too; it must not set success either.
func TestNoWaitApprovalSettledWithoutDocsCheckKeepsWaiting(t *testing.T) {
	t.Parallel()
	t.Run("the job ends with a docs pull request", func(t *testing.T) {
		t.Parallel()
		w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, func(vars map[string]string) { vars["INPUT_DOCS-CHECK"] = "approved" })
		w.gh.SeedPull(docsPull("open"))
		w.clk.Advance(10 * time.Minute)
		w.settleRun()
		delete(w.vars, "INPUT_DOCS-CHECK")
		apiFrom := len(w.api.Requests())
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("settle: %v\n%s", err, w.stdout.String())
		}
		if got := successes(w.statuses()); len(got) != 0 {
			t.Errorf("statuses %q: a success with no approving review of the docs pull request", got)
		}
		if final := w.finalStatuses()["1111"]; !strings.HasPrefix(final, "1111 pending: ") {
			t.Errorf("head1 ends %q, want pending, waiting for an approving review", final)
		}
		if got := w.sends(apiFrom); len(got) != 0 {
			t.Errorf("the settle run sent the Agent API %q", got)
		}
	})
	t.Run("at a cap, with a change waiting", func(t *testing.T) {
		t.Parallel()
		w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, func(vars map[string]string) {
			vars["INPUT_DOCS-CHECK"] = "approved"
			vars["INPUT_MAX-SENDS-PER-THREAD"] = "1"
		})
		w.gh.SeedPull(docsPull("open"))
		pushWhileWorking(t, w)
		w.clk.Advance(10 * time.Minute)
		w.settleRun()
		delete(w.vars, "INPUT_DOCS-CHECK")
		apiFrom := len(w.api.Requests())
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("settle: %v\n%s", err, w.stdout.String())
		}
		w.wantLog("docs job cap reached, nothing sent")
		if got := w.sends(apiFrom); len(got) != 0 {
			t.Errorf("the settle run at the cap sent the Agent API %q", got)
		}
		if got := successes(w.statuses()); len(got) != 0 {
			t.Errorf("statuses %q: a success with no approving review of the docs pull request", got)
		}
	})
}

// Finding 3. A push's job heard a listing of the pull request's files cut
// at GitHub's 3,000 (the record keeps Cut): with docs-check: approved the
// push's run sets an error that says so. Approving the docs pull request
// must not turn the check green: a settle run (on the review's event, or
// on the schedule) must claim no success for files the job never saw.
// At 50b77d7 it set success "Docs approved in pull request #101".
func TestCutListingApprovalClaimsNoSuccess(t *testing.T) {
	t.Parallel()
	for _, onReview := range []bool{true, false} {
		t.Run(map[bool]string{true: "settle run on the review", false: "settle run on the schedule"}[onReview], func(t *testing.T) {
			t.Parallel()
			w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
			w.vars["INPUT_DOCS-CHECK"] = "approved"
			w.vars["INPUT_PREVIEW"] = "false"
			files := append(codeFiles[:1:1], vendored(2999)...)
			w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: head1, Files: files})
			w.gh.SeedPull(docsPull("open"))
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("opened: %v\n%s", err, w.stdout.String())
			}
			if s := w.finalStatuses()["1111"]; !strings.HasPrefix(s, "1111 error: GitHub listed only 3000 files") {
				t.Fatalf("the push's run ends %q, want the cut's error", s)
			}
			if r := recordIn(w.gh.Comments(7)[0].Body); !r.Cut {
				t.Fatalf("the record does not keep the cut: %+v", r)
			}
			statuses, apiFrom := len(w.statuses()), len(w.api.Requests())
			w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
			if onReview {
				w.settleOnReview("writer", "APPROVED", false)
			} else {
				w.settleRun()
				if err := w.run(context.Background()); err != nil {
					t.Fatalf("settle: %v\n%s", err, w.stdout.String())
				}
			}
			if got := successes(w.statuses()[statuses:]); len(got) != 0 {
				t.Errorf("the settle run set %q on a head whose job heard a cut listing, want no success (the cut's error)", got)
			}
			if s := w.finalStatuses()["1111"]; strings.Contains(s, " success: ") {
				t.Errorf("head1 ends %q", s)
			}
			if got := w.sends(apiFrom); len(got) != 0 {
				t.Errorf("the settle run sent the Agent API %q", got)
			}
		})
	}
}

// Finding 4. The docs pull request #101 is merged before the code (its
// settle run turns the check green: "Docs merged"). A later push with a
// new change under paths must not get success "Docs merged in pull
// request #101": its new docs are in no open pull request (ideally it
// starts a new job, whose docs pull request then waits for an approval).
// At 50b77d7 the push followed up job_0001, which still names the merged #101,
// and its head gets success "Docs merged in pull request #101".
func TestPushAfterDocsMergedIsNotDocsMerged(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.docsMerged(t)
	if s := w.finalStatuses()["2222"]; !strings.HasPrefix(s, "2222 success: Docs merged in pull request #101") {
		t.Fatalf("head2 after the docs' merge: %q", s)
	}

	// A push with a new change under paths, in the code workflow (waits).
	delete(w.vars, "INPUT_SETTLE")
	w.vars["INPUT_WAIT"] = "true"
	retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
	apiFrom := w.pushCode(t, head2, head3, []fakegithub.File{retry}, append(slices.Clone(codeFiles), retry))
	if s := w.finalStatuses()["3333"]; strings.Contains(s, " success: ") {
		t.Errorf("head3, whose new docs are in no open pull request, ends %q; the Agent API got %q", s, w.sends(apiFrom))
	}
	// The change goes to a new job, with the pull request's whole change,
	// not as a follow-up of the job whose docs were merged.
	if got := w.sends(apiFrom); len(got) != 1 || got[0] != "POST /v2/agent/proj-1/job" {
		t.Errorf("the push sent %q, want one create", got)
	}
	w.wantLog("the docs pull request of job job_0001 was merged: starting a new docs job with the pull request's whole change")
}

// Finding 5. The record pairs the code pull request with docs pull
// request #101 (waiting, docs-check: approved); the Agent API now names
// another, #102, which a writer approved. A push run must judge the
// record's #101 (no approval: the check waits) and the record keeps #101,
// as settle runs already do (TestAnotherDocsPRIsNotAdoptedBySettleRuns).
// At 50b77d7 the push judged #102, sets success "Docs approved in pull request
// #102", and rewrites the record to follow #102 (which the code's merge
// would then merge). The same holds for a push that changes nothing
// under paths.
func TestPushJudgesTheRecordedDocsPR(t *testing.T) {
	t.Parallel()
	for _, underPaths := range []bool{true, false} {
		t.Run(map[bool]string{true: "a push with a change under paths", false: "a push with nothing under paths"}[underPaths], func(t *testing.T) {
			t.Parallel()
			w := approvalWorld(t, false)
			if r := recordIn(w.gh.Comments(7)[0].Body); r.PR != "https://github.com/acme/docs/pull/101" || r.Docs != record.DocsWaiting {
				t.Fatalf("the record before the push: %+v", r)
			}
			w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 102, Author: "docs-agent[bot]", HeadRef: "docs/other", HeadSHA: docsHead2})
			w.gh.SeedReview(102, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead2})
			jobNames(w, "https://github.com/acme/docs/pull/102")

			w.clk.Advance(10 * time.Minute)
			pushed := []fakegithub.File{{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}}
			if !underPaths {
				pushed = []fakegithub.File{{Name: "README.md", Additions: 1, Patch: "@@ +1 @@\n+More."}}
			}
			w.moveHead(head2, head3, pushed, codeFiles)
			w.setEvent("pull_request", push(head2, head3))
			statuses, from := len(w.statuses()), len(w.gh.Requests())
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("push: %v\n%s", err, w.stdout.String())
			}
			if got := successes(w.statuses()[statuses:]); len(got) != 0 {
				t.Errorf("the push set %q: a success from a docs pull request the record does not name", got)
			}
			if slices.Contains(w.ghCalls(from), "GET /repos/acme/docs/pulls/102/reviews?page=1&per_page=100") {
				t.Errorf("the push read the reviews of #102, which the record does not name")
			}
			if r := recordIn(w.gh.Comments(7)[0].Body); r.PR != "https://github.com/acme/docs/pull/101" {
				t.Errorf("the record after the push names %q, want #101 still", r.PR)
			}
		})
	}
}

// Finding 6. With max-sends-per-day and the default docs-check (exists),
// a flood of comments written today cuts the count of today's sends: the
// run counts the cap as reached and sends nothing, which is right, but
// its commit status is a success ("Docs job cap reached: today's sends
// could not all be counted"), so a flood turns the required check green
// for code no docs job saw. When the count cannot be read whole, the run
// must send nothing and the check must not be success.
func TestFloodedCapCountIsNotSuccess(t *testing.T) {
	t.Parallel()
	w := floodedDay(t, 1)
	g := w.got(context.Background())
	if g.Err != nil {
		t.Fatalf("run: %v\n%s", g.Err, g.Log)
	}
	if got := g.apiCalls(); len(got) != 0 {
		t.Errorf("the Agent API got %q, want nothing", got)
	}
	w.wantLog("today's sends could not all be counted")
	if got := w.statuses(); len(got) == 0 || len(successes(got)) != 0 {
		t.Errorf("statuses %q, want the head's check set, and not success: the count could not be read whole", got)
	}
}

// Finding 7. With docs-check: approved and wait: false, a push made while
// the job works leaves its change waiting, its head pending. The code
// pull request's closed run sets success ("Pull request closed: this
// push's change was not sent to the docs job") on that head, which no
// docs pull request approval covers. Reopened by someone whose run does
// not act (a reader), the pull request is open with a green required
// check. The head must not be success.
func TestClosedWithAChangeWaitingIsNotSuccess(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, func(vars map[string]string) { vars["INPUT_DOCS-CHECK"] = "approved" })
	w.gh.SeedPull(docsPull("open"))
	pushWhileWorking(t, w)
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Waiting != head2 {
		t.Fatalf("the record after the push: %+v, want head2's change waiting", r)
	}
	w.setEvent("pull_request", codePR("closed", head2, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", false }))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("closed: %v\n%s", err, w.stdout.String())
	}
	closed := w.finalStatuses()["2222"]

	ev := codePR("reopened", head2, nil)
	ev["sender"] = user("reader")
	w.setEvent("pull_request", ev)
	apiFrom := len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("reopened: %v\n%s", err, w.stdout.String())
	}
	w.wantLog("skipped: reader has read permission on acme/docs; required-permission is write")
	if got := w.sends(apiFrom); len(got) != 0 {
		t.Errorf("the reader's reopened run sent the Agent API %q", got)
	}
	if s := w.finalStatuses()["2222"]; strings.Contains(s, " success: ") {
		t.Errorf("head2, whose change was never sent and is approved by no one, ends %q after the reopen (the closed run set %q)", s, closed)
	}
}

// Finding 8. The docs are in another repository (docs-token, the job's
// source acme/handbook). A job whose pull request link names a pull
// request of the code repository itself (acme/docs#101) must not get
// that pull request judged or merged when the code merges (docs-merge):
// it is not the docs repository's. At 50b77d7 the closed run read its
// reviews and merges it with github-token.
func TestDocsElsewhereNoMergeInTheCodeRepository(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute, Repository: "https://github.com/acme/handbook", PRRepository: "https://github.com/acme/docs"},
		fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_PREVIEW"] = "false"
	w.vars["INPUT_DOCS-TOKEN"] = "ghp_docs_token_0123456789"
	w.vars["INPUT_DOCS-MERGE"] = "squash"
	w.gh.SeedPull(docsPull("open"))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	w.wantOutputs(map[string]string{"pr-link": "https://github.com/acme/docs/pull/101"})
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})

	w.setEvent("pull_request", codePR("closed", head1, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", true }))
	from, apiFrom := len(w.gh.Requests()), len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("closed: %v\n%s", err, w.stdout.String())
	}
	for _, r := range w.gh.Requests()[from:] {
		if r.Path == "/repos/acme/docs/pulls/101/reviews" || r.Method == http.MethodPut && r.Path == "/repos/acme/docs/pulls/101/merge" {
			token := "github-token"
			if r.Header.Get("Authorization") != "Bearer "+testToken {
				token = "another token"
			}
			t.Errorf("the closed run sent %s %s with %s: it judged or merged a pull request of the code repository, which the job (its docs in acme/handbook) names", r.Method, r.Path, token)
		}
	}
	if pr, _ := w.gh.PullRequest("acme/docs", 101); pr.Merged {
		t.Errorf("acme/docs#101 was merged with the code (%s)", pr.MergeMethod)
	}
	if got := w.sends(apiFrom); len(got) != 0 {
		t.Errorf("the closed run sent the Agent API %q", got)
	}
}

// TestChangeRequestHoldsBehindAFloodOfReviews: a writer's change request
// on the docs pull request, between 200 comment-only reviews and 5,000 more (which
// anyone may post on a public repository) and a writer's approval: the
// settle run on the approval sets no success, and docs-merge merges
// nothing when the code merges. Whatever the flood, the judgment reads
// three pages of reviews at most.
func TestChangeRequestHoldsBehindAFloodOfReviews(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	for i := range 200 {
		// Past the oldest page, which a judgment reads.
		w.gh.SeedReview(101, fakegithub.Review{Author: fmt.Sprintf("early-%d", i), State: "COMMENTED", CommitID: docsHead})
	}
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "CHANGES_REQUESTED", CommitID: docsHead})
	for i := range 5000 {
		w.gh.SeedReview(101, fakegithub.Review{Author: fmt.Sprintf("passer-by-%d", i), State: "COMMENTED", CommitID: docsHead})
	}
	w.gh.SeedReview(101, fakegithub.Review{Author: "admin", State: "APPROVED", CommitID: docsHead})
	statuses, from := len(w.statuses()), len(w.gh.Requests())
	w.settleOnReview("admin", "APPROVED", false)
	if got := successes(w.statuses()[statuses:]); len(got) != 0 {
		t.Errorf("the settle run set %q over a writer's change request behind 5,000 comment-only reviews", got)
	}
	if got := w.finalStatuses()["2222"]; !strings.HasPrefix(got, "2222 pending: ") {
		t.Errorf("head2 ends %q, want it still pending", got)
	}
	w.wantLog("#101 has more reviews than one run reads: a change request may be among those unread, so no approval counts")
	reads := 0
	for _, r := range w.gh.Requests()[from:] {
		if r.Method == "GET" && strings.HasSuffix(r.Path, "/pulls/101/reviews") {
			reads++
		}
	}
	if reads == 0 || reads > 3 {
		t.Errorf("%d reads of the reviews, want 1 to 3 whatever their count", reads)
	}
}

// docsClosed makes the next run the settle run on a person's close of the
// docs pull request #101, unmerged.
func (w *codeWorld) docsClosed() {
	w.gh.SeedPull(docsPull("closed"))
	ev := reviewed("writer", "APPROVED")
	delete(ev, "review")
	ev["action"] = "closed"
	ev["pull_request"].(map[string]any)["state"] = "closed"
	w.setEvent("pull_request", ev)
	w.vars["INPUT_SETTLE"], w.vars["INPUT_WAIT"] = "true", "false"
}

// TestClosedDocsThenANewJob: after the docs pull request was closed
// unmerged, the check said "reopen it, or push to start a new docs job",
// and a push followed up the same job, whose check then judged the closed
// pull request again. Now the record keeps that it was closed: a push
// starts a new job, whose check waits, and so does the code pull
// request's reopening after docs-close closed its docs pull request with it.
func TestClosedDocsThenANewJob(t *testing.T) {
	t.Parallel()
	t.Run("closed by a person, then a push", func(t *testing.T) {
		t.Parallel()
		w := approvalWorld(t, false)
		w.docsClosed()
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("settle run on the docs pull request's close: %v\n%s", err, w.stdout.String())
		}
		if s := w.finalStatuses()["2222"]; !strings.HasPrefix(s, "2222 error: Docs pull request #101 was closed unmerged: reopen it, or push to start a new docs job") {
			t.Fatalf("head2 after the docs' close: %q", s)
		}
		delete(w.vars, "INPUT_SETTLE")
		w.vars["INPUT_WAIT"] = "true"
		retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
		w.moveHead(head2, head3, []fakegithub.File{retry}, append(slices.Clone(codeFiles), retry))
		w.setEvent("pull_request", push(head2, head3))
		apiFrom := len(w.api.Requests())
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("push: %v\n%s", err, w.stdout.String())
		}
		if got := w.sends(apiFrom); len(got) != 1 || got[0] != "POST /v2/agent/proj-1/job" {
			t.Errorf("the push after the docs' close sent %q, want one create", got)
		}
		if s := w.finalStatuses()["3333"]; strings.Contains(s, "was closed unmerged") || strings.Contains(s, " success: ") {
			t.Errorf("head3 ends %q, want the new job's check", s)
		}
	})
	t.Run("closed with the code by docs-close, then the code reopened", func(t *testing.T) {
		t.Parallel()
		w := approvalWorld(t, false)
		w.vars["INPUT_DOCS-CLOSE"] = "true"
		w.setEvent("pull_request", codePR("closed", head2, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", false }))
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("closed: %v\n%s", err, w.stdout.String())
		}
		if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsClosed {
			t.Fatalf("the record after docs-close closed the docs pull request: %+v", r)
		}
		w.setEvent("pull_request", codePR("reopened", head2, nil))
		apiFrom := len(w.api.Requests())
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("reopened: %v\n%s", err, w.stdout.String())
		}
		if got := w.sends(apiFrom); len(got) != 1 || got[0] != "POST /v2/agent/proj-1/job" {
			t.Errorf("the reopened pull request sent %q, want one create", got)
		}
		if s := w.finalStatuses()["2222"]; strings.Contains(s, "was closed unmerged") {
			t.Errorf("head2 ends %q, want the new job's check", s)
		}
	})
}

// TestCodeClosedWhileTheJobWorks: a code pull request closed unmerged
// while its docs job still works (no runner waits), with docs-close; the
// job later opens its docs pull request. The settle run that finds the
// job ended, and the code pull request closed still, tells that pull
// request the code was closed and closes it, as the closed run would
// have: it asks nobody to review docs for code that will never land.
func TestCodeClosedWhileTheJobWorks(t *testing.T) {
	t.Parallel()
	w := closedWhileWorking(t)
	from := len(w.gh.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	closed, reviewers := docsClosedOrAsked(w, from)
	if !closed || reviewers {
		t.Errorf("the docs pull request opened after its code was closed: closed %v, reviewers asked %v; want closed and nobody asked\n%s", closed, reviewers, w.stdout.String())
	}
	c := w.gh.Comments(101)
	if len(c) != 1 || !strings.Contains(c[0].Body, "was closed without being merged") || strings.Contains(c[0].Body, "review") {
		t.Errorf("the comments on the docs pull request: %+v", c)
	}
}

// TestReopenedDocsIsFollowedAgain: the docs pull request closed unmerged
// turns the check to an error, and the record keeps watching it; reopened,
// a settle run (on its reopening, or any later one) judges it again, and
// the check waits for its approval, which then turns it green.
func TestReopenedDocsIsFollowedAgain(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	docsEvent := func(action string) {
		ev := reviewed("writer", "APPROVED")
		delete(ev, "review")
		ev["action"] = action
		ev["pull_request"].(map[string]any)["state"] = map[string]string{"closed": "closed", "reopened": "open"}[action]
		w.setEvent("pull_request", ev)
		w.vars["INPUT_SETTLE"], w.vars["INPUT_WAIT"] = "true", "false"
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("settle run on the docs pull request's %s: %v\n%s", action, err, w.stdout.String())
		}
	}
	w.gh.SeedPull(docsPull("closed"))
	docsEvent("closed")
	if s := w.finalStatuses()["2222"]; !strings.HasPrefix(s, "2222 error: Docs pull request #101 was closed unmerged") {
		t.Fatalf("head2 after the close: %q", s)
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsClosed || !r.Unsettled {
		t.Fatalf("the record after the close: %+v, want it closed and watched, for a reopening", r)
	}

	w.gh.SeedPull(docsPull("open"))
	apiFrom := len(w.api.Requests())
	docsEvent("reopened")
	if s := w.finalStatuses()["2222"]; !strings.HasPrefix(s, "2222 pending: Waits for an approving review of docs pull request #101") {
		t.Errorf("head2 after the reopening: %q\n%s", s, w.stdout.String())
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsWaiting || !r.Unsettled {
		t.Errorf("the record after the reopening follows it not: %+v", r)
	}
	if got := w.sends(apiFrom); len(got) != 0 {
		t.Errorf("the reopening sent the agent %q", got)
	}

	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	w.settleOnReview("writer", "APPROVED", false)
	if s := w.finalStatuses()["2222"]; !strings.HasPrefix(s, "2222 success: Docs approved in pull request #101") {
		t.Errorf("head2 after the approval: %q", s)
	}
}

// pushCode pushes code pull request #7 from before to after, a push that
// adds the files added, the pull request then changing all, and runs the
// code workflow on it. It returns the index of the first Agent API request
// the run sent.
func (w *codeWorld) pushCode(t *testing.T, before, after string, added, all []fakegithub.File) int {
	t.Helper()
	w.moveHead(before, after, added, all)
	w.setEvent("pull_request", push(before, after))
	from := len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push of %s: %v\n%s", after[:4], err, w.stdout.String())
	}
	return from
}

// TestApprovalTakenBackWhileThePushWrites: a push run whose job ends
// judges the docs pull request approved and sets success; a writer asks
// for changes right then, as the status is written (a settle run started
// by that review may find the record before the push writes it, and defer
// to it). The push run judges the docs pull request again once its end is
// written, and the check ends pending, the record waiting.
func TestApprovalTakenBackWhileThePushWrites(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	var once sync.Once
	w.gh.SetFault(func(_ http.ResponseWriter, r *http.Request) bool {
		if r.Method == "POST" && strings.Contains(r.URL.Path, "/statuses/"+head3) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(`"success"`)) {
				once.Do(func() {
					w.gh.SeedReview(101, fakegithub.Review{Author: "admin", State: "CHANGES_REQUESTED", CommitID: docsHead})
				})
			}
		}
		return false
	})
	retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
	w.pushCode(t, head2, head3, []fakegithub.File{retry}, append(slices.Clone(codeFiles), retry))
	if s := w.finalStatuses()["3333"]; !strings.HasPrefix(s, "3333 pending: ") {
		t.Errorf("head3 ends %q after a change request came as the push wrote its approval, want pending\n%s", s, w.stdout.String())
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsWaiting {
		t.Errorf("the record after the push: %+v, want it waiting", r)
	}
}

// docsClosedOrAsked says what GitHub received from request from on: an
// edit of docs pull request #101 (its close), and a review request on it.
func docsClosedOrAsked(w *codeWorld, from int) (closed, reviewers bool) {
	for _, r := range w.gh.Requests()[from:] {
		switch {
		case r.Method == "PATCH" && r.Path == "/repos/acme/docs/pulls/101":
			closed = true
		case strings.HasSuffix(r.Path, "/pulls/101/requested_reviewers"):
			reviewers = true
		}
	}
	return closed, reviewers
}

// closedWhileWorking is code pull request #7, closed unmerged with
// docs-close while its docs job works (no runner waits); the job has since
// ended with docs pull request #101, and the next run is a scheduled
// settle run.
func closedWhileWorking(t *testing.T) *codeWorld {
	t.Helper()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, func(vars map[string]string) { vars["INPUT_DOCS-CLOSE"] = "true" })
	w.setEvent("pull_request", codePR("closed", head1, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", false }))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("closed: %v\n%s", err, w.stdout.String())
	}
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: head1, Files: codeFiles, State: "closed"})
	w.gh.SeedPull(docsPull("open"))
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	return w
}
