package codejob

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/codepr"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/job"
	"github.com/agentjob/agent-job-action/internal/pathfilter"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
	"github.com/agentjob/agent-job-action/internal/testbed/step"
)

var (
	head1 = strings.Repeat("1", 40)
	head2 = strings.Repeat("2", 40)
	start = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
)

// fakeAPI is the Agent Job API: one job, job_1, in status; every call
// recorded as "METHOD: the prompt's first line"; a follow-up to an ended
// job refused as the API refuses it.
type fakeAPI struct {
	status string
	calls  []string
}

func (a *fakeAPI) Create(_ context.Context, text string) (*agentapi.Job, error) {
	a.calls = append(a.calls, "CREATE: "+strings.SplitN(text, "\n", 2)[0])
	return &agentapi.Job{ID: "job_2", Status: agentapi.StatusActive}, nil
}

func (a *fakeAPI) Message(_ context.Context, id, text string) (*agentapi.Job, error) {
	a.calls = append(a.calls, "MESSAGE "+id+": "+strings.SplitN(text, "\n", 2)[0])
	if a.status == agentapi.StatusArchived {
		return nil, &httpclient.Failure{Kind: httpclient.Refused, Status: http.StatusBadRequest, Message: "job is archived"}
	}
	return &agentapi.Job{ID: id, Status: agentapi.StatusActive}, nil
}

func (a *fakeAPI) Get(_ context.Context, id string) (*agentapi.Job, error) {
	a.calls = append(a.calls, "GET "+id)
	return &agentapi.Job{ID: id, Status: a.status}, nil
}

// settler settles nothing: no record here is left working.
type settler struct{}

func (settler) Earlier(context.Context, *conversation.Thread, *conversation.Earlier, bool) (*agentapi.Job, []string, bool) {
	return nil, nil, false
}

// agent records the pull requests told that their code closed.
type agent struct{ told []string }

func (a *agent) Closed(_ context.Context, job *agentapi.Job, number int, _ string, merged bool, _ string, _ plan.Land) (string, string) {
	what := "closed"
	if merged {
		what = "merged"
	}
	a.told = append(a.told, job.ID+" "+what)
	return "", ""
}

// TestPush: a code pull request's run, event by event: what the Agent
// API received, what the room made of the pull request (the Code the
// hall's writer keeps in the record and decides the heads' statuses from),
// and how the run ended.
func TestPush(t *testing.T) {
	t.Parallel()
	src := fakegithub.File{Name: "src/limits.go", Additions: 2, Patch: "@@ +1,2 @@"}
	docs := fakegithub.File{Name: "docs/x.md", Additions: 1}
	tests := []struct {
		name    string
		pr      codepr.PullRequest
		record  *record.Record // the comment an earlier run left; nil for none
		status  string         // the job's
		wait    bool
		files   []fakegithub.File // the pull request's, and its push's
		api     []string
		job     string      // the job the run names
		code    report.Code // Heard, Owed, Waiting, Idle and NoChange as the room leaves them
		skipped string
		told    []string
	}{
		{name: "opened: a new job with the whole change", pr: codepr.PullRequest{Action: "opened", Owner: "acme", Repo: "docs", Number: 7, HeadSHA: head1},
			files: []fakegithub.File{src}, api: []string{"CREATE: Update the documentation for this change."},
			job: "job_2", code: report.Code{Heard: head1}},
		{name: "opened with nothing under paths", pr: codepr.PullRequest{Action: "opened", Owner: "acme", Repo: "docs", Number: 7, HeadSHA: head1},
			files: []fakegithub.File{docs}, skipped: "the pull request changes 1 file, not under paths: nothing to send to the docs job", code: report.Code{NoChange: true}},
		{name: "a push while the job works, waiting: a follow-up", record: &record.Record{JobID: "job_1", Head: head1, Owed: []string{head1}}, status: "active", wait: true,
			pr: codepr.PullRequest{Action: "synchronize", Owner: "acme", Repo: "docs", Number: 7, HeadSHA: head2, Before: head1}, files: []fakegithub.File{src},
			api: []string{"MESSAGE job_1: New commits were pushed to the code pull request #7 in acme/docs \"Send rate-limit headers\" (https://github.com/acme/docs/pull/7). Update the documentation for what they change."},
			job: "job_1", code: report.Code{Heard: head2, Owed: []string{head1}}},
		{name: "a push while the job works, not waiting: folded", record: &record.Record{JobID: "job_1", Head: head1, Owed: []string{head1}}, status: "active",
			pr: codepr.PullRequest{Action: "synchronize", Owner: "acme", Repo: "docs", Number: 7, HeadSHA: head2, Before: head1}, files: []fakegithub.File{src},
			api: []string{"GET job_1"}, job: "job_1", code: report.Code{Heard: head1, Owed: []string{head1}, Waiting: head2}},
		{name: "a push with nothing new under paths: the job as it stands", record: &record.Record{JobID: "job_1", Head: head1, Owed: []string{head1}}, status: "active",
			pr: codepr.PullRequest{Action: "synchronize", Owner: "acme", Repo: "docs", Number: 7, HeadSHA: head2, Before: head1}, files: []fakegithub.File{docs},
			api: []string{"GET job_1"}, job: "job_1", code: report.Code{Heard: head2, Owed: []string{head1}, Idle: true}},
		{name: "a push to a job that takes no more: a stand-in with the whole change", record: &record.Record{JobID: "job_1", Head: head1, PR: "https://github.com/acme/docs/pull/101"},
			status: agentapi.StatusArchived, wait: true,
			pr: codepr.PullRequest{Action: "synchronize", Owner: "acme", Repo: "docs", Number: 7, HeadSHA: head2, Before: head1}, files: []fakegithub.File{src},
			api: []string{"MESSAGE job_1: New commits were pushed to the code pull request #7 in acme/docs \"Send rate-limit headers\" (https://github.com/acme/docs/pull/7). Update the documentation for what they change.",
				"CREATE: Update the documentation for this change."},
			job: "job_2", code: report.Code{Heard: head2}},
		{name: "closed: the job gets nothing more", record: &record.Record{JobID: "job_1", Head: head1, Owed: []string{head1}}, status: "completed",
			pr:  codepr.PullRequest{Action: "closed", Owner: "acme", Repo: "docs", Number: 7, HeadSHA: head1, Merged: true},
			api: []string{"GET job_1"}, told: []string{"job_1 merged"}, job: "job_1", code: report.Code{Heard: head1, Owed: []string{head1}}},
		{name: "closed with no job", pr: codepr.PullRequest{Action: "closed", Owner: "acme", Repo: "docs", Number: 7, HeadSHA: head1},
			skipped: "pull request #7 was closed and has no docs job: nothing to stop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := fakegithub.New(fakegithub.Options{Check: ghspec.Checker()})
			t.Cleanup(func() {
				srv.Close()
				if u := srv.Unexpected(); len(u) > 0 {
					t.Errorf("unexpected GitHub requests: %q", u)
				}
			})
			gh, err := ghclient.New(srv.Client(), srv.Client(), srv.APIURL(), fakegithub.DefaultToken)
			if err != nil {
				t.Fatal(err)
			}
			srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", HeadSHA: tt.pr.HeadSHA, Files: tt.files})
			srv.SeedComparison("acme/docs", head1, head2, fakegithub.Comparison{Status: "ahead", Files: tt.files})
			if tt.record != nil {
				srv.SeedComment(7, fakegithub.BotLogin, true, conversation.Render(conversation.State{Phase: conversation.Done, Record: *tt.record}))
			}
			var out bytes.Buffer
			rep, clk := step.Reporter(t, &out)
			p := rep.Progress
			th := &conversation.Thread{GH: gh, Owner: "acme", Repo: "docs", Number: 7, Warn: p.Log.Warning, Redact: func(s string) string { return s }, Code: true}
			rep.Comment, rep.Checks.GitHub = th, gh
			api := &fakeAPI{status: tt.status}
			paths, _ := pathfilter.Parse("src/**")
			ag := &agent{}
			code := &report.Code{}
			rep.Code = code // as the hall wires it
			c := &Room{Thread: th, GitHub: gh, API: api, Settler: settler{}, Agent: ag, Code: code, Progress: p, Paths: paths, Wait: tt.wait,
				Jobs:  &job.Room{API: api, Reporter: rep, Progress: p, Clock: clk, Schedule: poll.Fixed(time.Second), Deadline: start.Add(time.Minute)},
				About: prompt.CodePR{Owner: "acme", Repo: "docs", Number: 7, Title: "Send rate-limit headers", URL: "https://github.com/acme/docs/pull/7"}}
			_, o := c.Push(context.Background(), tt.pr)
			if o.Skipped != tt.skipped || o.Err != nil || o.JobID != tt.job {
				t.Errorf("the run ended skipped %q, error %v, job %q; want skipped %q, job %q\n%s", o.Skipped, o.Err, o.JobID, tt.skipped, tt.job, out.String())
			}
			if !slices.Equal(api.calls, tt.api) {
				t.Errorf("the Agent Job API got\n%q\nwant\n%q", api.calls, tt.api)
			}
			if !slices.Equal(ag.told, tt.told) {
				t.Errorf("told the docs pull request %q, want %q", ag.told, tt.told)
			}
			if code.Heard != tt.code.Heard || !slices.Equal(code.Owed, tt.code.Owed) || code.Waiting != tt.code.Waiting || code.Idle != tt.code.Idle || code.NoChange != tt.code.NoChange {
				t.Errorf("the room left heard %q, owed %q, waiting %q, idle %v, no change %v; want %+v", code.Heard, code.Owed, code.Waiting, code.Idle, code.NoChange, tt.code)
			}
			if len(srv.Statuses()) != 0 {
				t.Errorf("the room set statuses %+v: they are the hall's to decide and its writer's to set", srv.Statuses())
			}
		})
	}
}
