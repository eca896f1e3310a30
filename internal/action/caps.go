package action

import (
	"context"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/agentpr"
	"github.com/agentjob/agent-job-action/internal/caps"
	"github.com/agentjob/agent-job-action/internal/codejob"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/settle"
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
	why, err := r.counter(gh).Reached(ctx, p.Caps, r.thread, r.thread.Number, level, author)
	switch {
	case err != nil:
		return o.Fail(ctx, err)
	case why != "":
		return r.atCap(o, why)
	}
	return nil
}

// atCap ends a run at a cap: one line, exit 0, nothing sent. The requests
// the run meant to send are recorded as not sent, so that the next run
// that may send sends them.
func (r *run) atCap(o *report.Outcome, why string) *report.Outcome {
	if r.answers != nil {
		r.answers.Unsent()
	}
	return r.rep.Capped(o, why)
}

// counter reads the counts the caps need.
func (r *run) counter(gh *ghclient.Client) caps.Counter {
	return caps.Counter{Repo: gh, Progress: r.progress(), Clock: r.deps.Clock}
}

// settleRoom is the room that settles the records earlier runs left
// working, with the run's clients and the parts of the plan it needs: the
// backlink's asker and the caps.
func (r *run) settleRoom(api *agentapi.Client, gh *ghclient.Client, p plan.Plan) *settle.Room {
	room := &settle.Room{API: api, Agent: r.agent, Reporter: r.rep, Progress: r.progress(), Clock: r.deps.Clock, Paths: r.cfg.Paths}
	if gh != nil {
		room.GitHub = gh
	}
	if p.Backlink {
		room.Ask = func(url string, th *conversation.Thread) agentpr.Ask {
			return r.ask(p, conversation.FromComment, url, th)
		}
	}
	if p.Caps != nil {
		room.Capped = func(ctx context.Context, th *conversation.Thread) (string, error) {
			return r.counter(gh).Reached(ctx, p.Caps, th, th.Number, "", "")
		}
	}
	return room
}

// codeRoom is the room that follows a code pull request's docs job, with
// the run's clients, its other rooms and the parts of the plan it needs.
func (r *run) codeRoom(api *agentapi.Client, gh *ghclient.Client, p plan.Plan) *codejob.Room {
	t := r.trig
	room := &codejob.Room{Thread: r.thread, API: api, Jobs: r.jobs, Settler: r.settler, Agent: r.agent, Reporter: r.rep,
		Progress: r.progress(), Paths: r.cfg.Paths, Workflow: p.Workflow, Wait: p.Wait,
		About: prompt.CodePR{Owner: t.Owner, Repo: t.Repo, Number: t.Number, Title: t.Title, Body: t.IssueBody, URL: t.URL}}
	if gh != nil {
		room.GitHub = gh
	}
	if p.Caps != nil {
		room.Capped = func(ctx context.Context, o *report.Outcome) *report.Outcome { return r.overCap(ctx, gh, p, "", o) }
	}
	return room
}
