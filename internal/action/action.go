// Package action is one run of the step: read the inputs and the event,
// decide whether to act, create a job or send a follow-up, wait for it, and
// report the result in the log, the outputs, the summary and the comment.
package action

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/report"
)

// Env is everything a run takes from its surroundings. Zero fields take the
// real thing, so main passes little and tests inject the rest.
type Env struct {
	Getenv  func(string) string
	Version string
	Clock   clock.Clock
	// Schedule replaces the auto poll schedule (tests, the demo).
	Schedule poll.Schedule
	// RequestTimeout bounds each HTTP attempt; zero is the default.
	RequestTimeout time.Duration
	// Transport carries the HTTP requests; nil is the default transport.
	Transport http.RoundTripper
}

// ErrJobFailed is returned when the job ends with status failed.
var ErrJobFailed = errors.New("job failed")

// Run runs the step, writing its log to stdout. A non-nil error means a
// non-zero exit; it has already been reported as ::error:: lines.
func Run(ctx context.Context, env Env, stdout io.Writer) error {
	if env.Clock == nil {
		env.Clock = clock.Real{}
	}
	log := report.NewLog(stdout, env.Getenv)
	// Before anything else is printed.
	log.Mask(inputs.Raw(env.Getenv, "api-key"))
	log.Mask(inputs.Raw(env.Getenv, "github-token"))

	r := &run{env: env, log: log, out: report.NewOutputs(log, env.Getenv), start: env.Clock.Now()}
	err := r.execute(ctx)
	if err != nil {
		for _, e := range flatten(err) {
			log.Error(e.Error())
		}
	}
	return err
}

// flatten splits a joined error into its parts, one ::error:: line each.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

type run struct {
	env    Env
	log    *report.Log
	out    *report.Outputs
	start  time.Time
	cfg    inputs.Config
	trig   *event.Trigger
	thread *conversation.Thread // nil when the run does not comment
	res    report.Result
	// For the comment: the prompt went to an existing job; a note to show.
	followUp bool
	note     string
}

func (r *run) execute(ctx context.Context) error {
	cfg, warnings, err := inputs.Read(r.env.Getenv)
	if err != nil {
		return err
	}
	r.cfg = cfg
	if r.trig, err = event.Read(r.env.Getenv); err != nil {
		return err
	}
	if reason := r.refusal(); reason != "" {
		return r.skip(reason)
	}
	if strings.TrimSpace(r.cfg.Prompt) == "" {
		r.cfg.Prompt = event.Prompt(r.trig, cfg.TriggerPhrase)
	}
	if strings.TrimSpace(r.cfg.Prompt) == "" {
		if r.trig.CommentID != 0 {
			return fmt.Errorf("the comment holds no instruction besides the trigger phrase: write what the agent should do after %s", escape.Log(cfg.TriggerPhrase))
		}
		return inputs.ErrEmptyPrompt
	}
	if err := r.checkCommentInputs(); err != nil {
		return err
	}
	for _, w := range warnings {
		r.log.Warning(w)
	}

	// The timeout is a hard deadline for the whole step. A run that comments
	// keeps the last moments of it for the comment's final edit.
	work := cfg.Timeout
	if r.commenting() {
		work -= min(lastWords, cfg.Timeout/10)
	}
	deadline := r.start.Add(work)
	ctx, cancel := context.WithTimeout(ctx, work)
	defer cancel()
	hc := httpclient.New(ctx, httpclient.Options{
		UserAgent:      "agent-job-action/" + r.env.Version,
		Clock:          r.env.Clock,
		Deadline:       deadline,
		RequestTimeout: r.env.RequestTimeout,
		Transport:      r.env.Transport,
		OnRetry:        r.retrying,
	})
	api := agentapi.New(hc, cfg.BaseURL, cfg.ProjectID, cfg.APIKey)

	if cfg.DryRun {
		return r.dryRun(api)
	}
	gh, err := r.github(hc)
	if err != nil {
		return r.finish(ctx, err)
	}
	if gh != nil {
		reason, err := r.refusedBy(ctx, gh)
		switch {
		case err != nil:
			return r.finish(ctx, err)
		case reason != "":
			return r.skip(reason)
		}
		r.acknowledge(ctx)
	}

	job, err := r.startOrContinue(ctx, api)
	if err != nil {
		return r.finish(ctx, fmt.Errorf("%w%s", err, r.cancelNote(ctx)))
	}
	if !cfg.Wait {
		return r.finish(ctx, nil)
	}

	r.log.Group("Waiting for job " + escape.Log(job.ID))
	w := poll.Waiter{
		Jobs:     api,
		Clock:    r.env.Clock,
		Schedule: r.schedule(),
		Deadline: deadline,
		Observer: &observer{r: r, ctx: ctx},
	}
	res, err := w.Wait(ctx, job)
	r.log.EndGroup()
	r.res.Job, r.res.Status, r.res.Polls = res.Job, res.Job.Status, res.Polls
	return r.finish(ctx, r.waitError(err))
}

func (r *run) schedule() poll.Schedule {
	switch {
	case r.cfg.PollInterval > 0:
		return poll.Fixed(r.cfg.PollInterval)
	case r.env.Schedule != nil:
		return r.env.Schedule
	}
	return poll.DefaultAuto
}

func (r *run) waitError(err error) error {
	id := escape.Log(r.res.JobID)
	switch {
	case err == nil && r.res.Status == agentapi.StatusFailed:
		return fmt.Errorf("%w: job %s ended with status failed; see it in the Mintlify dashboard, then send a follow-up with job-id: %s or start a new job", ErrJobFailed, id, id)
	case err == nil:
		return nil
	case errors.Is(err, poll.ErrTimedOut):
		r.res.TimedOut = true
		return fmt.Errorf("job %s still %s after %s (timeout: %s): %w. The job goes on running on the server; to continue it later, run again with job-id: %s (the prompt is sent to it as a follow-up; wait: false returns right after), or raise timeout",
			id, escape.Log(r.res.Status), r.elapsed(), r.cfg.Timeout, err, id)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("cancelled while waiting for job %s, last seen %s; the job goes on running on the server: %w", id, escape.Log(r.res.Status), context.Canceled)
	}
	return fmt.Errorf("wait for job %s: %w", id, err)
}

// cancelNote explains an error that came from cancellation or the timeout.
func (r *run) cancelNote(ctx context.Context) string {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		r.res.TimedOut = true
		return fmt.Sprintf(" (timeout %s reached)", r.cfg.Timeout)
	case ctx.Err() != nil:
		return " (cancelled)"
	}
	return ""
}

func (r *run) elapsed() time.Duration {
	return r.env.Clock.Now().Sub(r.start).Round(time.Second)
}

func (r *run) logf(format string, args ...any) {
	r.log.Printf("[%6s] "+format, append([]any{r.elapsed()}, args...)...)
}

func (r *run) retrying(rt httpclient.Retry) {
	what := "no response"
	if rt.Status != 0 {
		what = fmt.Sprintf("HTTP %d", rt.Status)
	}
	r.logf("%s; retry %d in %s", what, rt.Attempt, rt.Wait.Round(time.Millisecond))
}

// observer reports the wait's events in the log and the comment.
type observer struct {
	r   *run
	ctx context.Context
}

func (o *observer) StatusChanged(job *agentapi.Job, from string) {
	o.r.logf("job %s: %s -> %s", escape.Log(job.ID), escape.Log(from), escape.Log(job.Status))
	if !job.Terminal() {
		o.r.show(o.ctx, conversation.Working, job)
	}
}

func (o *observer) UnknownStatus(job *agentapi.Job) {
	o.r.logf("job %s has status %s, which this action does not know; still waiting", escape.Log(job.ID), escape.Log(job.Status))
}

func (o *observer) PollFailed(err error) {
	o.r.logf("poll failed, will try again: %s", escape.Log(err.Error()))
}
