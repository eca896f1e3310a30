package action_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
)

// TestSettleSendsNothingAfterThePullRequestClosed: a push folded while the
// job works leaves a change that waits; the pull request is then closed
// while the job still works, and its comment says the job "gets nothing
// more from this workflow". A settle run after the job's end must not
// send that job the change that waited: the pull request is closed.
func TestSettleSendsNothingAfterThePullRequestClosed(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	w.clk.Advance(time.Minute)
	f := fakegithub.File{Name: "src/push.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
	w.moveHead(head1, head2, []fakegithub.File{f}, append(slices.Clone(codeFiles), f))
	w.setEvent("pull_request", push(head1, head2))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	w.clk.Advance(time.Minute)
	w.setEvent("pull_request", codePR("closed", head2, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", false }))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("closed: %v\n%s", err, w.stdout.String())
	}
	c := w.gh.Comments(7)
	if len(c) != 1 || !strings.Contains(c[0].Body, "🏁 **Stopped.**") {
		t.Fatalf("comment after closing: %+v", c)
	}
	t.Logf("the record after closing:\n%s", c[0].Body)

	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	apiFrom := len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	for _, call := range w.apiCalls(apiFrom) {
		if strings.HasPrefix(call, "POST ") {
			t.Errorf("the settle run sent the job of a closed pull request %q", call)
		}
	}
	if c := w.gh.Comments(7); len(c) != 1 || !strings.Contains(c[0].Body, "🏁 **Stopped.**") && !strings.Contains(c[0].Body, "**Done.**") {
		t.Errorf("the closed pull request's comment after the settle run:\n%s", c[0].Body)
	}
}
