// Package caps counts what was sent, as a run's caps name it
// (max-sends-per-thread, max-sends-per-day; plan.Caps decides), from the
// records the action's own comments keep, and says why nothing more may
// be sent. A count that cannot be read is an error: a cap the team chose
// is not guessed past.
package caps

import (
	"context"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/runlog"
)

// Thread is the thread whose sends count. *conversation.Thread is one.
type Thread interface {
	SentHere(ctx context.Context) (conversation.Tally, error)
	Self() string
}

var _ Thread = (*conversation.Thread)(nil) // conversation holds that *ghclient.Client is its RepoComments

// Counter reads the counts the caps need.
type Counter struct {
	// Repo lists the repository's comments, for the day's count.
	Repo conversation.RepoComments
	// Progress writes the counts' lines; its clock says which day it is.
	Progress runlog.Progress
}

// Cap is why nothing more may be sent: Why is "" when it may. Uncounted
// says the sends could not all be counted (a flood of comments cut the
// count), so the cap only counts as reached: nothing is sent, as a cap the
// team chose is not guessed past, but the check claims no success for it
// (package check).
type Cap struct {
	Why       string
	Uncounted bool
	// Thread and Day are the sends each cap counted (nil for a cap not
	// read): the cost's counts.
	Thread, Day *int
}

// Reached counts what was sent, as c names: from th (numbered n), and from
// the repository today (the token's login, th.Self, wrote the comments
// that count). It returns why nothing more may be sent.
// level is the permission of the request's author, who (see
// plan.Caps.OverThread).
func (k Counter) Reached(ctx context.Context, c *plan.Caps, th Thread, n int, level, who string) (Cap, error) {
	var counted Cap
	if c.Thread > 0 {
		t, err := th.SentHere(ctx)
		if err != nil {
			return Cap{}, fmt.Errorf("count what was sent from #%d for max-sends-per-thread: %w; nothing was sent", n, err)
		}
		sent := t.Sent
		counted.Thread = &sent
		switch why, passed := c.OverThread(n, t.Sent, t.Cut, level); {
		case passed:
			k.Progress.Logf("%s; passed: the request is by %s, who has %s permission", why, escape.Log(who), escape.Log(level))
		case why != "":
			counted.Why, counted.Uncounted = why, t.Sent < c.Thread
			return counted, nil
		}
	}
	if c.Day > 0 {
		self := th.Self()
		if self == "" {
			return Cap{}, fmt.Errorf("count what was sent today for max-sends-per-day: %w; nothing was sent", conversation.ErrUnknownIdentity)
		}
		t, err := conversation.SentOn(ctx, k.Repo, c.Owner, c.Repo, self, k.Progress.Clock.Now())
		if err != nil {
			return Cap{}, fmt.Errorf("count what was sent today for max-sends-per-day: %w; nothing was sent", err)
		}
		sent := t.Sent
		counted.Day = &sent
		if why := c.OverDay(t.Sent, t.Read, t.Cut); why != "" {
			counted.Why, counted.Uncounted = why, t.Sent < c.Day
			return counted, nil
		}
	}
	return counted, nil
}
