package poll

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
)

// sleeps records what an observer hears before each wait.
type sleeps struct {
	quiet
	status []string
	until  []time.Time
}

func (s *sleeps) Sleeping(job *agentapi.Job, until time.Time) {
	s.status = append(s.status, job.Status)
	s.until = append(s.until, until)
}

// countdown answers active until its last call, which answers completed.
type countdown struct{ left int }

func (c *countdown) Get(_ context.Context, id string) (*agentapi.Job, error) {
	if c.left--; c.left > 0 {
		return &agentapi.Job{ID: id, Status: agentapi.StatusActive}, nil
	}
	return &agentapi.Job{ID: id, Status: agentapi.StatusCompleted}, nil
}

// TestWaitTellsTheObserverWhenTheNextPollIsDue: before each wait the
// observer hears the job's last status and the moment of the next poll, the
// last one cut to the deadline.
func TestWaitTellsTheObserverWhenTheNextPollIsDue(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		polls    int
		deadline time.Duration
		want     []time.Duration // each until, from start
	}{
		{"three polls", 3, time.Hour, []time.Duration{10 * time.Second, 20 * time.Second, 30 * time.Second}},
		{"cut to the deadline", 5, 25 * time.Second, []time.Duration{10 * time.Second, 20 * time.Second, 25 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			obs := &sleeps{}
			w := Waiter{Jobs: &countdown{left: tt.polls}, Clock: clock.NewFake(start), Schedule: Fixed(10 * time.Second),
				Deadline: start.Add(tt.deadline), Observer: obs}
			_, _ = w.Wait(context.Background(), &agentapi.Job{ID: "job_0001", Status: agentapi.StatusActive})
			var got []time.Duration
			for _, u := range obs.until {
				got = append(got, u.Sub(start))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("next polls at %v, want %v", got, tt.want)
			}
			for _, s := range obs.status {
				if s != agentapi.StatusActive {
					t.Errorf("heard status %q before a poll, want active", s)
				}
			}
		})
	}
}
