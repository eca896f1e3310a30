package action

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/prlink"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
)

// lastWords bounds the final comment edit after cancellation: the runner
// kills the container a few seconds after SIGTERM.
const lastWords = 1500 * time.Millisecond

// finish reports o, once, for every run that got a plan: the comment's last
// edit, the outputs, the summary and the closing notice or error.
func (r *run) finish(ctx context.Context, o *report.Outcome) error {
	r.reported = true
	runErr := r.explain(o)
	if ctx.Err() != nil {
		// The last words: the comment's final edit and the commit status.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), lastWords)
		defer cancel()
	}
	// The status first: it settles the heads the comment then no longer
	// owes.
	if r.code != nil && (o.Skipped == "" || r.code.noChange || o.Capped) {
		r.code.status(ctx, r, o, true)
	}
	if r.thread != nil && (o.Skipped == "" || r.thread.URL() != "" || o.Capped) {
		r.write(ctx, r.thread, nil, r.final(o, runErr))
	}
	res := report.Result{
		JobID:    o.JobID,
		Status:   o.Status(),
		Job:      o.Job,
		TimedOut: o.End() == report.TimedOut,
		Elapsed:  r.elapsed(),
		Polls:    o.Polls,
		Cost:     r.bill(),
	}
	if pr, ok := r.pullRequest(o); ok {
		res.PRURL, res.PRNumber = pr.URL(r.rc.ServerURL), pr.Number
	}
	if runErr != nil {
		// The summary is public, as the comment is: the network's
		// internals stay in the log.
		res.Failure, res.RunURL = agentapi.Public(runErr), r.rc.RunURL()
	}
	if r.thread != nil {
		res.CommentURL = r.thread.URL()
	}
	res.Preview = o.Preview.Markdown()
	err := r.out.Write(res)
	if err == nil {
		err = report.WriteSummary(r.log, r.rc.SummaryFile, report.Summary(res))
	}
	if err != nil {
		return errors.Join(runErr, err)
	}
	if runErr == nil {
		r.notice(o)
	}
	return runErr
}

// explain turns o into the error the step fails with, or nil: the one place
// that says what a timeout, a cancellation or a failed job means to the user.
func (r *run) explain(o *report.Outcome) error {
	id := escape.Log(o.JobID)
	end := o.End()
	switch {
	case end == report.JobFailed:
		return fmt.Errorf("%w: job %s ended with status failed; see it in the Mintlify dashboard, then send a follow-up with %s or start a new job", report.ErrJobFailed, id, r.rc.Setting("job-id", id))
	case o.Err == nil:
		return nil
	case o.Stage != report.StageWait:
		switch {
		case o.Stage == report.StageStart && end == report.TimedOut:
			return fmt.Errorf("%w (timeout %s reached)", o.Err, r.cfg.Timeout)
		case o.Stage == report.StageStart && o.CtxErr() != nil:
			return fmt.Errorf("%w (cancelled)", o.Err)
		}
		return o.Err
	case end == report.TimedOut:
		return fmt.Errorf("job %s still %s after %s (timeout: %s): %w. The job goes on running on the server; to continue it later, run again with %s (the prompt is sent to it as a follow-up; %s returns right after), or raise %s",
			id, escape.Log(o.Status()), r.elapsed(), r.cfg.Timeout, o.Err, r.rc.Setting("job-id", id), r.rc.Setting("wait", "false"), r.rc.Setting("timeout", ""))
	case end == report.Cancelled:
		return fmt.Errorf("cancelled while waiting for job %s, last seen %s. The job goes on running on the server; to see where it stands or continue it, run again with %s (with %s to look without waiting)",
			id, escape.Log(o.Status()), r.rc.Setting("job-id", id), r.rc.Setting("wait", "false"))
	}
	var apiErr *agentapi.Error
	if errors.As(o.Err, &apiErr) && apiErr.JobID != "" {
		// It names the job already.
		return fmt.Errorf("wait for the job: %w", o.Err)
	}
	return fmt.Errorf("wait for job %s: %w", id, o.Err)
}

// final is the comment's last state.
func (r *run) final(o *report.Outcome, runErr error) conversation.State {
	if end := o.End(); o.Closed && (end == report.Completed || end == report.NotWaiting) {
		return r.state(o, conversation.Stopped)
	}
	switch o.End() {
	case report.JobFailed:
		return r.state(o, conversation.Failed)
	case report.TimedOut:
		return r.state(o, conversation.TimedOut)
	case report.Cancelled:
		return r.state(o, conversation.Cancelled)
	case report.Errored:
		s := r.state(o, conversation.Error)
		// Redacted before it is cut, or a piece of a secret would be left
		// that no redactor knows, and before Render escapes it, or a
		// secret would be escaped out of the redactor's sight.
		s.Error = escape.Cut(r.log.Redact(agentapi.Public(runErr)), maxErrorRunes)
		return s
	case report.NotWaiting:
		return r.state(o, conversation.NotWaiting)
	case report.Skipped:
		if o.Capped {
			s := r.state(o, conversation.Capped)
			s.Cap = capSentence(o.Skipped)
			return s
		}
		return r.state(o, conversation.Answered)
	}
	return r.state(o, conversation.Done)
}

// maxErrorRunes keeps an API's error text from outgrowing a comment.
const maxErrorRunes = 300

func (r *run) state(o *report.Outcome, p conversation.Phase) conversation.State {
	s := conversation.State{
		Phase: p, Record: record.Record{JobID: o.JobID}, Status: o.Status(), FollowUp: o.FollowUp,
		Note: o.Note, RunURL: escape.URL(r.rc.RunURL()), Elapsed: r.elapsed(), Timeout: r.cfg.Timeout,
	}
	if o.Job != nil {
		s.PRLink, s.PRURL = o.Job.PR(), r.prURL(o)
	}
	if s.PRURL == "" && r.code != nil {
		if pr, ok := prlink.Judge(r.code.docsPR, r.rc.ServerURL); ok {
			s.PRURL = pr.URL(r.rc.ServerURL)
		}
	}
	if a := r.answers; a != nil {
		rec := a.record()
		s.Record.Answered = &rec
		s.Answered, s.Left, s.Later = a.refs()
	}
	s.AnsweredIn = o.AnsweredIn
	s.Preview = o.Preview.Markdown()
	// A job not seen to end is for a later run to report.
	_, refused := takesNoMessages(o.Err)
	s.Record.Unsettled = o.JobID != "" && (o.Job == nil || !o.Job.Terminal()) && !refused
	if r.code != nil {
		// The next run sends what comes after it, and settles the
		// statuses the job still owes.
		s.Record.Head, s.Record.Owed, s.Record.Waiting, s.Record.Cut = r.code.heard, r.code.owed, r.code.waiting, r.code.cut
	}
	return s
}

// pullRequest is the job's pull request when it is one on this GitHub.
func (r *run) pullRequest(o *report.Outcome) (prlink.PullRequest, bool) {
	if o.Job == nil {
		return prlink.PullRequest{}, false
	}
	return prlink.Judge(o.Job.PR(), r.rc.ServerURL)
}

// prURL is the job's pull request when it is one on this GitHub, or "":
// what the API reports as a link is linked only then.
func (r *run) prURL(o *report.Outcome) string {
	pr, ok := r.pullRequest(o)
	if !ok {
		return ""
	}
	return pr.URL(r.rc.ServerURL)
}

// show edits the run's comment, if it has one, to o in phase p.
func (r *run) show(ctx context.Context, o *report.Outcome, p conversation.Phase) {
	r.write(ctx, r.thread, nil, r.state(o, p))
}

// write is the one writer of the action's comments: the run's own in th
// (earlier nil), or the earlier run's record it settles there. It reports
// whether GitHub took the write; a failure is a warning (package
// conversation), and a run without a comment (th nil) writes nothing.
func (r *run) write(ctx context.Context, th *conversation.Thread, earlier *conversation.Earlier, s conversation.State) bool {
	switch {
	case th == nil:
		return false
	case earlier != nil:
		return th.Settle(ctx, earlier, s)
	}
	th.Show(ctx, s)
	return true
}

func (r *run) notice(o *report.Outcome) {
	j := o.Job
	switch {
	case o.Settled != "":
		r.log.Notice(o.Settled)
	case j == nil:
	case j.PR() != "":
		link := r.prURL(o)
		if link == "" {
			link = escape.Log(j.PR())
		}
		r.log.Notice(fmt.Sprintf("job %s %s: pull request %s", escape.Log(j.ID), escape.Log(j.Status), link))
	case j.Terminal():
		r.log.Notice(fmt.Sprintf("job %s %s with no pull request (nothing changed)", escape.Log(j.ID), escape.Log(j.Status)))
	default:
		r.log.Notice(fmt.Sprintf("job %s is %s; not waiting (%s)", escape.Log(j.ID), escape.Log(j.Status), r.rc.Setting("wait", "false")))
	}
}
