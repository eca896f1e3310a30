package poll

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/httpclient"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// scripted answers Get with its errors in turn, then with a completed job.
type scripted struct {
	errs  []error
	calls int
}

func (s *scripted) Get(_ context.Context, id string) (*agentapi.Job, error) {
	s.calls++
	if s.calls <= len(s.errs) {
		return nil, s.errs[s.calls-1]
	}
	return &agentapi.Job{ID: id, Status: agentapi.StatusCompleted}, nil
}

type failures struct {
	quiet
	got []error
}

func (f *failures) PollFailed(err error) { f.got = append(f.got, err) }

// TestWaitFollowsTheClassification: the wait polls through a transient
// failure only; a refusal or an id the client will not send stops it, and a
// rate limit past the deadline ends it as timed out, keeping the reason.
func TestWaitFollowsTheClassification(t *testing.T) {
	t.Parallel()
	transient := &agentapi.Error{Op: agentapi.OpGet, Failure: &httpclient.Failure{Kind: httpclient.Transient, Status: 503}}
	refused := &agentapi.Error{Op: agentapi.OpGet, Failure: &httpclient.Failure{Kind: httpclient.Refused, Status: 404, Message: "job not found"}}
	limited := &agentapi.Error{Op: agentapi.OpGet, Failure: &httpclient.Failure{Kind: httpclient.RateLimited, Status: 429,
		Message: "rate limit exceeded", RetryAfter: 2 * time.Hour, Left: 20 * time.Minute}}
	notSent := errors.New("get job: not a job id (it contains a slash)")
	tests := []struct {
		name      string
		errs      []error
		polls     int
		failed    int   // PollFailed calls
		want      error // nil: completed
		timedOut  bool
		inMessage string
	}{
		{"transient failures are polled through", []error{transient, transient}, 3, 2, nil, false, ""},
		{"a refusal stops the wait", []error{transient, refused}, 2, 1, refused, false, "job not found"},
		{"a rate limit past the deadline times out", []error{limited}, 1, 0, limited, true, "rate limit exceeded"},
		{"an id that is not sent stops the wait", []error{notSent}, 1, 0, notSent, false, "not a job id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
			clk := clock.NewFake(start)
			jobs := &scripted{errs: tt.errs}
			obs := &failures{}
			w := Waiter{Jobs: jobs, Clock: clk, Schedule: Fixed(10 * time.Second), Deadline: start.Add(30 * time.Minute), Observer: obs}
			res, err := w.Wait(context.Background(), &agentapi.Job{ID: "job_0001", Status: agentapi.StatusActive})
			if res.Polls != tt.polls || jobs.calls != tt.polls || len(obs.got) != tt.failed {
				t.Errorf("%d polls, %d failures reported; want %d and %d", res.Polls, len(obs.got), tt.polls, tt.failed)
			}
			if tt.want == nil {
				if err != nil || res.Job.Status != agentapi.StatusCompleted {
					t.Errorf("Wait() = %v, %v", res.Job.Status, err)
				}
				return
			}
			if !errors.Is(err, tt.want) || errors.Is(err, ErrTimedOut) != tt.timedOut || !strings.Contains(err.Error(), tt.inMessage) {
				t.Errorf("Wait() error %v; want %v, timed out %v, showing %q", err, tt.want, tt.timedOut, tt.inMessage)
			}
			if res.Job.ID != "job_0001" {
				t.Errorf("last job %+v", res.Job)
			}
		})
	}
}
