package poll

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
)

// sleeps records what an observer hears before each wait, on clk.
type sleeps struct {
	quiet
	clk    clock.Clock
	status []string
	until  []time.Time
	beats  []time.Time
}

func (s *sleeps) Sleeping(job *agentapi.Job, until time.Time, beat bool) {
	s.status = append(s.status, job.Status)
	s.until = append(s.until, until)
	if beat {
		s.beats = append(s.beats, s.clk.Now())
	}
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
			clk := clock.NewFake(start)
			obs := &sleeps{clk: clk}
			w := Waiter{Jobs: &countdown{left: tt.polls}, Clock: clk, Schedule: Fixed(10 * time.Second),
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

// statuses answers each poll with the next status of its list.
type statuses struct{ list []string }

func (s *statuses) Get(_ context.Context, id string) (*agentapi.Job, error) {
	st := s.list[0]
	s.list = s.list[1:]
	return &agentapi.Job{ID: id, Status: st}, nil
}

// TestWaitBeats: while the job's status stays the same, the observer hears
// a beat a Beat after the wait began, the status last changed or the last
// beat, however far apart the polls are: a wait longer than a Beat is cut,
// and a beat that falls on a poll comes right after it, with what the
// poll saw. The next poll's time stays the schedule's.
func TestWaitBeats(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		every    time.Duration
		statuses []string        // what each poll sees
		beat     time.Duration   // 0: none
		beats    []time.Duration // from start
		polls    []time.Duration // each poll's time as Sleeping hears it, from start
	}{
		{"polls further apart than a beat", 4 * time.Minute, []string{"active", "active", "completed"}, time.Minute,
			minutes(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), minutes(4, 8, 12)},
		{"polls closer than a beat", 25 * time.Second, []string{"active", "active", "active", "active", "active", "completed"}, time.Minute,
			minutes(1, 2), nil},
		{"a status change starts the count again", 40 * time.Second, []string{"active", "review", "review", "completed"}, time.Minute,
			[]time.Duration{time.Minute, 140 * time.Second}, nil},
		{"no beat", 4 * time.Minute, []string{"active", "completed"}, 0, nil, minutes(4, 8)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clk := clock.NewFake(start)
			obs := &sleeps{clk: clk}
			w := Waiter{Jobs: &statuses{list: tt.statuses}, Clock: clk, Schedule: Fixed(tt.every),
				Deadline: start.Add(time.Hour), Observer: obs, Beat: tt.beat}
			res, err := w.Wait(context.Background(), &agentapi.Job{ID: "job_0001", Status: agentapi.StatusActive})
			if err != nil || res.Job.Status != agentapi.StatusCompleted || res.Polls != len(tt.statuses) {
				t.Fatalf("Wait() = %s after %d polls, %v", res.Job.Status, res.Polls, err)
			}
			var got []time.Duration
			for _, b := range obs.beats {
				got = append(got, b.Sub(start))
			}
			if !slices.Equal(got, tt.beats) {
				t.Errorf("beats at %v, want %v", got, tt.beats)
			}
			if tt.polls == nil {
				return
			}
			var dues []time.Duration
			for _, u := range obs.until {
				if d := u.Sub(start); len(dues) == 0 || dues[len(dues)-1] != d {
					dues = append(dues, d)
				}
			}
			if !slices.Equal(dues, tt.polls) {
				t.Errorf("next polls heard %v, want %v", dues, tt.polls)
			}
		})
	}
}

func minutes(m ...time.Duration) []time.Duration {
	for i := range m {
		m[i] *= time.Minute
	}
	return m
}
