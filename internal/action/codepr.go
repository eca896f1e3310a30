package action

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/codepr"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/request"
)

// logChanges says in the log why what the run read is not a push's own
// change, when it is not.
func (r *run) logChanges(c *codepr.Changes) {
	switch c.Again {
	case prompt.Rewritten:
		r.logf("the branch was rewritten (a force push) since the job last heard of it: sending the pull request's whole change again")
	case prompt.Retargeted:
		r.logf("the pull request was moved to another base branch: sending its whole change again")
	case prompt.TooManyToCompare:
		r.logf("the push changes at least %d files, as many as GitHub lists in a comparison: sending the pull request's whole change again", ghclient.MaxCompareFiles)
	case prompt.TooLargeToCompare:
		r.logf("GitHub's comparison of the push is too large to read: sending the pull request's whole change again, read page by page")
	}
	if c.Cut {
		r.log.Warning(fmt.Sprintf("the pull request changes at least %d files, as many as GitHub lists: files past them are not seen, so the docs job hears of the first only and the commit status %s claims no success", ghclient.MaxPullFiles, codepr.StatusContext))
	}
	if c.FromBase {
		r.logf("the push merged the base branch: what it brought is left out (%d under paths)", c.Dropped)
	}
}

// startCode starts or continues the docs job of a code pull request: it
// learns the token's login with 👀 on the pull request, adopts the comment
// an earlier run wrote there (the record of the job and of the head commit
// the job last heard of), reads what changed since, filtered by paths, and
// creates the job with the whole change, sends what is new to the job the
// comment names, or, with nothing new, reads that job to report it. It
// returns the job, or the run's outcome when it ends here.
func (r *run) startCode(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, p plan.Plan, o *report.Outcome) (*agentapi.Job, *report.Outcome) {
	pr, t := *p.Code, r.trig
	r.code = &report.Code{PR: report.Commit{Owner: pr.Owner, Repo: pr.Repo, HeadSHA: pr.HeadSHA}}
	r.rep.Code, r.rep.Checks.PR = r.code, r.code
	var earlier *conversation.Earlier
	if r.thread != nil {
		r.thread.React(ctx, int64(t.Number), request.Event, "eyes")
		var err error
		if earlier, err = r.thread.Adopt(ctx); err != nil {
			if errors.Is(err, conversation.ErrUnknownIdentity) {
				return nil, o.Fail(ctx, fmt.Errorf("find the docs job of pull request #%d: %w; nothing was sent, so that the pull request does not get a second job", t.Number, err))
			}
			return nil, o.Fail(ctx, fmt.Errorf("find the docs job of pull request #%d: %w", t.Number, err))
		}
	}
	since := ""
	if earlier != nil {
		// The record, kept from here on whatever happens: a run that fails
		// later writes it back as it read it, so that the next push
		// continues the same job rather than creating a second.
		if err := r.rep.Job(o, earlier.JobID, true); err != nil {
			return nil, o.Fail(ctx, err)
		}
		since, r.code.Heard, r.code.Owed, r.code.Waiting = earlier.Head, earlier.Head, earlier.Owed, earlier.Waiting
		if since == "" {
			since = pr.Before
		}
		r.logf("the docs job of pull request #%d is %s, in %s", t.Number, escape.Log(earlier.JobID), escape.Log(earlier.URL))
	}
	var seen *agentapi.Job // the earlier job as this run read it
	if earlier != nil && earlier.Unsettled {
		var owed []string
		var ok bool
		if seen, owed, ok = r.settler.Earlier(ctx, r.thread, earlier, true); ok {
			r.code.Owed = owed
		}
	}
	if earlier != nil {
		r.code.DocsPR = earlier.PR
		if seen != nil && seen.PR() != "" {
			r.code.DocsPR = seen.PR()
		}
	}
	if pr.Action == "closed" {
		return nil, r.closeCode(ctx, api, gh, o, pr, earlier, seen)
	}
	changes, err := codepr.Read(ctx, gh, pr, since, r.cfg.Paths)
	if err != nil {
		return nil, o.Fail(ctx, fmt.Errorf("read the changes of pull request #%d: %w", t.Number, err))
	}
	// A cut listing the job heard stays cut until the whole change is
	// listed again.
	r.code.Cut = changes.Cut || earlier != nil && earlier.Cut && !changes.Whole
	r.logChanges(changes)
	if why := plan.NothingNew(changes, earlier != nil); why != "" {
		r.code.NoChange = true
		return nil, r.rep.Skip(why)
	} else if none := changes.NothingToSend(); none != "" {
		// Nothing new: the job is reported as it stands, and waited for.
		r.logf("%s", none)
		job, err := readOnce(ctx, api, earlier.JobID, seen)
		if err != nil {
			return nil, o.Fail(ctx, fmt.Errorf("%w (job %s)", err, escape.Log(earlier.JobID)))
		}
		o.Job, r.code.Heard, r.code.Idle, r.code.Waiting = job, pr.HeadSHA, true, ""
		if !job.Terminal() {
			r.rep.Status(ctx, o)
		}
		return job, nil
	}

	if earlier != nil && !p.Wait {
		if job, folded := r.fold(ctx, api, earlier, seen, o); folded {
			return job, nil
		}
	}
	about := prompt.CodePR{Owner: t.Owner, Repo: t.Repo, Number: t.Number, Title: t.Title, Body: t.IssueBody, URL: t.URL}
	if done := r.overCap(ctx, gh, p, "", o); done != nil {
		return nil, done
	}
	var job *agentapi.Job
	o.Stage = report.StageStart
	if earlier != nil {
		job, err = r.jobs.FollowUp(ctx, o, earlier.JobID, prompt.CodePushPrompt(about, changes.Change()), func(ctx context.Context, f *httpclient.Failure) (string, error) {
			// The job takes no more messages (archived, failed, gone): a new
			// one stands in for it, with the whole change.
			r.logf("job %s cannot take a follow-up (%s); starting a new job with the pull request's whole change", escape.Log(earlier.JobID), escape.Log(f.Error()))
			whole, err := codepr.Read(ctx, gh, pr, "", r.cfg.Paths)
			if err != nil {
				return "", fmt.Errorf("read the changes of pull request #%d: %w", t.Number, err)
			}
			r.code.Cut, r.code.DocsPR = whole.Cut, ""
			return prompt.CodePRPrompt(p.Workflow, about, whole.Change()), nil
		})
	} else {
		job, err = r.jobs.Create(ctx, prompt.CodePRPrompt(p.Workflow, about, changes.Change()))
	}
	if err != nil {
		return nil, o.Fail(ctx, err)
	}
	o.Job, r.code.Heard, r.code.Waiting = job, pr.HeadSHA, ""
	if err := r.rep.Job(o, job.ID, o.FollowUp); err != nil {
		return nil, o.Fail(ctx, err)
	}
	r.rep.Show(ctx, o, conversation.Working)
	r.rep.Status(ctx, o)
	return job, nil
}

// fold holds a push's change while the pull request's job still works on
// what it heard, in a run that does not wait: the record says the change
// waits (waiting), the head's status is pending, and the run that finds
// the job ended (the next push, or a settle run) sends everything that
// waits in one follow-up. seen is the job as the run read it already; nil
// to read it. It reports whether the change was held; a job it cannot read,
// or one that ended, is sent the change at once.
func (r *run) fold(ctx context.Context, api *agentapi.Client, earlier *conversation.Earlier, seen *agentapi.Job, o *report.Outcome) (*agentapi.Job, bool) {
	job, err := readOnce(ctx, api, earlier.JobID, seen)
	if err != nil {
		r.logf("job %s could not be read (%s): sending this push's change now", escape.Log(earlier.JobID), escape.Log(err.Error()))
		return nil, false
	}
	if job.Terminal() {
		return nil, false
	}
	o.Job, r.code.Waiting = job, r.code.PR.HeadSHA
	r.logf("job %s is %s: this push's change waits, and the run that finds the job ended sends it with any later push in one follow-up", escape.Log(job.ID), escape.Log(job.Status))
	r.rep.Status(ctx, o)
	return job, true
}

// closeCode stops following the docs job of a closed pull request: the
// Agent API cannot cancel a job, so the run sends it nothing and reads it
// once, tells its pull request that the code landed (merged) or will not
// (closed unmerged; a person closes or keeps the docs pull request), and
// ends the record: the comment says the job is stopped. A job still
// working stays unsettled, so that a settle run reports its end on the
// heads it owes.
func (r *run) closeCode(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, o *report.Outcome, pr codepr.PullRequest, earlier *conversation.Earlier, seen *agentapi.Job) *report.Outcome {
	if earlier == nil {
		return r.rep.Skip(fmt.Sprintf("pull request #%d was closed and has no docs job: nothing to stop", pr.Number))
	}
	// What waits for the job is never sent: the pull request is closed.
	// The heads pushed since the job last heard are told so; they are
	// owed nothing more.
	o.Closed, r.code.Waiting = true, ""
	var unsent []string
	r.code.Owed, unsent = earlier.Heard()
	r.rep.Checks.Set(ctx, pr.Owner, pr.Repo, unsent, ghclient.CommitStatus{Context: codepr.StatusContext, State: ghclient.StatusSuccess,
		Description: "Pull request closed: this push's change was not sent to the docs job"})
	if slices.Contains(unsent, pr.HeadSHA) {
		// The head's status is said; the run's end sets none on it.
		r.code.PR.HeadSHA = ""
	}
	if err := r.rep.Job(o, earlier.JobID, true); err != nil {
		return o.Fail(ctx, err)
	}
	job, err := readOnce(ctx, api, earlier.JobID, seen)
	if err != nil {
		return o.Fail(ctx, fmt.Errorf("%w (job %s)", err, escape.Log(earlier.JobID)))
	}
	o.Job = job
	how := "closed without being merged"
	if pr.Merged {
		how = "merged"
	}
	r.logf("pull request #%d was %s: job %s gets nothing more", pr.Number, how, escape.Log(job.ID))
	r.agent.Closed(ctx, job, pr.Number, r.trig.URL, pr.Merged)
	return o
}
