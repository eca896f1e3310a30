package action_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
)

// apiCalls are the Agent API requests since the index from, as "METHOD
// path".
func (h *harness) apiCalls(from int) []string {
	var out []string
	for _, r := range h.api.Requests()[from:] {
		out = append(out, r.Method+" "+r.Path)
	}
	return out
}

// writes are the GitHub requests since from that change something.
func (w *codeWorld) writes(from int) []string {
	return slices.DeleteFunc(w.ghCalls(from), func(c string) bool { return strings.HasPrefix(c, "GET ") })
}

// openedNoWait is code pull request #7 opened at head1 with wait: false and
// no preview, its run done: the job works, its record left unsettled.
// mods change the inputs before the run.
func openedNoWait(t *testing.T, sc fakeapi.Scenario, mods ...func(vars map[string]string)) *codeWorld {
	t.Helper()
	w := newCodeWorld(t, sc, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_WAIT"] = "false"
	w.vars["INPUT_PREVIEW"] = "false"
	for _, m := range mods {
		m(w.vars)
	}
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	return w
}

// settleRun makes the next run a settle run on a schedule.
func (w *codeWorld) settleRun() {
	w.setEvent("schedule", map[string]any{"schedule": "*/15 * * * *"})
	w.vars["INPUT_SETTLE"] = "true"
	w.vars["INPUT_WAIT"] = "false"
	delete(w.vars, "INPUT_PROMPT")
}

// TestCodePRContinuedShowsItsDocsPR: a push after a job that did not wait
// ended continues the job, whose earlier work opened the docs pull
// request: the code pull request's comment shows it while the job works
// again, whether the API's answer to the follow-up names it or, as it may
// while the job works, does not (then the pull request the settled job
// named is shown).
func TestCodePRContinuedShowsItsDocsPR(t *testing.T) {
	t.Parallel()
	for _, named := range []bool{true, false} {
		t.Run(fmt.Sprintf("the follow-up's answer names it: %v", named), func(t *testing.T) {
			t.Parallel()
			w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
			if c := w.gh.Comments(7); len(c) != 1 || strings.Contains(c[0].Body, "pull/101") {
				t.Fatalf("comment after opening: %+v, want one, with no pull request yet", c)
			}
			w.clk.Advance(10 * time.Minute)
			if !named {
				// Requests: 1 the create, 2 the settling read, 3 the follow-up.
				w.api.FailOn(3, faults.JSON(http.StatusOK, map[string]any{"id": "job_0001", "status": "active",
					"source": map[string]any{"repository": "https://github.com/acme/docs", "ref": nil}, "model": "sonnet",
					"prLink": nil, "createdAt": "2026-11-22T09:00:00Z", "archivedAt": nil}))
			}
			retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
			w.moveHead(head1, head2, []fakegithub.File{retry}, append(codeFiles[:1:1], retry))
			w.setEvent("pull_request", push(head1, head2))
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("push: %v\n%s", err, w.stdout.String())
			}
			w.wantRequests(1, 1)
			c := w.gh.Comments(7)
			if len(c) != 1 || !strings.Contains(c[0].Body, "🚀 **Started.** Job `job_0001` is active.") ||
				!strings.Contains(c[0].Body, "\nIts pull request so far: https://github.com/acme/docs/pull/101\n") {
				t.Errorf("comment after the push: %+v, want the job working and its docs pull request", c)
			}
			if r := recordIn(c[0].Body); r.PR != "https://github.com/acme/docs/pull/101" || !r.Unsettled || r.Head != head2 {
				t.Errorf("the record after the push: %+v, want the docs pull request kept, the job working on %s", r, head2)
			}
		})
	}
}

// TestCodePRNoWaitSettled: with wait: false no runner waits on the agent.
// The run that opens the pull request creates the job and ends with its
// head pending and a record that the job works. The next push, once the
// job has ended, first settles what the opening run left (the head it
// covered gets the job's end, the agent's pull request its backlink) and
// then sends its own change, leaving its head pending; a settle: true run
// on a schedule reports the end of that on the new head and in the
// comment, sending the Agent API nothing but a read; a second settle
// writes nothing anywhere.
func TestCodePRNoWaitSettled(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	w.wantRequests(1, 0)
	w.wantOutputs(map[string]string{"status": "active", "job-id": "job_0001"})
	if got := w.statuses(); len(got) != 1 || !strings.HasPrefix(got[0], "1111 pending: ") {
		t.Fatalf("statuses after opening: %q, want the head pending", got)
	}
	c := w.gh.Comments(7)
	if len(c) != 1 || !recordIn(c[0].Body).Unsettled || !slices.Contains(recordIn(c[0].Body).Owed, head1) ||
		!strings.Contains(c[0].Body, "`wait: false`); the next run of this workflow in this thread, or a `settle: true` run, reports its end here.") {
		t.Fatalf("comment after opening: %+v", c)
	}

	// The job ends; a push comes.
	w.clk.Advance(10 * time.Minute)
	retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 5, Patch: "@@ +1,5 @@\n+func retry() {}"}
	w.moveHead(head1, head2, []fakegithub.File{retry}, append(codeFiles[:1:1], retry))
	w.setEvent("pull_request", push(head1, head2))
	from, apiFrom := len(w.gh.Requests()), len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	if got, want := w.apiCalls(apiFrom), []string{"GET /v2/agent/proj-1/job/job_0001", "POST /v2/agent/proj-1/job/job_0001/message"}; !slices.Equal(got, want) {
		t.Errorf("the push sent the Agent API %q, want the settling read, then its follow-up: %q", got, want)
	}
	got := w.statuses()
	if len(got) != 3 || !strings.HasPrefix(got[1], "1111 success: Docs updated in a pull request https://github.com/acme/docs/pull/101") || !strings.HasPrefix(got[2], "2222 pending: ") {
		t.Errorf("statuses after the push:\n%s\nwant the opening head settled with the job's end, then the new head pending", strings.Join(got, "\n"))
	}
	if !slices.Contains(w.writes(from), "POST /repos/acme/docs/issues/101/comments") {
		t.Errorf("GitHub writes %q lack the backlink on the agent's pull request", w.writes(from))
	}
	c = w.gh.Comments(7)
	if len(c) != 1 || !recordIn(c[0].Body).Unsettled || !slices.Contains(recordIn(c[0].Body).Owed, head2) || recordIn(c[0].Body).Head != head2 {
		t.Errorf("comment after the push: %+v, want the one record: the job works, owing %s's status", c, head2)
	}
	w.wantLog("settled the job an earlier run left working: job job_0001 completed, pull request https://github.com/acme/docs/pull/101")

	// A settle run after the follow-up's work has ended.
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	from, apiFrom = len(w.gh.Requests()), len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	w.wantOutputs(map[string]string{"status": "settled"})
	if got := w.apiCalls(apiFrom); !slices.Equal(got, []string{"GET /v2/agent/proj-1/job/job_0001"}) {
		t.Errorf("the settle run sent the Agent API %q, want one read", got)
	}
	got = w.statuses()
	if len(got) != 4 || !strings.HasPrefix(got[3], "2222 success: Docs updated in a pull request") {
		t.Errorf("statuses after the settle run:\n%s", strings.Join(got, "\n"))
	}
	c = w.gh.Comments(7)
	if len(c) != 1 || recordIn(c[0].Body).Unsettled || len(recordIn(c[0].Body).Owed) > 0 ||
		!strings.Contains(c[0].Body, "✅ **Done.**") || recordIn(c[0].Body).JobID != "job_0001" || recordIn(c[0].Body).Head != head2 {
		t.Errorf("comment after the settle run: %+v, want the job's end with the record kept", c)
	}
	if calls := w.ghCalls(from); !slices.Contains(calls, "GET /repos/acme/docs/issues/comments?direction=desc&page=1&per_page=100&sort=updated") {
		t.Errorf("the settle run did not read the repository's comments: %q", calls)
	}
	w.wantLog("settled 1 thread; 0 jobs still working")

	w.secondSettleQuiet()
}

// secondSettleQuiet runs the settle run again, and fails when it writes
// anything on GitHub or sends the Agent API anything: a record settled
// once is settled.
func (w *codeWorld) secondSettleQuiet() {
	w.t.Helper()
	from, apiFrom := len(w.gh.Requests()), len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		w.t.Fatalf("second settle: %v\n%s", err, w.stdout.String())
	}
	if writes := w.writes(from); len(writes) != 0 {
		w.t.Errorf("the second settle run wrote to GitHub: %q", writes)
	}
	if calls := w.apiCalls(apiFrom); len(calls) != 0 {
		w.t.Errorf("the second settle run sent the Agent API %q", calls)
	}
}

// TestCodePRPushesFolded: pushes made while the job works, in runs that do
// not wait, are held in the record as a change that waits, their heads
// pending; the run that finds the job ended (here a settle run) sends
// everything that waits in one follow-up. A pull request opened and pushed
// three times while its job works costs one create and one follow-up, and
// every change reaches the job.
func TestCodePRPushesFolded(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	files := slices.Clone(codeFiles)
	heads := []string{head1, head2, head3, head4}
	var all []fakegithub.File
	for i := 1; i < len(heads); i++ {
		w.clk.Advance(time.Minute)
		f := fakegithub.File{Name: "src/push" + string(rune('0'+i)) + ".go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
		files, all = append(files, f), append(all, f)
		w.moveHead(heads[i-1], heads[i], []fakegithub.File{f}, files)
		w.setEvent("pull_request", push(heads[i-1], heads[i]))
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("push %d: %v\n%s", i, err, w.stdout.String())
		}
	}
	w.wantRequests(1, 0)
	w.wantLog("job job_0001 is active: this push's change waits")
	c := w.gh.Comments(7)
	if len(c) != 1 || recordIn(c[0].Body).Waiting != head4 || recordIn(c[0].Body).Head != head1 {
		t.Fatalf("comment after the pushes: %+v, want the job to have heard %s and %s to wait", c, head1, head4)
	}

	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	var followUp string
	for _, r := range w.api.Requests() {
		if strings.HasSuffix(r.Path, "/message") {
			followUp = r.Prompt()
		}
	}
	for _, f := range all {
		if !strings.Contains(followUp, `"`+f.Name+`"`) {
			t.Errorf("the follow-up lacks %s:\n%s", f.Name, followUp)
		}
	}
	for _, s := range w.statuses() {
		if !strings.Contains(s, " pending: ") {
			t.Errorf("a status other than pending while the job works on what waited: %s", s)
		}
	}
	c = w.gh.Comments(7)
	if len(c) != 1 || !recordIn(c[0].Body).Unsettled || recordIn(c[0].Body).Waiting != "" || recordIn(c[0].Body).Head != head4 {
		t.Errorf("comment after sending what waited: %+v", c)
	}

	// The job ends: one settle reports it on every head.
	w.clk.Advance(10 * time.Minute)
	w.vars["GITHUB_RUN_ID"] = "4243"
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("second settle: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	final := map[string]string{}
	for _, s := range w.statuses() {
		final[s[:4]] = s
	}
	for _, h := range heads {
		if !strings.Contains(final[h[:4]], " success: ") {
			t.Errorf("head %s ends %q, want success", h[:4], final[h[:4]])
		}
	}
}

// TestDocsNoWaitSettledByNextRequest: a /docs request with wait: false
// leaves its comment saying the job works; the next request in the thread
// first reports the end of that job in the earlier comment (with the
// record of what it answered), then continues the job in its own.
func TestDocsNoWaitSettledByNextRequest(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: 5 * time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs Document the rate limits."))
	h.vars["INPUT_TRIGGER-PHRASE"] = "/docs"
	h.vars["INPUT_WAIT"] = "false"
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("first: %v\n%s", err, h.stdout.String())
	}
	first := gh.Comments(12)
	if len(first) != 1 || !recordIn(first[0].Body).Unsettled {
		t.Fatalf("first comment: %+v", first)
	}

	h.clk.Advance(10 * time.Minute)
	next := issueComment("writer", "/docs Add an example too.")
	next["comment"].(map[string]any)["id"] = 9002
	next["comment"].(map[string]any)["html_url"] = "https://github.com/acme/docs/issues/12#issuecomment-9002"
	h.setEvent("issue_comment", next)
	apiFrom := len(h.api.Requests())
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("next: %v\n%s", err, h.stdout.String())
	}
	if got, want := h.apiCalls(apiFrom), []string{"GET /v2/agent/proj-1/job/job_0001", "POST /v2/agent/proj-1/job/job_0001/message"}; !slices.Equal(got, want) {
		t.Errorf("the next request sent the Agent API %q, want %q", got, want)
	}
	cs := gh.Comments(12)
	if len(cs) != 2 {
		t.Fatalf("comments: %+v, want the earlier one and the next run's", cs)
	}
	settled := cs[0].Body
	if r := recordIn(settled); r.JobID != "job_0001" || r.Answered == nil || len(r.Answered.Sent) != 1 || r.Answered.Sent[0].String() != "c9001" {
		t.Errorf("the earlier comment's record lost its job or the request it answered: %+v\n%s", r, settled)
	}
	for _, want := range []string{"✅ **Done.** Job `job_0001` completed and opened a pull request: https://github.com/acme/docs/pull/101",
		"Reported by a later run of this workflow."} {
		if !strings.Contains(settled, want) {
			t.Errorf("the earlier comment lacks %q:\n%s", want, settled)
		}
	}
	if recordIn(settled).Unsettled {
		t.Errorf("the earlier comment is still unsettled:\n%s", settled)
	}
	if !recordIn(cs[1].Body).Unsettled || recordIn(cs[1].Body).JobID != "job_0001" {
		t.Errorf("the next comment: %s", cs[1].Body)
	}
}

// TestRunEndsBeforeItsJob: a run that reaches its timeout while the job
// works, and one whose follow-up is rate-limited past the time it has
// left, leave the head pending (not failed) and the record of the job
// whole; a later run settles what they left.
func TestRunEndsBeforeItsJob(t *testing.T) {
	t.Parallel()
	t.Run("the timeout", func(t *testing.T) {
		t.Parallel()
		w := newCodeWorld(t, fakeapi.Scenario{Runtime: 20 * time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
		w.vars["INPUT_TIMEOUT"] = "10m"
		if err := w.run(context.Background()); err == nil {
			t.Fatalf("a run at its timeout succeeded:\n%s", w.stdout.String())
		}
		w.wantOutputs(map[string]string{"timed-out": "true", "job-id": "job_0001"})
		got := w.statuses()
		if last := got[len(got)-1]; !strings.HasPrefix(last, "1111 pending: ") {
			t.Errorf("statuses %q, want the head left pending", got)
		}
		c := w.gh.Comments(7)
		if len(c) != 1 || !recordIn(c[0].Body).Unsettled || !strings.Contains(c[0].Body, "⏳ **Still working.** This run's timeout (10m0s) passed") {
			t.Fatalf("comment: %+v", c)
		}

		w.clk.Advance(30 * time.Minute)
		w.settleRun()
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("settle: %v\n%s", err, w.stdout.String())
		}
		if got := w.statuses(); !strings.HasPrefix(got[len(got)-1], "1111 success: Docs updated") {
			t.Errorf("statuses after settling: %q", got)
		}
	})
	t.Run("a rate limit past the timeout", func(t *testing.T) {
		t.Parallel()
		w := newCodeWorld(t, fakeapi.Scenario{Runtime: 3 * time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("opened: %v\n%s", err, w.stdout.String())
		}
		retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
		w.moveHead(head1, head2, []fakegithub.File{retry}, append(slices.Clone(codeFiles), retry))
		w.setEvent("pull_request", push(head1, head2))
		w.api.FailOn(len(w.api.Requests())+1, faults.RateLimited(faults.Seconds(3600)))
		if err := w.run(context.Background()); err == nil {
			t.Fatalf("a rate-limited push succeeded:\n%s", w.stdout.String())
		}
		got := w.statuses()
		if last := got[len(got)-1]; !strings.HasPrefix(last, "2222 pending: ") {
			t.Errorf("statuses %q, want the new head pending, not failed", got)
		}
		c := w.gh.Comments(7)
		if len(c) != 1 || recordIn(c[0].Body).JobID != "job_0001" || recordIn(c[0].Body).Head != head1 || !recordIn(c[0].Body).Unsettled {
			t.Fatalf("comment: %+v, want the record kept: the job, the head it heard", c)
		}
		// The next push sends everything since the head the job heard.
		w.moveHead(head2, head3, codeFiles[:1], append(slices.Clone(codeFiles), retry))
		w.setEvent("pull_request", push(head2, head3))
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("next push: %v\n%s", err, w.stdout.String())
		}
		// The fake counts the follow-up it refused with 429 too.
		w.wantRequests(1, 2)
		final := map[string]string{}
		for _, s := range w.statuses() {
			final[s[:4]] = s
		}
		for _, h := range []string{"2222", "3333"} {
			if !strings.Contains(final[h], " success: ") {
				t.Errorf("head %s ends %q, want success", h, final[h])
			}
		}
	})
}

// TestFailureAfterTheRecordKeepsIt: a push whose change cannot be read
// fails after the run read the pull request's record; the comment it
// leaves keeps the job and the head the job heard, so the next push
// continues the same job instead of creating a second.
func TestFailureAfterTheRecordKeepsIt(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: 3 * time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	// GitHub cannot say what the push changed: every comparison fails.
	w.moveHead(head1, head2, codeFiles[:1], codeFiles)
	w.gh.SetFault(func(rw http.ResponseWriter, r *http.Request) bool {
		if strings.Contains(r.URL.Path, "/compare/") {
			rw.WriteHeader(http.StatusUnprocessableEntity)
			return true
		}
		return false
	})
	w.setEvent("pull_request", push(head1, head2))
	if err := w.run(context.Background()); err == nil {
		t.Fatalf("a push whose change cannot be read succeeded:\n%s", w.stdout.String())
	}
	c := w.gh.Comments(7)
	if len(c) != 1 || recordIn(c[0].Body).JobID != "job_0001" || recordIn(c[0].Body).Head != head1 {
		t.Fatalf("comment after the failure: %+v, want the record kept", c)
	}
	w.gh.SetFault(nil)
	w.moveHead(head2, head3, codeFiles[:1], codeFiles)
	w.setEvent("pull_request", push(head2, head3))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("next push: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
}

// pushWhileWorking pushes src/push.go to #7 (head1 to head2) while its job
// works, in a run that does not wait: the change waits in the record.
func pushWhileWorking(t *testing.T, w *codeWorld) {
	t.Helper()
	w.clk.Advance(time.Minute)
	f := fakegithub.File{Name: "src/push.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
	w.moveHead(head1, head2, []fakegithub.File{f}, append(slices.Clone(codeFiles), f))
	w.setEvent("pull_request", push(head1, head2))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
}

// finalStatuses are the last status each head got, by its first four
// characters.
func (w *codeWorld) finalStatuses() map[string]string {
	final := map[string]string{}
	for _, s := range w.statuses() {
		final[s[:4]] = s
	}
	return final
}

// TestSettleAJobThatFailedWithAChangeWaiting: a job that failed cannot
// take the change pushed while it worked. The settle run sends it nothing,
// reports the failure on the head the job heard and an error on the head
// it never heard, and settles the record, keeping the head the job heard:
// a second settle run reads nothing of the job again.
func TestSettleAJobThatFailedWithAChangeWaiting(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute, Outcome: "failed"})
	pushWhileWorking(t, w)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	apiFrom := len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	if got := w.apiCalls(apiFrom); !slices.Equal(got, []string{"GET /v2/agent/proj-1/job/job_0001"}) {
		t.Errorf("the settle run sent the Agent API %q, want one read", got)
	}
	final := w.finalStatuses()
	if !strings.Contains(final["1111"], " failure: ") || !strings.HasPrefix(final["2222"], "2222 error: The docs job ended before it heard this push") {
		t.Errorf("statuses end %q", final)
	}
	c := w.gh.Comments(7)
	if len(c) != 1 || recordIn(c[0].Body).Unsettled || recordIn(c[0].Body).Head != head1 {
		t.Errorf("comment: %+v, want the record settled, keeping the head the job heard", c)
	}
	apiFrom = len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("second settle: %v\n%s", err, w.stdout.String())
	}
	if got := w.apiCalls(apiFrom); len(got) != 0 {
		t.Errorf("a second settle sent the Agent API %q", got)
	}
}

// TestDocsRequestLeavesTheCodeRecord: a /docs request in a code pull
// request continues the pull request's job, but its record (the statuses
// it owes, the change that waits) stays the code workflow's: a settle run
// then sends the change that waited and reports the job's end on every
// head.
func TestDocsRequestLeavesTheCodeRecord(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	pushWhileWorking(t, w)
	w.clk.Advance(10 * time.Minute)
	ev := issueComment("writer", "/docs Mention the header in the FAQ too.")
	ev["issue"].(map[string]any)["number"] = 7
	ev["issue"].(map[string]any)["html_url"] = "https://github.com/acme/docs/pull/7"
	ev["issue"].(map[string]any)["pull_request"] = map[string]any{"url": "https://api.github.com/repos/acme/docs/pulls/7"}
	ev["comment"].(map[string]any)["html_url"] = "https://github.com/acme/docs/pull/7#issuecomment-9001"
	w.setEvent("issue_comment", ev)
	w.vars["INPUT_TRIGGER-PHRASE"] = "/docs"
	delete(w.vars, "INPUT_PROMPT")
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("/docs: %v\n%s", err, w.stdout.String())
	}
	w.clk.Advance(30 * time.Minute)
	w.settleRun()
	for range 2 {
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("settle: %v\n%s", err, w.stdout.String())
		}
		w.clk.Advance(30 * time.Minute)
	}
	sent := false
	for _, r := range w.api.Requests() {
		sent = sent || strings.Contains(r.Prompt(), "src/push.go")
	}
	if !sent {
		t.Error("the change that waited never reached the job")
	}
	for _, h := range []string{"1111", "2222"} {
		if s := w.finalStatuses()[h]; !strings.Contains(s, " success: ") {
			t.Errorf("head %s ends %q, want success", h, s)
		}
	}
}

// TestClosedClaimsNothingForAHeadNeverSent: closing a code pull request
// whose last push waited for the job gives that head an error that says its
// change was not sent, never a success (reopened, the pull request would
// show a green check for a change no job heard), now or when a settle run
// later reports the job's end.
func TestClosedClaimsNothingForAHeadNeverSent(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	pushWhileWorking(t, w)
	w.setEvent("pull_request", codePR("closed", head2, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", false }))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("closed: %v\n%s", err, w.stdout.String())
	}
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	final := w.finalStatuses()
	if !strings.HasPrefix(final["2222"], "2222 error: Pull request closed before the docs job heard this push: reopen it and push again") {
		t.Errorf("head 2222 ends %q", final["2222"])
	}
	if !strings.Contains(final["1111"], " success: Docs updated") {
		t.Errorf("head 1111 ends %q", final["1111"])
	}
}

// TestSettleRunBacklinkSaysThePhrase: the backlink a settle run writes on
// the agent's pull request says how to ask for changes, with the
// workflow's trigger phrase, as a run that waited would have.
func TestSettleRunBacklinkSaysThePhrase(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	links := backlinks(w.gh)
	if len(links) != 1 || !strings.Contains(links[0].Body, "**To ask for changes**, write `/docs` and what to change") {
		t.Errorf("backlinks after the settle run: %+v", links)
	}
}

// TestSettleRunJudgesNoSender: a settle run started by a bot's pull
// request event (the settle workflow of docs/no-wait.md runs on the agent
// app's, and on Dependabot's, whose runs GitHub gives no secrets) answers
// no request, so it judges nobody: it reads no permission and says nothing
// of allowed-bots, a setting that plays no part in settling. With its
// inputs it settles; without the key GitHub withheld it says so and
// settles nothing; an input of the workflow's that is wrong is its error.
func TestSettleRunJudgesNoSender(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, bot string
		event     string // "" for pull_request
		vars      map[string]string
		want      string // the status output
		line      string // a line the log holds
	}{
		{name: "the agent's pull request", bot: "docs-agent[bot]", want: "settled",
			line: "settled 1 thread"},
		{name: "Dependabot's, without a key", bot: "dependabot[bot]", vars: map[string]string{"INPUT_API-KEY": ""}, want: "skipped",
			line: "skipped: this pull_request run has no api-key (GitHub gives the runs of a fork's pull request, and those Dependabot causes, no secrets), so it settles nothing: the settle workflow's next run with the key does"},
		{name: "a review of Dependabot's, without a key", bot: "dependabot[bot]", event: "pull_request_review", vars: map[string]string{"INPUT_API-KEY": ""}, want: "skipped",
			line: "skipped: this pull_request_review run has no api-key (GitHub gives the runs of a fork's pull request, and those Dependabot causes, no secrets), so it settles nothing: the settle workflow's next run with the key does"},
		{name: "a wrong input", bot: "docs-agent[bot]", vars: map[string]string{"INPUT_TIMEOUT": "5 minutes"}, want: "error",
			line: "::error::input timeout"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
			w.clk.Advance(10 * time.Minute)
			w.settleRun()
			pr := agentPR()
			pr["user"] = user(tt.bot)
			ev := map[string]any{
				"action": "opened", "number": 101, "pull_request": pr, "sender": user(tt.bot),
				"repository": map[string]any{"name": "docs", "full_name": "acme/docs", "owner": map[string]any{"login": "acme"}},
			}
			if tt.event == "pull_request_review" {
				ev["action"], ev["sender"] = "submitted", user("writer")
				ev["review"] = map[string]any{"id": 5, "user": user("writer"), "body": "", "state": "approved", "html_url": "https://github.com/acme/docs/pull/101#pullrequestreview-5"}
			}
			w.setEvent(cmpOr(tt.event, "pull_request"), ev)
			for k, v := range tt.vars {
				w.vars[k] = v
			}
			g := w.got(context.Background())
			if (g.Err != nil) != (tt.want == "error") {
				t.Fatalf("settle: %v\n%s", g.Err, g.Log)
			}
			if strings.Contains(g.Log, "allowed-bots") || strings.Contains(g.Summary, "allowed-bots") {
				t.Errorf("a settle run judged the event's sender:\n%s\n%s", g.Log, g.Summary)
			}
			if !strings.Contains(g.Log, tt.line) {
				t.Errorf("the log holds no line %q:\n%s", tt.line, g.Log)
			}
			if got := w.outputs()["status"]; got != tt.want {
				t.Errorf("status %q, want %s\n%s", got, tt.want, g.Log)
			}
			for _, r := range g.GitHub {
				if strings.Contains(r.Path, "/permission") || r.Method != http.MethodGet && tt.want != "settled" {
					t.Errorf("GitHub received %s %s", r.Method, r.Path)
				}
			}
			if tt.want != "settled" {
				if len(g.API) != 0 || len(g.GitHub) != 0 {
					t.Errorf("a run that settles nothing sent %d Agent API and %d GitHub requests", len(g.API), len(g.GitHub))
				}
				return
			}
			if got := w.finalStatuses()[head1[:4]]; !strings.HasPrefix(got, "1111 success: ") {
				t.Errorf("head1's status %q after the settle run, want success", got)
			}
		})
	}
}
