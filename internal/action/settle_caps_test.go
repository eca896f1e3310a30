package action_test

import (
	"context"
	"slices"
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
	w.moveHead(head1, head2, fakegithub.Comparison{Files: []fakegithub.File{f2}}, files)
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
	w.moveHead(head2, head3, fakegithub.Comparison{Files: []fakegithub.File{f3}}, files)
	w.setEvent("pull_request", push(head2, head3))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push past the cap: %v\n%s", err, w.stdout.String())
	}
	if sent := w.api.Creates() + w.api.Messages(); sent > 2 {
		t.Errorf("the thread had %d creates and follow-ups with max-sends-per-thread: 2", sent)
	}
}
