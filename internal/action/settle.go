package action

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

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

// SettleMost bounds the threads one settle run settles: each costs a read
// of its job, the edit of its comment, a status per head it owes
// (conversation.MaxOwed at most), and for a job with a pull request the
// backlink, the review request and the preview.
const SettleMost = 20

// settleEarlier settles, before the run does its own work, the record an
// earlier run in this thread left working (e.Unsettled). It reads the job
// once. A job still working stays for whoever comes next; in a thread whose
// requests each have their comment, the earlier comment then says that
// this run's continues the job. A job that ended is reported: the earlier
// comment's end (a code pull request's comment is this run's own, which
// reports it), the commit status on every head it owed, the backlink and
// review request on its pull request and the preview. It returns the job
// as it read it, nil when it could not.
func (r *run) settleEarlier(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, p plan.Plan, e *conversation.Earlier) *agentapi.Job {
	job, err := api.Get(ctx, e.JobID)
	if err != nil {
		r.logf("the job an earlier run left working, %s, could not be read: %s; the next run settles it", escape.Log(e.JobID), escape.Log(err.Error()))
		return nil
	}
	ownComment := r.code != nil
	if !job.Terminal() {
		// Still working: a request that continues it says so in the
		// earlier comment once its follow-up went (continued).
		r.logf("the job an earlier run left working, %s, is %s", escape.Log(job.ID), escape.Log(job.Status))
		return job
	}
	if !ownComment && e.Code() {
		// A code pull request's record, met by a request in its thread: it
		// owes statuses and may hold a change that waits, which only the
		// code workflow's next run or a settle run sends.
		r.logf("the job of the code pull request's record, %s, %s: its record is left to the code workflow or a settle run", escape.Log(job.ID), escape.Log(job.Status))
		return job
	}
	shown := r.report(ctx, gh, p, r.thread, e, job)
	if ownComment {
		// What waits is this run's to send, with its own push.
		_, r.code.Owed = e.Heard()
	} else {
		r.rep.Write(ctx, r.thread, e, r.rep.Settled(e, shown))
	}
	r.logf("settled the job an earlier run left working: %s", r.ended(shown))
	return job
}

// continued says in an earlier request's comment e, whose job was still
// working, that this run's request continues the job: this run's comment
// reports its end. A code pull request's record is left as it is.
func (r *run) continued(ctx context.Context, e *conversation.Earlier) {
	if e.Code() {
		return
	}
	r.rep.Write(ctx, r.thread, e, conversation.State{Phase: conversation.Continued, Record: record.Record{JobID: e.JobID, Answered: e.Answered},
		ContinuedIn: r.thread.URL(), RunURL: escape.URL(r.rc.RunURL())})
}

// abandon gives up the change that waits in the record e, for a job that
// ended unable to take it (failed, archived, gone): the heads pushed since
// the job last heard get an error that says so, and the record keeps the
// head the job heard, so that the next push sends everything since it (to
// a new job, if this one takes no more). It reports whether it set them.
func (r *run) abandon(ctx context.Context, gh *ghclient.Client, th *conversation.Thread, e *conversation.Earlier, job *agentapi.Job) {
	heard, unsent := e.Heard()
	s := ghclient.CommitStatus{Context: codepr.StatusContext, State: ghclient.StatusError,
		Description: "The docs job ended before it heard this push: push again", TargetURL: escape.URL(r.rc.RunURL())}
	r.rep.Checks.Set(ctx, th.Owner, th.Repo, unsent, s)
	r.logf("#%d: job %s is %s and cannot take the change that waits; the heads pushed since it last heard get an error", th.Number, escape.Log(job.ID), escape.Log(job.Status))
	e.Owed, e.Waiting = heard, ""
}

// report does what a run that waited for job would have done at its end,
// for the earlier record e in th: the backlink and review request on its
// pull request, the preview, and the final commit status on the heads e
// owes whose change the job heard (a head whose change waits keeps its
// pending status). It returns what it saw, for the comment.
func (r *run) report(ctx context.Context, gh *ghclient.Client, p plan.Plan, th *conversation.Thread, e *conversation.Earlier, job *agentapi.Job) *report.Outcome {
	shown := &report.Outcome{JobID: job.ID, Job: job}
	if job.Status != agentapi.StatusFailed {
		if p.Backlink {
			r.agent.Backlink(ctx, job, r.ask(p, conversation.FromComment, e.URL, th))
		}
		r.showPreview(ctx, shown)
	}
	if heard, _ := e.Heard(); len(heard) > 0 {
		out := codepr.Outcome{RunURL: r.rc.RunURL(), PRLink: r.rep.PRURL(shown), Preview: shown.Preview.URL, PreviewState: shown.Preview.State, Failed: job.Status == agentapi.StatusFailed}
		r.rep.Checks.Set(ctx, th.Owner, th.Repo, heard, codepr.Status(out))
	}
	return shown
}

// ended says how a settled job ended, for the log.
func (r *run) ended(o *report.Outcome) string {
	what := fmt.Sprintf("job %s %s", escape.Log(o.Job.ID), escape.Log(o.Job.Status))
	if link := r.rep.PRURL(o); link != "" {
		what += ", pull request " + link
	}
	return what
}

// settleAll is a settle run (settle: true): it starts no job and sends the
// agent nothing. It finds the records earlier runs left working among the
// repository's most recently written comments (conversation.FindUnsettled)
// and settles those the token's own login wrote, at most SettleMost, each
// as the next run in its thread would: a job still working is left as it
// is, with nothing written, so that a second settle writes nothing.
func (r *run) settleAll(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, p plan.Plan) *report.Outcome {
	owner, repo := p.Answer.Owner, p.Answer.Repo
	found, err := conversation.FindUnsettled(ctx, gh, owner, repo)
	if err != nil {
		return (&report.Outcome{}).Fail(ctx, err)
	}
	r.logf("read %d comments of %s/%s: %d record jobs left working", found.Read, escape.Log(owner), escape.Log(repo), len(found.Comments))
	if found.Cut {
		r.logf("read the newest %d pages of comments only: a record further back is settled by the next run in its thread", conversation.SettlePages)
	}
	self := ""
	settled, working := 0, 0
	// The token that writes records is an app's or GITHUB_TOKEN's, a bot:
	// a bot's record is the first to react to, so that the 👀 that tells
	// the login lands on one of the action's own comments.
	slices.SortStableFunc(found.Comments, func(a, b *ghclient.Comment) int {
		return cmp.Compare(boolInt(!a.AuthorIsBot), boolInt(!b.AuthorIsBot))
	})
	for _, c := range found.Comments {
		if settled+working == SettleMost {
			r.logf("settled at most %d threads; the next settle run goes on", SettleMost)
			break
		}
		th := &conversation.Thread{GH: gh, Owner: owner, Repo: repo, Number: c.Issue, Warn: r.log.Warning, Redact: r.log.Redact}
		if self == "" {
			// The token's login, which alone may have written a record to
			// trust, is learned from its 👀 on the first record found, as
			// a run learns it from its 👀 on the request it answers.
			th.React(ctx, c.ID, request.Comment, "eyes")
			if self = th.Self(); self == "" {
				return (&report.Outcome{}).Fail(ctx, fmt.Errorf("learn the token's login from a reaction to the comment %s: %w; nothing was settled", escape.Log(c.URL), conversation.ErrUnknownIdentity))
			}
		}
		if !conversation.Owns(c, self) {
			r.logf("left alone: %s records a job but was written by %s, not by this token's %s", escape.Log(c.URL), escape.Log(c.Author), escape.Log(self))
			continue
		}
		th.SetSelf(self)
		e := conversation.EarlierOf(c)
		job, err := api.Get(ctx, e.JobID)
		if err != nil {
			r.log.Warning(fmt.Sprintf("could not read job %s of %s: %s; the next settle run tries again", escape.Log(e.JobID), escape.Log(c.URL), escape.Log(err.Error())))
			continue
		}
		if !job.Terminal() {
			working++
			r.logf("#%d: job %s is %s; left for the next run", c.Issue, escape.Log(job.ID), escape.Log(job.Status))
			continue
		}
		if e.Waiting != "" && job.Status != agentapi.StatusFailed {
			sent, err := r.sendWaiting(ctx, api, gh, p, th, e, job)
			_, gone := agentapi.TakesNoMessages(err)
			switch {
			case sent:
				working++
				continue
			case err != nil && !gone:
				r.log.Warning(fmt.Sprintf("#%d: %s; the next run tries again", c.Issue, escape.Log(err.Error())))
				continue
			case err == nil:
				// Nothing of it passed paths: the job's end covers it.
				e.Waiting = ""
			}
		}
		if e.Waiting != "" {
			r.abandon(ctx, gh, th, e, job)
		}
		shown := r.report(ctx, gh, p, th, e, job)
		if r.rep.Write(ctx, th, e, r.rep.Settled(e, shown)) {
			settled++
			r.logf("#%d: settled %s", c.Issue, r.ended(shown))
		}
	}
	return &report.Outcome{Settled: fmt.Sprintf("settled %d threads; %d jobs still working", settled, working)}
}

// sendWaiting sends, in one follow-up, the change of a code pull request
// that waits in the record e (pushes made while its job worked), now that
// the job has ended: the change from the head the job heard of to the
// newest head that waits, filtered by paths. The record then says the job
// heard it, and works again; the statuses it owes stay pending. sent says
// the follow-up went; neither sent nor an error, nothing of the change
// passed paths. A change that cannot be read, a cap, or a follow-up the API
// refused is the error, for the caller to tell apart (a job that takes no
// more messages); the record stays as it was.
func (r *run) sendWaiting(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, p plan.Plan, th *conversation.Thread, e *conversation.Earlier, job *agentapi.Job) (bool, error) {
	pr := codepr.PullRequest{Owner: th.Owner, Repo: th.Repo, Number: th.Number, HeadSHA: e.Waiting}
	changes, err := codepr.Read(ctx, gh, pr, e.Head, r.cfg.Paths)
	if err != nil {
		return false, fmt.Errorf("could not read the change that waits for job %s: %w", escape.Log(job.ID), err)
	}
	if changes.NothingToSend() != "" {
		r.logf("#%d: %s", th.Number, changes.NothingToSend())
		return false, nil
	}
	if p.Caps != nil {
		// A count that cannot be read is a cap: nothing is sent past
		// what the team chose.
		why, err := r.capReached(ctx, gh, p.Caps, th, "", "")
		if err != nil {
			return false, err
		}
		if why != "" {
			return false, fmt.Errorf("docs job cap reached, nothing sent: %s; the change that waits for job %s stays for a later run", why, escape.Log(job.ID))
		}
	}
	url, _, _ := strings.Cut(e.URL, "#")
	about := prompt.CodePR{Owner: th.Owner, Repo: th.Repo, Number: th.Number, URL: url}
	sentTo, err := api.Message(ctx, job.ID, prompt.CodePushPrompt(about, changes.Change()))
	if err != nil {
		return false, fmt.Errorf("could not send job %s the change that waits: %w", escape.Log(job.ID), err)
	}
	r.rep.Spent(true)
	e.Sent = e.Sent.Add(r.deps.Clock.Now())
	r.logf("#%d: sent job %s the change that waited (%d files), status %s", th.Number, escape.Log(sentTo.ID), len(changes.Files), escape.Log(sentTo.Status))
	r.rep.Write(ctx, th, e, conversation.State{Phase: conversation.Working, Status: sentTo.Status, FollowUp: true,
		Record: record.Record{JobID: e.JobID, Answered: e.Answered, Head: e.Waiting, Owed: e.Owed, Unsettled: true}, RunURL: escape.URL(r.rc.RunURL()),
		Note: "A later run sent the job the change pushed while it worked; the next run reports its end here."})
	return true, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
