// Package publish is the part of a run's writer that people read on
// GitHub: the thread's comment and the commit statuses (Checks), as the
// run works and at its end (Finish, which writes the outputs and the
// summary through package report too). Only the run's hall,
// internal/action, imports it (TestOnlyTheHallPublishes): a room hands
// what happened to it through a narrow interface of its own, or returns
// it as a value.
package publish

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/docspr"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/prlink"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
)

// What a run writes after it is cancelled fits in the runner's window
// between SIGINT and SIGKILL (runner.InterruptGrace, runner.TermGrace),
// before the SIGTERM even: the answer to a create or follow-up under way
// (httpclient.HearOut), the record of what it sent (RecordFor), then the
// last words (LastWords).
const (
	// LastWords bounds the final comment edit and commit status after
	// cancellation or the timeout.
	LastWords = 1500 * time.Millisecond
	// RecordFor bounds the write of the record of a send that went
	// (Keep): a comment's read and edit, with a retry.
	RecordFor = 4 * time.Second
)

// Grace is how long, on the wall's clock, what a run writes after it
// ends may take: the last words and the record of a send. A zero field is
// its constant; tests set them shorter, so that no test waits a runner's
// seconds for a write that never ends. What is retried within them is
// still decided on the run's clock, by the constants.
type Grace struct {
	LastWords, RecordFor time.Duration
}

func (g Grace) lastWords() time.Duration { return cmp.Or(g.LastWords, LastWords) }
func (g Grace) recordFor() time.Duration { return cmp.Or(g.RecordFor, RecordFor) }

// outliving returns the context of a run's last words, which must be
// written even when ctx ends first. It holds ctx's values and ends
// LastWords (Grace) after ctx ends, or with cancel.
func (r *Reporter) outliving(ctx context.Context) (context.Context, context.CancelFunc) {
	out, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() {
		t := time.AfterFunc(r.Grace.lastWords(), cancel)
		context.AfterFunc(out, func() { t.Stop() })
	})
	return out, func() {
		stop()
		cancel()
	}
}

// Keep returns the context of the write of the record of a send that
// went, a create or follow-up the API took: lost, the next run sends the
// same again, and the caps count it nowhere. It holds ctx's values and a
// deadline of its own, RecordFor from now, whatever becomes of ctx: a
// run cancelled (SIGINT, then SIGTERM) or at its timeout meanwhile still
// writes it. The comments' client retries it past the run's deadline
// (its calls' policy outlives the run by RecordFor, httpclient.Policy):
// decided on the run's clock, while the context ends on the wall's, the
// same span for a run, a shorter wall for a test (Grace). It ends with
// cancel too.
func (r *Reporter) Keep(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), r.Grace.recordFor())
}

// Reporter is the one writer of what a run reports: the job-id output the
// moment the run names its job, the comments (its own, and an earlier
// run's it settles), the commit statuses (Checks), the wait's progress,
// and at the end the outputs, the summary, the comment's last edit and the
// closing line. The parts of a run tell it what happened; none of them
// writes a comment, a status or an output itself.
type Reporter struct {
	Progress runlog.Progress
	RC       runner.Context
	Out      *report.Outputs
	// Timeout is the timeout input, which the comment and the errors name.
	Timeout time.Duration
	// Comment is the run's own comment; nil while the run may write none.
	Comment report.Comment
	// Answers are what the run's comment answers; nil for a run that
	// answers no requests.
	Answers report.Answers
	// Code is a code pull request's run's; nil for others.
	Code *report.Code
	// Checks sets the commit statuses.
	Checks *Checks
	// Sent counts the requests the run's HTTP client sent, by host; nil
	// before the run made one. AgentHost and GitHubHost say which are
	// which, for the cost.
	Sent                  func() map[httpclient.Sent]int
	AgentHost, GitHubHost string
	// Grace bounds what the run writes after it ends; zero fields are the
	// runner's (LastWords, RecordFor).
	Grace Grace
	// Approval says the team wants the docs pull request approved before
	// the check is green (docs-check: approved): every later run decides
	// the check as this one was asked to.
	Approval bool
	// Project is the mark of the run's Agent Job project
	// (record.ProjectMark), which every record that names a job keeps.
	Project string

	// Cost is what the run spent so far: the creates and follow-ups the
	// API took (Spent), the sends the caps counted before it and the time
	// it waited for the job (the hall's). Billed is what it cost, as
	// Finish reported it; nil when it stopped before it could report.
	Cost   report.Cost
	Billed *report.Cost

	reported bool
}

// Name writes id ("" for none) in the job-id output at once: the job a
// room is about to send to or read, which a failure or a cancellation
// later must not lose.
func (r *Reporter) Name(id string) error { return r.Out.Set("job-id", id) }

// Spent counts a create or follow-up the API took: in the run's comment,
// which is what the caps count, and in the run's cost.
func (r *Reporter) Spent(followUp bool) {
	if r.Comment != nil {
		r.Comment.Spend(r.Progress.Clock.Now())
	}
	if followUp {
		r.Cost.FollowUps++
	} else {
		r.Cost.Creates++
	}
}

// Record writes o in the run's comment as working, even when the run is
// cancelled or at its timeout now (Keep): the record of a send, which
// lost would have the next run send it again.
func (r *Reporter) Record(ctx context.Context, o *report.Outcome) {
	ctx, cancel := r.Keep(ctx)
	defer cancel()
	r.show(ctx, o, conversation.Working)
}

// Working shows the run's comment working on o: before the run has a job
// (o nil), the requests it answers (Answers), nothing sent yet; while the
// job works, as the wait last saw it.
func (r *Reporter) Working(ctx context.Context, o *report.Outcome) {
	r.show(ctx, cmp.Or(o, &report.Outcome{}), conversation.Working)
}

// show edits the run's comment, if it has one, to o in phase p.
func (r *Reporter) show(ctx context.Context, o *report.Outcome, p conversation.Phase) {
	if r.Comment != nil {
		r.Comment.Show(ctx, r.State(o, p))
	}
}

// Write writes s in c over the earlier run's record it settles there,
// while that is as read (report.Comment.Settle). It reports whether GitHub
// took the write; a failure is a warning (package conversation).
func (r *Reporter) Write(ctx context.Context, c report.Comment, earlier *conversation.Earlier, s conversation.State) bool {
	if s.Record.JobID != "" && s.Record.Project == "" {
		s.Record.Project = r.Project
	}
	return c.Settle(ctx, earlier, s)
}

// Unreported reports a run that stopped before it had an outcome to report
// (inputs or an event it cannot use, files it cannot write), ending as end:
// the status output and the summary still say so, as far as they can be
// written; a usage error prints no results on a command line.
func (r *Reporter) Unreported(end report.End, err error) {
	if r.reported {
		return
	}
	if end == report.Invalid {
		r.Out.Withhold()
	}
	_ = r.Out.Set("status", report.StatusError)
	_ = report.WriteSummary(r.Progress.Log, r.RC.SummaryFile, report.Summary(report.Result{Status: report.StatusError, Failure: err.Error(), RunURL: r.RC.RunURL()}))
}

// State is the run's comment for o in phase p, with the record it keeps.
func (r *Reporter) State(o *report.Outcome, p conversation.Phase) conversation.State {
	s := conversation.State{
		Phase: p, Record: record.Record{JobID: o.JobID, Project: r.Project, Failed: o.End() == report.JobFailed}, Status: o.Status(), FollowUp: o.FollowUp,
		Note: o.Note, RunURL: escape.URL(r.RC.RunURL()), Elapsed: r.Progress.Elapsed(), Timeout: r.Timeout,
	}
	if o.Job != nil {
		s.PRLink, s.PRURL = o.Job.PR(), o.PRURL(r.RC.ServerURL)
	}
	if s.PRURL == "" && r.Code != nil && p.Working() {
		if pr, ok := prlink.Judge(r.Code.DocsPR, r.RC.ServerURL); ok {
			s.PRURL = pr.URL(r.RC.ServerURL)
		}
	}
	if a := r.Answers; a != nil {
		rec := a.Record()
		s.Record.Answered = &rec
		s.Answered, s.Left, s.Later = a.Refs()
	}
	s.AnsweredIn = o.AnsweredIn
	s.Preview = o.Preview.Markdown()
	// A job not seen to end is for a later run to report.
	_, refused := agentapi.TakesNoMessages(o.Err)
	s.Working = o.JobID != "" && (o.Job == nil || !o.Job.Terminal()) && !refused
	s.Record.Unsettled = s.Working
	s.Record.Lost = errors.Is(o.Err, report.ErrJobLost)
	if v := o.Docs; v != nil {
		// A docs pull request not yet merged nor closed is followed: a
		// settle run on its review events settles the check.
		if s.Record.Docs = check.Following(v.State); s.Record.Watched() {
			s.Record.Unsettled = true
		}
		if !o.Closed {
			// A closed run's note (the close's) says what became of it.
			s.Note = paragraphs(s.Note, DocsNote(*v))
		}
	}
	// A create that failed in a way that surely did not act made no job.
	var apiErr *agentapi.Error
	s.NoJob = o.JobID == "" && errors.As(o.Err, &apiErr) && apiErr.Failure != nil && apiErr.Failure.Kind != httpclient.MayHaveActed
	if c := r.Code; c != nil {
		// The next run sends what comes after it, and settles the
		// statuses the job still owes.
		s.Record.Head, s.Record.Owed, s.Record.Waiting, s.Record.Cut = c.Heard, c.Owed, c.Waiting, c.Cut
		if o.Held {
			s.Record.Held = c.PR.HeadSHA
		}
		// Every later run decides the check as this one was asked to.
		carry(&s, c.Prior, o.Docs == nil)
		s.Record.Approval = s.Record.Approval || r.Approval
	}
	return s
}

// carry keeps in s what prior, the record an earlier run left, says and
// this run does not decide again (record.Record.Carry), and the pairing:
// the record alone pairs a code pull request with its docs pull request,
// and what the job names now does not rewrite it.
func carry(s *conversation.State, prior record.Record, unjudged bool) {
	s.Record.Carry(prior, unjudged)
	if prior.PR != "" {
		s.PRURL = prior.PR
	}
}

// paragraphs joins the parts that are not empty as Markdown paragraphs.
func paragraphs(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), "\n\n")
}

// DocsNote is the comment's sentence on the docs pull request v, as the
// code pull request's check sees it.
func DocsNote(v docspr.Verdict) string {
	n := fmt.Sprintf("#%d", v.PR.Number)
	if u := escape.URL(v.URL); u != "" {
		n = fmt.Sprintf("[#%d](%s)", v.PR.Number, u)
	}
	switch v.State {
	case docspr.Approved:
		return "✅ The docs pull request " + n + " is approved on its latest commit: this pull request's docs check passes."
	case docspr.Merged:
		return "⚠️ The docs pull request " + n + " was merged before this pull request: the published docs may describe code that has not landed. Merge this pull request soon, or revert the docs change."
	case docspr.Closed:
		return "⛔ The docs pull request " + n + " was closed without being merged: this pull request's docs check fails. Reopen it, or push to start a new docs job."
	case docspr.Unread:
		return "⏳ The docs pull request " + n + " could not be read: this pull request's docs check waits. The next settle run reads it again."
	}
	return "⏳ This pull request's docs check waits for an approving review of the docs pull request " + n + " on its latest commit."
}
