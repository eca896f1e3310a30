// Package codejob is the docs job of a code pull request, push by push:
// it adopts the record an earlier run left in the pull request (the job,
// the head it heard, the heads that owe a status), settles what that run
// left working, reads the change since (package codepr), and sends it:
// to a new job, to the job as a follow-up, or, while the job works and the
// run does not wait, folded into the change that waits for the run that
// finds the job ended. A closed pull request's job gets nothing more. It
// hands the record, the statuses and the comment to the run's reporter.
package codejob

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/codepr"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/job"
	"github.com/agentjob/agent-job-action/internal/pathfilter"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
)

// Settler settles the record an earlier run left working: the hall's
// settling (internal/action) is one.
type Settler interface {
	Earlier(ctx context.Context, th *conversation.Thread, e *conversation.Earlier, own bool) (*agentapi.Job, []string, bool)
}

// Agent tells the job's pull request that its code pull request closed.
// *agentpr.Room is one.
type Agent interface {
	Closed(ctx context.Context, job *agentapi.Job, number int, url string, merged bool, recorded string, land plan.Land) (note, ended string)
}

// Room follows one code pull request's docs job for a run.
type Room struct {
	// Thread is the pull request's conversation, where the record is; nil
	// when the run keeps no comment.
	Thread *conversation.Thread
	GitHub codepr.GitHub
	// API reads the job; Jobs sends it.
	API      job.API
	Jobs     *job.Room
	Settler  Settler
	Agent    Agent
	Progress runlog.Progress
	Paths    *pathfilter.Filter
	// About is the pull request as a prompt names it; Workflow the
	// workflow's instruction, "" for the default; Wait whether the run
	// waits for the job.
	About    prompt.CodePR
	Workflow string
	Wait     bool
	// Land is what the pull request's close does to its docs pull
	// request (docs-merge, docs-close).
	Land plan.Land
	// Capped ends o, the run's outcome, when the caps let nothing be sent
	// (a cap reached, or a count that cannot be read), and returns it; it
	// returns nil, leaving o as it was, when they let it. Nil when the run
	// has no caps.
	Capped func(ctx context.Context, o *report.Outcome) *report.Outcome
	// Code is the run's account of the pull request, which Push fills in
	// and the hall's writer follows: the head its statuses go on and the
	// record its comment keeps.
	Code *report.Code
}

// logChanges says in the log why what the run read is not a push's own
// change, when it is not.
func (c *Room) logChanges(ch *codepr.Changes) {
	switch ch.Again {
	case prompt.Rewritten:
		c.Progress.Logf("the branch was rewritten (a force push) since the job last heard of it: sending the pull request's whole change again")
	case prompt.Retargeted:
		c.Progress.Logf("the pull request was moved to another base branch: sending its whole change again")
	case prompt.TooManyToCompare:
		c.Progress.Logf("the push changes at least %d files, as many as GitHub lists in a comparison: sending the pull request's whole change again", ghclient.MaxCompareFiles)
	case prompt.TooLargeToCompare:
		c.Progress.Logf("GitHub's comparison of the push is too large to read: sending the pull request's whole change again, read page by page")
	}
	if ch.Cut {
		c.Progress.Log.Warning(fmt.Sprintf("the pull request changes at least %d files, as many as GitHub lists: files past them are not seen, so the docs job hears of the first only and the commit status %s claims no success", ghclient.MaxPullFiles, check.Context))
	}
	if ch.FromBase {
		c.Progress.Logf("the push merged the base branch: what it brought is left out (%d under paths)", ch.Dropped)
	}
}

// Push starts or continues the docs job of the code pull request pr: it
// learns the token's login with 👀 on the pull request, adopts the comment
// an earlier run wrote there (the record of the job and of the head commit
// the job last heard of), reads what changed since, filtered by paths, and
// creates the job with the whole change, sends what is new to the job the
// comment names, or, with nothing new, reads that job to report it. It
// returns what happened, the run's outcome as far as it goes, and the job
// when the run goes on to wait for it (nil when the run ends here).
func (c *Room) Push(ctx context.Context, pr codepr.PullRequest) (*agentapi.Job, *report.Outcome) {
	o := &report.Outcome{}
	*c.Code = report.Code{PR: report.Commit{Owner: pr.Owner, Repo: pr.Repo, HeadSHA: pr.HeadSHA, Number: pr.Number}}
	var earlier *conversation.Earlier
	if c.Thread != nil {
		c.Thread.Seen(ctx)
		var err error
		if earlier, err = c.Thread.Record(ctx, conversation.Keep); err != nil {
			if errors.Is(err, conversation.ErrUnknownIdentity) {
				return nil, o.Fail(ctx, fmt.Errorf("find the docs job of pull request #%d: %w; nothing was sent, so that the pull request does not get a second job", pr.Number, err))
			}
			return nil, o.Fail(ctx, fmt.Errorf("find the docs job of pull request #%d: %w", pr.Number, err))
		}
	}
	if earlier != nil && earlier.JobID == "" && !earlier.Lost {
		// A record kept only for a change that waited for the code's
		// approval: its comment is the run's to edit, and no job exists.
		earlier = nil
	}
	if earlier != nil && earlier.Lost {
		// The job the record lost may still work on the pull request: a
		// new one a push would be a job a push, each lost the same way.
		c.Code.Heard = earlier.Head
		return nil, o.Fail(ctx, fmt.Errorf("find the docs job of pull request #%d: the job an earlier run created has an id the action cannot record, so %w; nothing was sent, so that a push does not start a job each time: delete the comment %s to start a new one", pr.Number, report.ErrJobLost, escape.Log(earlier.URL)))
	}
	since := ""
	if earlier != nil {
		// The record, kept from here on whatever happens: a run that fails
		// later writes it back as it read it, so that the next push
		// continues the same job rather than creating a second.
		if err := c.name(o, earlier.JobID, true); err != nil {
			return nil, o.Fail(ctx, err)
		}
		since, c.Code.Heard, c.Code.Owed, c.Code.Waiting = earlier.Head, earlier.Head, earlier.Owed, earlier.Waiting
		if since == "" {
			since = pr.Before
		}
		c.Progress.Logf("the docs job of pull request #%d is %s, in %s", pr.Number, escape.Log(earlier.JobID), escape.Log(earlier.URL))
	}
	var seen *agentapi.Job // the earlier job as this run read it
	if earlier != nil && earlier.Unsettled {
		var owed []string
		var ok bool
		if seen, owed, ok = c.Settler.Earlier(ctx, c.Thread, earlier, true); ok {
			c.Code.Owed = owed
		}
	}
	if earlier != nil {
		c.Code.DocsPR, c.Code.Prior = earlier.PR, earlier.Record
		if pr.Action != "closed" && !pr.Release {
			// Open again (reopened, pushed to): no close is pending.
			c.Code.Prior.CodeEnded, c.Code.Prior.DocsClose = "", false
		}
		if pr.Retargeted { // a release holds for its base; the next send is the whole change
			c.Code.Prior.Released, c.Code.Prior.Retargeted = "", true
		}
		pr.Retargeted = c.Code.Prior.Retargeted
		if seen != nil && seen.PR() != "" {
			c.Code.DocsPR = seen.PR()
		}
	}
	if pr.Action == "closed" {
		return nil, c.close(ctx, o, pr, earlier, seen)
	}
	if pr.Release {
		return nil, c.release(ctx, o, pr, earlier, seen)
	}
	if pr.Held {
		// Nothing is sent for this head until the code is approved: the
		// job keeps what it heard, and the record what it owes. A record
		// whose job's end was reported has its job read once, as a release
		// reads it, and stays settled: no settle run reports that end
		// again (its preview, the comment) over this head's wait. One
		// still unsettled stays so unless its end was reported above.
		if earlier != nil && !earlier.Unsettled {
			if job, err := job.ReadOnce(ctx, c.API, earlier.JobID, nil); err == nil {
				seen = job
			} else {
				c.Progress.Logf("job %s could not be read (%s): the next run reports it", escape.Log(earlier.JobID), escape.Log(err.Error()))
			}
		}
		done := report.Skip("the docs job waits for the code's approval (docs-when: approved)")
		done.Held, done.Job, done.JobID, done.FollowUp = true, seen, o.JobID, o.FollowUp
		return nil, done
	}
	follow := earlier != nil
	if earlier != nil {
		if why := newCodeJob(earlier.Record); why != "" {
			// The old job's heads are settled: its docs pull request
			// ended. The new job hears the whole change, and starts
			// unpaired once it exists (until then, the record keeps how
			// the old one ended).
			c.Progress.Logf("%s", why)
			follow, since, c.Code.Owed, c.Code.DocsPR = false, "", nil, ""
			// The old job is not this change's: a create that fails leaves
			// the head with no job, never owed to the old one.
			if err := c.name(o, "", false); err != nil {
				return nil, o.Fail(ctx, err)
			}
		}
	}
	changes, err := codepr.Read(ctx, c.GitHub, pr, since, c.Paths)
	if err != nil {
		return nil, o.Fail(ctx, fmt.Errorf("read the changes of pull request #%d: %w", pr.Number, err))
	}
	// A cut listing the job heard stays cut until the whole change is
	// listed again.
	c.Code.Cut = changes.LeavesCut(follow && earlier.Cut)
	c.logChanges(changes)
	if why := plan.NothingNew(changes, follow); why != "" {
		c.Code.NoChange = true
		return nil, report.Skip(why)
	} else if none := changes.NothingToSend(); none != "" {
		// Nothing new: the job is reported as it stands, and waited for.
		c.Progress.Logf("%s", none)
		job, err := job.ReadOnce(ctx, c.API, earlier.JobID, seen)
		if err != nil {
			return nil, o.Fail(ctx, fmt.Errorf("%w (job %s)", err, escape.Log(earlier.JobID)))
		}
		o.Job, c.Code.Heard, c.Code.Idle, c.Code.Waiting = job, pr.HeadSHA, true, ""
		return job, o
	}

	if follow && !c.Wait {
		if job, folded := c.fold(ctx, earlier, seen, o); folded {
			return job, o
		}
	}
	about := c.About
	if c.Capped != nil {
		// Ended at a cap, o still names the job, which the record keeps.
		if done := c.Capped(ctx, o); done != nil {
			return nil, done
		}
	}
	var sent job.Sent
	o.Stage = report.StageStart
	if follow {
		// A job that takes no more messages (archived, failed, gone) has
		// a new one stand in for it, with the whole change.
		sent, err = c.Jobs.FollowUp(ctx, earlier.JobID, prompt.CodePushPrompt(about, changes.Change()), &job.StandIn{
			Why: func(f *httpclient.Failure) string {
				return fmt.Sprintf("job %s cannot take a follow-up (%s); starting a new job with the pull request's whole change", escape.Log(earlier.JobID), escape.Log(f.Error()))
			},
			Text: func(ctx context.Context) (string, error) {
				whole, err := codepr.Read(ctx, c.GitHub, pr, "", c.Paths)
				if err != nil {
					return "", fmt.Errorf("read the changes of pull request #%d: %w", pr.Number, err)
				}
				// A new job: its pull request is the record's to pair.
				c.Code.Cut, c.Code.DocsPR = whole.Cut, ""
				return prompt.CodePRPrompt(c.Workflow, about, whole.Change()), nil
			},
		})
		o.JobID, o.FollowUp = sent.ID, sent.FollowUp
		if sent.Note != "" {
			o.Note = sent.Note
		}
	} else {
		o.FollowUp = false
		sent.Job, err = c.Jobs.Create(ctx, prompt.CodePRPrompt(c.Workflow, about, changes.Change()))
	}
	started := sent.Job
	if errors.Is(err, report.ErrJobLost) {
		// The lost job heard this head's change: the record says so, for
		// the next push to find it.
		c.Code.Heard, c.Code.Waiting = pr.HeadSHA, ""
	}
	if err != nil {
		return nil, o.Fail(ctx, err)
	}
	o.Job, c.Code.Heard, c.Code.Waiting, c.Code.Prior.Retargeted = started, pr.HeadSHA, "", false
	if !o.FollowUp {
		// A new job: its pull request is the record's to pair when it
		// ends, and an approval of the old one's counts for nothing.
		c.Code.Prior.PR = ""
	}
	// The job works again, on this change: how its docs pull request
	// stands is judged again at its end, not followed meanwhile.
	c.Code.Prior.Docs = ""
	if err := c.name(o, started.ID, o.FollowUp); err != nil {
		return nil, o.Fail(ctx, err)
	}
	return started, o
}

// name names the job id ("" for none) in o, which the record keeps, and
// in the job-id output at once. followUp says the run continues it.
func (c *Room) name(o *report.Outcome, id string, followUp bool) error {
	o.JobID, o.FollowUp = id, followUp
	return c.Jobs.Name(id)
}

// fold holds a push's change while the pull request's job still works on
// what it heard, in a run that does not wait: the record says the change
// waits (waiting), the head's status is pending, and the run that finds
// the job ended (the next push, or a settle run) sends everything that
// waits in one follow-up. seen is the job as the run read it already; nil
// to read it. It reports whether the change was held; a job it cannot read,
// or one that ended, is sent the change at once.
func (c *Room) fold(ctx context.Context, earlier *conversation.Earlier, seen *agentapi.Job, o *report.Outcome) (*agentapi.Job, bool) {
	job, err := job.ReadOnce(ctx, c.API, earlier.JobID, seen)
	if err != nil {
		c.Progress.Logf("job %s could not be read (%s): sending this push's change now", escape.Log(earlier.JobID), escape.Log(err.Error()))
		return nil, false
	}
	if job.Terminal() {
		return nil, false
	}
	o.Job, c.Code.Waiting = job, c.Code.PR.HeadSHA
	c.Progress.Logf("job %s is %s: this push's change waits, and the run that finds the job ended sends it with any later push in one follow-up", escape.Log(job.ID), escape.Log(job.Status))
	return job, true
}

// release releases the check on pr's head, as the person who added the
// release label asked (their permission is verified before the run gets
// here): the head's status is a success that names them, the record no
// longer owes it a status, and a change of it that waits for the job is
// not sent. The job, if any, goes on with what it heard, and its end
// settles the older heads it owes. It sends the job nothing, and reads it
// once to report it as it stands.
func (c *Room) release(ctx context.Context, o *report.Outcome, pr codepr.PullRequest, earlier *conversation.Earlier, seen *agentapi.Job) *report.Outcome {
	c.Code.Prior.Released = pr.HeadSHA
	if earlier != nil {
		c.Code.Owed = slices.DeleteFunc(slices.Clone(c.Code.Owed), func(sha string) bool { return sha == pr.HeadSHA })
		if c.Code.Waiting == pr.HeadSHA {
			c.Code.Waiting = ""
		}
		if job, err := job.ReadOnce(ctx, c.API, earlier.JobID, seen); err == nil {
			o.Job = job
		} else {
			c.Progress.Logf("job %s could not be read (%s): the next run reports it", escape.Log(earlier.JobID), escape.Log(err.Error()))
		}
	}
	// No docs job for this head, nothing sent: the comment and the head's
	// status say who released it.
	done := report.Skip("the docs check was released by " + pr.Sender)
	done.Released, done.Job, done.JobID, done.FollowUp = pr.Sender, o.Job, o.JobID, o.FollowUp
	return done
}

// close stops following the docs job of a closed pull request: the
// Agent API cannot cancel a job, so the run sends it nothing and reads it
// once, tells its pull request that the code landed (merged) or will not
// (closed unmerged; a person closes or keeps the docs pull request), and
// ends the record: the comment says the job is stopped. A job still
// working stays unsettled, so that a settle run reports its end on the
// heads it owes.
func (c *Room) close(ctx context.Context, o *report.Outcome, pr codepr.PullRequest, earlier *conversation.Earlier, seen *agentapi.Job) *report.Outcome {
	if why := plan.NothingToStop(pr.Number, earlier != nil); why != "" {
		return report.Skip(why)
	}
	// What waits for the job is never sent: the pull request is closed.
	// The heads pushed since the job last heard are told so; they are
	// owed nothing more.
	o.Closed, c.Code.Waiting = true, ""
	c.Code.Prior.CodeEnded, c.Code.Prior.DocsClose = record.CodeClosed, c.Land.Close
	if pr.Merged {
		c.Code.Prior.CodeEnded = record.CodeMerged
	}
	var unsent []string
	c.Code.Owed, unsent = earlier.Heard()
	c.Code.Unsent = unsent
	if slices.Contains(unsent, pr.HeadSHA) {
		// The head's status is said; the run's end sets none on it.
		c.Code.PR.HeadSHA = ""
	}
	if err := c.name(o, earlier.JobID, true); err != nil {
		return o.Fail(ctx, err)
	}
	job, err := job.ReadOnce(ctx, c.API, earlier.JobID, seen)
	if err != nil {
		return o.Fail(ctx, fmt.Errorf("%w (job %s)", err, escape.Log(earlier.JobID)))
	}
	o.Job = job
	how := "closed without being merged"
	if pr.Merged {
		how = "merged"
	}
	c.Progress.Logf("pull request #%d was %s: job %s gets nothing more", pr.Number, how, escape.Log(job.ID))
	// The record keeps how the docs pull request ended, when this run
	// saw it: a reopened pull request's next run starts a new job.
	var ended string
	if o.Note, ended = c.Agent.Closed(ctx, job, pr.Number, c.About.URL, pr.Merged, earlier.PR, c.Land); ended != "" {
		c.Code.Prior.Docs = ended
	}
	return o
}

// newCodeJob decides from a code pull request's record, rec, whether its
// next change goes to a new job: once the docs pull request the record
// pairs was merged or closed, a follow-up would add to a job whose docs
// are in (or were refused), with no open pull request to review, and the
// check would judge the old one. It returns why, for the log; "" to
// continue the job.
func newCodeJob(rec record.Record) string {
	if !rec.DocsEnded() {
		return ""
	}
	return fmt.Sprintf("the docs pull request of job %s was %s: starting a new docs job with the pull request's whole change", escape.Log(rec.JobID), rec.Docs)
}
