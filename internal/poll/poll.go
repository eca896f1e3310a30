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
	// Sleeping is called before each wait between polls, and again each
	// time a Beat cuts one short: the job as last seen, and when the next
	// poll is due (on the Waiter's Clock), as a live status line shows it.
	// beat is true when the job has not changed for another Beat: the
	// moment for a log with no live line to say so.
	Sleeping(job *agentapi.Job, next time.Time, beat bool)
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
	// Beat, when positive, is the longest the Observer goes without news
	// while the job's status stays the same: a wait between polls is cut
	// to end a Beat after the wait began, the status last changed or the
	// last beat, and Sleeping then hears beat true.
	Beat time.Duration
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
	quiet := start // the Observer's last news of the job: see Beat
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
		if err := w.sleep(ctx, res.Job, now, min(w.Schedule.Next(elapsed), left), &quiet); err != nil {
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
			quiet = w.Clock.Now()
		}
	}
	return res, nil
}

// sleep waits for the poll due wait after now, telling the Observer before
// each part of the wait; with a Beat, no part ends later than a Beat after
// *quiet, and the part after it starts with a beat.
func (w *Waiter) sleep(ctx context.Context, job *agentapi.Job, now time.Time, wait time.Duration, quiet *time.Time) error {
	next := now.Add(wait)
	for {
		part := next.Sub(now)
		beat := false
		if w.Beat > 0 {
			if beat = now.Sub(*quiet) >= w.Beat; beat {
				*quiet = now
			}
			part = min(part, quiet.Add(w.Beat).Sub(now))
		}
		w.Observer.Sleeping(job, next, beat)
		if err := w.Clock.Sleep(ctx, part); err != nil {
			return err
		}
		if now = w.Clock.Now(); !now.Before(next) {
			return nil
		}
	}
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
