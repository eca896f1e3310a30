package action

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/agentpr"
	"github.com/agentjob/agent-job-action/internal/batch"
	"github.com/agentjob/agent-job-action/internal/caps"
	"github.com/agentjob/agent-job-action/internal/codejob"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/job"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/preview"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/publish"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/threadjob"
)

// The wiring of the rooms: each gets the run's clients, the reporter and
// the parts of the plan it needs, once. The hall alone knows which room
// serves another's narrow interface: no room imports another for it.

var (
	_ codejob.Settler   = (*settler)(nil)
	_ codejob.Agent     = (*agentpr.Room)(nil)
	_ threadjob.Settler = (*settler)(nil)
	_ batch.Permissions = (*ghclient.Client)(nil)
)

// clients makes the run's HTTP client, with the one retry policy, and the
// Agent Job API's client on it.
func (r *run) clients() (*agentapi.Client, *httpclient.Client) {
	hc := httpclient.New(httpclient.Options{
		UserAgent:      "agent-job-action/" + r.deps.Version,
		Clock:          r.deps.Clock,
		Deadline:       r.deadline,
		RequestTimeout: r.deps.RequestTimeout,
		Transport:      r.deps.Transport,
		HearOut:        r.deps.HearOut,
		OnRetry:        r.retrying,
		Redact:         r.log.Redact,
	})
	r.rep.Sent, r.rep.GitHubHost = hc.Sent, ghclient.Host(r.rc.APIURL)
	if r.cfg.BaseURL != nil {
		r.rep.AgentHost = r.cfg.BaseURL.Host
		r.rep.Project = record.ProjectMark(r.cfg.BaseURL.Hostname(), r.cfg.ProjectID)
	}
	api := agentapi.New(hc, r.cfg.BaseURL, r.cfg.ProjectID, r.cfg.APIKey)
	api.Terms = r.rc.Terms()
	return api, hc
}

// wire makes GitHub's client, when the plan needs one (gh nil
// otherwise), and the rooms every run that acts shares: the agent's pull
// request, its job, the records earlier runs left, the commit statuses.
func (r *run) wire(api *agentapi.Client, hc *httpclient.Client, p plan.Plan) (*ghclient.Client, error) {
	var gh *ghclient.Client
	if p.GitHub {
		client := func(outlive time.Duration) (*ghclient.Client, error) {
			return ghclient.New(hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable, Outlive: outlive}),
				hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once, Outlive: outlive}), r.rc.APIURL, r.cfg.GitHubToken)
		}
		var err error
		if gh, err = client(0); err != nil {
			return nil, fmt.Errorf("GITHUB_API_URL: %w", err)
		}
		// The threads' client: the record of a send is written past the
		// run's deadline (publish.Reporter.Keep).
		r.comments, _ = client(publish.RecordFor)
	}
	r.agent = r.agentRoom(hc, gh)
	r.agent.Approval, r.agent.Land = p.Approval, p.Land
	r.rep.Approval = p.Approval
	r.heads = heads{RunURL: r.rc.RunURL(), ServerURL: r.rc.ServerURL, Approval: p.Approval}
	r.jobs = &job.Room{API: api, Reporter: r.rep, Terms: r.rc.Terms(), Progress: r.prog, Clock: r.deps.Clock,
		Schedule: schedule(r.cfg, r.deps), Deadline: r.deadline, Beat: cmp.Or(r.deps.Heartbeat, runlog.Heartbeat)}
	if gh != nil {
		r.rep.Checks.GitHub, r.rep.Checks.Others = gh, r.waitingAt(gh)
		r.caps = caps.Counter{Repo: gh, Progress: r.prog}
	}
	r.settler = r.settleRoom(api, gh, p)
	return gh, nil
}

// schedule is when a wait polls: every poll-interval, or the auto
// schedule (deps may replace it).
func schedule(cfg inputs.Config, deps Deps) poll.Schedule {
	switch {
	case cfg.PollInterval > 0:
		return poll.Fixed(cfg.PollInterval)
	case deps.Schedule != nil:
		return deps.Schedule
	}
	return poll.DefaultAuto
}

// agentRoom is the room that follows the agent's pull request, with the
// run's clients: github-token's (gh, nil when the run has none),
// docs-token's when it is set, and the preview API's when the run asks
// for previews.
func (r *run) agentRoom(hc *httpclient.Client, gh *ghclient.Client) *agentpr.Room {
	room := &agentpr.Room{Owner: r.trig.Owner, Repo: r.trig.Repo, ServerURL: r.rc.ServerURL, RunURL: r.rc.RunURL(), Terms: r.rc.Terms(), App: r.cfg.AgentApp,
		Quiet: r.rc.CommandLine && !r.cfg.PreviewSet, Progress: r.prog, Redact: r.log.Redact, Clock: r.deps.Clock, Deadline: r.deadline}
	if gh != nil {
		room.Own = gh
	}
	if r.cfg.DocsToken != "" {
		// New fails only for an empty token or a bad GITHUB_API_URL,
		// which the run's own client met first.
		if docs, err := ghclient.New(hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable}), hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once}), r.rc.APIURL, r.cfg.DocsToken); err == nil {
			room.Docs = docs
		}
	}
	if r.cfg.Preview {
		// A settle run, or one that does not wait, asks for the preview
		// and links it: its build is not worth holding a runner for.
		room.Unbuilt = r.cfg.Settle || !r.cfg.Wait
		previews := preview.New(hc, r.cfg.BaseURL, r.cfg.ProjectID, r.cfg.APIKey)
		previews.Terms = r.rc.Terms()
		room.Previews = previews
	}
	return room
}

// overCap reads the counts p.Caps names, right before the run sends a
// create or a follow-up, and returns the run's outcome when a cap is
// reached: nothing is sent, and the comment and a code pull request's
// commit status say why. level is the permission of the author of the
// run's own request, which may pass the cap per thread (plan.Caps.Pass).
// A count that cannot be read fails the run before anything is sent: a
// cap the team chose is not guessed past.
func (r *run) overCap(ctx context.Context, p plan.Plan, level string, o *report.Outcome) *report.Outcome {
	if p.Caps == nil || r.thread == nil {
		return nil
	}
	author := ""
	if p.Own != nil {
		author = p.Own.Author
	}
	why, err := r.caps.Reached(ctx, p.Caps, r.thread, r.thread.Number, level, author)
	r.rep.Cost.ThreadSends = cmp.Or(why.Thread, r.rep.Cost.ThreadSends)
	r.rep.Cost.DaySends = cmp.Or(why.Day, r.rep.Cost.DaySends)
	switch {
	case err != nil:
		return o.Fail(ctx, err)
	case why.Why != "":
		return r.atCap(o, why)
	}
	return nil
}

// atCap ends a run at a cap: one line, exit 0, nothing sent. The requests
// the run meant to send are recorded as not sent, so that the next run
// that may send sends them.
func (r *run) atCap(o *report.Outcome, why caps.Cap) *report.Outcome {
	if r.answers != nil {
		r.answers.Unsent()
	}
	o.Skipped, o.Capped, o.Uncounted = why.Why, true, why.Uncounted
	return o
}

// settleRoom is the room that settles the records earlier runs left
// working, with the run's clients and the parts of the plan it needs: the
// backlink's asker and the caps.
func (r *run) settleRoom(api *agentapi.Client, gh *ghclient.Client, p plan.Plan) *settler {
	room := &settler{Jobs: r.jobs, Agent: r.agent, Reporter: r.rep, RunURL: r.rc.RunURL(), Terms: r.rc.Terms(), Approval: p.Approval, Progress: r.prog, Paths: r.cfg.Paths, Project: r.rep.Project, Backlinked: p.Backlinked}
	if p.Await != "" {
		room.Ending = endingOf(p.Await, r.rc.ServerURL, poll.Waiter{Jobs: api, Clock: r.deps.Clock, Schedule: schedule(r.cfg, r.deps), Deadline: r.deadline})
	}
	if gh != nil {
		room.GitHub, room.Comments = gh, r.comments
	}
	if p.Backlink {
		room.Ask = func(url string, th *conversation.Thread) agentpr.Ask {
			return agentpr.AskOf(p, conversation.FromComment, url, th)
		}
	}
	if p.Caps != nil {
		room.Capped = func(ctx context.Context, th *conversation.Thread) (caps.Cap, error) {
			return r.caps.Reached(ctx, p.Caps, th, th.Number, "", "")
		}
	}
	return room
}

// codeRoom is the room that follows a code pull request's docs job, with
// the run's clients, its other rooms and the parts of the plan it needs;
// the writer follows the Code it fills in.
func (r *run) codeRoom(api *agentapi.Client, gh *ghclient.Client, p plan.Plan) *codejob.Room {
	t := r.trig
	r.rep.Code = &report.Code{}
	room := &codejob.Room{Thread: r.thread, API: api, Jobs: r.jobs, Settler: r.settler, Agent: r.agent, Code: r.rep.Code,
		Progress: r.prog, Paths: r.cfg.Paths, Workflow: p.Workflow, Wait: p.Wait, Land: p.Land,
		About: prompt.CodePR{Owner: t.Owner, Repo: t.Repo, Number: t.Number, Title: t.Title, Body: t.IssueBody, URL: t.URL}}
	if gh != nil {
		room.GitHub = gh
	}
	if p.Caps != nil {
		room.Capped = func(ctx context.Context, o *report.Outcome) *report.Outcome { return r.overCap(ctx, p, "", o) }
	}
	return room
}

// threadRoom is the room that continues a thread's job, with the run's
// clients and its other rooms; a stand-in for a job of a pull request's
// thread updates that pull request.
func (r *run) threadRoom(api *agentapi.Client) *threadjob.Room {
	room := &threadjob.Room{Thread: r.thread, API: api, Jobs: r.jobs, Settler: r.settler, Agent: r.agent, Progress: r.prog}
	if t := r.trig; t.IsPR {
		room.Target = prompt.Target{Owner: t.Owner, Repo: t.Repo, Number: t.Number, URL: t.URL, Branch: t.HeadRef}
	}
	return room
}

// batchRoom is the room that answers in the thread.
func (r *run) batchRoom(gh *ghclient.Client, p plan.Plan) *batch.Room {
	room := &batch.Room{Thread: r.thread, Owner: r.trig.Owner, Repo: r.trig.Repo, Number: p.Answer.Number, PR: r.trig.IsPR,
		Rules: p.Rules, Progress: r.prog}
	if gh != nil {
		room.Permissions = gh
	}
	return room
}

// answer acknowledges the run in its thread and takes what it answers
// (r.answers, nil when it answers no request: a comment that tells of its
// job), or returns the run's outcome when the run ends here, because an
// earlier run already sent its request. A run that continues its thread's
// job (p.Thread) answers its own request and every earlier one b gathers,
// recorded in its comment before anything is sent; a run that cannot
// write its comment cannot record them, and answers its own alone. Each
// earlier request is then claimed with 👀 (b.Claim). With p.React, the
// run's own request gets 👀 first: the reaction names the token's login,
// so that the thread's records can be trusted before the run writes a
// comment.
func (r *run) answer(ctx context.Context, b *batch.Room, p plan.Plan, level string) *report.Outcome {
	if p.React {
		b.Thread.React(ctx, p.Own.ID, p.Own.Kind, "eyes")
	}
	switch {
	case p.Thread:
		if b.Thread.Self() == "" {
			r.rep.Working(ctx, nil)
		}
		a := b.Gather(ctx, p.Own, level)
		if why, by := a.AnsweredBy(); why != "" {
			done := report.Skip(why)
			done.AnsweredIn = by
			return done
		}
		r.answers, r.rep.Answers = a, a
		r.rep.Working(ctx, nil)
		if b.Thread.URL() == "" {
			r.answers = batch.Alone(p.Own)
			r.rep.Answers = r.answers
		} else if b.Claim(ctx, a) {
			r.rep.Working(ctx, nil)
		}
		if n := len(r.answers.Send); n > 1 {
			r.prog.Logf("answering %d requests of this thread at once", n)
		}
	case p.Job == plan.Continue && r.trig.IsComment():
		// The workflow's prompt is sent: the request only triggered it.
		r.answers = batch.Alone(p.Own)
		r.rep.Answers = r.answers
		r.rep.Working(ctx, nil)
	default:
		r.rep.Working(ctx, nil)
	}
	b.In()
	return nil
}

// retrying logs a retry, cause first: what went wrong with the attempt
// (no such host, a reset connection), then when the next one comes.
func (r *run) retrying(rt httpclient.Retry) {
	what := "no response"
	switch {
	case rt.Status >= 200 && rt.Status <= 299:
		// A success is retried only when its body was unusable.
		what = fmt.Sprintf("HTTP %d, but the reply is not a job record", rt.Status)
	case rt.Status != 0:
		what = fmt.Sprintf("HTTP %d", rt.Status)
	case rt.Err != nil:
		// Go's own words for the failure, made one line: a host name
		// or a certificate's may hold anything.
		what = "no response: " + escape.Line(rt.Err.Error())
	}
	r.prog.Logf("%s; retry %d in %s", what, rt.Attempt, rt.Wait.Round(time.Millisecond))
}
