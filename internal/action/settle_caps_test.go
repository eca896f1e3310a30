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
)

// TestSettleFollowUpCountsAgainstTheCaps: with max-sends-per-thread: 2, a
// code pull request whose pushes are folded while its job works gets its
// change sent by a settle run (sendWaiting). That follow-up is a send like
// any other: the record must count it, or pushes and settle runs send
// without end past the cap. Here the opening create and the settle's
// follow-up make two; the next push must be held at the cap.
func TestSettleFollowUpCountsAgainstTheCaps(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_WAIT"] = "false"
	w.vars["INPUT_PREVIEW"] = "false"
	w.vars["INPUT_MAX-SENDS-PER-THREAD"] = "2"
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	files := slices.Clone(codeFiles)
	f2 := fakegithub.File{Name: "src/push2.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
	files = append(files, f2)
	w.clk.Advance(time.Minute)
	w.moveHead(head1, head2, []fakegithub.File{f2}, files)
	w.setEvent("pull_request", push(head1, head2))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}

	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	c := w.gh.Comments(7)
	if len(c) != 1 || recordIn(c[0].Body).Sent.Total != 2 {
		t.Errorf("the record after the settle run's follow-up does not count it:\n%s", c[0].Body)
	}

	// The job ends; a push comes, under the same cap.
	w.clk.Advance(10 * time.Minute)
	delete(w.vars, "INPUT_SETTLE")
	w.vars["INPUT_MAX-SENDS-PER-THREAD"] = "2"
	f3 := fakegithub.File{Name: "src/push3.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
	files = append(files, f3)
	w.moveHead(head2, head3, []fakegithub.File{f3}, files)
	w.setEvent("pull_request", push(head2, head3))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push past the cap: %v\n%s", err, w.stdout.String())
	}
	if sent := w.api.Creates() + w.api.Messages(); sent > 2 {
		t.Errorf("the thread had %d creates and follow-ups with max-sends-per-thread: 2", sent)
	}
}

// TestSettleAtTheCapEndsWhatWaited: a settle run that finds the job ended
// with a change waiting, and the thread at max-sends-per-thread, sends
// nothing, as a push at the cap does: the heads the job heard get its
// end, the heads it never heard a success that gives the cap as the
// reason (never pending for ever), and the comment says the cap stopped
// the change. The record ends, keeping the head the job heard, so that
// the next push the caps allow sends everything since; a second settle
// run writes nothing.
func TestSettleAtTheCapEndsWhatWaited(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, func(vars map[string]string) { vars["INPUT_MAX-SENDS-PER-THREAD"] = "1" })
	pushWhileWorking(t, w)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 0)
	const why = "#7 has had 1 create or follow-up (max-sends-per-thread: 1)"
	w.wantLog("#7: docs job cap reached, nothing sent: " + why)
	final := w.finalStatuses()
	if !strings.HasPrefix(final["1111"], "1111 success: Docs updated in a pull request") {
		t.Errorf("head 1111, which the job heard, ends %q, want the job's end", final["1111"])
	}
	if want := "2222 success: Docs job cap reached: " + why + " https://github.com/acme/docs/actions/runs/4242"; final["2222"] != want {
		t.Errorf("head 2222, whose change waited, ends %q, want %q", final["2222"], want)
	}
	c := w.gh.Comments(7)
	if r := recordIn(c[0].Body); len(c) != 1 || r.Unsettled || r.Waiting != "" || len(r.Owed) > 0 || r.Head != head1 || r.Sent.Total != 1 {
		t.Errorf("the record after the settle run at the cap: %+v, want it ended, keeping the head the job heard", r)
	}
	if !strings.Contains(c[0].Body, "⏸️ Not sent: the change pushed while the job worked, as the docs job cap is reached: ") ||
		!strings.Contains(c[0].Body, "The next push that the caps allow sends it.") {
		t.Errorf("the comment does not say the cap stopped the change that waited:\n%s", c[0].Body)
	}

	// A second settle run writes nothing, and sends nothing.
	w.secondSettleQuiet()

	// A push the caps allow sends everything since the head the job heard.
	delete(w.vars, "INPUT_SETTLE")
	w.vars["INPUT_MAX-SENDS-PER-THREAD"] = "5"
	f := fakegithub.File{Name: "src/more.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
	w.moveHead(head2, head3, []fakegithub.File{f}, append(slices.Clone(codeFiles), f))
	w.setEvent("pull_request", push(head2, head3))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	if m := w.lastMessage(); !strings.Contains(m, `"src/push.go"`) || !strings.Contains(m, `"src/more.go"`) {
		t.Errorf("the follow-up lacks the change the cap stopped:\n%.800s", m)
	}
}
