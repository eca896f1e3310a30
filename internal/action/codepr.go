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
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
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
	// waiting is the newest head whose change the job has not heard
	// (conversation.Earlier.Waiting), "" when nothing waits.
	waiting string
	// cut is true when GitHub's listing of the pull request's files
	// reached its cap: the head's status can claim no success.
	cut, cutShown bool
	// docsPR is the job's pull request as the record or the settled job
	// named it, "" for none: the comment shows it while the job goes on,
	// when the job's answer to this run names none.
	docsPR string
}

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
	r.code = &code{gh: gh, pr: pr}
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
		if err := r.name(o, earlier.JobID, true); err != nil {
			return nil, o.Fail(ctx, err)
		}
		since, r.code.heard, r.code.owed, r.code.waiting = earlier.Head, earlier.Head, earlier.Owed, earlier.Waiting
		if since == "" {
			since = pr.Before
		}
		r.logf("the docs job of pull request #%d is %s, in %s", t.Number, escape.Log(earlier.JobID), escape.Log(earlier.URL))
	}
	var seen *agentapi.Job // the earlier job as this run read it
	if earlier != nil && earlier.Unsettled {
		seen = r.settleEarlier(ctx, api, gh, p, earlier)
	}
	if earlier != nil {
		r.code.docsPR = earlier.PR
		if seen != nil && seen.PR() != "" {
			r.code.docsPR = seen.PR()
		}
	}
	if pr.Action == "closed" {
		return nil, r.closeCode(ctx, api, gh, o, earlier, seen)
	}
	changes, err := codepr.Read(ctx, gh, pr, since, r.cfg.Paths)
	if err != nil {
		return nil, o.Fail(ctx, fmt.Errorf("read the changes of pull request #%d: %w", t.Number, err))
	}
	// A cut listing the job heard stays cut until the whole change is
	// listed again.
	r.code.cut = changes.Cut || earlier != nil && earlier.Cut && !changes.Whole
	r.logChanges(changes)
	if why := plan.NothingNew(changes, earlier != nil); why != "" {
		r.code.noChange = true
		return nil, r.skip(why)
	} else if none := changes.NothingToSend(); none != "" {
		// Nothing new: the job is reported as it stands, and waited for.
		r.logf("%s", none)
		job, err := readOnce(ctx, api, earlier.JobID, seen)
		if err != nil {
			return nil, o.Fail(ctx, fmt.Errorf("%w (job %s)", err, escape.Log(earlier.JobID)))
		}
		o.Job, r.code.heard, r.code.idle, r.code.waiting = job, pr.HeadSHA, true, ""
		if !job.Terminal() {
			r.code.status(ctx, r, o, false)
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
		job, err = r.message(ctx, api, prompt.CodePushPrompt(about, changes.Change()), o, earlier.JobID)
		if f, ok := takesNoMessages(err); ok {
			// The job takes no more messages (archived, failed, gone): a new
			// one stands in for it, with the whole change.
			r.logf("job %s cannot take a follow-up (%s); starting a new job with the pull request's whole change", escape.Log(earlier.JobID), escape.Log(f.Error()))
			if err := r.standIn(o, earlier.JobID, f); err != nil {
				return nil, o.Fail(ctx, err)
			}
			if changes, err = codepr.Read(ctx, gh, pr, "", r.cfg.Paths); err != nil {
				return nil, o.Fail(ctx, fmt.Errorf("read the changes of pull request #%d: %w", t.Number, err))
			}
			r.code.cut, r.code.docsPR = changes.Cut, ""
			earlier = nil
		}
	}
	if earlier == nil {
		job, err = r.create(ctx, api, prompt.CodePRPrompt(p.Workflow, about, changes.Change()))
	}
	if err != nil {
		return nil, o.Fail(ctx, err)
	}
	o.Job, r.code.heard, r.code.waiting = job, pr.HeadSHA, ""
	if err := r.name(o, job.ID, o.FollowUp); err != nil {
		return nil, o.Fail(ctx, err)
	}
	r.show(ctx, o, conversation.Working)
	r.code.status(ctx, r, o, false)
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
	o.Job, r.code.waiting = job, r.code.pr.HeadSHA
	r.logf("job %s is %s: this push's change waits, and the run that finds the job ended sends it with any later push in one follow-up", escape.Log(job.ID), escape.Log(job.Status))
	r.code.status(ctx, r, o, false)
	return job, true
}

// closeCode stops following the docs job of a closed pull request: the
// Agent API cannot cancel a job, so the run sends it nothing and reads it
// once, tells its pull request that the code landed (merged) or will not
// (closed unmerged; a person closes or keeps the docs pull request), and
// ends the record: the comment says the job is stopped. A job still
// working stays unsettled, so that a settle run reports its end on the
// heads it owes.
func (r *run) closeCode(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, o *report.Outcome, earlier *conversation.Earlier, seen *agentapi.Job) *report.Outcome {
	pr := r.code.pr
	if earlier == nil {
		return r.skip(fmt.Sprintf("pull request #%d was closed and has no docs job: nothing to stop", pr.Number))
	}
	// What waits for the job is never sent: the pull request is closed.
	// The heads pushed since the job last heard are told so; they are
	// owed nothing more.
	o.Closed, r.code.waiting = true, ""
	var unsent []string
	r.code.owed, unsent = earlier.Heard()
	r.setStatus(ctx, gh, pr.Owner, pr.Repo, unsent, ghclient.CommitStatus{Context: codepr.StatusContext, State: ghclient.StatusSuccess,
		Description: "Pull request closed: this push's change was not sent to the docs job"})
	if slices.Contains(unsent, pr.HeadSHA) {
		// The head's status is said; the run's end sets none on it.
		r.code.pr.HeadSHA = ""
	}
	if err := r.name(o, earlier.JobID, true); err != nil {
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

// status sets the commit status of o on the pull request's head commit:
// pending while the job works (whether or not this run waits for it), the
// job's end on every head it covered once it has one. ended says the run
// is at its end; before it, a job it started works. A status that cannot
// be set is a warning: the job is not affected.
func (c *code) status(ctx context.Context, r *run, o *report.Outcome, ended bool) {
	if c.pr.HeadSHA == "" {
		return
	}
	out := codepr.Outcome{NoChange: c.noChange, Cut: c.cut, RunURL: r.rc.RunURL(), PRLink: r.prURL(o), Preview: o.Preview.URL, PreviewState: o.Preview.State, Capped: o.CapReason()}
	if out.Capped != "" {
		// This head only: the heads an earlier push left owing wait for
		// their job's end.
		r.setStatus(ctx, c.gh, c.pr.Owner, c.pr.Repo, []string{c.pr.HeadSHA}, codepr.Status(out))
		return
	}
	switch end := o.End(); {
	case !ended:
		out.Working = true
	case end == report.Completed, end == report.Skipped:
	case end == report.JobFailed:
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
	if out.Cut && !out.Failed {
		// What the job was not told of, no end of it settles: this head's
		// status says so once, and no later run owes it another.
		if !c.cutShown {
			c.cutShown = true
			r.setStatus(ctx, c.gh, c.pr.Owner, c.pr.Repo, heads, codepr.Status(out))
		}
		return
	}
	if out.Working {
		c.owed = record.Owe(c.owed, c.pr.HeadSHA)
	} else {
		heads, c.owed = record.Owe(c.owed, c.pr.HeadSHA), nil
	}
	r.setStatus(ctx, c.gh, c.pr.Owner, c.pr.Repo, heads, codepr.Status(out))
}

// setStatus sets s on each of heads, but not again on a head this run
// already set it on.
func (r *run) setStatus(ctx context.Context, gh *ghclient.Client, owner, repo string, heads []string, s ghclient.CommitStatus) {
	heads = slices.DeleteFunc(slices.Clone(heads), func(sha string) bool { return r.statuses[sha] == s })
	if len(heads) == 0 {
		return
	}
	for _, sha := range heads {
		if err := gh.SetStatus(ctx, owner, repo, sha, s); err != nil {
			advice := ""
			if ghclient.IsForbidden(err) {
				advice = " (give the workflow permissions: statuses: write)"
			}
			r.log.Warning(fmt.Sprintf("could not set the commit status %s: %s%s; the job is not affected", codepr.StatusContext, escape.Log(err.Error()), advice))
			return
		}
		if r.statuses == nil {
			r.statuses = map[string]ghclient.CommitStatus{}
		}
		r.statuses[sha] = s
	}
	on := ""
	if len(heads) > 1 {
		on = fmt.Sprintf(" on %d commits", len(heads))
	}
	r.logf("commit status %s%s: %s (%s)", codepr.StatusContext, on, s.State, escape.Log(s.Description))
}
