package action_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/record"
)

// waitsFor101 is the check of a code head whose docs pull request #101
// waits for an approving review.
const waitsFor101 = "Waits for an approving review of docs pull request #101 https://github.com/acme/docs/pull/101"

// shownOn is the docs / agent-job status GitHub shows on sha of
// acme/docs (the newest of that context, whoever set it), as "state:
// description url", "" for none.
func (w *codeWorld) shownOn(sha string) string {
	w.t.Helper()
	s, ok := w.gh.Shown("acme/docs", sha, "docs / agent-job")
	if !ok {
		return ""
	}
	return s.State + ": " + s.Description + " " + s.TargetURL
}

// refuseCommentEdits makes GitHub refuse every edit of a comment with
// status and message, until the fault is cleared.
func (w *codeWorld) refuseCommentEdits(status int, message string) {
	w.gh.SetFault(func(rw http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodPatch && strings.Contains(r.URL.Path, "/issues/comments/") {
			http.Error(rw, `{"message":"`+message+`"}`, status)
			return true
		}
		return false
	})
}

// adminRequestsChanges is an admin's change request on the docs pull
// request #101, and the settle run on it: head2 waits again.
func (w *codeWorld) adminRequestsChanges() {
	w.t.Helper()
	w.gh.SeedReview(101, fakegithub.Review{Author: "admin", State: "CHANGES_REQUESTED", CommitID: docsHead})
	w.settleOnReview("admin", "CHANGES_REQUESTED", false)
	if got := w.shownOn(head2); got != "pending: "+waitsFor101 {
		w.t.Errorf("head2 after the admin's change request: %q, want it waiting again", got)
	}
}

// TestLostRecordWriteIsRepairedFromWhatGitHubShows: a settle run sets
// the approved docs' success on the code pull request's head, then GitHub
// refuses the record's write, so the record still says the docs wait. An
// admin's change request on the docs pull request then turns the head
// back to pending: the next settle run compares its judgment with the
// check GitHub shows, not with the record it could not write, and the
// run after it, which finds both as they should be, writes no status.
func TestLostRecordWriteIsRepairedFromWhatGitHubShows(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	w.refuseCommentEdits(http.StatusForbidden, "You have exceeded a secondary rate limit")
	w.setEvent("pull_request_review", reviewed("writer", "APPROVED"))
	w.vars["INPUT_SETTLE"], w.vars["INPUT_WAIT"] = "true", "false"
	delete(w.vars, "INPUT_PROMPT")
	_ = w.run(context.Background()) // the record's write fails: whatever the run says of it
	if got := w.shownOn(head2); got != "success: Docs approved in pull request #101 https://github.com/acme/docs/pull/101" {
		t.Fatalf("head2 after the approval: %q, want the approval's success", got)
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsWaiting {
		t.Fatalf("the record after its write failed: %+v, want it as before (docs waiting)", r)
	}
	w.gh.SetFault(nil)
	w.adminRequestsChanges()
	w.wantLog("GitHub showed success (\"Docs approved in pull request #101\") on 2222222: the check is set again")
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsWaiting || !r.Unsettled {
		t.Errorf("the record after the change request: %+v, want it following the waiting docs", r)
	}

	statuses := len(w.statuses())
	w.settleOnReview("writer", "COMMENTED", false)
	if got := w.statuses()[statuses:]; len(got) != 0 {
		t.Errorf("a settle run that finds the check as it should be set %q", got)
	}
}

// TestSuccessSetByAnythingElseIsRewritten: a success that the action did
// not decide (another workflow, a person with statuses: write, a token
// that leaked) on a head whose docs wait is rewritten by the next run
// that concerns it (a settle run on a review of the docs pull request)
// and by the next scheduled run, and the log says what GitHub showed.
func TestSuccessSetByAnythingElseIsRewritten(t *testing.T) {
	t.Parallel()
	forged := fakegithub.Status{Repo: "acme/docs", SHA: head2, State: "success", Context: "docs / agent-job", Description: "Looks good to me"}
	for _, tc := range []struct {
		name string
		run  func(w *codeWorld)
	}{
		{"the next run that concerns it: a review of the docs pull request", func(w *codeWorld) { w.settleOnReview("writer", "COMMENTED", false) }},
		{"the next scheduled run", func(w *codeWorld) {
			w.settleRun()
			if err := w.run(context.Background()); err != nil {
				w.t.Fatalf("scheduled settle run: %v\n%s", err, w.stdout.String())
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := approvalWorld(t, false)
			w.gh.SeedStatus(forged)
			if got := w.shownOn(head2); got != "success: Looks good to me " {
				t.Fatalf("head2 after the forged status: %q", got)
			}
			statuses := len(w.statuses())
			tc.run(w)
			if got := w.statuses()[statuses:]; !slices.Equal(got, []string{"2222 pending: " + waitsFor101}) {
				t.Errorf("statuses the run set: %q, want head2 waiting again", got)
			}
			w.wantLog("GitHub showed success (\"Looks good to me\") on 2222222: the check is set again")
			// Repaired: the same run again writes no status.
			statuses = len(w.statuses())
			tc.run(w)
			if got := w.statuses()[statuses:]; len(got) != 0 {
				t.Errorf("a second run set %q", got)
			}
		})
	}
}

// TestPushRunsLostCommentEditIsRepaired: a push's run that waits sees the
// job end with the docs pull request approved and sets the head's success,
// then GitHub refuses every edit of its comment, so the record still says
// what the run before left. An admin's change request on the docs pull
// request turns the head back to pending all the same: the settle run
// judges from what it reads, and compares with what GitHub shows.
func TestPushRunsLostCommentEditIsRepaired(t *testing.T) {
	t.Parallel()
	w, before := lostPush(t)
	if got := w.shownOn(head2); got != "success: Docs approved in pull request #101 https://github.com/acme/docs/pull/101" {
		t.Fatalf("head2 after the push's run: %q, want the approval's success", got)
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Head != before.Head {
		t.Fatalf("the record after its edits failed: %+v, want it as the opening run left it", r)
	}
	w.adminRequestsChanges()
}

// lostPush is #7 with docs-check: approved, opened, its docs pull request
// #101 approved, then head2 pushed by a run that waits and sets head2's
// success, while GitHub refuses every edit of its comment; GitHub takes
// edits again after. It returns the world and the record the opening run
// left, which the push's run could not replace.
func lostPush(t *testing.T) (*codeWorld, record.Record) {
	t.Helper()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_DOCS-CHECK"], w.vars["INPUT_PREVIEW"] = "approved", "false"
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", HeadSHA: docsHead})
	w.mustRun("opened")
	before := recordIn(w.gh.Comments(7)[0].Body)
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	w.refuseCommentEdits(http.StatusBadGateway, "Server Error")
	w.moveHead(head1, head2, codeFiles[:1], codeFiles)
	w.setEvent("pull_request", push(head1, head2))
	_ = w.run(context.Background()) // its comment's edits fail: whatever the run says of them
	w.gh.SetFault(nil)
	return w, before
}

// TestTakenBackThenApprovedAgain: after a settle run took back the lost
// push's success on head2, the admin approves the docs pull request
// again: head2, which shows a judgment of those docs, is judged again and
// turns green.
func TestTakenBackThenApprovedAgain(t *testing.T) {
	t.Parallel()
	w, _ := lostPush(t)
	w.adminRequestsChanges()
	w.gh.SeedReview(101, fakegithub.Review{Author: "admin", State: "APPROVED", CommitID: docsHead})
	w.settleOnReview("admin", "APPROVED", false)
	if got := w.shownOn(head2); !strings.HasPrefix(got, "success: Docs approved in pull request #101") {
		t.Errorf("head2 after the admin approved again: %q, want success", got)
	}
}

// TestHeldHeadCostsTheScheduleOneRead: a head whose change waits for the
// code's approval, newer than the one its job heard, shows neither a
// success nor a judgment of the docs: a settle run reads its check, and
// judges nothing.
func TestHeldHeadCostsTheScheduleOneRead(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.vars["INPUT_DOCS-WHEN"] = "approved"
	w.moveHead(head2, head3, codeFiles[:1], codeFiles)
	w.setEvent("pull_request", push(head2, head3))
	w.mustRun("#7 pushed head3, held")
	w.clk.Advance(20 * time.Minute)
	w.settleRun()
	from := len(w.gh.Requests())
	w.mustRun("the schedule")
	calls := w.ghCalls(from)
	if slices.ContainsFunc(calls, func(c string) bool { return strings.Contains(c, "/pulls/101/reviews") }) {
		t.Errorf("the schedule judged #101 for a held head: %q", calls)
	}
	if got := w.shownOn(head3); !strings.HasPrefix(got, "pending: "+check.HeldDescription) {
		t.Errorf("head3 after the schedule: %q, want it held", got)
	}
}

// TestWaitingPushShowsPendingWhileItWaits: a push with nothing new under
// paths, in a run that waits for #7's job, still working: the head shows
// the pending check while the run waits, from before its first poll, not
// only from the run's end.
func TestWaitingPushShowsPendingWhileItWaits(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 20 * time.Minute})
	pushed := []fakegithub.File{{Name: "docs/notes.md", Patch: "@@ +1 @@"}}
	w.moveHead(head1, head2, pushed, append(slices.Clone(codeFiles), pushed...))
	w.setEvent("pull_request", push(head1, head2))
	w.vars["INPUT_WAIT"], w.vars["INPUT_TIMEOUT"] = "true", "2m"
	shown := ""
	// After the push run's read of the job, the wait's first poll.
	w.api.FailOn(len(w.api.Requests())+2, func(http.ResponseWriter, *http.Request) bool {
		shown = w.shownOn(head2)
		return false
	})
	_ = w.run(context.Background())
	if !strings.HasPrefix(shown, "pending: The docs agent is updating the docs") {
		t.Errorf("head2 at the wait's first poll: %q, want pending\n%s", shown, w.stdout.String())
	}
}
