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
	"github.com/agentjob/agent-job-action/internal/job"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/prlink"
)

// ending is the job a settle run waits for: the one whose pull request
// its event says the agent just opened or pushed. The agent pushes as it
// finishes, so that job is about to end, and a run that read it once and
// left it would leave its statuses pending until the next scheduled run.
type ending struct {
	// PR is the pull request the event names.
	PR prlink.PullRequest
	// ServerURL is the GitHub the job's prLink is judged on.
	ServerURL string
	// Waiter polls the job; its Observer is the run's reporter's.
	Waiter poll.Waiter
}

// settleLeave is what a wait for the ending job leaves of the run's time (its
// Waiter's deadline), for the records after it and the run's last words:
// a wait to the deadline would leave them to fail.
const settleLeave = time.Minute

// endingOf is the job to wait for in a settle run whose event names link
// (plan.Plan.Await) on the GitHub at serverURL, polled by w until settleLeave
// before its deadline; nil when link names no pull request there.
func endingOf(link, serverURL string, w poll.Waiter) *ending {
	pr, ok := prlink.Judge(link, serverURL)
	if !ok {
		return nil
	}
	w.Deadline = w.Deadline.Add(-settleLeave)
	return &ending{PR: pr, ServerURL: serverURL, Waiter: w}
}

// names reports whether job's pull request is the one the event named.
func (e *ending) names(job *agentapi.Job) bool {
	pr, ok := prlink.Judge(job.PR(), e.ServerURL)
	return ok && pr.Number == e.PR.Number && strings.EqualFold(pr.Owner, e.PR.Owner) && strings.EqualFold(pr.Repo, e.PR.Repo)
}

// awaited returns job, or, when it still works on the pull request the
// run's event named, job as it is at its end or when the wait gave up (the
// run's timeout): polled as a waiting run polls, with each change in the
// log; waited says so. Any other job is returned as read: a settle run
// waits on no job that is not ending.
func (s *settler) awaited(ctx context.Context, jb *agentapi.Job) (_ *agentapi.Job, waited bool) {
	if s.Ending == nil || jb.Terminal() || !s.Ending.names(jb) {
		return jb, false
	}
	w := s.Ending.Waiter
	w.Observer = job.Logged{Progress: s.Progress}
	s.Progress.Logf("job %s is %s, and its pull request %s is the one this run's event names: waiting for its end", escape.Log(jb.ID), escape.Log(jb.Status), escape.Log(jb.PR()))
	from := w.Clock.Now()
	res, err := w.Wait(ctx, jb)
	s.Waited += w.Clock.Now().Sub(from)
	switch {
	case errors.Is(err, poll.ErrTimedOut):
		s.Progress.Logf("job %s was still %s %s before the run's timeout: the next run settles it", escape.Log(jb.ID), escape.Log(res.Job.Status), settleLeave)
	case err != nil:
		s.Progress.Logf("stopped waiting for job %s: %s", escape.Log(jb.ID), escape.Log(err.Error()))
	}
	return res.Job, true
}

// again is the record e in th, and its job, as they are after a wait for
// the job's end: while the run waited, a run in the thread (a push's, in
// another concurrency group) may have written the record anew, with a
// change that waits since, or a follow-up it sent. The record the run read
// before the wait is then no ground to send or report from: the change
// it holds is no longer all that waits, and its job may work again. A
// record that no longer holds that job left working is its writer's to
// settle: nil. A changed one is returned with its job read again.
func (s *settler) again(ctx context.Context, th *conversation.Thread, e *conversation.Earlier, job *agentapi.Job) (*conversation.Earlier, *agentapi.Job) {
	c, err := s.GitHub.GetComment(ctx, th.Owner, th.Repo, e.CommentID)
	if err != nil {
		s.Progress.Log.Warning(fmt.Sprintf("could not read the record in %s again after waiting for job %s: %s; the next settle run settles it", escape.Log(e.URL), escape.Log(job.ID), escape.Log(err.Error())))
		return nil, nil
	}
	now := conversation.EarlierOf(c)
	if !e.Changed(now) {
		return e, job
	}
	if !now.Unsettled || now.Backlink || now.JobID != e.JobID {
		s.Progress.Logf("#%d: the record changed while this run waited, and no longer holds job %s left working: left to the run that wrote it", th.Number, escape.Log(job.ID))
		return nil, nil
	}
	s.Progress.Logf("#%d: the record changed while this run waited: job %s is settled from the record as it is now", th.Number, escape.Log(job.ID))
	if job, err = s.Jobs.API.Get(ctx, now.JobID); err != nil {
		s.Progress.Log.Warning(fmt.Sprintf("could not read job %s again: %s; the next settle run settles it", escape.Log(now.JobID), escape.Log(err.Error())))
		return nil, nil
	}
	return now, job
}
