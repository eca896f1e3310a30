package job

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/publish"
	"github.com/agentjob/agent-job-action/internal/report"
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

// newRoom is a room whose reporter writes its outputs in a temporary file
// and its log in out.
func newRoom(t *testing.T, api *fakeAPI, out *bytes.Buffer) (*Room, *clock.Fake) {
	t.Helper()
	rep, clk := step.Reporter(t, out)
	p := rep.Progress
	return &Room{API: api, Reporter: rep, Progress: p, Clock: clk, Schedule: poll.Fixed(10 * time.Second), Deadline: start.Add(time.Minute), Beat: time.Minute}, clk
}

func jobIDOutput(t *testing.T, r *Room) string {
	t.Helper()
	data, err := os.ReadFile(r.Reporter.(*publish.Reporter).RC.OutputFile)
	if err != nil {
		return ""
	}
	// The last value written, as the runner reads it.
	parts := strings.Split(string(data), "job-id<<")
	lines := strings.Split(parts[len(parts)-1], "\n")
	return lines[1]
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
		job      string // the job the outcome names
		followUp bool
		note     string
	}{
		{name: "taken", calls: []string{"MESSAGE job_old: more"}, job: "job_old", followUp: true},
		{name: "takes no more: a stand-in", refuse: archived, stand: true, calls: []string{"MESSAGE job_old: more", "CREATE: the whole change"},
			job: "job_new", note: "The earlier job `job_old` could not take a follow-up (HTTP 400), so this started a new job."},
		{name: "takes no more, no stand-in", refuse: archived, calls: []string{"MESSAGE job_old: more"}, err: archived, job: "job_old"},
		{name: "rate-limited: no stand-in", refuse: limited, stand: true, calls: []string{"MESSAGE job_old: more"}, err: limited, job: "job_old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := &fakeAPI{refuse: map[string]error{"job_old": tt.refuse}}
			var out bytes.Buffer
			r, _ := newRoom(t, api, &out)
			o := &report.Outcome{}
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
				}
			}
			job, err := r.FollowUp(context.Background(), o, "job_old", "more", stand)
			if !errors.Is(err, tt.err) {
				t.Errorf("FollowUp() error %v, want %v", err, tt.err)
			}
			if err == nil {
				if err := r.Started(context.Background(), o, job); err != nil {
					t.Fatal(err)
				}
			}
			if tt.note != "" && !strings.Contains(out.String(), "job job_old takes no more\n") {
				t.Errorf("the log does not say why a new job stands in:\n%s", out.String())
			}
			if !slices.Equal(api.calls, tt.calls) {
				t.Errorf("the API got %q, want %q", api.calls, tt.calls)
			}
			if o.JobID != tt.job || o.FollowUp != tt.followUp || o.Note != tt.note || jobIDOutput(t, r) != tt.job {
				t.Errorf("outcome job %q follow-up %v note %q, job-id output %q; want %q, %v, %q", o.JobID, o.FollowUp, o.Note, jobIDOutput(t, r), tt.job, tt.followUp, tt.note)
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
	r, _ := newRoom(t, api, &out)
	if _, err := r.Create(context.Background(), "Fix typos"); err != nil {
		t.Fatal(err)
	}
	o := &report.Outcome{}
	if _, err := r.Watch(context.Background(), o, "job_9"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"CREATE: Fix typos", "GET job_9"}; !slices.Equal(api.calls, want) || o.JobID != "job_9" {
		t.Errorf("calls %q, outcome %q; want %q, job_9", api.calls, o.JobID, want)
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
		r, _ := newRoom(t, api, &out)
		job, err := r.Create(context.Background(), "Fix typos")
		if job != nil || !errors.Is(err, report.ErrJobLost) || strings.Contains(err.Error(), "\n") ||
			!strings.Contains(err.Error(), "an id the action cannot record") || !strings.Contains(err.Error(), "counts as sent") {
			t.Errorf("Create named %q: %v, %v; want one line, the job lost", id, job, err)
		}
		if len(api.calls) != 1 {
			t.Errorf("Create named %q: calls %q, want the one create", id, api.calls)
		}
	}
}

// TestWait: the wait polls on its schedule until the job ends, in one
// group of the log, or stops at its deadline with the job as last seen.
func TestWait(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		reads []string
		err   error
		polls int
	}{
		{name: "ends", reads: []string{"active", "active", "completed"}, polls: 3},
		{name: "the deadline first", reads: []string{"active", "active", "active", "active", "active", "active", "active"}, err: poll.ErrTimedOut},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := &fakeAPI{reads: tt.reads}
			var out bytes.Buffer
			r, _ := newRoom(t, api, &out)
			o := &report.Outcome{JobID: "job_1"}
			r.Wait(context.Background(), o, &agentapi.Job{ID: "job_1", Status: "active"})
			if !errors.Is(o.Err, tt.err) || tt.polls > 0 && o.Polls != tt.polls || o.Stage != report.StageWait {
				t.Errorf("outcome %+v, want error %v after %d polls", o, tt.err, tt.polls)
			}
			if !strings.HasPrefix(out.String(), "Waiting for job job_1\n") {
				t.Errorf("the wait is not one group:\n%s", out.String())
			}
		})
	}
}
