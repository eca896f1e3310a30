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
	// owed are the head commits whose status shows the job working, the
	// earlier runs' among them: the job's end settles them all.
	owed []string
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
		// The record, kept from here on whatever happens: a run that fails
		// later writes it back as it read it, so that the next push
		// continues the same job rather than creating a second.
		o.JobID, o.FollowUp = earlier.JobID, true
		since, r.code.heard, r.code.owed = earlier.Head, earlier.Head, earlier.Owed
		if since == "" {
			since = pr.Before
		}
		r.logf("the docs job of pull request #%d is %s, in %s", t.Number, escape.Log(earlier.JobID), escape.Log(earlier.URL))
		if earlier.Unsettled {
			r.settleEarlier(ctx, api, gh, p, earlier)
		}
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
			r.code.status(ctx, r, o, false)
		}
		return job, nil
	}

	about := prompt.CodePR{Owner: t.Owner, Repo: t.Repo, Number: t.Number, Title: t.Title, Body: t.IssueBody, URL: t.URL}
	if done := r.overCap(ctx, gh, p, "", o); done != nil {
		return nil, done
	}
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
	r.code.status(ctx, r, o, false)
	return job, nil
}

// status sets the commit status of o on the pull request's head commit:
// pending while the job works (whether or not this run waits for it), the
// job's end on every head it covered once it has one. ended says the run
// is at its end; before it, a job it started works. A status that cannot
// be set is a warning: the job is not affected.
func (c *code) status(ctx context.Context, r *run, o *Outcome, ended bool) {
	if c.pr.HeadSHA == "" {
		return
	}
	out := codepr.Outcome{NoChange: c.noChange, RunURL: r.rc.RunURL(), PRLink: r.prURL(o), Preview: o.Preview.URL, Capped: o.capReason()}
	if out.Capped != "" {
		// This head only: the heads an earlier push left owing wait for
		// their job's end.
		r.setStatus(ctx, c.gh, c.pr.Owner, c.pr.Repo, []string{c.pr.HeadSHA}, codepr.Status(out))
		return
	}
	switch end := o.End(); {
	case !ended:
		out.Working = true
	case end == Completed, end == Skipped:
	case end == JobFailed:
		out.Failed = true
	case o.JobID != "" && (o.Job == nil || !o.Job.Terminal()) && r.thread != nil:
		// The run ended (it does not wait, its time is up, it was
		// cancelled, it could not send this push) while the job goes
		// on: it is not failed, and a later run reports its end from
		// the record the comment keeps.
		out.Working = true
	case o.JobID != "" && (o.Job == nil || !o.Job.Terminal()):
		// No comment, no record: nothing will report this job's end, and
		// a pending status would hold a required check for ever.
		out.Stopped = true
	default:
		out.Errored = true
	}
	heads := []string{c.pr.HeadSHA}
	if out.Working {
		c.owed = conversation.Owe(c.owed, c.pr.HeadSHA)
	} else {
		heads, c.owed = conversation.Owe(c.owed, c.pr.HeadSHA), nil
	}
	r.setStatus(ctx, c.gh, c.pr.Owner, c.pr.Repo, heads, codepr.Status(out))
}

// setStatus sets s on each of heads.
func (r *run) setStatus(ctx context.Context, gh *ghclient.Client, owner, repo string, heads []string, s ghclient.CommitStatus) {
	for _, sha := range heads {
		if err := gh.SetStatus(ctx, owner, repo, sha, s); err != nil {
			advice := ""
			if ghclient.IsForbidden(err) {
				advice = " (give the workflow permissions: statuses: write)"
			}
			r.log.Warning(fmt.Sprintf("could not set the commit status %s: %s%s; the job is not affected", codepr.StatusContext, escape.Log(err.Error()), advice))
			return
		}
	}
	on := ""
	if len(heads) > 1 {
		on = fmt.Sprintf(" on %d commits", len(heads))
	}
	r.logf("commit status %s%s: %s (%s)", codepr.StatusContext, on, s.State, escape.Log(s.Description))
}
