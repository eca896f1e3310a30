package action_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// TestReleaseIsBoundToItsBase: a writer's release label turns the head
// green for the change it was given on, into its base. Moved to another
// base, the pull request's change changes: the run sends the new change to
// the docs job, and the head's check waits for it again instead of keeping
// the release it no longer has.
func TestReleaseIsBoundToItsBase(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	w.setEvent("pull_request", labeled("writer", "docs-not-needed", head1))
	w.mustRun("a writer's label")
	if got := w.shownOn(head1); !strings.HasPrefix(got, "success: Docs check released by writer") {
		t.Fatalf("head1 after the release: %q", got)
	}
	w.clk.Advance(10 * time.Minute)
	retarget := codePR("edited", head1, nil)
	retarget["changes"] = map[string]any{"base": map[string]any{"ref": map[string]any{"from": "develop"}, "sha": map[string]any{"from": mergeBase}}}
	w.setEvent("pull_request", retarget)
	w.mustRun("moved to another base")
	w.wantRequests(1, 1)
	if got := w.shownOn(head1); strings.HasPrefix(got, "success: Docs check released") {
		t.Errorf("head1 after the move to another base: %q, want the release gone and the docs job's check", got)
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Released != "" {
		t.Errorf("the record after the move keeps the release of %s", r.Released)
	}
}
