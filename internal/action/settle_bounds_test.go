package action_test

import (
	"context"
	"html"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
)

// settling is a harness whose runs are settle runs on a schedule in
// acme/docs, and the fake GitHub they settle.
func settling(t *testing.T, sc fakeapi.Scenario) (*harness, *fakegithub.Server) {
	t.Helper()
	h := newHarness(t, sc)
	gh := h.withGitHub(fakegithub.Options{}, "schedule", map[string]any{"schedule": "*/15 * * * *"})
	h.vars["INPUT_SETTLE"] = "true"
	h.vars["INPUT_WAIT"] = "false"
	delete(h.vars, "INPUT_PROMPT")
	return h, gh
}

// TestSettleSaysItsSearchWasCut: a settle run reads the repository's
// 1,000 most recently written comments. When there are more, its notice
// and its summary say so, and what it means: a record further back is
// settled by the next run in its thread, not by this run.
func TestSettleSaysItsSearchWasCut(t *testing.T) {
	t.Parallel()
	h, gh := settling(t, fakeapi.Scenario{})
	for range 1001 {
		gh.SeedComment(12, "writer", false, "Any news?")
	}
	g := h.got(context.Background())
	if g.Err != nil {
		t.Fatalf("settle: %v\n%s", g.Err, g.Log)
	}
	const want = "searched the newest 1000 comments only: a record further back is settled by the next run in its thread"
	if !strings.Contains(g.Log, "::notice::settled 0 threads; 0 jobs still working; "+want) {
		t.Errorf("the notice does not say the search was cut:\n%s", g.Log)
	}
	// As a reader sees it: escaped characters as themselves.
	if !strings.Contains(strings.ReplaceAll(html.UnescapeString(g.Summary), "\u2060", ""), want) {
		t.Errorf("the summary does not say the search was cut:\n%s", g.Summary)
	}
}
