package job

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
	"github.com/agentjob/agent-job-action/internal/testbed/step"
)

// fakeAPI is the Agent Job API: it records each call as "METHOD id:
// text", answers a follow-up to a job in refuse with that failure, and a
// read with the statuses in reads, in turn.
type fakeAPI struct {
	calls  []string
	refuse map[string]error
	reads  []string
	// created is the id a create names its job, "" for job_new.
	created string
}

func (a *fakeAPI) Create(_ context.Context, text string) (*agentapi.Job, error) {
	a.calls = append(a.calls, "CREATE: "+text)
	return &agentapi.Job{ID: cmp.Or(a.created, "job_new"), Status: agentapi.StatusActive}, nil
}

func (a *fakeAPI) Message(_ context.Context, id, text string) (*agentapi.Job, error) {
	a.calls = append(a.calls, "MESSAGE "+id+": "+text)
	if err := a.refuse[id]; err != nil {
		return nil, err
	}
	return &agentapi.Job{ID: id, Status: agentapi.StatusActive}, nil
}

func (a *fakeAPI) Get(_ context.Context, id string) (*agentapi.Job, error) {
	a.calls = append(a.calls, "GET "+id)
	if len(a.reads) == 0 {
		return nil, errors.New("no more reads")
	}
	st := a.reads[0]
	a.reads = a.reads[1:]
	return &agentapi.Job{ID: id, Status: st}, nil
}

var start = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// writer is the room's Writer, recording the job-id output's values and
// the sends counted, as "create" or "follow-up".
type writer struct {
	names []string
	spent []string
}

func (w *writer) Name(id string) error {
	w.names = append(w.names, id)
	return nil
}

func (w *writer) Spent(followUp bool) {
	w.spent = append(w.spent, map[bool]string{false: "create", true: "follow-up"}[followUp])
}

// observer is the wait's observer, recording each change of status as
// "from -> to".
type observer struct{ changes []string }

func (o *observer) StatusChanged(job *agentapi.Job, from string) {
	o.changes = append(o.changes, from+" -> "+job.Status)
}
func (o *observer) UnknownStatus(*agentapi.Job)             {}
func (o *observer) Sleeping(*agentapi.Job, time.Time, bool) {}
func (o *observer) PollFailed(error)                        {}

// newRoom is a room whose writer records what it is told, and whose log
// is out.
func newRoom(t *testing.T, api *fakeAPI, out *bytes.Buffer) (*Room, *writer) {
	t.Helper()
	clk := clock.NewFake(start)
	w := &writer{}
	p := runlog.Progress{Log: runlog.NewPlain(out), Clock: clk, Start: start}
	return &Room{API: api, Reporter: w, Progress: p, Clock: clk, Schedule: poll.Fixed(10 * time.Second), Deadline: start.Add(time.Minute), Beat: time.Minute}, w
}

// TestFollowUp: a follow-up goes to the job; a job that takes no more
// messages gets a stand-in with the text its caller builds, the note
// saying why, unless the caller has none (an explicit job-id); any other
// refusal is the error.
func TestFollowUp(t *testing.T) {
	t.Parallel()
	archived := &httpclient.Failure{Kind: httpclient.Refused, Status: http.StatusBadRequest, Message: "job is archived and cannot take messages"}
	limited := &httpclient.Failure{Kind: httpclient.Refused, Status: http.StatusTooManyRequests}
	tests := []struct {
		name     string
		refuse   error
		stand    bool
		calls    []string
		err      error
		job      string // the job Sent names
		followUp bool
		note     string
		names    []string // the job-id output's values, in turn
		spent    []string
	}{
		{name: "taken", calls: []string{"MESSAGE job_old: more"}, job: "job_old", followUp: true, names: []string{"job_old"}, spent: []string{"follow-up"}},
		{name: "takes no more: a stand-in", refuse: archived, stand: true, calls: []string{"MESSAGE job_old: more", "CREATE: the whole change"},
			job: "job_new", note: "The earlier job `job_old` could not take a follow-up (HTTP 400), so this started a new job. It may open a new pull request.",
			names: []string{"job_old", ""}, spent: []string{"create"}},
		{name: "takes no more, no stand-in", refuse: archived, calls: []string{"MESSAGE job_old: more"}, err: archived, job: "job_old", names: []string{"job_old"}},
		{name: "rate-limited: no stand-in", refuse: limited, stand: true, calls: []string{"MESSAGE job_old: more"}, err: limited, job: "job_old", names: []string{"job_old"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := &fakeAPI{refuse: map[string]error{"job_old": tt.refuse}}
			var out bytes.Buffer
			r, w := newRoom(t, api, &out)
			var stand *StandIn
			if tt.stand {
				stand = &StandIn{
					Why: func(f *httpclient.Failure) string {
						if f.Status != http.StatusBadRequest {
							t.Errorf("stand-in for HTTP %d", f.Status)
						}
						return "job job_old takes no more"
					},
					Text: func(context.Context) (string, error) { return "the whole change", nil },
					Also: " It may open a new pull request.",
				}
			}
			sent, err := r.FollowUp(context.Background(), "job_old", "more", stand)
			if !errors.Is(err, tt.err) {
				t.Errorf("FollowUp() error %v, want %v", err, tt.err)
			}
			if (err == nil) != (sent.Job != nil) || sent.Job != nil && sent.Job.ID != sent.ID {
				t.Errorf("FollowUp() = %+v, %v; want the job named when sent, and only then", sent, err)
			}
			if tt.note != "" && !strings.Contains(out.String(), "job job_old takes no more\n") {
				t.Errorf("the log does not say why a new job stands in:\n%s", out.String())
			}
			if !slices.Equal(api.calls, tt.calls) {
				t.Errorf("the API got %q, want %q", api.calls, tt.calls)
			}
			if sent.ID != tt.job || sent.FollowUp != tt.followUp || sent.Note != tt.note {
				t.Errorf("sent job %q follow-up %v note %q; want %q, %v, %q", sent.ID, sent.FollowUp, sent.Note, tt.job, tt.followUp, tt.note)
			}
			if !slices.Equal(w.names, tt.names) || !slices.Equal(w.spent, tt.spent) {
				t.Errorf("job-id output %q, sends counted %q; want %q, %q", w.names, w.spent, tt.names, tt.spent)
			}
		})
	}
}

// TestCreateAndWatch: a create and a read are each one call, logged, the
// create counted as a send.
func TestCreateAndWatch(t *testing.T) {
	t.Parallel()
	api := &fakeAPI{reads: []string{"active"}}
	var out bytes.Buffer
	r, w := newRoom(t, api, &out)
	if _, err := r.Create(context.Background(), "Fix typos"); err != nil {
		t.Fatal(err)
	}
	sent, err := r.Watch(context.Background(), "job_9")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"CREATE: Fix typos", "GET job_9"}; !slices.Equal(api.calls, want) || sent.ID != "job_9" || sent.FollowUp || sent.Job.Status != "active" {
		t.Errorf("calls %q, sent %+v; want %q, job_9 read, not followed up", api.calls, sent, want)
	}
	if !slices.Equal(w.names, []string{"job_9"}) || !slices.Equal(w.spent, []string{"create"}) {
		t.Errorf("job-id output %q, sends counted %q; want job_9 named before the read, the create counted", w.names, w.spent)
	}
	for _, line := range []string{"created job job_new, status active", "job job_9 is active (nothing sent: no prompt)"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("log lacks %q:\n%s", line, out.String())
		}
	}
}

// TestCreateNamedWithAnIDNoRecordHolds: a job the API names with an id
// no record can hold is created, and counted, but the create is an error
// that says so (report.ErrJobLost), in one line, with the id escaped.
func TestCreateNamedWithAnIDNoRecordHolds(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"job:0001", "job 1", "a\nb", strings.Repeat("j", 257), "job/0001", "job..0001", ".."} {
		api := &fakeAPI{created: id}
		var out bytes.Buffer
		r, w := newRoom(t, api, &out)
		job, err := r.Create(context.Background(), "Fix typos")
		if job != nil || !errors.Is(err, report.ErrJobLost) || strings.Contains(err.Error(), "\n") ||
			!strings.Contains(err.Error(), "an id the action cannot record") || !strings.Contains(err.Error(), "counts as sent") {
			t.Errorf("Create named %q: %v, %v; want one line, the job lost", id, job, err)
		}
		if len(api.calls) != 1 || !slices.Equal(w.spent, []string{"create"}) {
			t.Errorf("Create named %q: calls %q, counted %q; want the one create, counted as sent", id, api.calls, w.spent)
		}
	}
}

// TestWait: the wait polls on its schedule until the job ends, in one
// group of the log, or stops at its deadline with the job as last seen.
func TestWait(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		reads   []string
		err     error
		polls   int
		changes []string
	}{
		{name: "ends", reads: []string{"active", "active", "completed"}, polls: 3, changes: []string{"active -> completed"}},
		{name: "the deadline first", reads: []string{"active", "active", "active", "active", "active", "active", "active"}, err: poll.ErrTimedOut},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := &fakeAPI{reads: tt.reads}
			var out bytes.Buffer
			r, _ := newRoom(t, api, &out)
			obs := &observer{}
			w := r.Wait(context.Background(), &agentapi.Job{ID: "job_1", Status: "active"}, obs)
			if !slices.Equal(obs.changes, tt.changes) {
				t.Errorf("the observer heard %q, want %q", obs.changes, tt.changes)
			}
			if !errors.Is(w.Err, tt.err) || tt.polls > 0 && w.Polls != tt.polls || w.Job == nil || w.Took <= 0 {
				t.Errorf("waited %+v, want error %v after %d polls, the job as last seen and the time it took", w, tt.err, tt.polls)
			}
			if !strings.HasPrefix(out.String(), "Waiting for job job_1\n") {
				t.Errorf("the wait is not one group:\n%s", out.String())
			}
		})
	}
}

// TestLogged: a wait that is not the run's own (a settle run's) reports
// in the log only, each line escaped.
func TestLogged(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	rep, _ := step.Reporter(t, &log)
	l := Logged{Progress: rep.Progress}
	l.StatusChanged(&agentapi.Job{ID: "job_1", Status: "working"}, "active")
	l.UnknownStatus(&agentapi.Job{ID: "job_1", Status: "::warning::x"})
	l.PollFailed(errors.New("HTTP 502"))
	for _, want := range []string{"job job_1: active -> working\n", `has status "::warning::x", which this action does not know`, `poll failed, will try again: "HTTP 502"`} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, log.String())
		}
	}
}
