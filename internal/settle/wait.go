package settle

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/prlink"
	"github.com/agentjob/agent-job-action/internal/runlog"
)

// Ending is the job a settle run waits for: the one whose pull request
// its event says the agent just opened or pushed. The agent pushes as it
// finishes, so that job is about to end, and a run that read it once and
// left it would leave its statuses pending until the next scheduled run.
type Ending struct {
	// PR is the pull request the event names.
	PR prlink.PullRequest
	// ServerURL is the GitHub the job's prLink is judged on.
	ServerURL string
	// Waiter polls the job; its Observer is set by the room.
	Waiter poll.Waiter
}

// EndingOf is the job to wait for in a settle run whose event names link
// (plan.Plan.Await) on the GitHub at serverURL, polled by w; nil when link
// names no pull request there.
func EndingOf(link, serverURL string, w poll.Waiter) *Ending {
	pr, ok := prlink.Judge(link, serverURL)
	if !ok {
		return nil
	}
	return &Ending{PR: pr, ServerURL: serverURL, Waiter: w}
}

// names reports whether job's pull request is the one the event named.
func (e *Ending) names(job *agentapi.Job) bool {
	pr, ok := prlink.Judge(job.PR(), e.ServerURL)
	return ok && pr.Number == e.PR.Number && strings.EqualFold(pr.Owner, e.PR.Owner) && strings.EqualFold(pr.Repo, e.PR.Repo)
}

// awaited returns job, or, when it still works on the pull request the
// run's event named, job as it is at its end or when the wait gave up (the
// run's timeout): polled as a waiting run polls, with each change in the
// log. Any other job is returned as read: a settle run waits on no job
// that is not ending.
func (s *Room) awaited(ctx context.Context, job *agentapi.Job) *agentapi.Job {
	if s.Ending == nil || job.Terminal() || !s.Ending.names(job) {
		return job
	}
	w := s.Ending.Waiter
	w.Observer = waitLog{s.Progress}
	s.Progress.Logf("job %s is %s, and its pull request %s is the one this run's event names: waiting for its end", escape.Log(job.ID), escape.Log(job.Status), escape.Log(job.PR()))
	from := w.Clock.Now()
	res, err := w.Wait(ctx, job)
	s.Reporter.Waited(w.Clock.Now().Sub(from))
	switch {
	case errors.Is(err, poll.ErrTimedOut):
		s.Progress.Logf("job %s was still %s when the run's timeout came: the next run settles it", escape.Log(job.ID), escape.Log(res.Job.Status))
	case err != nil:
		s.Progress.Logf("stopped waiting for job %s: %s", escape.Log(job.ID), escape.Log(err.Error()))
	}
	return res.Job
}

// waitLog tells a settle run's log how the wait for an ending job goes.
type waitLog struct{ p runlog.Progress }

func (l waitLog) StatusChanged(job *agentapi.Job, from string) {
	l.p.Logf("job %s: %s → %s", escape.Log(job.ID), escape.Log(from), escape.Log(job.Status))
}

func (l waitLog) UnknownStatus(job *agentapi.Job) {
	l.p.Logf("job %s has a status this action does not know, %s: it is waited for as working", escape.Log(job.ID), escape.Log(job.Status))
}

func (l waitLog) PollFailed(err error) {
	l.p.Logf("%s; polling again", escape.Log(err.Error()))
}

func (waitLog) Sleeping(*agentapi.Job, time.Time, bool) {}

var _ poll.Observer = waitLog{}
