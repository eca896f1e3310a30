package action

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/invisible"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runner"
)

// run holds what the steps of one run share. What the run ends with is not
// here: carryOut returns it as one Outcome.
type run struct {
	rc       runner.Context
	deps     Deps
	log      *report.Log
	out      *report.Outputs
	start    time.Time
	deadline time.Time // on deps.Clock: the end of the work, before the last words
	cfg      inputs.Config
	trig     *event.Trigger
	thread   *conversation.Thread // nil when the run does not comment
	answers  *answering           // what a run that continues its thread answers; nil for others
	reported bool                 // finish has reported the outcome
}

// carryOut does what p says and returns how it went.
func (r *run) carryOut(ctx context.Context, p plan.Plan) *Outcome {
	if p.Skip != "" {
		return r.skip(p.Skip)
	}
	hc := httpclient.New(httpclient.Options{
		UserAgent:      "agent-job-action/" + r.deps.Version,
		Clock:          r.deps.Clock,
		Deadline:       r.deadline,
		RequestTimeout: r.deps.RequestTimeout,
		Transport:      r.deps.Transport,
		OnRetry:        r.retrying,
	})
	api := agentapi.New(hc, r.cfg.BaseURL, r.cfg.ProjectID, r.cfg.APIKey)
	if p.DryRun {
		return r.dryRun(api, p)
	}

	o := &Outcome{}
	var gh *ghclient.Client
	if p.GitHub {
		var err error
		if gh, err = ghclient.New(hc.HTTPClient(httpclient.Repeatable), hc.HTTPClient(httpclient.Once), r.rc.APIURL, r.cfg.GitHubToken); err != nil {
			return o.fail(ctx, fmt.Errorf("GITHUB_API_URL: %w", err))
		}
	}
	level := ""
	if p.Check != nil {
		// Nothing is written to GitHub before this passes: r.thread is nil.
		var err error
		level, err = gh.Permission(ctx, p.Check.Owner, p.Check.Repo, p.Check.Sender)
		if err != nil {
			if ctx.Err() != nil {
				return o.fail(ctx, fmt.Errorf("check who triggered the run: %w", ctx.Err()))
			}
			return o.fail(ctx, fmt.Errorf("check who triggered the run: %w; nobody is trusted without it (%s)", err, permissionAdvice(err)))
		}
		if p, err = plan.Decide(r.cfg, r.trig, level); err != nil {
			return o.fail(ctx, err)
		}
		if p.Skip != "" {
			return r.skip(p.Skip)
		}
		r.logf("%s", p.Verified)
	}
	if p.Answer != nil {
		r.thread = &conversation.Thread{GH: gh, Owner: p.Answer.Owner, Repo: p.Answer.Repo, Number: p.Answer.Number,
			Comments: p.Answer.CommentCount, Warn: r.log.Warning, Redact: r.log.Redact}
		if p.Job == plan.Continue {
			if answered := r.answer(ctx, gh, &p, level, o); answered != nil {
				return answered
			}
		} else {
			r.acknowledge(ctx, p, o)
		}
	}

	if p.Review != 0 {
		p.Prompt = r.reviewPrompt(ctx, gh, p)
	}
	o.stage = stageStart
	job, err := r.startJob(ctx, api, gh, p, o)
	if err != nil {
		r.release(o, err)
		return o.fail(ctx, err)
	}
	if !p.Wait {
		return o
	}

	o.stage = stageWait
	r.log.Group("Waiting for job " + escape.Log(job.ID))
	w := poll.Waiter{
		Jobs:     api,
		Clock:    r.deps.Clock,
		Schedule: r.schedule(),
		Deadline: r.deadline,
		Observer: &observer{r: r, ctx: ctx, o: o},
	}
	res, err := w.Wait(ctx, job)
	r.log.EndGroup()
	o.Job, o.Polls = res.Job, res.Polls
	if err != nil {
		return o.fail(ctx, err)
	}
	if o.End() == Completed {
		r.backlink(ctx, gh, p, o.Job)
	}
	return o
}

// acknowledge shows the request was seen: 👀 on the comment, then the
// run's comment.
func (r *run) acknowledge(ctx context.Context, p plan.Plan, o *Outcome) {
	if p.React != nil {
		r.thread.React(ctx, p.React.CommentID, p.React.Kind, "eyes")
	}
	r.thread.Show(ctx, r.state(o, conversation.Working))
	r.answeringIn(p)
}

func (r *run) answeringIn(p plan.Plan) {
	if url := r.thread.URL(); url != "" {
		r.logf("answering in #%d: %s", p.Answer.Number, escape.Log(url))
	}
}

// startJob creates the job or sends the follow-up, and writes job-id at
// once, so that a failure or cancellation later still leaves it.
func (r *run) startJob(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, p plan.Plan, o *Outcome) (*agentapi.Job, error) {
	var (
		job *agentapi.Job
		err error
	)
	switch p.Job {
	case plan.Watch:
		o.JobID = p.JobID
		if err := r.out.JobID(p.JobID); err != nil {
			return nil, err
		}
		if job, err = api.Get(ctx, p.JobID); err != nil {
			return nil, fmt.Errorf("%w (job %s)", err, escape.Log(p.JobID))
		}
		r.logf("job %s is %s (nothing sent: no prompt)", escape.Log(job.ID), escape.Log(job.Status))
	case plan.FollowUp:
		// An explicit job-id never falls back to a new job.
		if job, err = r.message(ctx, api, p, o, p.JobID); err != nil {
			return nil, fmt.Errorf("%w (job %s)", err, escape.Log(p.JobID))
		}
	case plan.Continue:
		target, lookErr := r.thread.PreviousJob(ctx)
		switch {
		case errors.Is(lookErr, conversation.ErrUnknownIdentity):
			r.logf("no earlier job is continued: %v; starting a new job", lookErr)
		case lookErr != nil:
			r.log.Warning(fmt.Sprintf("could not %v; the job is not affected", lookErr))
		}
		if target == "" {
			job, err = r.create(ctx, api, p)
			break
		}
		job, err = r.message(ctx, api, p, o, target)
		var f *httpclient.Failure
		if err != nil && errors.As(err, &f) && f.Kind == httpclient.Refused && (f.Status == http.StatusBadRequest || f.Status == http.StatusNotFound) {
			r.logf("job %s from earlier in this thread cannot take a follow-up (%s); starting a new job", escape.Log(target), escape.Log(f.Error()))
			o.Note = fmt.Sprintf("The earlier job %s could not take a follow-up (HTTP %d), so this started a new job.",
				conversation.JobRef(target), f.Status)
			if r.trig.IsPR {
				o.Note += " It may open a new pull request."
				p.Prompt = r.updatePrompt(ctx, api, gh, target, p.Prompt)
			}
			// job-id named the refused job until now.
			o.JobID, o.FollowUp = "", false
			if err := r.out.JobID(""); err != nil {
				return nil, err
			}
			job, err = r.create(ctx, api, p)
		}
	default:
		job, err = r.create(ctx, api, p)
	}
	if err != nil {
		return nil, err
	}
	o.JobID, o.Job = job.ID, job
	if err := r.out.JobID(job.ID); err != nil {
		return nil, err
	}
	r.show(ctx, o, conversation.Working)
	return job, nil
}

func (r *run) create(ctx context.Context, api *agentapi.Client, p plan.Plan) (*agentapi.Job, error) {
	job, err := api.Create(ctx, invisible.RemoveTags(p.Prompt))
	if err != nil {
		return nil, err
	}
	r.logf("created job %s, status %s", escape.Log(job.ID), escape.Log(job.Status))
	return job, nil
}

func (r *run) message(ctx context.Context, api *agentapi.Client, p plan.Plan, o *Outcome, id string) (*agentapi.Job, error) {
	o.JobID = id
	if err := r.out.JobID(id); err != nil {
		return nil, err
	}
	job, err := api.Message(ctx, id, invisible.RemoveTags(p.Prompt))
	if err != nil {
		return nil, err
	}
	o.FollowUp = true
	r.logf("sent follow-up to job %s, status %s", escape.Log(job.ID), escape.Log(job.Status))
	return job, nil
}

func (r *run) dryRun(api *agentapi.Client, p plan.Plan) *Outcome {
	req := api.CreateRequest(p.Prompt)
	switch p.Job {
	case plan.FollowUp:
		req = api.MessageRequest(p.JobID, p.Prompt)
	case plan.Watch:
		req = api.GetRequest(p.JobID)
	}
	r.log.Printf("dry run: nothing is sent. The request would be:")
	r.log.Printf("%s %s", req.Method, escape.Log(req.URL))
	r.log.Printf("Authorization: Bearer ***")
	if req.Body != nil {
		r.log.Printf("Content-Type: application/json")
		r.log.StopCommands(token(), string(req.Body))
	}
	return &Outcome{DryRun: true, JobID: p.JobID}
}

// skip ends a run that decided not to act: one line, exit 0, nothing sent
// to the Agent Job API.
func (r *run) skip(reason string) *Outcome {
	r.log.Printf("skipped: %s", reason)
	return &Outcome{Skipped: reason}
}

func token() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

func (r *run) schedule() poll.Schedule {
	switch {
	case r.cfg.PollInterval > 0:
		return poll.Fixed(r.cfg.PollInterval)
	case r.deps.Schedule != nil:
		return r.deps.Schedule
	}
	return poll.DefaultAuto
}

func (r *run) elapsed() time.Duration {
	return r.deps.Clock.Now().Sub(r.start).Round(time.Second)
}

func (r *run) logf(format string, args ...any) {
	r.log.Printf("[%6s] "+format, append([]any{r.elapsed()}, args...)...)
}

func (r *run) retrying(rt httpclient.Retry) {
	what := "no response"
	switch {
	case rt.Status >= 200 && rt.Status <= 299:
		// A success is retried only when its body was unusable.
		what = fmt.Sprintf("HTTP %d, but the reply is not a job record", rt.Status)
	case rt.Status != 0:
		what = fmt.Sprintf("HTTP %d", rt.Status)
	}
	r.logf("%s; retry %d in %s", what, rt.Attempt, rt.Wait.Round(time.Millisecond))
}

// observer reports the wait's events in the log and the comment.
type observer struct {
	r   *run
	ctx context.Context
	o   *Outcome
}

func (ob *observer) StatusChanged(job *agentapi.Job, from string) {
	ob.r.logf("job %s: %s -> %s", escape.Log(job.ID), escape.Log(from), escape.Log(job.Status))
	if !job.Terminal() {
		ob.o.Job = job
		ob.r.show(ob.ctx, ob.o, conversation.Working)
	}
}

func (ob *observer) UnknownStatus(job *agentapi.Job) {
	ob.r.logf("job %s has status %s, which this action does not know; still waiting", escape.Log(job.ID), escape.Log(job.Status))
}

// Sleeping passes the next check's time on to Deps.Waiting.
func (ob *observer) Sleeping(job *agentapi.Job, until time.Time) {
	if ob.r.deps.Waiting != nil {
		ob.r.deps.Waiting(job, until)
	}
}

func (ob *observer) PollFailed(err error) {
	ob.r.logf("poll failed, will try again: %s", escape.Log(err.Error()))
}

// permissionAdvice says what to do when the sender's permission could not
// be read, by what GitHub answered: only a refusal is the token's fault.
func permissionAdvice(err error) string {
	switch {
	case ghclient.IsForbidden(err):
		return "the token needs metadata: read"
	case ghclient.IsUnauthorized(err):
		return "GitHub refused github-token: check that it is the workflow's token or a valid one"
	case ghclient.IsRateLimited(err):
		return "GitHub's rate limit: run again later"
	}
	return "GitHub did not answer: check GITHUB_API_URL and the network, then run again"
}
