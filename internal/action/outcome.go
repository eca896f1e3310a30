package action

import (
	"context"
	"errors"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/preview"
)

// ErrJobFailed is returned when the job ends with status failed.
var ErrJobFailed = errors.New("job failed")

// Outcome is what a run ends with: what it did, and the error that stopped
// it, if any. How the run ended (End) is derived from it in one place.
type Outcome struct {
	Skipped string // why the run did nothing; "" when it acted
	// Capped says Skipped is a cap reached (plan.Caps): the comment and a
	// code pull request's commit status say so.
	Capped bool
	// Settled says what a settle run (settle: true) settled; "" for
	// other runs.
	Settled string
	// AnsweredIn is the comment of the earlier run that answered this
	// run's request, when that is why it was skipped.
	AnsweredIn string
	DryRun     bool
	JobID      string        // the job the run created or continued
	Job        *agentapi.Job // the last record seen; nil when none
	Polls      int
	FollowUp   bool // the prompt went to an existing job
	// closed says the code pull request was closed: the run sent its
	// job nothing and stopped following it.
	closed bool
	Note   string // one more sentence for the comment, safe Markdown
	// Preview is the preview of the job's pull request; its URL is "" when
	// there is none.
	Preview preview.Shown
	Err     error // what stopped the run, as it happened

	stage  stage
	ctxErr error // the run's context error when Err happened
	// invalid says Err is the user's to fix before anything can be sent
	// (an empty prompt).
	invalid bool
}

// stage is how far a run got.
type stage int

const (
	stageSetup stage = iota // verifying the sender, setting up
	stageStart              // creating the job or sending the follow-up
	stageWait               // waiting for the job
)

// End is how a run ended.
type End int

// The ways a run ends.
const (
	Completed  End = iota // the job ended completed or archived (or with an unknown terminal status)
	JobFailed             // the job ended with status failed
	NotWaiting            // started, and the run did not wait (wait: false)
	TimedOut              // the step's timeout passed
	Cancelled             // the workflow was cancelled
	Errored               // the run failed for another reason
	Skipped               // the run rightly did nothing
	DryRun                // the run printed what it would send
	Settled               // a settle run settled what it could (settle: true)
	Invalid               // the inputs or the event cannot make a run; nothing was sent
)

// Error is what a failed run returns: the error the user read, and how the
// run ended, from which the program's exit status is derived.
type Error struct {
	End End
	Err error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// fail records err as what stopped the run.
func (o *Outcome) fail(ctx context.Context, err error) *Outcome {
	o.Err, o.ctxErr = err, ctx.Err()
	return o
}

// End says how the run ended.
func (o *Outcome) End() End {
	switch {
	case o.Skipped != "":
		return Skipped
	case o.DryRun:
		return DryRun
	case o.Settled != "" && o.Err == nil:
		return Settled
	case o.Err == nil && o.Job != nil && o.Job.Status == agentapi.StatusFailed:
		return JobFailed
	case o.Err == nil && o.Job != nil && o.Job.Terminal():
		return Completed
	case o.Err == nil:
		return NotWaiting
	case o.invalid:
		return Invalid
	case errors.Is(o.Err, poll.ErrTimedOut), errors.Is(o.ctxErr, context.DeadlineExceeded):
		return TimedOut
	case errors.Is(o.Err, context.Canceled), errors.Is(o.ctxErr, context.Canceled):
		return Cancelled
	}
	return Errored
}

// StatusError is the status output of a run that failed before any job
// status was known: invalid inputs, a refused key, an API or a GitHub that
// did not answer.
const StatusError = "error"

// Status is the status output: the job's last status, skipped, dry-run,
// or error when the run failed before any job status was known. It is
// never empty.
func (o *Outcome) Status() string {
	switch {
	case o.Skipped != "":
		return "skipped"
	case o.DryRun:
		return "dry-run"
	case o.Settled != "" && o.Err == nil:
		return "settled"
	case o.Job != nil && o.Job.Status != "":
		return o.Job.Status
	}
	return StatusError
}
