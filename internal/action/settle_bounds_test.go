package action_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/record"
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
// 1,000 most recently written comments. When there are more, it searches
// the open pull requests whose commit status is pending too, and its
// notice and its summary say so, and what it means: a record further back
// elsewhere (an issue's, which owes no status) is settled by the next run
// in its thread, not by this run.
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
	const want = "searched the newest 1000 comments and 0 open pull requests whose commit status is pending: a record elsewhere is settled by the next run in its thread"
	if !strings.Contains(g.Log, "::notice::settled 0 threads; 0 jobs still working; "+want) {
		t.Errorf("the notice does not say the search was cut:\n%s", g.Log)
	}
	// As a reader sees it: escaped characters as themselves.
	if !strings.Contains(strings.ReplaceAll(html.UnescapeString(g.Summary), "\u2060", ""), want) {
		t.Errorf("the summary does not say the search was cut:\n%s", g.Summary)
	}
}

// TestSettleSpendsItsBoundOnWhatEnded: a record is written again when its
// run ends, so the records of jobs still working are the repository's
// most recently written. A settle run that counted them toward its bound
// of threads (20) would never reach an older record whose job ended: jobs
// still working cost a read and nothing else, and the run goes on past
// them to settle the one that ended.
func TestSettleSpendsItsBoundOnWhatEnded(t *testing.T) {
	t.Parallel()
	h, gh := settling(t, fakeapi.Scenario{Runtime: time.Hour})
	h.api.AddJob("job_ended", "completed")
	ended := gh.SeedComment(200, fakegithub.BotLogin, true, conversation.Render(conversation.State{Phase: conversation.NotWaiting,
		Record: record.Record{JobID: "job_ended", Unsettled: true}}))
	for i := range 25 {
		id := fmt.Sprintf("job_working_%02d", i)
		h.api.AddRunningJob(id)
		gh.SeedComment(300+i, fakegithub.BotLogin, true, conversation.Render(conversation.State{Phase: conversation.NotWaiting,
			Record: record.Record{JobID: id, Unsettled: true}}))
	}
	g := h.got(context.Background())
	if g.Err != nil {
		t.Fatalf("settle: %v\n%s", g.Err, g.Log)
	}
	c := gh.Comments(200)
	if len(c) != 1 || c[0].ID != ended || recordIn(c[0].Body).Unsettled || !strings.Contains(c[0].Body, "✅ **Done") {
		t.Errorf("the record whose job ended, behind 25 of jobs still working, is not settled:\n%s", c[0].Body)
	}
	if !strings.Contains(g.Log, "::notice::settled 1 thread; 25 jobs still working") {
		t.Errorf("the notice does not count the thread settled and the jobs left working:\n%s", g.Log)
	}
	for _, r := range g.API {
		if r.Method != http.MethodGet {
			t.Errorf("the settle run sent the Agent API %s %s", r.Method, r.Path)
		}
	}
}
