package action

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/agentpr"
	"github.com/agentjob/agent-job-action/internal/batch"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/job"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/preview"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/reads"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
	"github.com/agentjob/agent-job-action/internal/settle"
)

// run holds what the steps of one run share. What the run ends with is not
// here: carryOut returns it as one Outcome.
type run struct {
	rc       runner.Context
	deps     Deps
	log      runlog.Log
	rep      *report.Reporter // the one writer of what the run reports
	start    time.Time
	deadline time.Time // on deps.Clock: the end of the work, before the last words
	cfg      inputs.Config
	trig     *event.Trigger
	thread   *conversation.Thread // nil when the run does not comment
	answers  *batch.Answers       // what a run that continues its thread answers; nil for others
	hc       *httpclient.Client
	agent    *agentpr.Room // the agent's pull request
	settler  *settle.Room  // the records earlier runs left working
	jobs     *job.Room     // the run's job
	batch    *batch.Room   // what the run answers in its thread; nil without one
}

// carryOut does what p says and returns how it went: it judges the run's
// own request (reading its author's permission first, as p names), answers
// in the thread, builds the prompt once and sends it, and waits.
func (r *run) carryOut(ctx context.Context, p plan.Plan) *report.Outcome {
	if p.Skip != "" {
		return r.rep.Skip(p.Skip)
	}
	hc := httpclient.New(httpclient.Options{
		UserAgent:      "agent-job-action/" + r.deps.Version,
		Clock:          r.deps.Clock,
		Deadline:       r.deadline,
		RequestTimeout: r.deps.RequestTimeout,
		Transport:      r.deps.Transport,
		OnRetry:        r.rep.Retrying,
		Redact:         r.log.Redact,
	})
	r.hc = hc
	r.rep.Sent, r.rep.GitHubHost = hc.Sent, host(r.rc.APIURL, ghclient.DefaultAPIURL)
	if r.cfg.BaseURL != nil {
		r.rep.AgentHost = r.cfg.BaseURL.Host
	}
	api := agentapi.New(hc, r.cfg.BaseURL, r.cfg.ProjectID, r.cfg.APIKey)
	api.Terms = r.rc.Terms()
	if p.DryRun {
		return r.dryRun(api, p)
	}
	r.jobs = &job.Room{API: api, Reporter: r.rep, Progress: r.progress(), Clock: r.deps.Clock,
		Schedule: schedule(r.cfg, r.deps), Deadline: r.deadline, Beat: cmp.Or(r.deps.Heartbeat, runlog.Heartbeat)}

	o := &report.Outcome{}
	var gh *ghclient.Client
	if p.GitHub {
		var err error
		if gh, err = ghclient.New(hc.HTTPClient(httpclient.Repeatable), hc.HTTPClient(httpclient.Once), r.rc.APIURL, r.cfg.GitHubToken); err != nil {
			return o.Fail(ctx, fmt.Errorf("GITHUB_API_URL: %w", err))
		}
	}
	r.agent = r.agentRoom(hc, gh)
	if gh != nil {
		r.rep.Checks.GitHub = gh
	}
	r.settler = r.settleRoom(api, gh, p)
	if p.Settle {
		return r.settler.Sweep(ctx, p.Answer.Owner, p.Answer.Repo)
	}
	// Nothing is written to GitHub before the run's own request is
	// admitted: r.thread is nil until then.
	level, own, done := r.judge(ctx, gh, p, o)
	if done != nil {
		return done
	}
	if own != nil {
		// The request as judged: a review with its line comments.
		p.Own = own
	}
	send := []*request.Request{}
	if p.Own != nil {
		send = append(send, p.Own)
	}
	if p.Answer != nil {
		r.thread = &conversation.Thread{GH: gh, Owner: p.Answer.Owner, Repo: p.Answer.Repo, Number: p.Answer.Number,
			Comments: p.Answer.CommentCount, Warn: r.log.Warning, Redact: r.log.Redact, Phrase: p.Rules.Phrase, Code: p.Code != nil}
		r.rep.Comment = r.thread
		r.batch = &batch.Room{Thread: r.thread, Owner: r.trig.Owner, Repo: r.trig.Repo, Number: p.Answer.Number, PR: r.trig.IsPR,
			Rules: p.Rules, Reporter: r.rep, Progress: r.progress()}
		if gh != nil {
			r.batch.Permissions = gh
		}
	}
	if p.Code != nil {
		job, done := r.codeRoom(api, gh, p).Push(ctx, o, *p.Code)
		if done != nil {
			return done
		}
		return r.wait(ctx, api, gh, p, job, o)
	}
	if p.Answer != nil {
		if p.React {
			// The reaction names the token's login, so that the thread's
			// records can be trusted before the run writes a comment.
			r.thread.React(ctx, p.Own.ID, p.Own.Kind, "eyes")
		}
		switch {
		case p.Thread:
			a, answered := r.batch.Answer(ctx, o, p.Own, level)
			if answered != nil {
				return answered
			}
			r.answers, send = a, a.Send
		case p.Job == plan.Continue && r.trig.IsComment():
			// The workflow's prompt: the request only triggered it.
			r.answers = batch.Alone(p.Own)
			r.rep.Answers = r.answers
			r.rep.Show(ctx, o, conversation.Working)
			r.batch.In()
		default:
			r.rep.Show(ctx, o, conversation.Working)
			r.batch.In()
		}
	}

	text, err := r.prompt(p, send)
	if err != nil {
		o.Invalid = true
		return o.Fail(ctx, r.inTerms(err))
	}
	if done := r.overCap(ctx, gh, p, level, o); done != nil {
		return done
	}
	o.Stage = report.StageStart
	job, err := r.startJob(ctx, api, gh, p, text, o)
	if err != nil {
		if r.answers != nil {
			if note := r.answers.Release(err); note != "" {
				o.Note = note
			}
		}
		return o.Fail(ctx, err)
	}
	return r.wait(ctx, api, gh, p, job, o)
}

// wait waits for job, unless the plan says not to, and when it ends with a
// pull request, links it back and asks for its preview.
func (r *run) wait(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, p plan.Plan, job *agentapi.Job, o *report.Outcome) *report.Outcome {
	if !p.Wait {
		return o
	}

	if r.jobs.Wait(ctx, o, job); o.Err != nil {
		return o
	}
	if o.End() == report.Completed {
		if p.Backlink {
			r.agent.Backlink(ctx, o.Job, r.ask(p, p.Asked, p.AskedURL, r.thread))
		}
		r.showPreview(ctx, o)
	}
	return o
}

// judge judges the run's own request, as the plan says: its author's
// permission read first (p.Check), the opener's when its text is a code
// pull request's (p.OpenerCheck), a review's line comments read when its
// author may ask (p.Lines), then the plan decides (plan.Admit). It returns
// the author's permission and the request as judged (with its line
// comments), or the run's outcome when the run ends here.
func (r *run) judge(ctx context.Context, gh *ghclient.Client, p plan.Plan, o *report.Outcome) (string, *request.Request, *report.Outcome) {
	if p.Own == nil {
		return "", nil, nil
	}
	rd := reads.Reader{GitHub: gh, Log: r.log, Terms: r.rc.Terms()}
	level, err := rd.Permission(ctx, p.Check, "check who triggered the run")
	if err != nil {
		return "", nil, o.Fail(ctx, err)
	}
	if p.Opener != nil && p.Rules.Permitted(p.Own, level) {
		// The opener wrote the text a code pull request sends: judged
		// before any of it is read, and before anything is written (a
		// sender who may not ask is refused by admit, as for any run).
		opener, err := rd.Permission(ctx, p.OpenerCheck, "check who opened the pull request")
		if err != nil {
			return "", nil, o.Fail(ctx, err)
		}
		if why := p.OpenerRefused(opener, r.trig); why != "" {
			return "", nil, r.rep.Skip(why)
		}
	}
	if p.Lines && p.Rules.Permitted(p.Own, level) {
		p.Own = rd.Lines(ctx, r.trig.Owner, r.trig.Repo, r.trig.Number, p.Own)
	}
	if done := r.admit(p, level); done != nil {
		return "", nil, done
	}
	if p.Check != nil {
		r.logf("%s has %s permission (%s needed): acting on the %s event",
			escape.Log(p.Own.Author), escape.Log(level), p.Rules.Required, escape.Log(r.trig.Event))
	}
	return level, p.Own, nil
}

// admit is the run's outcome when the plan does not admit its own request
// (plan.Admit): skipped, or invalid; nil when it is admitted.
func (r *run) admit(p plan.Plan, level string) *report.Outcome {
	switch skip, invalid := p.Admit(level, r.trig.Owner, r.trig.Repo); {
	case skip != "":
		return r.rep.Skip(skip)
	case invalid != nil:
		return &report.Outcome{Invalid: true, Err: invalid}
	}
	return nil
}

// prompt is what the run sends, built once: the workflow's prompt, or the
// requests it answers. An empty one is the user's to fix.
func (r *run) prompt(p plan.Plan, send []*request.Request) (string, error) {
	switch {
	case p.Workflow != "":
		return p.Workflow, nil
	case p.Job == plan.Watch:
		return "", nil
	}
	if text := prompt.Build(send, r.trig); text != "" {
		return text, nil
	}
	return "", inputs.ErrEmptyPrompt
}

// startJob creates the job or sends the follow-up, and writes job-id at
// once, so that a failure or cancellation later still leaves it.
func (r *run) startJob(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, p plan.Plan, text string, o *report.Outcome) (*agentapi.Job, error) {
	var (
		job *agentapi.Job
		err error
	)
	switch p.Job {
	case plan.Watch:
		job, err = r.jobs.Watch(ctx, o, p.JobID)
	case plan.FollowUp:
		// An explicit job-id never falls back to a new job.
		job, err = r.jobs.FollowUp(ctx, o, p.JobID, text, nil)
	case plan.Continue:
		earlier, lookErr := r.thread.Previous(ctx)
		switch {
		case errors.Is(lookErr, conversation.ErrUnknownIdentity):
			r.logf("no earlier job is continued: %v; starting a new job", lookErr)
		case lookErr != nil:
			r.log.Warning(fmt.Sprintf("could not %v; the job is not affected", lookErr))
		}
		target := ""
		if earlier != nil {
			var seen *agentapi.Job
			if earlier.Unsettled {
				seen, _, _ = r.settler.Earlier(ctx, r.thread, earlier, false)
			}
			link := earlier.PR
			if seen != nil {
				link = seen.PR()
			}
			if r.agent.Open(ctx, earlier.JobID, link, func(ctx context.Context) (*agentapi.Job, error) { return readOnce(ctx, api, earlier.JobID, seen) }) {
				target = earlier.JobID
			}
		}
		if target == "" {
			job, err = r.jobs.Create(ctx, text)
			break
		}
		job, err = r.jobs.FollowUp(ctx, o, target, text, func(ctx context.Context, f *httpclient.Failure) (string, error) {
			r.logf("job %s from earlier in this thread cannot take a follow-up (%s); starting a new job", escape.Log(target), escape.Log(f.Error()))
			if !r.trig.IsPR {
				return text, nil
			}
			o.Note += " It may open a new pull request."
			t := r.trig
			return prompt.Update(r.agent.Target(ctx, api, target, prompt.Target{Owner: t.Owner, Repo: t.Repo, Number: t.Number, URL: t.URL, Branch: t.HeadRef}), text), nil
		})
		if err == nil && o.FollowUp && earlier.Unsettled {
			r.settler.Continued(ctx, r.thread, earlier)
		}
	default:
		job, err = r.jobs.Create(ctx, text)
	}
	if err != nil {
		return nil, err
	}
	if err := r.jobs.Started(ctx, o, job); err != nil {
		return nil, err
	}
	return job, nil
}
func (r *run) dryRun(api *agentapi.Client, p plan.Plan) *report.Outcome {
	// A dry run reads nothing, permissions included: it shows what a run
	// would send for a request whose author has the required permission.
	if p.Own != nil {
		level := ""
		if p.Rules.NeedsPermission(p.Own) {
			level = p.Rules.Required
		}
		// A bot opener is judged as a run would: by allowed-bots.
		if p.Opener != nil && p.Opener.Bot {
			if why := p.OpenerRefused("", r.trig); why != "" {
				return r.rep.Skip(why)
			}
		}
		if done := r.admit(p, level); done != nil {
			return done
		}
	}
	var send []*request.Request
	if p.Own != nil {
		send = append(send, p.Own)
	}
	text, err := r.prompt(p, send)
	if err != nil {
		return &report.Outcome{Invalid: true, Err: r.inTerms(err)}
	}
	req := api.CreateRequest(text)
	switch p.Job {
	case plan.FollowUp:
		req = api.MessageRequest(p.JobID, text)
	case plan.Watch:
		req = api.GetRequest(p.JobID)
	}
	r.log.Printf("dry run: nothing is sent. The request would be:")
	r.log.Printf("%s %s", req.Method, escape.Log(req.URL))
	r.log.Printf("Authorization: Bearer ***")
	if req.Body != nil {
		r.log.Printf("Content-Type: application/json")
		r.log.Verbatim(string(req.Body))
	}
	return &report.Outcome{DryRun: true, JobID: p.JobID}
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

func (r *run) elapsed() time.Duration { return r.progress().Elapsed() }

func (r *run) logf(format string, args ...any) { r.progress().Logf(format, args...) }

// agentRoom is the room that follows the agent's pull request, with the
// run's clients: github-token's (gh, nil when the run has none),
// docs-token's when it is set, and the preview API's when the run asks
// for previews.
func (r *run) agentRoom(hc *httpclient.Client, gh *ghclient.Client) *agentpr.Room {
	room := &agentpr.Room{Owner: r.trig.Owner, Repo: r.trig.Repo, ServerURL: r.rc.ServerURL, RunURL: r.rc.RunURL(), Terms: r.rc.Terms(),
		Quiet: r.rc.CommandLine && !r.cfg.PreviewSet, Progress: r.progress(), Redact: r.log.Redact, Clock: r.deps.Clock, Deadline: r.deadline}
	if gh != nil {
		room.Own = gh
	}
	if r.cfg.DocsToken != "" {
		// New fails only for an empty token or a bad GITHUB_API_URL,
		// which the run's own client met first.
		if docs, err := ghclient.New(hc.HTTPClient(httpclient.Repeatable), hc.HTTPClient(httpclient.Once), r.rc.APIURL, r.cfg.DocsToken); err == nil {
			room.Docs = docs
		}
	}
	if r.cfg.Preview {
		previews := preview.New(hc, r.cfg.BaseURL, r.cfg.ProjectID, r.cfg.APIKey)
		previews.Terms = r.rc.Terms()
		room.Previews = previews
	}
	return room
}

// ask is what asked for the job whose pull request gets a backlink: the
// plan's reviewers and phrase, source and its address, and the thread th
// whose token login wrote an earlier run's backlink (nil when none).
func (r *run) ask(p plan.Plan, source conversation.Source, url string, th *conversation.Thread) agentpr.Ask {
	a := agentpr.Ask{Source: source, URL: url, Phrase: r.cfg.TriggerPhrase, Reviewers: p.Reviewers}
	if th != nil {
		a.Self = th.Self()
	}
	if th != nil && p.Answer != nil {
		a.Thread, a.Comments = p.Answer.Number, p.Answer.CommentCount
	}
	return a
}

// showPreview asks for the preview of o's job's pull request, unless the
// run sent the job nothing (its branch is as the run before left it).
func (r *run) showPreview(ctx context.Context, o *report.Outcome) {
	if c := r.rep.Code; c != nil && c.Idle {
		return
	}
	o.Preview = r.agent.Preview(ctx, o.Job)
}

// progress writes the run's lines of progress.
func (r *run) progress() runlog.Progress {
	return runlog.Progress{Log: r.log, Clock: r.deps.Clock, Start: r.start}
}
