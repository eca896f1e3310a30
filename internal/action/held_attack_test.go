package action_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/record"
)

// TestHeldAttackDocsMergedThenHeldPush: docs-when: approved and
// docs-check: approved. job_0001's docs pull request #101 is merged; head2
// is then pushed (held) and approved, and the approval's run cannot read
// the reviews. The schedule must do what the approval's run does
// (newCodeJob): a new job with the whole change, never a follow-up to
// job_0001 whose docs are in; and head2 must never turn green from #101's
// old merge.
func TestHeldAttackDocsMergedThenHeldPush(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_DOCS-WHEN"], w.vars["INPUT_DOCS-CHECK"] = "approved", "approved"
	w.vars["INPUT_PREVIEW"], w.vars["INPUT_WAIT"] = "false", "false"
	w.gh.SeedPull(docsPull("open"))
	w.mustRun("opened")
	w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head1})
	w.setEvent("pull_request_review", approvalOf(head1, false))
	w.mustRun("the approval")
	w.wantRequests(1, 0)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	w.mustRun("the schedule")
	w.docsMerged(t)
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsMerged {
		t.Fatalf("record after #101's merge: %+v", r)
	}
	delete(w.vars, "INPUT_SETTLE")
	w.moveHead(head1, head2, codeFiles[:1], codeFiles)
	w.setEvent("pull_request", push(head1, head2))
	w.mustRun("#7 pushed head2, held")
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Held != head2 {
		t.Fatalf("record after the push: %+v, want head2 held", r)
	}
	w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head2})
	w.clk.Advance(5 * time.Minute)
	w.settleRun()
	w.mustRun("the schedule after the approval")
	if w.lastMessage() != "" {
		t.Errorf("the schedule sent a follow-up to job_0001, whose docs pull request #101 is merged: %q", w.lastMessage())
	}
	w.wantRequests(2, 0)
	// The job ends: head2 must not be green on #101's old merge.
	w.clk.Advance(10 * time.Minute)
	w.mustRun("the schedule after the job's end")
	if got := w.shownOn(head2); strings.HasPrefix(got, "success: ") {
		t.Errorf("head2 turned green from #101, merged before head2 existed: %q\n%s\n%s", got, strings.Join(w.statuses(), "\n"), w.stdout.String())
	}
}

// TestHeldAttackDraftIsNotSent: #7 opened at head1 (held), then turned
// back into a draft. A writer approves it while a draft: the approval's
// run skips it ("a draft starts nothing until it is ready for review";
// the approval counts at ready_for_review). The schedule must not send
// the draft's change either.
func TestHeldAttackDraftIsNotSent(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_DOCS-WHEN"] = "approved"
	w.vars["INPUT_PREVIEW"], w.vars["INPUT_WAIT"] = "false", "false"
	w.mustRun("opened")
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: head1, Files: codeFiles, Draft: true})
	w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head1})
	w.setEvent("pull_request_review", approvalOf(head1, true))
	w.mustRun("the approval of the draft")
	w.wantRequests(0, 0)
	w.clk.Advance(15 * time.Minute)
	w.settleRun()
	w.mustRun("the schedule")
	w.wantRequests(0, 0)
}

// TestHeldAttackScheduleRequestsStayBounded: docs-when: approved holds
// every open pull request under review, so a busy repository has many held
// records; outsiders may add reviews to each. docs/cost.md bounds a settle
// run's GitHub requests: its read of the comments (one page here), the
// search, and "a few more for each thread it settles" (at most 20). A
// scheduled run that settles nothing must not spend requests per held
// record without bound: here 60 held pull requests, none approved, each
// with 5 outsiders' change requests.
func TestHeldAttackScheduleRequestsStayBounded(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_DOCS-WHEN"] = "approved"
	w.vars["INPUT_PREVIEW"], w.vars["INPUT_WAIT"] = "false", "false"
	w.mustRun("opened")
	held := w.gh.Comments(7)[0].Body
	if r := recordIn(held); r.Held != head1 {
		t.Fatalf("#7's record: %+v, want head1 held", r)
	}
	for n := 200; n < 260; n++ {
		w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: n, Author: "writer", Title: "Another change", HeadRef: fmt.Sprintf("b%d", n), HeadSHA: head1, Files: codeFiles})
		w.gh.SeedComment(n, fakegithub.BotLogin, true, held)
		for i := range 5 {
			w.gh.SeedReview(n, fakegithub.Review{Author: fmt.Sprintf("outsider%d", i), State: "CHANGES_REQUESTED", CommitID: head1})
		}
	}
	w.clk.Advance(15 * time.Minute)
	w.settleRun()
	from := len(w.gh.Requests())
	w.mustRun("the schedule")
	w.wantRequests(0, 0)
	calls := w.ghCalls(from)
	pulls := 0
	for _, c := range calls {
		if strings.HasPrefix(c, "GET /repos/acme/docs/pulls/") || strings.Contains(c, "/permission") {
			pulls++
		}
	}
	if len(calls) > 150 {
		t.Errorf("a schedule that settles nothing made %d GitHub requests (%d reading held pull requests, their reviews and reviewers' permissions); 61 held records cost about %d each", len(calls), pulls, pulls/61)
	}
}

// TestHeldAttackLostRecordWriteDoesNotCreateTwice: the schedule finds
// #7's held change approved; GitHub then refuses the record's edits (a 403
// as for a token without issues: write, or a 5xx that outlasts the
// retries), from the first, or from the one after the record says the
// change goes to the job. No schedule may create a job the record cannot
// keep, and none a second for the same change: every hour a new, orphaned
// job would be billed, past the caps, which count the records.
func TestHeldAttackLostRecordWriteDoesNotCreateTwice(t *testing.T) {
	t.Parallel()
	for _, from := range []int{1, 2} {
		t.Run(fmt.Sprintf("edits refused from the %dth", from), func(t *testing.T) {
			t.Parallel()
			w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Hour}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
			w.vars["INPUT_DOCS-WHEN"] = "approved"
			w.vars["INPUT_PREVIEW"], w.vars["INPUT_WAIT"] = "false", "false"
			w.mustRun("opened")
			w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head1})
			w.clk.Advance(15 * time.Minute)
			w.settleRun()
			w.vars["INPUT_MAX-SENDS-PER-THREAD"], w.vars["INPUT_MAX-SENDS-PER-DAY"] = "1", "1" // the caps do not stop it: they count the records
			edits := 0
			w.gh.SetFault(func(rw http.ResponseWriter, r *http.Request) bool {
				if r.Method != http.MethodPatch || !strings.Contains(r.URL.Path, "/issues/comments/") {
					return false
				}
				if edits++; edits < from {
					return false
				}
				http.Error(rw, `{"message":"Resource not accessible by integration"}`, http.StatusForbidden)
				return true
			})
			for range 3 {
				_ = w.run(context.Background())
				w.clk.Advance(15 * time.Minute)
			}
			if creates := len(w.api.Requests()); creates != from-1 {
				t.Errorf("three schedules sent the Agent Job API %d requests, want %d: none before the record says the change goes, one at most after", creates, from-1)
			}
		})
	}
}

// TestHeldAttackScheduleRacesTheApprovalsRerun: the approval's run failed
// (exit 4) and a person re-runs it (README: "the next review, push or
// re-run reads them again"), in the code job's concurrency group, while the
// scheduled settle run (docs-agent-settle) acts on the same held record.
// The re-run creates job_0002 and writes its record after the settle run
// read the record but before it sends. The settle run must not create a
// second job from the record it read: #7 would get two jobs and two docs
// pull requests, one of them orphaned.
func TestHeldAttackScheduleRacesTheApprovalsRerun(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Hour}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_DOCS-WHEN"] = "approved"
	w.vars["INPUT_PREVIEW"], w.vars["INPUT_WAIT"] = "false", "false"
	w.mustRun("opened")
	id := w.gh.Comments(7)[0].ID
	w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head1})
	rerun := conversation.Render(conversation.State{Phase: conversation.NotWaiting, Status: "active", Record: record.Record{JobID: "job_0002", Head: head1,
		Owed: []string{head1}, Unsettled: true, Sent: record.Sends{Total: 1, Day: "2026-11-22", OnDay: 1}}})
	var once sync.Once
	w.gh.SetFault(func(_ http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/pulls/7/reviews") {
			// The re-run's create and record, between the settle's read and its send.
			once.Do(func() { w.editAsAnotherRun(id, rerun) })
		}
		return false
	})
	w.clk.Advance(15 * time.Minute)
	w.settleRun()
	w.mustRun("the schedule")
	w.wantRequests(0, 0)
	if r := recordIn(w.gh.Comments(7)[0].Body); r.JobID != "job_0002" {
		t.Errorf("the record: %+v, want the re-run's job_0002", r)
	}
}

// TestHeldAttackApprovedNothingUnderPathsSettles: #7 changes nothing under
// paths. Its approval's run, when it reads the reviews, sets "success: No
// change under paths". When only the schedule can read them, it must end
// the same way, not leave the required check "Waits for the code's
// approval" forever while warning `"<nil>"` on every run.
func TestHeldAttackApprovedNothingUnderPathsSettles(t *testing.T) {
	t.Parallel()
	docsOnly := []fakegithub.File{codeFiles[2]}
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Hour}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.gh.SeedCommits("acme/docs", fakegithub.Commit{SHA: head1, Parents: []string{mergeBase}, Files: docsOnly})
	w.setHead(head1, docsOnly)
	w.vars["INPUT_DOCS-WHEN"] = "approved"
	w.vars["INPUT_PREVIEW"], w.vars["INPUT_WAIT"] = "false", "false"
	w.mustRun("opened")
	w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head1})
	w.clk.Advance(15 * time.Minute)
	w.settleRun()
	w.mustRun("the schedule")
	w.wantRequests(0, 0)
	if got := w.shownOn(head1); !strings.HasPrefix(got, "success: No change under paths") {
		t.Errorf("head1 after the schedule found it approved: %q, want what the approval's run sets", got)
	}
	if strings.Contains(w.stdout.String(), "<nil>") {
		t.Errorf("the log warns with a nil error:\n%s", w.stdout.String())
	}
}
