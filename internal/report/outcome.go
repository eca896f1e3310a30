package report

import (
	"context"
	"errors"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/docspr"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/preview"
	"github.com/agentjob/agent-job-action/internal/prlink"
)

// ErrJobFailed is returned when the job ends with status failed.
var ErrJobFailed = errors.New("job failed")

// ErrJobLost is a job the Agent API created, and billed, but named with an
// id no record can hold (record.PlainID): no run can follow it. A run
// that ends with it keeps that in its comment's record (record.Record's
// Lost), so that a code pull request's next push does not create another
// job.
var ErrJobLost = errors.New("no run can follow it")

// Outcome is what a run ends with: what it did, and the error that stopped
// it, if any. How the run ended (End) is derived from it in one place.
type Outcome struct {
	Skipped string // why the run did nothing; "" when it acted
	// Capped says Skipped is a cap reached (plan.Caps): the comment and a
	// code pull request's commit status say so.
	Capped bool
	// Held says the code pull request's change waits for the code's
	// approval (docs-when: approved): nothing was sent.
	Held bool
	// Released is who released the code pull request's check on its head
	// (release-label), when that is why the run sent nothing; "" for
	// other runs.
	Released string
	// Uncounted says the cap only counts as reached: the sends could not
	// all be counted (a flood of comments), so nothing was sent, and the
	// check claims no success for it.
	Uncounted bool
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
	// Closed says the code pull request was closed: the run sent its
	// job nothing and stopped following it.
	Closed bool
	Note   string // one more sentence for the comment, safe Markdown
	// Preview is the preview of the job's pull request; its URL is "" when
	// there is none.
	Preview preview.Shown
	// Docs is the job's pull request as judged for its code pull
	// request's check when the team wants it approved (docs-check:
	// approved); nil otherwise.
	Docs *docspr.Verdict
	Err  error // what stopped the run, as it happened

	// Stage is how far the run got.
	Stage Stage
	// Invalid says Err is the user's to fix before anything can be sent
	// (an empty prompt).
	Invalid bool
	ctxErr  error // the run's context error when Err happened
}

// Stage is how far a run got.
type Stage int

// The stages of a run.
const (
	StageSetup Stage = iota // verifying the sender, setting up
	StageStart              // creating the job or sending the follow-up
	StageWait               // waiting for the job
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

// Fail records err as what stopped the run, and the run's context error
// at that moment.
func (o *Outcome) Fail(ctx context.Context, err error) *Outcome {
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
	case o.Invalid:
		return Invalid
	case errors.Is(o.Err, poll.ErrTimedOut), errors.Is(o.ctxErr, context.DeadlineExceeded):
		return TimedOut
	case errors.Is(o.Err, context.Canceled), errors.Is(o.ctxErr, context.Canceled):
		return Cancelled
	}
	return Errored
}

// The status output of a run that has no job status to give, or that
// ended for a reason of its own.
const (
	// StatusSkipped: the run rightly did nothing.
	StatusSkipped = "skipped"
	// StatusDryRun: the run printed what it would send.
	StatusDryRun = "dry-run"
	// StatusSettled: a settle run (settle: true) settled what it could.
	StatusSettled = "settled"
	// StatusError: the run failed before any job status was known:
	// invalid inputs, a refused key, an API or a GitHub that did not answer.
	StatusError = "error"
)

// Status is the status output: the job's last status, skipped, dry-run,
// settled, or error when the run failed before any job status was known.
// It is never empty.
func (o *Outcome) Status() string {
	switch {
	case o.Skipped != "":
		return StatusSkipped
	case o.DryRun:
		return StatusDryRun
	case o.Settled != "" && o.Err == nil:
		return StatusSettled
	case o.Job != nil && o.Job.Status != "":
		return o.Job.Status
	}
	return StatusError
}

// CtxErr is the run's context error when Err happened, nil when the
// context had not ended.
func (o *Outcome) CtxErr() error { return o.ctxErr }

// CapReason is why the run sent nothing at a cap, or "".
func (o *Outcome) CapReason() string {
	if o.Capped {
		return o.Skipped
	}
	return ""
}

// Skip is the outcome of a run that decided not to act, for reason: exit
// 0, nothing sent to the Agent Job API; the writer's Finish logs why.
func Skip(reason string) *Outcome { return &Outcome{Skipped: reason} }

// PullRequest is the job's pull request when it is one on the GitHub at
// serverURL: what the API reports as a link is linked only then.
func (o *Outcome) PullRequest(serverURL string) (prlink.PullRequest, bool) {
	if o.Job == nil {
		return prlink.PullRequest{}, false
	}
	return prlink.Judge(o.Job.PR(), serverURL)
}

// PRURL is the address of the job's pull request on the GitHub at
// serverURL (PullRequest), or "".
func (o *Outcome) PRURL(serverURL string) string {
	if pr, ok := o.PullRequest(serverURL); ok {
		return pr.URL(serverURL)
	}
	return ""
}
