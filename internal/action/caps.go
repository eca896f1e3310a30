package action

import (
	"context"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/report"
)

// overCap reads the counts p.Caps names, right before the run sends a
// create or a follow-up, and returns the run's outcome when a cap is
// reached: nothing is sent, and the comment and a code pull request's
// commit status say why. level is the permission of the author of the
// run's own request, which may pass the cap per thread (plan.Caps.Pass).
// A count that cannot be read fails the run before anything is sent: a
// cap the team chose is not guessed past.
func (r *run) overCap(ctx context.Context, gh *ghclient.Client, p plan.Plan, level string, o *report.Outcome) *report.Outcome {
	if p.Caps == nil || r.thread == nil {
		return nil
	}
	author := ""
	if p.Own != nil {
		author = p.Own.Author
	}
	why, err := r.capReached(ctx, gh, p.Caps, r.thread, level, author)
	switch {
	case err != nil:
		return o.Fail(ctx, err)
	case why != "":
		return r.atCap(o, why)
	}
	return nil
}

// capReached counts what was sent, as c names: from th, and from the
// repository today (the token's login, th.Self, wrote the comments that
// count). It returns why nothing more may be sent, "" when it may. level is
// the permission of the request's author, who (see plan.Caps.MayPass).
func (r *run) capReached(ctx context.Context, gh *ghclient.Client, c *plan.Caps, th *conversation.Thread, level, who string) (string, error) {
	if c.Thread > 0 {
		n, err := th.SentHere(ctx)
		if err != nil {
			return "", fmt.Errorf("count what was sent from #%d for max-sends-per-thread: %w; nothing was sent", th.Number, err)
		}
		if n.Cut {
			r.logf("counted the sends recorded in the newest %d comments of #%d only", n.Read, th.Number)
		}
		switch why, passed := c.OverThread(th.Number, n.Sent, level); {
		case passed:
			r.logf("%s; passed: the request is by %s, who has %s permission", why, escape.Log(who), escape.Log(level))
		case why != "":
			return why, nil
		}
	}
	if c.Day > 0 {
		self := th.Self()
		if self == "" {
			return "", fmt.Errorf("count what was sent today for max-sends-per-day: %w; nothing was sent", conversation.ErrUnknownIdentity)
		}
		n, err := conversation.SentOn(ctx, gh, c.Owner, c.Repo, self, r.deps.Clock.Now())
		if err != nil {
			return "", fmt.Errorf("count what was sent today for max-sends-per-day: %w; nothing was sent", err)
		}
		if n.Cut {
			r.logf("counted the sends recorded in the repository's %d most recently written comments only", n.Read)
		}
		return c.OverDay(n.Sent), nil
	}
	return "", nil
}

// atCap ends a run at a cap: one line, exit 0, nothing sent. The requests
// the run meant to send are recorded as not sent, so that the next run
// that may send sends them.
func (r *run) atCap(o *report.Outcome, why string) *report.Outcome {
	if r.answers != nil {
		r.answers.unsent = true
	}
	return r.rep.Capped(o, why)
}
