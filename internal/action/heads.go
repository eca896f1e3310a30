package action

import (
	"context"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
)

// heads decides what a code pull request's run shows on its heads, as
// package check decides it.
type heads struct {
	// RunURL is the run a status links; ServerURL the GitHub whose pull
	// requests one may link; Approval is docs-check: approved.
	RunURL, ServerURL string
	Approval          bool
	cutShown          bool // a cut listing's status was decided: it is said once
}

// decide is the statuses of o on the heads of k, the code pull request's
// account: pending while the job works (whether or not this run waits for
// it), the job's end on every head it covered once it has one. recorded
// says the run has a comment whose record a later run settles the job's
// end from; ended says the run is at its end (before it, a job it started
// works). It takes the heads the job's end settles out of k.Owed, which
// the record then keeps.
func (h *heads) decide(k *report.Code, o *report.Outcome, recorded, ended bool) check.Decision {
	var d check.Decision
	decide := func(rec record.Record, f check.Facts) { d.Sets = append(d.Sets, check.Decide(rec, f).Sets...) }
	if len(k.Unsent) > 0 {
		decide(k.Prior, check.Facts{Event: check.Closed, Heads: k.Unsent, RunURL: h.RunURL})
	}
	if k.PR.HeadSHA == "" {
		return d
	}
	// The record as this run carries it on; the cut as this run's
	// listing leaves it (a whole listing clears the record's).
	rec := k.Prior
	rec.Cut = k.Cut
	f := check.Facts{Event: check.Push, Heads: []string{k.PR.HeadSHA}, PR: k.PR.Number, Cut: k.Cut, RunURL: h.RunURL, PRLink: o.PRURL(h.ServerURL),
		Linked: o.Job != nil && o.Job.PR() != "", Preview: o.Preview.URL, PreviewState: o.Preview.State, Approval: h.Approval, Docs: o.Docs}
	switch {
	case o.Held:
		// This head only, which the record does not owe: the job, if
		// any, never heard it.
		f.Event = check.Held
		decide(rec, f)
		return d
	case o.Released != "":
		// This head only, which the record no longer owes: the job's end
		// settles the older heads it heard.
		f.Event, f.ReleasedBy = check.Released, o.Released
		decide(rec, f)
		return d
	case o.Capped:
		// This head only: the heads an earlier push left owing wait for
		// their job's end.
		f.Event, f.Cap, f.CapUncounted = check.Capped, o.Skipped, o.Uncounted
		decide(rec, f)
		return d
	}
	switch end := o.End(); {
	case !ended:
		f.Job = check.Working
	case end == report.Completed, end == report.Skipped:
		f.Job = check.Done
		if k.NoChange {
			f.Job = check.NoChange
		}
	case end == report.JobFailed:
		f.Job = check.Failed
	case o.JobID != "" && (o.Job == nil || !o.Job.Terminal()) && recorded:
		// The run ended (it does not wait, its time is up, it was
		// cancelled, it could not send this push) while the job goes
		// on: it is not failed, and a later run reports its end from
		// the record the comment keeps.
		f.Job = check.Working
	case o.JobID != "" && (o.Job == nil || !o.Job.Terminal()):
		// No comment, no record: nothing will report this job's end, and
		// a pending status would hold a required check for ever.
		f.Job = check.Stopped
	default:
		f.Job = check.Errored
	}
	if f.Cut && f.Job != check.Failed {
		// What the job was not told of, no end of it settles: this head's
		// status says so once, and no later run owes it another.
		if !h.cutShown {
			h.cutShown = true
			decide(rec, f)
		}
		return d
	}
	if f.Job == check.Working {
		k.Owed = record.Owe(k.Owed, k.PR.HeadSHA)
	} else {
		f.Event, f.Heads, k.Owed = check.Ended, record.Owe(k.Owed, k.PR.HeadSHA), nil
	}
	decide(rec, f)
	return d
}

// ending is the statuses of the run's end, o, on the code pull request's
// heads: none for a run that follows none, or that skipped with nothing
// to say on them.
func (r *run) ending(o *report.Outcome) check.Decision {
	k := r.rep.Code
	if k == nil || o.Skipped != "" && !k.NoChange && !o.Capped && o.Released == "" && !o.Held {
		return check.Decision{}
	}
	return r.heads.decide(k, o, r.rep.Comment != nil, true)
}

// group sets a merge group's check on its head commit, at, as package
// check decides it from the verdict g, or, when the group could not be
// read (err), an error, so that the queue does not wait for a check that
// never comes. It returns the run's outcome: what it settled, or err.
func (r *run) group(ctx context.Context, at report.Commit, g check.Group, err error) *report.Outcome {
	o := &report.Outcome{}
	g.Unread = err != nil
	d := check.DecideGroup(g, at.HeadSHA, r.rep.Checks.RunURL)
	r.rep.Checks.Apply(ctx, at.Owner, at.Repo, d)
	if err != nil {
		return o.Fail(ctx, fmt.Errorf("read the merge group: %w", err))
	}
	s := d.Sets[0].Status
	o.Settled = fmt.Sprintf("merge group %s: %s (%s)", escape.Log(ghclient.Short(at.HeadSHA)), s.State, s.Description)
	return o
}
