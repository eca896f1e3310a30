package action_test

import (
	"context"
	"html"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
)

// TestSettleEndsAGoneJob: the Agent API answers 404 for a job it no
// longer knows. A push's follow-up meets that as a job that takes no more
// messages, and starts a new job; a settle run agrees: it ends the
// record, the heads it owed get an error that says the job is gone and
// to push again (never pending for ever), and the comment says so. A
// second settle run then reads and writes nothing.
func TestSettleEndsAGoneJob(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	pushWhileWorking(t, w)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	w.api.FailOn(len(w.api.Requests())+1, faults.Status(http.StatusNotFound))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 0)
	const gone = " error: The docs job is gone (the Agent Job API no longer knows it): push again https://github.com/acme/docs/actions/runs/4242"
	final := w.finalStatuses()
	for _, h := range []string{"1111", "2222"} {
		if final[h] != h+gone {
			t.Errorf("head %s ends %q, want %q", h, final[h], h+gone)
		}
	}
	c := w.gh.Comments(7)
	if r := recordIn(c[0].Body); len(c) != 1 || r.Unsettled || r.Waiting != "" || len(r.Owed) > 0 || r.JobID != "job_0001" || r.Head != head1 {
		t.Errorf("the record after the settle run: %+v, want it ended, keeping the job and the head it heard", r)
	}
	// As a reader sees it: escaped characters as themselves.
	if !strings.Contains(strings.ReplaceAll(html.UnescapeString(c[0].Body), "\u2060", ""),
		"❌ **Could not finish.** Job job_0001 is gone: the Agent Job API answered HTTP 404 for it. The next run in this thread starts a new job.") {
		t.Errorf("the comment does not say the job is gone:\n%s", c[0].Body)
	}

	w.secondSettleQuiet()
}

// TestSettleTakesOnlyA404ForGone: a read of a job that the Agent API
// refuses with HTTP 400 says the request was wrong, not that the API no
// longer knows the job, which may still work. A settle run then ends no
// record and sets no status: the heads stay pending, the record
// unsettled, and the next settle run reads the job again.
func TestSettleTakesOnlyA404ForGone(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	before := len(w.statuses())
	w.api.FailOn(len(w.api.Requests())+1, faults.Status(http.StatusBadRequest))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	if got := w.statuses()[before:]; len(got) != 0 {
		t.Errorf("the settle run set %q on a 400", got)
	}
	c := w.gh.Comments(7)
	if r := recordIn(c[0].Body); len(c) != 1 || !r.Unsettled || r.JobID != "job_0001" || len(r.Owed) != 1 {
		t.Errorf("the record after the settle run: %+v, want it as it was, for the next settle run", r)
	}

	// The next settle run reads the job, which ended: it settles it.
	w.vars["GITHUB_RUN_ID"] = "4243"
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("second settle: %v\n%s", err, w.stdout.String())
	}
	if final := w.finalStatuses(); !strings.Contains(final["1111"], " success: ") {
		t.Errorf("head1 ends %q, want success", final["1111"])
	}
}

// TestSettleLeavesAnotherProjectsRecords: records name their job's Agent
// Job project (a mark of the API's host and the project id), and the
// Agent API answers 404 for a job of another project as for one it no
// longer knows. A settle run of another project (or another base-url),
// say a second docs project's workflow in the same repository, reads no
// job of a record of the first and writes nothing there: it does not take
// that job for gone. A settle run of the record's own project settles it.
func TestSettleLeavesAnotherProjectsRecords(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Project == "" || r.Project == "proj-1" {
		t.Fatalf("the record's project mark is %q, want a mark that is not the id", r.Project)
	}
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	w.vars["INPUT_PROJECT-ID"] = "proj-2"
	from, apiFrom, before := len(w.gh.Requests()), len(w.api.Requests()), len(w.statuses())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle of another project: %v\n%s", err, w.stdout.String())
	}
	if calls := w.apiCalls(apiFrom); len(calls) != 0 {
		t.Errorf("the other project's settle run sent the Agent API %q", calls)
	}
	if writes := w.writes(from); len(writes) != 1 || !strings.HasSuffix(writes[0], "/reactions") {
		t.Errorf("the other project's settle run wrote %q, want only the 👀 that tells its login", writes)
	}
	if got := w.statuses()[before:]; len(got) != 0 {
		t.Errorf("the other project's settle run set %q", got)
	}
	w.wantLog("records a job of another Agent Job project (its project-id or base-url differs from this run's)")

	w.vars["INPUT_PROJECT-ID"] = "proj-1"
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle of the record's project: %v\n%s", err, w.stdout.String())
	}
	if final := w.finalStatuses(); !strings.HasPrefix(final["1111"], "1111 success: ") {
		t.Errorf("head1 ends %q, want the job's end", final["1111"])
	}
}
