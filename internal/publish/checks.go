package publish

import (
	"context"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
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
	// Others is an open pull request at sha, other than not, whose check
	// there waits (check.Waits), 0 for none, -1 unread; nil reads none.
	Others func(ctx context.Context, owner, repo, sha string, not int) int

	wrote map[string]ghclient.CommitStatus // by commit: what this run set
}

// set sets set's status on each of its heads of owner/repo where GitHub
// shows another status (or none; with IfNone, only none), as read once a run.
func (c *Checks) set(ctx context.Context, owner, repo string, set check.Set) {
	heads, s := set.Heads, set.Status
	if c.wrote == nil {
		c.wrote = map[string]ghclient.CommitStatus{}
	}
	written, said := 0, s
	for _, sha := range heads {
		s := s
		// GitHub is read once a run: then what this run set is what it shows.
		shown, ok := c.wrote[sha]
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
			c.wrote[sha] = s
			continue
		case kept && err == nil: // a check shown is kept
			c.wrote[sha] = shown
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
		c.wrote[sha] = s
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
		c.set(ctx, owner, repo, set)
	}
}
