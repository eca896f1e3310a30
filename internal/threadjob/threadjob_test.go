package threadjob

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/agentpr"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/job"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
	"github.com/agentjob/agent-job-action/internal/testbed/step"
)

// fakeAPI records each call; a follow-up to a job in gone is refused as
// for a job that takes no more messages.
type fakeAPI struct {
	gone  bool
	calls []string
}

func (a *fakeAPI) Create(_ context.Context, text string) (*agentapi.Job, error) {
	a.calls = append(a.calls, "CREATE: "+strings.SplitN(text, "\n", 2)[0])
	return &agentapi.Job{ID: "job_new", Status: agentapi.StatusActive}, nil
}

func (a *fakeAPI) Message(_ context.Context, id, text string) (*agentapi.Job, error) {
	a.calls = append(a.calls, "MESSAGE "+id+": "+text)
	if a.gone {
		return nil, &httpclient.Failure{Kind: httpclient.Refused, Status: http.StatusNotFound}
	}
	return &agentapi.Job{ID: id, Status: agentapi.StatusActive}, nil
}

func (a *fakeAPI) Get(_ context.Context, id string) (*agentapi.Job, error) {
	a.calls = append(a.calls, "GET "+id)
	return &agentapi.Job{ID: id, Status: agentapi.StatusCompleted}, nil
}

// settler records what it was asked.
type settler struct{ calls []string }

func (s *settler) Earlier(_ context.Context, _ *conversation.Thread, e *conversation.Earlier, own bool) (*agentapi.Job, []string, bool) {
	s.calls = append(s.calls, "settle "+e.JobID)
	return &agentapi.Job{ID: e.JobID, Status: agentapi.StatusActive}, nil, false
}

func (s *settler) Continued(_ context.Context, _ *conversation.Thread, e *conversation.Earlier) {
	s.calls = append(s.calls, "continued "+e.JobID)
}

// agent says whether the job's docs pull request is open.
type agent struct{ open bool }

func (a agent) DocsPR(_ context.Context, link string, _ func(context.Context) (*agentapi.Job, error)) *ghclient.PullRequest {
	if a.open {
		return &ghclient.PullRequest{Number: 101, Open: true}
	}
	return &ghclient.PullRequest{Number: 101, Merged: true}
}

func (a agent) Target(_ context.Context, _ agentpr.Jobs, _ string, t prompt.Target) prompt.Target {
	t.Branch = "docs/agent-job_old"
	return t
}

// TestContinue: which job a thread's request goes to, and what stands in
// for a job that takes no more; nothing is sent when the thread's job
// may be further back than a search reads.
func TestContinue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		record  *record.Record // the thread's newest, by the token; nil for none
		open    bool
		gone    bool
		pr      bool // the thread is a pull request's
		api     []string
		settled []string
		note    string
		// flood is how many comments follow the record, before how many
		// precede it; cut says a search then cannot reach it, or cannot
		// tell that it is the newest where that matters.
		flood, before int
		cut           bool
	}{
		{name: "no record: a new job", api: []string{"CREATE: Add a page."}},
		{name: "the record's job, its pull request open: a follow-up", record: &record.Record{JobID: "job_old"}, open: true,
			api: []string{"MESSAGE job_old: Add a page."}},
		{name: "its pull request merged: a new job", record: &record.Record{JobID: "job_old"},
			api: []string{"CREATE: Add a page."}},
		{name: "a record left working: settled, then continued", record: &record.Record{JobID: "job_old", Unsettled: true}, open: true,
			api: []string{"MESSAGE job_old: Add a page."}, settled: []string{"settle job_old", "continued job_old"}},
		{name: "a job that takes no more, in an issue: a stand-in", record: &record.Record{JobID: "job_old"}, open: true, gone: true,
			api:  []string{"MESSAGE job_old: Add a page.", "CREATE: Add a page."},
			note: "The earlier job `job_old` could not take a follow-up (HTTP 404), so this started a new job."},
		{name: "a job that takes no more, in its pull request: a stand-in on the same branch", record: &record.Record{JobID: "job_old"}, open: true, gone: true, pr: true,
			api: []string{"MESSAGE job_old: Add a page.",
				"CREATE: Update pull request #12 in acme/docs (https://github.com/acme/docs/pull/12), branch docs/agent-job_old: push your changes to that branch rather than opening a new pull request."},
			note: "The earlier job `job_old` could not take a follow-up (HTTP 404), so this started a new job. It may open a new pull request."},
		{name: "the record among more comments than a search reads, on both sides: nothing sent", record: &record.Record{JobID: "job_old"}, open: true, before: 150, flood: 1000, cut: true},
		{name: "the record on the oldest page, a flood after it: a follow-up", record: &record.Record{JobID: "job_old"}, open: true, flood: 2000,
			api: []string{"MESSAGE job_old: Add a page."}},
		{name: "the record on the oldest page, its pull request merged: nothing sent", record: &record.Record{JobID: "job_old"}, flood: 2000, cut: true},
		{name: "the record on the oldest page, a job that takes no more: no stand-in", record: &record.Record{JobID: "job_old"}, open: true, gone: true, flood: 2000, cut: true,
			api: []string{"MESSAGE job_old: Add a page."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := fakegithub.New(fakegithub.Options{Check: ghspec.Checker()})
			t.Cleanup(srv.Close)
			gh, err := ghclient.New(srv.Client(), srv.Client(), srv.APIURL(), fakegithub.DefaultToken)
			if err != nil {
				t.Fatal(err)
			}
			for range tt.before {
				srv.SeedComment(12, "someone", false, "first")
			}
			ask := srv.SeedComment(12, "writer", false, "/docs Add a page.")
			if tt.record != nil {
				srv.SeedComment(12, fakegithub.BotLogin, true, conversation.Render(conversation.State{Phase: conversation.Done, Record: *tt.record}))
			}
			for range tt.flood {
				srv.SeedComment(12, "someone", false, "me too")
			}
			var out bytes.Buffer
			rep, clk := step.Reporter(t, &out)
			p := rep.Progress
			th := &conversation.Thread{GH: gh, Owner: "acme", Repo: "docs", Number: 12, Warn: p.Log.Warning, Redact: func(s string) string { return s }}
			th.React(context.Background(), ask, request.Comment, "eyes") // the token's login
			api := &fakeAPI{gone: tt.gone}
			s := &settler{}
			room := &Room{Thread: th, API: api, Jobs: &job.Room{API: api, Reporter: rep, Progress: p, Clock: clk}, Settler: s, Agent: agent{open: tt.open}, Progress: p}
			if tt.pr {
				room.Target = prompt.Target{Owner: "acme", Repo: "docs", Number: 12, URL: "https://github.com/acme/docs/pull/12"}
			}
			sent, err := room.Continue(context.Background(), "Add a page.")
			if tt.cut != errors.Is(err, conversation.ErrSearchCut) || err != nil && !tt.cut {
				t.Fatalf("Continue: %v, want a cut search: %v\n%s", err, tt.cut, out.String())
			}
			if tt.cut && (sent.ID != "" || jobIDOutput(t, rep.RC.OutputFile) != "") {
				t.Errorf("nothing sent, and the run names job %q (job-id output %q), which the next run would take for the thread's", sent.ID, jobIDOutput(t, rep.RC.OutputFile))
			}
			if !slices.Equal(api.calls, tt.api) || !slices.Equal(s.calls, tt.settled) || sent.Note != tt.note {
				t.Errorf("API %q, settler %q, note %q;\nwant %q, %q, %q", api.calls, s.calls, sent.Note, tt.api, tt.settled, tt.note)
			}
		})
	}
}

// jobIDOutput is the last job-id output written in the outputs file
// path, as the runner reads it; "" for none.
func jobIDOutput(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	parts := strings.Split(string(data), "job-id<<")
	if len(parts) < 2 {
		return ""
	}
	return strings.Split(parts[len(parts)-1], "\n")[1]
}
