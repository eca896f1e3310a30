// Package action is one run of the step: read the inputs, create a job or
// send a follow-up, wait for it, and report the result.
package action

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/escape"
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
	// Schedule replaces the auto poll schedule (benchmarks, the demo).
	Schedule poll.Schedule
	// RequestTimeout bounds each HTTP attempt; zero is the default.
	RequestTimeout time.Duration
	// Transport carries the HTTP requests; nil is the default transport.
	Transport http.RoundTripper
}

// ErrJobFailed is returned when the job ends with status failed.
var ErrJobFailed = errors.New("job failed")

// Run runs the step, writing its log to stdout. A non-nil error means a
// non-zero exit; it has already been reported as an ::error:: line.
func Run(ctx context.Context, env Env, stdout io.Writer) error {
	if env.Clock == nil {
		env.Clock = clock.Real{}
	}
	log := report.NewLog(stdout, env.Getenv)
	// Before anything else is printed.
	log.Mask(inputs.Raw(env.Getenv, "api-key"))

	r := &run{env: env, log: log, out: report.NewOutputs(log, env.Getenv), start: env.Clock.Now()}
	err := r.run(ctx)
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
	env   Env
	log   *report.Log
	out   *report.Outputs
	start time.Time
	cfg   inputs.Config
	res   report.Result
}

func (r *run) run(ctx context.Context) error {
	cfg, warnings, err := inputs.Read(r.env.Getenv)
	if err != nil {
		return err
	}
	r.cfg = cfg
	for _, w := range warnings {
		r.log.Warning(w)
	}

	deadline := r.start.Add(cfg.Timeout)
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()

	api := agentapi.New(httpclient.New(ctx, httpclient.Options{
		UserAgent:      "agent-job-action/" + r.env.Version,
		Clock:          r.env.Clock,
		Deadline:       deadline,
		RequestTimeout: r.env.RequestTimeout,
		Transport:      r.env.Transport,
		OnRetry:        r.retrying,
	}), cfg.BaseURL, cfg.ProjectID, cfg.APIKey)

	if cfg.DryRun {
		return r.dryRun(api)
	}

	job, err := r.begin(ctx, api)
	if err != nil {
		r.res.Status = ""
		return r.finish(fmt.Errorf("%w%s", err, r.cancelNote(ctx)))
	}
	if !cfg.Wait {
		return r.finish(nil)
	}

	r.log.Group("Waiting for job " + escape.Log(job.ID))
	w := poll.Waiter{
		Jobs:     api,
		Clock:    r.env.Clock,
		Schedule: r.schedule(),
		Deadline: deadline,
		Observer: r,
	}
	res, err := w.Wait(ctx, job)
	r.log.EndGroup()
	r.res.Job, r.res.Status, r.res.Polls = res.Job, res.Job.Status, res.Polls
	return r.finish(r.waitError(err))
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

// start_ creates the job or sends the follow-up, and writes job-id at once.
func (r *run) begin(ctx context.Context, api *agentapi.Client) (*agentapi.Job, error) {
	var (
		job *agentapi.Job
		err error
	)
	if r.cfg.JobID != "" {
		r.res.JobID = r.cfg.JobID
		if err := r.out.Set("job-id", r.cfg.JobID); err != nil {
			return nil, err
		}
		job, err = api.Message(ctx, r.cfg.JobID, r.cfg.Prompt)
		if err != nil {
			return nil, fmt.Errorf("%w (job %s)", err, escape.Log(r.cfg.JobID))
		}
		r.logf("sent follow-up to job %s, status %s", escape.Log(job.ID), escape.Log(job.Status))
	} else {
		job, err = api.Create(ctx, r.cfg.Prompt)
		if err != nil {
			return nil, err
		}
		r.logf("created job %s, status %s", escape.Log(job.ID), escape.Log(job.Status))
	}
	r.res.JobID, r.res.Job, r.res.Status = job.ID, job, job.Status
	if job.ID != r.cfg.JobID {
		if err := r.out.Set("job-id", job.ID); err != nil {
			return nil, err
		}
	}
	return job, nil
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
		return fmt.Errorf("job %s still %s after %s (timeout: %s): %w. The job goes on running: find its result later with job-id: %s (wait: false returns at once), or raise timeout",
			id, escape.Log(r.res.Status), r.elapsed(), r.cfg.Timeout, err, id)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("cancelled while waiting for job %s, last seen %s; the job goes on running on the server", id, escape.Log(r.res.Status))
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

// finish writes the outputs, the summary and the closing notice.
func (r *run) finish(runErr error) error {
	r.res.Elapsed = r.elapsed()
	err := r.out.Write(r.res)
	if err == nil {
		err = r.log.WriteSummary(r.env.Getenv, report.Summary(r.res))
	}
	if err != nil {
		return errors.Join(runErr, err)
	}
	if runErr == nil {
		r.notice()
	}
	return runErr
}

func (r *run) notice() {
	j := r.res.Job
	switch {
	case j == nil:
	case j.PR() != "":
		link := escape.URL(j.PR())
		if link == "" {
			link = escape.Log(j.PR())
		}
		r.log.Notice(fmt.Sprintf("job %s %s: pull request %s", escape.Log(j.ID), escape.Log(j.Status), link))
	case j.Terminal():
		r.log.Notice(fmt.Sprintf("job %s %s with no pull request (nothing changed)", escape.Log(j.ID), escape.Log(j.Status)))
	default:
		r.log.Notice(fmt.Sprintf("job %s is %s; not waiting (wait: false)", escape.Log(j.ID), escape.Log(j.Status)))
	}
}

func (r *run) dryRun(api *agentapi.Client) error {
	req := api.CreateRequest(r.cfg.Prompt)
	if r.cfg.JobID != "" {
		req = api.MessageRequest(r.cfg.JobID, r.cfg.Prompt)
	}
	r.log.Printf("dry run: nothing is sent. The request would be:")
	r.log.Printf("%s %s", req.Method, escape.Log(req.URL))
	r.log.Printf("Authorization: Bearer ***")
	r.log.Printf("Content-Type: application/json")
	r.log.StopCommands(token(), string(req.Body))
	r.res.Status = "dry-run"
	r.res.JobID = r.cfg.JobID
	return r.finish(nil)
}

func token() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

func (r *run) elapsed() time.Duration {
	return r.env.Clock.Now().Sub(r.start).Round(time.Second)
}

func (r *run) logf(format string, args ...any) {
	r.log.Printf("[%6s] "+format, append([]any{r.elapsed()}, args...)...)
}

// StatusChanged implements poll.Observer.
func (r *run) StatusChanged(job *agentapi.Job, from string) {
	r.logf("job %s: %s -> %s", escape.Log(job.ID), escape.Log(from), escape.Log(job.Status))
}

// UnknownStatus implements poll.Observer.
func (r *run) UnknownStatus(job *agentapi.Job) {
	r.logf("job %s has status %s, which this action does not know; still waiting", escape.Log(job.ID), escape.Log(job.Status))
}

// PollFailed implements poll.Observer.
func (r *run) PollFailed(err error) {
	r.logf("poll failed, will try again: %s", escape.Log(err.Error()))
}

func (r *run) retrying(rt httpclient.Retry) {
	what := "no response"
	if rt.Status != 0 {
		what = fmt.Sprintf("HTTP %d", rt.Status)
	}
	r.logf("%s; retry %d in %s", what, rt.Attempt, rt.Wait.Round(time.Millisecond))
}
