package poll

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/httpclient"
)

// Getter reads a job.
type Getter interface {
	Get(ctx context.Context, id string) (*agentapi.Job, error)
}

// Observer hears what happens during the wait, for the log and the comment.
type Observer interface {
	// StatusChanged is called when a poll sees a status other than the last.
	StatusChanged(job *agentapi.Job, from string)
	// UnknownStatus is called once for each status the action does not know.
	UnknownStatus(job *agentapi.Job)
	// PollFailed is called when a poll fails in a way worth trying again
	// (a transient failure, as the HTTP layer classifies it).
	PollFailed(err error)
	// Sleeping is called before each wait between polls: the job as last
	// seen, and when the next poll is due (on the Waiter's Clock), as a
	// live status line shows it.
	Sleeping(job *agentapi.Job, next time.Time)
}

// ErrTimedOut is returned when the deadline passes before the job ends.
var ErrTimedOut = errors.New("timed out")

// Waiter polls a job until it ends.
type Waiter struct {
	Jobs     Getter
	Clock    clock.Clock
	Schedule Schedule
	Deadline time.Time // on Clock
	Observer Observer
}

// Result is the end of a wait.
type Result struct {
	Job   *agentapi.Job // the last record seen
	Polls int
}

// Wait polls until job is completed, archived or failed. It returns the
// last job seen in every case, with ErrTimedOut at the deadline (also when
// the API asks for a wait past it: the error then wraps the rate-limited
// failure too), ctx's error on cancellation, or the error that makes polling
// pointless (the job is gone, the key is refused). Only a failure the HTTP
// layer classifies as transient is polled through.
func (w *Waiter) Wait(ctx context.Context, job *agentapi.Job) (Result, error) {
	res := Result{Job: job}
	start := w.Clock.Now()
	seen := map[string]bool{}
	w.checkUnknown(job, seen)
	for first := true; !res.Job.Terminal(); first = false {
		now := w.Clock.Now()
		left := w.Deadline.Sub(now)
		if left <= 0 {
			return res, ErrTimedOut
		}
		elapsed := now.Sub(start)
		if first {
			// The wall clock has moved a few microseconds since start, and a
			// schedule would take that for a later poll (Auto would skip
			// First). Schedule promises 0 for the first wait.
			elapsed = 0
		}
		wait := min(w.Schedule.Next(elapsed), left)
		w.Observer.Sleeping(res.Job, now.Add(wait))
		if err := w.Clock.Sleep(ctx, wait); err != nil {
			return res, waitErr(ctx)
		}
		if !w.Clock.Now().Before(w.Deadline) {
			return res, ErrTimedOut
		}
		next, err := w.Jobs.Get(ctx, job.ID)
		res.Polls++
		if err != nil {
			if ctx.Err() != nil {
				return res, waitErr(ctx)
			}
			var f *httpclient.Failure
			switch {
			case errors.As(err, &f) && f.Kind == httpclient.RateLimited:
				// No poll can succeed before the deadline: stop now.
				return res, fmt.Errorf("%w: %w", ErrTimedOut, err)
			case errors.As(err, &f) && f.Kind == httpclient.Transient:
				w.Observer.PollFailed(err)
				continue
			}
			// Refused (the job is gone, the key is refused) or not sent at all
			// (a job id that is not one path segment): another poll would
			// fail the same way.
			return res, err
		}
		prev := res.Job.Status
		res.Job = next
		if next.Status != prev {
			w.checkUnknown(next, seen)
			w.Observer.StatusChanged(next, prev)
		}
	}
	return res, nil
}

func (w *Waiter) checkUnknown(job *agentapi.Job, seen map[string]bool) {
	if job.Status != agentapi.StatusActive && !job.Terminal() && !seen[job.Status] {
		seen[job.Status] = true
		w.Observer.UnknownStatus(job)
	}
}

func waitErr(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return ErrTimedOut
	}
	return fmt.Errorf("wait: %w", ctx.Err())
}
