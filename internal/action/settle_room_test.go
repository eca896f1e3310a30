package action

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/agentpr"
	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/caps"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/docspr"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/job"
	"github.com/agentjob/agent-job-action/internal/pathfilter"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/preview"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
	"github.com/agentjob/agent-job-action/internal/testbed/step"
)

var (
	head1 = strings.Repeat("1", 40)
	head2 = strings.Repeat("2", 40)
	start = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
)

// fakeAPI is the Agent Job API: jobs by id, each read or follow-up
// recorded; a job not in jobs is a failed read, one in gone a 404.
type fakeAPI struct {
	jobs  map[string]*agentapi.Job
	gone  map[string]bool
	calls []string
	// onGet, when set, runs at each read.
	onGet func()
}

func (a *fakeAPI) Get(_ context.Context, id string) (*agentapi.Job, error) {
	a.calls = append(a.calls, "GET "+id)
	if a.onGet != nil {
		a.onGet()
	}
	j, ok := a.jobs[id]
	switch {
	case a.gone[id]:
		return nil, &agentapi.Error{Op: agentapi.OpGet, JobID: id, Failure: &httpclient.Failure{Kind: httpclient.Refused, Status: http.StatusNotFound}}
	case !ok:
		return nil, &agentapi.Error{JobID: id}
	}
	return j, nil
}

func (a *fakeAPI) Message(_ context.Context, id, text string) (*agentapi.Job, error) {
	a.calls = append(a.calls, "MESSAGE "+id+": "+strings.SplitN(text, "\n", 2)[0])
	j := *a.jobs[id]
	j.Status = agentapi.StatusActive
	return &j, nil
}

func (a *fakeAPI) Create(context.Context, string) (*agentapi.Job, error) {
	return nil, errors.New("a settle run creates no job")
}

// fakeAgent is the agent's pull request room: it records what it was asked.
type fakeAgent struct{ calls []string }

func (f *fakeAgent) Backlink(_ context.Context, job *agentapi.Job, a agentpr.Ask) {
	f.calls = append(f.calls, "backlink "+job.ID+" for "+a.URL)
}

func (f *fakeAgent) Preview(_ context.Context, job *agentapi.Job) preview.Shown {
	f.calls = append(f.calls, "preview "+job.ID)
	return preview.Shown{}
}

func (f *fakeAgent) Closed(_ context.Context, job *agentapi.Job, number int, _ string, merged bool, _ string, _ plan.Land) (string, string) {
	f.calls = append(f.calls, fmt.Sprintf("closed %s for #%d (merged %v)", job.ID, number, merged))
	return "", ""
}

// Judge asks no approval, as a run with docs-check: exists: the runs
// that ask one are tested through the run (internal/action).
func (f *fakeAgent) Judge(context.Context, *agentapi.Job, string, bool) *docspr.Verdict { return nil }

func jobOf(id, status, pr string) *agentapi.Job {
	j := &agentapi.Job{ID: id, Status: status}
	if pr != "" {
		j.PRLink = &pr
	}
	return j
}

// world is a settle run's services: GitHub (the fake, held to GitHub's
// description, every request recorded), the API and the agent's pull
// request room.
type world struct {
	gh    *fakegithub.Server
	api   *fakeAPI
	agent *fakeAgent
	room  *settler
	log   bytes.Buffer
}

func newWorld(t *testing.T, jobs ...*agentapi.Job) *world {
	t.Helper()
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
	w := &world{gh: srv, api: &fakeAPI{jobs: map[string]*agentapi.Job{}}, agent: &fakeAgent{}}
	for _, j := range jobs {
		w.api.jobs[j.ID] = j
	}
	rep, clk := step.Reporter(t, &w.log)
	rep.Checks.GitHub = gh
	p := rep.Progress
	paths, _ := pathfilter.Parse("src/**")
	w.room = &settler{Jobs: &job.Room{API: w.api, Reporter: rep, Progress: p, Clock: clk}, GitHub: gh, Comments: gh, Agent: w.agent, Reporter: rep, Progress: p, Paths: paths,
		Ask: func(url string, _ *conversation.Thread) agentpr.Ask { return agentpr.Ask{URL: url} }}
	return w
}

// seed writes a record of the token's own in thread n.
func (w *world) seed(n int, r record.Record) int64 {
	return w.gh.SeedComment(n, fakegithub.BotLogin, true, conversation.Render(conversation.State{Phase: conversation.NotWaiting, Record: r}))
}

func (w *world) statuses() []string {
	var out []string
	for _, s := range w.gh.Statuses() {
		out = append(out, s.SHA[:4]+" "+s.State)
	}
	return out
}

// TestSweep: a settle run settles, thread by thread, the records its
// token left working: what each service received, and what each thread's
// record says after.
func TestSweep(t *testing.T) {
	t.Parallel()
	const pr = "https://github.com/acme/docs/pull/101"
	tests := []struct {
		name     string
		jobs     []*agentapi.Job
		records  map[int]record.Record // by thread
		forged   bool                  // thread 9's record is a person's copy
		capped   string                // why the caps let nothing be sent, "" when they let it
		gone     bool                  // the API answers 404 for job_1
		api      []string
		agent    []string
		statuses []string
		after    map[int]record.Record // each thread's record after
		pairs    []Pair                // the code pull requests read, with their docs pull requests
		outcome  string
		log      string // a line the log holds
	}{
		{name: "nothing left working", outcome: "settled 0 threads; 0 jobs still working", log: "read 0 comments of acme/docs; records of jobs left working: 0"},
		{name: "a job still working is left as it is", jobs: []*agentapi.Job{jobOf("job_1", "active", "")},
			records: map[int]record.Record{7: {JobID: "job_1", Head: head1, Owed: []string{head1}, Unsettled: true}},
			api:     []string{"GET job_1"}, after: map[int]record.Record{7: {JobID: "job_1", Head: head1, Owed: []string{head1}, Unsettled: true}},
			outcome: "settled 0 threads; 1 job still working"},
		{name: "a job that ended: its heads, its pull request, its record", jobs: []*agentapi.Job{jobOf("job_1", "completed", pr)},
			records:  map[int]record.Record{7: {JobID: "job_1", Head: head1, Owed: []string{head1}, Unsettled: true}},
			api:      []string{"GET job_1"},
			agent:    []string{"backlink job_1 for https://github.com/acme/docs/issues/7#issuecomment-1001", "preview job_1"},
			statuses: []string{"1111 success"},
			after:    map[int]record.Record{7: {JobID: "job_1", Head: head1, PR: pr}}, pairs: []Pair{{Code: 7, Docs: pr}},
			outcome: "settled 1 thread; 0 jobs still working"},
		{name: "a failed job: no backlink, its heads failed", jobs: []*agentapi.Job{jobOf("job_1", "failed", "")},
			records:  map[int]record.Record{7: {JobID: "job_1", Head: head1, Owed: []string{head1}, Unsettled: true}},
			api:      []string{"GET job_1"},
			statuses: []string{"1111 failure"},
			after:    map[int]record.Record{7: {JobID: "job_1", Head: head1}},
			outcome:  "settled 1 thread; 0 jobs still working"},
		{name: "a change that waited is sent, the job works again", jobs: []*agentapi.Job{jobOf("job_1", "completed", pr)},
			records: map[int]record.Record{7: {JobID: "job_1", Head: head1, Owed: []string{head1, head2}, Waiting: head2, Unsettled: true}},
			api:     []string{"GET job_1", "MESSAGE job_1: New commits were pushed to the code pull request #7 in acme/docs (https://github.com/acme/docs/issues/7). Update the documentation for what they change."},
			after:   map[int]record.Record{7: {JobID: "job_1", Head: head2, Owed: []string{head1, head2}, Unsettled: true, Sent: record.Sends{Total: 1, Day: "2026-11-22", OnDay: 1}}},
			pairs:   []Pair{{Code: 7, Docs: pr}},
			outcome: "settled 0 threads; 1 job still working", log: "#7: sent job job_1 the change that waited (1 file), status active"},
		{name: "a change that waited, at a cap: its pushes get a success that says so", jobs: []*agentapi.Job{jobOf("job_1", "completed", pr)},
			capped:   "#7 has had 2 creates and follow-ups (max-sends-per-thread: 2)",
			records:  map[int]record.Record{7: {JobID: "job_1", Head: head1, Owed: []string{head1, head2}, Waiting: head2, Unsettled: true}},
			api:      []string{"GET job_1"},
			agent:    []string{"backlink job_1 for https://github.com/acme/docs/issues/7#issuecomment-1001", "preview job_1"},
			statuses: []string{"2222 success", "1111 success"},
			after:    map[int]record.Record{7: {JobID: "job_1", Head: head1, PR: pr}}, pairs: []Pair{{Code: 7, Docs: pr}},
			outcome: "settled 1 thread; 0 jobs still working", log: "#7: docs job cap reached, nothing sent: #7 has had 2 creates and follow-ups (max-sends-per-thread: 2)"},
		{name: "a failed job with a change that waited: its pushes get an error", jobs: []*agentapi.Job{jobOf("job_1", "failed", "")},
			records:  map[int]record.Record{7: {JobID: "job_1", Head: head1, Owed: []string{head1, head2}, Waiting: head2, Unsettled: true}},
			api:      []string{"GET job_1"},
			statuses: []string{"2222 error", "1111 failure"},
			after:    map[int]record.Record{7: {JobID: "job_1", Head: head1}},
			outcome:  "settled 1 thread; 0 jobs still working"},
		{name: "a job the API no longer knows: its heads get an error, its record ends", gone: true,
			records:  map[int]record.Record{7: {JobID: "job_1", Head: head1, Owed: []string{head1, head2}, Waiting: head2, Unsettled: true}},
			api:      []string{"GET job_1"},
			statuses: []string{"1111 error", "2222 error"},
			after:    map[int]record.Record{7: {JobID: "job_1", Head: head1}},
			outcome:  "settled 1 thread; 0 jobs still working", log: "#7: job job_1 is gone: the Agent Job API answered HTTP 404"},
		{name: "a person's copy of a record is left alone", jobs: []*agentapi.Job{jobOf("job_1", "completed", pr)}, forged: true,
			records: map[int]record.Record{9: {JobID: "job_1", Head: head1, Owed: []string{head1}, Unsettled: true}},
			after:   map[int]record.Record{9: {JobID: "job_1", Head: head1, Owed: []string{head1}, Unsettled: true}},
			outcome: "settled 0 threads; 0 jobs still working"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, tt.jobs...)
			// The token's login is learned from a 👀 on one of its records:
			// a settle run that finds only a person's copy learns another.
			if tt.forged {
				w.gh.SeedComment(9, "mallory", false, conversation.Render(conversation.State{Phase: conversation.NotWaiting, Record: tt.records[9]}))
			} else {
				for n, r := range tt.records {
					w.seed(n, r)
				}
			}
			w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "ada", HeadSHA: head2,
				Files: []fakegithub.File{{Name: "src/a.go", Patch: "@@ +1 @@"}}})
			w.gh.SeedComparison("acme/docs", head1, head2, fakegithub.Comparison{Status: "ahead", Files: []fakegithub.File{{Name: "src/a.go", Patch: "@@ +1 @@"}}})
			if tt.gone {
				w.api.gone = map[string]bool{"job_1": true}
			}
			if tt.capped != "" {
				w.room.Capped = func(context.Context, *conversation.Thread) (caps.Cap, error) { return caps.Cap{Why: tt.capped}, nil }
			}
			o, pairs := w.room.Sweep(context.Background(), "acme", "docs")
			if o.Settled != tt.outcome || o.Err != nil {
				t.Errorf("Sweep() = %q, %v; want %q\n%s", o.Settled, o.Err, tt.outcome, w.log.String())
			}
			if !slices.Equal(pairs, tt.pairs) {
				t.Errorf("Sweep() read the pairs %+v, want %+v", pairs, tt.pairs)
			}
			if !strings.Contains(w.log.String(), tt.log) {
				t.Errorf("the log lacks %q:\n%s", tt.log, w.log.String())
			}
			if !slices.Equal(w.api.calls, tt.api) {
				t.Errorf("the Agent Job API got %q, want %q", w.api.calls, tt.api)
			}
			if !slices.Equal(w.agent.calls, tt.agent) {
				t.Errorf("the agent's pull request got %q, want %q", w.agent.calls, tt.agent)
			}
			if got := w.statuses(); !slices.Equal(got, tt.statuses) {
				t.Errorf("statuses %q, want %q", got, tt.statuses)
			}
			for n, want := range tt.after {
				c := w.gh.Comments(n)
				if len(c) != 1 {
					t.Fatalf("#%d has %d comments, want the one", n, len(c))
				}
				got := conversation.EarlierOf(&ghclient.Comment{Body: c[0].Body}).Record
				if !equal(got, want) {
					t.Errorf("#%d's record after: %+v\nwant %+v", n, got, want)
				}
			}
		})
	}
}

func equal(a, b record.Record) bool {
	return a.JobID == b.JobID && a.Head == b.Head && slices.Equal(a.Owed, b.Owed) && a.Waiting == b.Waiting && a.PR == b.PR &&
		a.Unsettled == b.Unsettled && a.Cut == b.Cut && a.Sent == b.Sent
}

// TestEarlier: the record the next run in a thread meets; a job still
// working, or a code pull request's record met by another run, is left.
func TestEarlier(t *testing.T) {
	t.Parallel()
	const pr = "https://github.com/acme/docs/pull/101"
	tests := []struct {
		name     string
		job      *agentapi.Job
		rec      record.Record
		own      bool
		owed     []string
		ok       bool
		agent    []string
		statuses []string
		settled  bool // the earlier comment is rewritten with the job's end
	}{
		{name: "still working", job: jobOf("job_1", "active", ""), rec: record.Record{JobID: "job_1", Unsettled: true}},
		{name: "a thread's job that ended", job: jobOf("job_1", "completed", pr), rec: record.Record{JobID: "job_1", Unsettled: true},
			agent: []string{"backlink job_1 for https://github.com/acme/docs/issues/7#issuecomment-1001", "preview job_1"}, settled: true},
		{name: "a code pull request's record met by a request", job: jobOf("job_1", "completed", pr),
			rec: record.Record{JobID: "job_1", Head: head1, Owed: []string{head1}, Unsettled: true}},
		{name: "the code pull request's own record", job: jobOf("job_1", "completed", pr), own: true,
			rec: record.Record{JobID: "job_1", Head: head1, Owed: []string{head1, head2}, Waiting: head2, Unsettled: true}, owed: []string{head2}, ok: true,
			agent: []string{"backlink job_1 for https://github.com/acme/docs/issues/7#issuecomment-1001", "preview job_1"}, statuses: []string{"1111 success"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, tt.job)
			id := w.seed(7, tt.rec)
			gh := w.room.GitHub
			th := &conversation.Thread{GH: gh, Owner: "acme", Repo: "docs", Number: 7, Warn: func(string) {}, Redact: func(s string) string { return s }}
			th.SetSelf(fakegithub.BotLogin)
			c := w.gh.Comments(7)[0]
			e := conversation.EarlierOf(&ghclient.Comment{ID: c.ID, Body: c.Body, Author: c.Author, AuthorIsBot: c.IsBot,
				URL: "https://github.com/acme/docs/issues/7#issuecomment-1001"})
			job, owed, ok := w.room.Earlier(context.Background(), th, e, tt.own)
			if job == nil || job.ID != "job_1" || !slices.Equal(owed, tt.owed) || ok != tt.ok {
				t.Errorf("Earlier() = %v, %q, %v; want job_1, %q, %v", job, owed, ok, tt.owed, tt.ok)
			}
			if !slices.Equal(w.agent.calls, tt.agent) || !slices.Equal(w.statuses(), tt.statuses) {
				t.Errorf("agent %q, statuses %q; want %q, %q", w.agent.calls, w.statuses(), tt.agent, tt.statuses)
			}
			after := conversation.EarlierOf(&ghclient.Comment{Body: w.gh.Comments(7)[0].Body}).Record
			if after.Unsettled == tt.settled || w.gh.Comments(7)[0].ID != id {
				t.Errorf("the earlier comment after: %+v, want it settled: %v", after, tt.settled)
			}
		})
	}
}

// TestSweepBounds: a settle run writes to at most settleMost threads and reads
// at most Reads jobs; jobs still working count toward settleReads only, so the
// records of jobs that ended, older than theirs, are still reached.
func TestSweepBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		ended, working int // records of each, those of jobs that ended the oldest
		reads          int
		outcome        string
	}{
		{name: "one ended behind 25 working", ended: 1, working: 25, reads: 26,
			outcome: "settled 1 thread; 25 jobs still working"},
		{name: "more ended than Most", ended: settleMost + 1, reads: settleMost,
			outcome: "settled 20 threads; 0 jobs still working; wrote to 20 threads, as many as one settle run writes to: the next settle run goes on"},
		{name: "more working than Reads", ended: 1, working: settleReads, reads: settleReads,
			outcome: "settled 0 threads; 100 jobs still working; read 100 jobs, as many as one settle run reads: the next settle run goes on"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			for i := range tt.ended + tt.working {
				id, status := fmt.Sprintf("job_%03d", i), "completed"
				if i >= tt.ended {
					status = "active"
				}
				w.api.jobs[id] = jobOf(id, status, "")
				w.seed(100+i, record.Record{JobID: id, Unsettled: true})
			}
			o, _ := w.room.Sweep(context.Background(), "acme", "docs")
			if o.Settled != tt.outcome || o.Err != nil {
				t.Errorf("Sweep() = %q, %v; want %q\n%s", o.Settled, o.Err, tt.outcome, w.log.String())
			}
			if len(w.api.calls) != tt.reads {
				t.Errorf("the Agent Job API got %d reads, want %d", len(w.api.calls), tt.reads)
			}
		})
	}
}

// TestSweepStopsWhenCancelled: a settle run cancelled, or at its timeout,
// reads no more jobs; it ends cancelled, with what it did.
func TestSweepStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	w := newWorld(t, jobOf("job_1", "active", ""), jobOf("job_2", "active", ""))
	w.seed(7, record.Record{JobID: "job_1", Unsettled: true})
	w.seed(8, record.Record{JobID: "job_2", Unsettled: true})
	ctx, cancel := context.WithCancel(context.Background())
	w.api.onGet = cancel
	o, _ := w.room.Sweep(ctx, "acme", "docs")
	if o.End() != report.Cancelled || len(w.api.calls) != 1 ||
		o.Err.Error() != "settled 0 threads; 1 job still working when the run stopped: context canceled; the next settle run goes on" {
		t.Errorf("Sweep() ended %v, %v, with the API's calls %q; want it cancelled after the first read", o.End(), o.Err, w.api.calls)
	}
}

// TestSettled: an earlier record settled by a later run keeps what it
// answered, the head its job heard and whether the listing it heard was
// cut, and owes nothing more.
func TestSettled(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	rep, _ := step.Reporter(t, &log)
	r := &settler{Reporter: rep}
	answered := &backlog.Record{Sent: []request.Key{{Kind: request.Comment, ID: 9}}}
	e := &conversation.Earlier{Record: record.Record{JobID: "job_1", Head: sha1, Owed: []string{sha1}, Cut: true, Unsettled: true, Answered: answered}}
	for _, tt := range []struct {
		status string
		phase  conversation.Phase
	}{{agentapi.StatusCompleted, conversation.Done}, {agentapi.StatusFailed, conversation.Failed}} {
		s := r.settled(e, &report.Outcome{JobID: "job_1", Job: settledJob("job_1", tt.status, "https://github.com/acme/docs/pull/101")})
		if s.Phase != tt.phase || s.Record.Unsettled || s.Record.Owed != nil || s.Record.Head != sha1 || !s.Record.Cut || s.Record.Answered != answered ||
			s.Note != "Reported by a later run of this workflow." || s.PRURL != "https://github.com/acme/docs/pull/101" {
			t.Errorf("%s: %+v", tt.status, s)
		}
	}
}

func settledJob(id, status, pr string) *agentapi.Job {
	return &agentapi.Job{ID: id, Status: status, PRLink: &pr}
}
