package publish

import (
	"context"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
)

// Statuses reads and sets commit statuses. *ghclient.Client is one.
type Statuses interface {
	Status(ctx context.Context, owner, repo, sha, context string) (ghclient.CommitStatus, bool, error)
	SetStatus(ctx context.Context, owner, repo, sha string, s ghclient.CommitStatus) error
}

var _ Statuses = (*ghclient.Client)(nil)

// Checks is the one writer of a run's commit statuses (check.Context). It
// writes the difference: nothing where GitHub shows the decided status,
// whoever set it; another (a lost write, anything else's) is rewritten, a
// success taken back logged. One it cannot read is written; one it cannot
// set is a warning, the job not affected.
type Checks struct {
	GitHub   Statuses
	Progress runlog.Progress
	// RunURL is the workflow run's address, which a status links.
	RunURL string
	// PR is the code pull request's, whose head the run's own status
	// goes on; nil for a run that is not a code pull request's.
	PR *report.Code
	// Approval says the team wants the docs pull request approved before
	// the check is green (docs-check: approved).
	Approval bool
	// Others is an open pull request at sha, other than not, whose check
	// there waits (check.Waits), 0 for none, -1 unread; nil reads none.
	Others func(ctx context.Context, owner, repo, sha string, not int) int

	set map[string]ghclient.CommitStatus // by commit: what this run set
	// cutShown says the status of a cut listing was set on the head: it
	// is said once.
	cutShown bool
}

// Set sets set's status on each of its heads of owner/repo where GitHub
// shows another status (or none; with IfNone, only none), as read once a run.
func (c *Checks) Set(ctx context.Context, owner, repo string, set check.Set) {
	heads, s := set.Heads, set.Status
	if c.set == nil {
		c.set = map[string]ghclient.CommitStatus{}
	}
	written, said := 0, s
	for _, sha := range heads {
		s := s
		// GitHub is read once a run: then what this run set is what it shows.
		shown, ok := c.set[sha]
		var err error
		if !ok {
			shown, ok, err = c.GitHub.Status(ctx, owner, repo, sha, s.Context)
		}
		kept := set.IfNone && (ok || err != nil) || set.Back && !(err == nil && ok && check.Revisited(shown, s.TargetURL))
		if !kept && !(err == nil && ok && shown.Same(s)) && set.Shares() && c.Others != nil { // one GitHub does not show yet
			if n := c.Others(ctx, owner, repo, sha, set.For); n != 0 {
				s = check.Shared(n, c.RunURL)
			}
		}
		switch {
		case err == nil && ok && shown.Same(s):
			c.set[sha] = s
			continue
		case kept && err == nil: // a check shown is kept
			c.set[sha] = shown
			continue
		case kept: // nor is one claimed over what could not be read
			c.Progress.Log.Warning(fmt.Sprintf("%s: nothing is written over it; the next scheduled run tries again", escape.Log(err.Error())))
			continue
		case err == nil && ok && s.TakesBack(shown): // a required check turned back is said
			c.Progress.Logf("GitHub showed %s (%s) on %s: the check is set again", escape.Log(shown.State), escape.Log(shown.Description), ghclient.Short(sha))
		}
		if err := c.GitHub.SetStatus(ctx, owner, repo, sha, s); err != nil {
			advice := ""
			if ghclient.IsForbidden(err) {
				advice = " (give the workflow permissions: statuses: write)"
			}
			c.Progress.Log.Warning(fmt.Sprintf("could not set the commit status %s: %s%s; the job is not affected", check.Context, escape.Log(err.Error()), advice))
			return
		}
		c.set[sha] = s
		written, said = written+1, s
	}
	if written == 0 {
		return
	}
	on := ""
	if written > 1 {
		on = fmt.Sprintf(" on %d commits", written)
	}
	c.Progress.Logf("commit status %s%s: %s (%s)", check.Context, on, said.State, escape.Log(said.Description))
}

// Apply sets the statuses d decides on owner/repo, in order.
func (c *Checks) Apply(ctx context.Context, owner, repo string, d check.Decision) {
	for _, set := range d.Sets {
		c.Set(ctx, owner, repo, set)
	}
}

// head sets the commit status of o on the code pull request's head
// commit, as package check decides it: pending while the job works
// (whether or not this run waits for it), the job's end on every head it
// covered once it has one. prURL is the job's pull request as the run may
// link it; recorded says the run has a comment whose record a later run
// settles the job's end from; ended says the run is at its end (before
// it, a job it started works).
func (c *Checks) head(ctx context.Context, o *report.Outcome, prURL string, recorded, ended bool) {
	k := c.PR
	if k == nil {
		return
	}
	decide := func(rec record.Record, f check.Facts) { c.Apply(ctx, k.PR.Owner, k.PR.Repo, check.Decide(rec, f)) }
	if len(k.Unsent) > 0 {
		decide(k.Prior, check.Facts{Event: check.Closed, Heads: k.Unsent, RunURL: c.RunURL})
	}
	if k.PR.HeadSHA == "" {
		return
	}
	// The record as this run carries it on; the cut as this run's
	// listing leaves it (a whole listing clears the record's).
	rec := k.Prior
	rec.Cut = k.Cut
	f := check.Facts{Event: check.Push, Heads: []string{k.PR.HeadSHA}, PR: k.PR.Number, Cut: k.Cut, RunURL: c.RunURL, PRLink: prURL, Linked: o.Job != nil && o.Job.PR() != "",
		Preview: o.Preview.URL, PreviewState: o.Preview.State, Approval: c.Approval, Docs: o.Docs}
	if o.Held {
		// This head only, which the record does not owe: the job, if
		// any, never heard it.
		f.Event = check.Held
		decide(rec, f)
		return
	}
	if o.Released != "" {
		// This head only, which the record no longer owes: the job's end
		// settles the older heads it heard.
		f.Event, f.ReleasedBy = check.Released, o.Released
		decide(rec, f)
		return
	}
	if o.Capped {
		// This head only: the heads an earlier push left owing wait for
		// their job's end.
		f.Event, f.Cap, f.CapUncounted = check.Capped, o.Skipped, o.Uncounted
		decide(rec, f)
		return
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
		if !c.cutShown {
			c.cutShown = true
			decide(rec, f)
		}
		return
	}
	if f.Job == check.Working {
		k.Owed = record.Owe(k.Owed, k.PR.HeadSHA)
	} else {
		f.Event, f.Heads, k.Owed = check.Ended, record.Owe(k.Owed, k.PR.HeadSHA), nil
	}
	decide(rec, f)
}

// Group sets a merge group's check on its head commit, at, as package
// check decides it from the verdict v, or, when the group could not be
// read (err), an error, so that the queue does not wait for a check that
// never comes. It returns the run's outcome: what it settled, or err.
func (r *Reporter) Group(ctx context.Context, at report.Commit, g check.Group, err error) *report.Outcome {
	o := &report.Outcome{}
	g.Unread = err != nil
	d := check.DecideGroup(g, at.HeadSHA, r.Checks.RunURL)
	r.Checks.Apply(ctx, at.Owner, at.Repo, d)
	if err != nil {
		return o.Fail(ctx, fmt.Errorf("read the merge group: %w", err))
	}
	s := d.Sets[0].Status
	o.Settled = fmt.Sprintf("merge group %s: %s (%s)", escape.Log(ghclient.Short(at.HeadSHA)), s.State, s.Description)
	return o
}
