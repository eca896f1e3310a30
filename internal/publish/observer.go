package publish

import (
	"context"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
)

// Observer reports a wait for the job of o as it goes: in the log, and in
// the run's comment when the job's status changes. With o nil it reports
// in the log only: a wait for a job that is not the run's own (a settle
// run's for the job its event names).
func (r *Reporter) Observer(ctx context.Context, o *report.Outcome) poll.Observer {
	return &observer{r: r, ctx: ctx, o: o}
}

// observer reports the wait's events in the log and the comment.
type observer struct {
	r   *Reporter
	ctx context.Context
	o   *report.Outcome
}

func (ob *observer) StatusChanged(job *agentapi.Job, from string) {
	ob.r.Progress.Logf("job %s: %s -> %s", escape.Log(job.ID), escape.Log(from), escape.Log(job.Status))
	if ob.o != nil && !job.Terminal() {
		ob.o.Job = job
		ob.r.show(ob.ctx, ob.o, conversation.Working)
	}
}

func (ob *observer) UnknownStatus(job *agentapi.Job) {
	ob.r.Progress.Logf("job %s has status %s, which this action does not know; still waiting", escape.Log(job.ID), escape.Log(job.Status))
}

// Sleeping tells the log where the wait stands: a terminal's status line,
// the Actions log's heartbeat. The job's id and status are redacted here:
// a status line cuts them to the terminal's width, and a cut made before
// redaction would leave a piece of a secret no redactor knows.
func (ob *observer) Sleeping(job *agentapi.Job, next time.Time, beat bool) {
	log := ob.r.Progress.Log
	log.Waiting(runlog.Wait{JobID: log.Redact(job.ID), Status: log.Redact(job.Status), Next: next, Elapsed: ob.r.Progress.Elapsed(), Beat: beat})
}

func (ob *observer) PollFailed(err error) {
	ob.r.Progress.Logf("poll failed, will try again: %s", escape.Log(err.Error()))
}
