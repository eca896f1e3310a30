package report

import (
	"context"
	"fmt"
	"slices"

	"github.com/agentjob/agent-job-action/internal/codepr"
	"github.com/agentjob/agent-job-action/internal/docspr"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/queue"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/runlog"
)

// Statuses sets commit statuses. *ghclient.Client is one.
type Statuses interface {
	SetStatus(ctx context.Context, owner, repo, sha string, s ghclient.CommitStatus) error
}

var _ Statuses = (*ghclient.Client)(nil)

// Checks is the one writer of a run's commit statuses (the docs job's
// check, codepr.StatusContext): a status is not set twice on a head, and a
// status that cannot be set is a warning, the job not affected.
type Checks struct {
	GitHub   Statuses
	Progress runlog.Progress
	// RunURL is the workflow run's address, which a status links.
	RunURL string
	// PR is the code pull request's, whose head the run's own status
	// goes on; nil for a run that is not a code pull request's.
	PR *Code
	// Approval says the team wants the docs pull request approved before
	// the check is green (docs-check: approved).
	Approval bool

	set map[string]ghclient.CommitStatus // by commit
}

// Set sets s on each of heads of owner/repo, but not again on a head this
// run already set it on.
func (c *Checks) Set(ctx context.Context, owner, repo string, heads []string, s ghclient.CommitStatus) {
	heads = slices.DeleteFunc(slices.Clone(heads), func(sha string) bool { return c.set[sha] == s })
	if len(heads) == 0 {
		return
	}
	for _, sha := range heads {
		if err := c.GitHub.SetStatus(ctx, owner, repo, sha, s); err != nil {
			advice := ""
			if ghclient.IsForbidden(err) {
				advice = " (give the workflow permissions: statuses: write)"
			}
			c.Progress.Log.Warning(fmt.Sprintf("could not set the commit status %s: %s%s; the job is not affected", codepr.StatusContext, escape.Log(err.Error()), advice))
			return
		}
		if c.set == nil {
			c.set = map[string]ghclient.CommitStatus{}
		}
		c.set[sha] = s
	}
	on := ""
	if len(heads) > 1 {
		on = fmt.Sprintf(" on %d commits", len(heads))
	}
	c.Progress.Logf("commit status %s%s: %s (%s)", codepr.StatusContext, on, s.State, escape.Log(s.Description))
}

// Head sets the commit status of o on the code pull request's head
// commit: pending while the job works (whether or not this run waits for
// it), the job's end on every head it covered once it has one. prURL is
// the job's pull request as the run may link it; recorded says the run
// has a comment whose record a later run settles the job's end from;
// ended says the run is at its end (before it, a job it started works).
func (c *Checks) Head(ctx context.Context, o *Outcome, prURL string, recorded, ended bool) {
	k := c.PR
	if k == nil || k.PR.HeadSHA == "" {
		return
	}
	out := codepr.Outcome{NoChange: k.NoChange, Cut: k.Cut, RunURL: c.RunURL, PRLink: prURL, Preview: o.Preview.URL, PreviewState: o.Preview.State, Capped: o.CapReason(), Docs: o.Docs, Approval: c.Approval}
	head := []string{k.PR.HeadSHA}
	if out.Capped != "" {
		// This head only: the heads an earlier push left owing wait for
		// their job's end.
		c.Set(ctx, k.PR.Owner, k.PR.Repo, head, codepr.Status(out))
		return
	}
	switch end := o.End(); {
	case !ended:
		out.Working = true
	case end == Completed, end == Skipped:
	case end == JobFailed:
		out.Failed = true
	case o.JobID != "" && (o.Job == nil || !o.Job.Terminal()) && recorded:
		// The run ended (it does not wait, its time is up, it was
		// cancelled, it could not send this push) while the job goes
		// on: it is not failed, and a later run reports its end from
		// the record the comment keeps.
		out.Working = true
	case o.JobID != "" && (o.Job == nil || !o.Job.Terminal()):
		// No comment, no record: nothing will report this job's end, and
		// a pending status would hold a required check for ever.
		out.Stopped = true
	default:
		out.Errored = true
	}
	if out.Cut && !out.Failed {
		// What the job was not told of, no end of it settles: this head's
		// status says so once, and no later run owes it another.
		if !k.cutShown {
			k.cutShown = true
			c.Set(ctx, k.PR.Owner, k.PR.Repo, head, codepr.Status(out))
		}
		return
	}
	heads := head
	if out.Working {
		k.Owed = record.Owe(k.Owed, k.PR.HeadSHA)
	} else {
		heads, k.Owed = record.Owe(k.Owed, k.PR.HeadSHA), nil
	}
	c.End(ctx, k.PR.Owner, k.PR.Repo, heads, out)
}

// End sets the status of out on heads, oldest first, the newest last:
// an approved or merged docs pull request (out.Docs) turns the newest
// head green only, and the older ones show it waiting, as they would had
// the approval come after the job's end: an approval settles the code
// pull request's latest head, never an older one.
func (c *Checks) End(ctx context.Context, owner, repo string, heads []string, out codepr.Outcome) {
	if v := out.Docs; v != nil && v.Settles() && len(heads) > 1 {
		older, waits := out, *v
		waits.State = docspr.Waiting
		older.Docs = &waits
		c.Set(ctx, owner, repo, heads[:len(heads)-1], codepr.Status(older))
		heads = heads[len(heads)-1:]
	}
	c.Set(ctx, owner, repo, heads, codepr.Status(out))
}

// Group sets a merge group's check on its head commit, at: the status
// the verdict v shows, or, when the group could not be read (err), an
// error, so that the queue does not wait for a check that never comes.
// It returns the run's outcome: what it settled, or err.
func (r *Reporter) Group(ctx context.Context, at Commit, v queue.Verdict, err error) *Outcome {
	o := &Outcome{}
	if err != nil {
		r.Checks.Set(ctx, at.Owner, at.Repo, []string{at.HeadSHA}, queue.Errored(r.Checks.RunURL))
		return o.Fail(ctx, fmt.Errorf("read the merge group: %w", err))
	}
	s := v.Status(r.Checks.RunURL)
	r.Checks.Set(ctx, at.Owner, at.Repo, []string{at.HeadSHA}, s)
	o.Settled = fmt.Sprintf("merge group %s: %s (%s)", escape.Log(ghclient.Short(at.HeadSHA)), s.State, s.Description)
	return o
}
