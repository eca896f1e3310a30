package action

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/report"
)

// lastWords bounds the final comment edit after cancellation: the runner
// kills the container a few seconds after SIGTERM.
const lastWords = 1500 * time.Millisecond

// finish ends every run that got past the inputs: the comment's last edit,
// the outputs, the summary and the closing notice.
func (r *run) finish(ctx context.Context, runErr error) error {
	r.res.Elapsed = r.elapsed()
	if r.thread != nil && r.res.Status != "skipped" {
		if ctx.Err() != nil {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), lastWords)
			defer cancel()
		}
		r.thread.Show(ctx, r.final(runErr))
	}
	err := r.writeOutputs()
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

func (r *run) writeOutputs() error {
	if err := r.out.Write(r.res); err != nil {
		return err
	}
	url := ""
	if r.thread != nil {
		url = r.thread.URL()
	}
	return r.out.Set("comment-url", url)
}

// final is the comment's last state for a run that ended with runErr.
func (r *run) final(runErr error) conversation.State {
	switch {
	case errors.Is(runErr, ErrJobFailed):
		return r.state(conversation.Failed)
	case r.res.TimedOut || errors.Is(runErr, poll.ErrTimedOut):
		return r.state(conversation.TimedOut)
	case errors.Is(runErr, context.Canceled):
		return r.state(conversation.Cancelled)
	case runErr != nil:
		s := r.state(conversation.Error)
		// Redacted before Render escapes it, or a secret would be escaped
		// out of the redactor's sight.
		s.Error = truncate(r.log.Redact(runErr.Error()), maxErrorRunes)
		return s
	case r.res.Job != nil && r.res.Job.Terminal():
		return r.state(conversation.Done)
	}
	return r.state(conversation.NotWaiting)
}

// maxErrorRunes keeps an API's error text from outgrowing a comment.
const maxErrorRunes = 300

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func (r *run) state(p conversation.Phase) conversation.State {
	s := conversation.State{
		Phase: p, JobID: r.res.JobID, Status: r.res.Status, FollowUp: r.followUp,
		Note: r.note, RunURL: r.runURL(), Elapsed: r.elapsed(), Timeout: r.cfg.Timeout,
	}
	if r.res.Job != nil {
		s.PRLink = r.res.Job.PR()
	}
	return s
}

// show edits the comment, if the run has one.
func (r *run) show(ctx context.Context, p conversation.Phase, job *agentapi.Job) {
	if r.thread == nil {
		return
	}
	r.res.Job, r.res.Status = job, job.Status
	r.thread.Show(ctx, r.state(p))
}

func (r *run) runURL() string {
	server, repo, id := r.env.Getenv("GITHUB_SERVER_URL"), r.env.Getenv("GITHUB_REPOSITORY"), r.env.Getenv("GITHUB_RUN_ID")
	if server == "" || repo == "" || id == "" {
		return ""
	}
	return escape.URL(strings.TrimRight(server, "/") + "/" + repo + "/actions/runs/" + id)
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
