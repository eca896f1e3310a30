package action

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/codepr"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/request"
)

// code is what a run for a code pull request keeps for its report: the
// commit its status goes on, and whether the run found nothing to do.
type code struct {
	gh       *ghclient.Client
	pr       codepr.PullRequest
	noChange bool
	// idle is true when the run sent the job nothing: its pull request's
	// branch is as the run before left it, preview included.
	idle bool
	// heard is the head commit the job has heard of, which the comment
	// records: the one an earlier run recorded until this run's changes
	// reach the job.
	heard string
}

// startCode starts or continues the docs job of a code pull request: it
// learns the token's login with 👀 on the pull request, adopts the comment
// an earlier run wrote there (the record of the job and of the head commit
// the job last heard of), reads what changed since, filtered by paths, and
// creates the job with the whole change, sends what is new to the job the
// comment names, or, with nothing new, reads that job to report it. It
// returns the job, or the run's outcome when it ends here.
func (r *run) startCode(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, p plan.Plan, o *Outcome) (*agentapi.Job, *Outcome) {
	pr, t := *p.Code, r.trig
	r.code = &code{gh: gh, pr: pr}
	var earlier *conversation.Earlier
	if r.thread != nil {
		r.thread.React(ctx, int64(t.Number), request.Event, "eyes")
		var err error
		if earlier, err = r.thread.Adopt(ctx); err != nil {
			if errors.Is(err, conversation.ErrUnknownIdentity) {
				return nil, o.fail(ctx, fmt.Errorf("find the docs job of pull request #%d: %w; nothing was sent, so that the pull request does not get a second job", t.Number, err))
			}
			return nil, o.fail(ctx, fmt.Errorf("find the docs job of pull request #%d: %w", t.Number, err))
		}
	} else if pr.Action == "synchronize" {
		return nil, r.skip("comment is false: a push has no record of the pull request's docs job to continue (the run's comment is that record)")
	}
	since := ""
	if earlier != nil {
		since, r.code.heard = earlier.Head, earlier.Head
		if since == "" {
			since = pr.Before
		}
		r.logf("the docs job of pull request #%d is %s, in %s", t.Number, escape.Log(earlier.JobID), escape.Log(earlier.URL))
	}
	changes, err := codepr.Read(ctx, gh, pr, since, r.cfg.Paths)
	if err != nil {
		return nil, o.fail(ctx, fmt.Errorf("read the changes of pull request #%d: %w", t.Number, err))
	}
	if changes.Rewritten {
		r.logf("the branch was rewritten (a force push) since the job last heard of it: sending the pull request's whole change again")
	}
	if none := changes.NothingToSend(); none != "" && earlier == nil {
		r.code.noChange = true
		return nil, r.skip(none)
	} else if none != "" {
		// Nothing new: the job is reported as it stands, and waited for.
		r.logf("%s", none)
		o.JobID, o.FollowUp = earlier.JobID, true
		if err := r.out.JobID(earlier.JobID); err != nil {
			return nil, o.fail(ctx, err)
		}
		job, err := api.Get(ctx, earlier.JobID)
		if err != nil {
			return nil, o.fail(ctx, fmt.Errorf("%w (job %s)", err, escape.Log(earlier.JobID)))
		}
		o.Job, r.code.heard, r.code.idle = job, pr.HeadSHA, true
		if !job.Terminal() {
			r.code.status(ctx, r, o)
		}
		return job, nil
	}

	about := prompt.CodePR{Owner: t.Owner, Repo: t.Repo, Number: t.Number, Title: t.Title, Body: t.IssueBody, URL: t.URL}
	var job *agentapi.Job
	o.stage = stageStart
	if earlier != nil {
		job, err = r.message(ctx, api, prompt.CodePushPrompt(about, changes.Files, changes.Rewritten), o, earlier.JobID)
		if f, ok := takesNoMessages(err); ok {
			// The job takes no more messages (archived, failed, gone): a new
			// one stands in for it, with the whole change.
			r.logf("job %s cannot take a follow-up (%s); starting a new job with the pull request's whole change", escape.Log(earlier.JobID), escape.Log(f.Error()))
			if err := r.standIn(o, earlier.JobID, f); err != nil {
				return nil, o.fail(ctx, err)
			}
			if changes, err = codepr.Read(ctx, gh, pr, "", r.cfg.Paths); err != nil {
				return nil, o.fail(ctx, fmt.Errorf("read the changes of pull request #%d: %w", t.Number, err))
			}
			earlier = nil
		}
	}
	if earlier == nil {
		job, err = r.create(ctx, api, prompt.CodePRPrompt(p.Workflow, about, changes.Files))
	}
	if err != nil {
		return nil, o.fail(ctx, err)
	}
	o.JobID, o.Job, r.code.heard = job.ID, job, pr.HeadSHA
	if err := r.out.JobID(job.ID); err != nil {
		return nil, o.fail(ctx, err)
	}
	r.show(ctx, o, conversation.Working)
	r.code.status(ctx, r, o)
	return job, nil
}

// status sets the commit status of o on the pull request's head commit.
// A status that cannot be set is a warning: the job is not affected.
func (c *code) status(ctx context.Context, r *run, o *Outcome) {
	if c.pr.HeadSHA == "" {
		return
	}
	out := codepr.Outcome{NoChange: c.noChange, RunURL: r.rc.RunURL(), PRLink: r.prURL(o), Preview: o.Preview.URL}
	switch o.End() {
	case Completed, Skipped:
	case NotWaiting:
		out.Working = o.Job != nil && !o.Job.Terminal()
	default:
		out.Failed = true
	}
	s := codepr.Status(out)
	if err := c.gh.SetStatus(ctx, c.pr.Owner, c.pr.Repo, c.pr.HeadSHA, s); err != nil {
		advice := ""
		if ghclient.IsForbidden(err) {
			advice = " (give the workflow permissions: statuses: write)"
		}
		r.log.Warning(fmt.Sprintf("could not set the commit status %s: %s%s; the job is not affected", codepr.StatusContext, escape.Log(err.Error()), advice))
		return
	}
	r.logf("commit status %s: %s (%s)", codepr.StatusContext, s.State, escape.Log(s.Description))
}
