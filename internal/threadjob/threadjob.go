// Package threadjob is the docs job of an issue's or pull request's
// thread: a request there continues the job the newest record of the
// thread names, once its earlier run's record is settled and while its
// docs pull request is open (one docs pull request a thread), or starts a
// new one; a job that takes no more messages gets a stand-in that, in a
// pull request, updates the same pull request.
package threadjob

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/agentpr"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/job"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/runlog"
)

// Settler settles the record an earlier run left working and says in it
// that a later request continues its job: the hall's settling
// (internal/action) is one.
type Settler interface {
	Earlier(ctx context.Context, th *conversation.Thread, e *conversation.Earlier, own bool) (*agentapi.Job, []string, bool)
	Continued(ctx context.Context, th *conversation.Thread, e *conversation.Earlier)
}

// Agent is the job's pull request: whether it is still open, and the
// branch a stand-in updates. *agentpr.Room is one.
type Agent interface {
	DocsPR(ctx context.Context, link string, job func(ctx context.Context) (*agentapi.Job, error)) *ghclient.PullRequest
	Target(ctx context.Context, jobs agentpr.Jobs, old string, t prompt.Target) prompt.Target
}

var _ Agent = (*agentpr.Room)(nil)

// Room continues a thread's job for one run.
type Room struct {
	Thread  *conversation.Thread
	API     job.API
	Jobs    *job.Room
	Settler Settler
	Agent   Agent
	// Target is the thread's pull request, which a stand-in updates;
	// Number 0 for an issue's thread.
	Target   prompt.Target
	Progress runlog.Progress
}

// Continue sends text to the thread's job: the one the newest record of
// the thread names, as a follow-up, unless the plan decides from its docs
// pull request's state that a new job starts (newJobFor); a new one
// too when the thread's records cannot be read. A search of the thread cut
// at its budget (conversation.ErrSearchCut) sends nothing: the job it did
// not reach may be the thread's, and a second job would mean a second
// docs pull request. A record found past comments the search did not read
// (conversation.Earlier's Behind) gets the follow-up, and nothing else:
// where it would need a new job or a stand-in, a newer record among those
// comments may name one already, so nothing is sent (ErrSearchCut).
func (t *Room) Continue(ctx context.Context, text string) (job.Sent, error) {
	earlier, lookErr := t.Thread.Record(ctx, conversation.Continue)
	switch {
	case errors.Is(lookErr, conversation.ErrSearchCut):
		return job.Sent{}, lookErr
	case errors.Is(lookErr, conversation.ErrUnknownIdentity):
		t.Progress.Logf("no earlier job is continued: %v; starting a new job", lookErr)
	case lookErr != nil:
		t.Progress.Log.Warning(fmt.Sprintf("could not %v; the job is not affected", lookErr))
	}
	target := ""
	if earlier != nil {
		var seen *agentapi.Job
		if earlier.Unsettled {
			seen, _, _ = t.Settler.Earlier(ctx, t.Thread, earlier, false)
		}
		link := earlier.PR
		if seen != nil {
			link = seen.PR()
		}
		pr := t.Agent.DocsPR(ctx, link, func(ctx context.Context) (*agentapi.Job, error) {
			return job.ReadOnce(ctx, t.API, earlier.JobID, seen)
		})
		why := newJobFor(earlier.JobID, pr)
		switch {
		case why != "" && earlier.Behind:
			how := "closed"
			if pr.Merged {
				how = "merged"
			}
			return job.Sent{}, fmt.Errorf("the thread's oldest comments name job %s, whose docs pull request #%d is %s, and a newer job may be named among the others: %w", escape.Log(earlier.JobID), pr.Number, how, conversation.ErrSearchCut)
		case why != "":
			t.Progress.Logf("%s", why)
		default:
			target = earlier.JobID
		}
	}
	if target == "" {
		j, err := t.Jobs.Create(ctx, text)
		if err != nil {
			return job.Sent{}, err
		}
		return job.Sent{ID: j.ID, Job: j}, nil
	}
	var stand *job.StandIn
	if !earlier.Behind {
		stand = &job.StandIn{
			Why: func(f *httpclient.Failure) string {
				return fmt.Sprintf("job %s from earlier in this thread cannot take a follow-up (%s); starting a new job", escape.Log(target), escape.Log(f.Error()))
			},
			Text: func(ctx context.Context) (string, error) {
				if t.Target.Number == 0 {
					return text, nil
				}
				return prompt.Update(t.Agent.Target(ctx, t.API, target, t.Target), text), nil
			},
		}
		if t.Target.Number != 0 {
			stand.Also = " It may open a new pull request."
		}
	}
	sent, err := t.Jobs.FollowUp(ctx, target, text, stand)
	if f, refused := agentapi.TakesNoMessages(err); refused && earlier.Behind {
		// No stand-in: one may stand in already, named among the
		// comments not read. Nor does the run's record name the job,
		// or the next run would take it for the thread's newest.
		if err := t.Jobs.Name(""); err != nil {
			return job.Sent{}, err
		}
		return job.Sent{}, fmt.Errorf("the thread's oldest comments name job %s, which takes no more messages (%s), and a job that stands in for it may be named among the others: %w", escape.Log(target), escape.Log(f.Error()), conversation.ErrSearchCut)
	}
	if err == nil && sent.FollowUp && earlier.Unsettled {
		t.Settler.Continued(ctx, t.Thread, earlier)
	}
	return sent, err
}

// newJobFor decides from the state of the thread's docs pull request, pr
// (nil when it is not known), whether the thread's job, jobID, is
// continued: one docs pull request a thread, so a job whose pull request
// is merged or closed gets a new job (why, for the log), and one with none
// yet, or an open one, a follow-up (""). A state not known is continued,
// as before the rule: a second job is the costlier mistake.
func newJobFor(jobID string, pr *ghclient.PullRequest) string {
	if pr == nil || pr.Open {
		return ""
	}
	how := "closed"
	if pr.Merged {
		how = "merged"
	}
	return fmt.Sprintf("the docs pull request of job %s, #%d, is %s: starting a new job", escape.Log(jobID), pr.Number, how)
}
