package publish

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/prlink"
	"github.com/agentjob/agent-job-action/internal/report"
)

// Finish reports o, once, for every run that got a plan: the commit
// statuses the hall decided for the code pull request's heads, the
// comment's last edit, the outputs, the summary and the closing notice or
// error.
func (r *Reporter) Finish(ctx context.Context, o *report.Outcome, heads check.Decision) error {
	r.reported = true
	switch {
	case o.Capped: // the comment and a code pull request's status say why
		r.Progress.Log.Printf("docs job cap reached, nothing sent: %s", o.Skipped)
	case o.Skipped != "":
		r.Progress.Log.Printf("skipped: %s", o.Skipped)
	}
	runErr := r.explain(o)
	// The last words: the comment's final edit and the commit status.
	ctx, cancel := r.outliving(ctx)
	defer cancel()
	// The status first: it settles the heads the comment then no longer
	// owes.
	r.heads(ctx, heads)
	if r.Comment != nil && (o.Skipped == "" || r.Comment.URL() != "" || o.Capped || o.Released != "" || o.Held) {
		r.Comment.Show(ctx, r.final(o, runErr))
	}
	res := report.Result{
		JobID:    o.JobID,
		Status:   o.Status(),
		Job:      o.Job,
		TimedOut: o.End() == report.TimedOut,
		Elapsed:  r.Progress.Elapsed(),
		Polls:    o.Polls,
		Cost:     r.bill(),
		Settled:  o.Settled,
	}
	if pr, ok := o.PullRequest(r.RC.ServerURL); ok {
		res.PRURL, res.PRNumber = pr.URL(r.RC.ServerURL), pr.Number
	}
	if o.Job != nil {
		if repo, ok := prlink.JudgeRepository(o.Job.Source.Repository, r.RC.ServerURL); ok {
			res.SourceURL = repo.URL(r.RC.ServerURL)
		}
	}
	if runErr != nil {
		// The summary is public, as the comment is: the network's
		// internals stay in the log.
		res.Failure, res.RunURL = agentapi.Public(runErr), r.RC.RunURL()
	}
	if r.Comment != nil {
		res.CommentURL = r.Comment.URL()
	}
	res.Preview = o.Preview.Markdown()
	if o.End() == report.Invalid {
		r.Out.Withhold()
	}
	err := r.Out.Write(res)
	if err == nil {
		err = report.WriteSummary(r.Progress.Log, r.RC.SummaryFile, report.Summary(res))
	}
	if err != nil {
		return errors.Join(runErr, err)
	}
	if runErr == nil {
		r.notice(o)
	}
	return runErr
}

// Amend writes again the end of a code pull request's run whose docs pull
// request, judged again once that end was written, stands otherwise (o):
// the heads' statuses as the hall decided them again and the comment's
// last edit. The outputs and the summary, which say nothing of it, stand.
func (r *Reporter) Amend(ctx context.Context, o *report.Outcome, heads check.Decision) {
	ctx, cancel := r.outliving(ctx)
	defer cancel()
	r.heads(ctx, heads)
	if r.Comment != nil {
		r.Comment.Show(ctx, r.final(o, nil))
	}
}

// bill is what the run cost: the creates and follow-ups the API took
// (counted as the caps count them, see Spent), the requests the run's HTTP
// client sent to the Agent Job API's jobs with GET (reads) and to GitHub's
// API, and the time it waited for the job.
func (r *Reporter) bill() *report.Cost {
	c := r.Cost
	if r.Sent != nil {
		for s, n := range r.Sent() {
			switch {
			case s.Host == r.AgentHost && s.Method == "GET" && strings.Contains(s.Path, "/v2/agent/"):
				c.Reads += n
			case s.Host == r.GitHubHost:
				c.GitHub += n
			}
		}
	}
	c.WaitedSeconds = c.Seconds()
	r.Billed = &c
	return &c
}

// explain turns o into the error the step fails with, or nil: the one place
// that says what a timeout, a cancellation or a failed job means to the user.
func (r *Reporter) explain(o *report.Outcome) error {
	id := escape.Log(o.JobID)
	end := o.End()
	switch {
	case end == report.JobFailed:
		return fmt.Errorf("%w: job %s ended with status failed; see it in the Mintlify dashboard, then send a follow-up with %s or start a new job", report.ErrJobFailed, id, r.RC.Setting("job-id", id))
	case o.Err == nil:
		return nil
	case o.Stage != report.StageWait:
		switch {
		case o.Stage == report.StageStart && end == report.TimedOut:
			return fmt.Errorf("%w (timeout %s reached)", o.Err, r.Timeout)
		case o.Stage == report.StageStart && o.CtxErr() != nil:
			return fmt.Errorf("%w (cancelled)", o.Err)
		}
		return o.Err
	case end == report.TimedOut:
		return fmt.Errorf("job %s still %s after %s (timeout: %s): %w. The job goes on running on the server; to wait for it, %s, or raise %s",
			id, escape.Log(o.Status()), r.Progress.Elapsed(), r.Timeout, o.Err, r.waitAgain(id), r.RC.Setting("timeout", ""))
	case end == report.Cancelled:
		return fmt.Errorf("cancelled while waiting for job %s, last seen %s. The job goes on running on the server; to wait for it, %s",
			id, escape.Log(o.Status()), r.waitAgain(id))
	}
	var apiErr *agentapi.Error
	if errors.As(o.Err, &apiErr) && apiErr.JobID != "" {
		// It names the job already.
		return fmt.Errorf("wait for the job: %w", o.Err)
	}
	return fmt.Errorf("wait for job %s: %w", id, o.Err)
}

// waitAgain is the one advice for a job a run stopped waiting for: the
// run that costs nothing. The same run again with its prompt would send
// that prompt to the job once more, as a follow-up that is paid for.
func (r *Reporter) waitAgain(id string) string {
	return fmt.Sprintf("run again with %s and no %s, which sends the job nothing (%s to look without waiting)",
		r.RC.Setting("job-id", id), r.RC.Setting("prompt", ""), r.RC.Setting("wait", "false"))
}

// final is the comment's last state.
func (r *Reporter) final(o *report.Outcome, runErr error) conversation.State {
	if end := o.End(); o.Closed && (end == report.Completed || end == report.NotWaiting) {
		return r.State(o, conversation.Stopped)
	}
	switch o.End() {
	case report.JobFailed:
		return r.State(o, conversation.Failed)
	case report.TimedOut:
		return r.State(o, conversation.TimedOut)
	case report.Cancelled:
		return r.State(o, conversation.Cancelled)
	case report.Errored:
		s := r.State(o, conversation.Error)
		// Redacted before it is cut, or a piece of a secret would be left
		// that no redactor knows, and before Render escapes it, or a
		// secret would be escaped out of the redactor's sight.
		s.Error = escape.Cut(r.Progress.Log.Redact(agentapi.Public(runErr)), maxErrorRunes)
		return s
	case report.NotWaiting:
		return r.State(o, conversation.NotWaiting)
	case report.Skipped:
		if o.Capped {
			s := r.State(o, conversation.Capped)
			s.Cap = strings.ToUpper(o.Skipped[:1]) + o.Skipped[1:] + "."
			return s
		}
		if o.Held {
			return r.State(o, conversation.Held)
		}
		if o.Released != "" {
			s := r.State(o, conversation.Released)
			s.ReleasedBy = o.Released
			if r.Code != nil {
				s.ReleasedAt = r.Code.PR.HeadSHA
			}
			return s
		}
		return r.State(o, conversation.Answered)
	}
	return r.State(o, conversation.Done)
}

// maxErrorRunes keeps an API's error text from outgrowing a comment.
const maxErrorRunes = 300

// notice is the closing line of a run that went well.
func (r *Reporter) notice(o *report.Outcome) {
	j := o.Job
	switch {
	case o.Settled != "":
		r.Progress.Log.Notice(o.Settled)
	case j == nil:
	case j.PR() != "":
		link := o.PRURL(r.RC.ServerURL)
		if link == "" {
			link = escape.Log(j.PR())
		}
		r.Progress.Log.Notice(fmt.Sprintf("job %s %s: pull request %s", escape.Log(j.ID), escape.Log(j.Status), link))
	case j.Terminal():
		r.Progress.Log.Notice(fmt.Sprintf("job %s %s with no pull request (nothing changed)", escape.Log(j.ID), escape.Log(j.Status)))
	default:
		r.Progress.Log.Notice(fmt.Sprintf("job %s is %s; not waiting (%s)", escape.Log(j.ID), escape.Log(j.Status), r.RC.Setting("wait", "false")))
	}
}

// heads sets the statuses d decides on the code pull request's heads.
func (r *Reporter) heads(ctx context.Context, d check.Decision) {
	if r.Code != nil && len(d.Sets) > 0 {
		r.Checks.Apply(ctx, r.Code.PR.Owner, r.Code.PR.Repo, d)
	}
}
