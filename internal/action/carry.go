package action

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/agentpr"
	"github.com/agentjob/agent-job-action/internal/batch"
	"github.com/agentjob/agent-job-action/internal/caps"
	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/job"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/publish"
	"github.com/agentjob/agent-job-action/internal/queue"
	"github.com/agentjob/agent-job-action/internal/reads"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
)

// run holds what the steps of one run share: its context, its reporter
// and the rooms it wires. What the run ends with is not here: carryOut
// returns it as one Outcome, and the rooms return what happened.
type run struct {
	rc       runner.Context
	deps     Deps
	log      runlog.Log
	prog     runlog.Progress
	rep      *publish.Reporter // the one writer of what the run reports
	comments *ghclient.Client  // GitHub's client for the threads, whose records' writes outlive the run
	start    time.Time
	deadline time.Time // on deps.Clock: the end of the work, before the last words
	cfg      inputs.Config
	trig     *event.Trigger
	thread   *conversation.Thread // nil when the run does not comment
	answers  *batch.Answers       // what a run that continues its thread answers; nil for others
	agent    *agentpr.Room        // the agent's pull request
	settler  *settler             // the records earlier runs left working
	jobs     *job.Room            // the run's job
	caps     caps.Counter         // the caps' counts
	paired   []Pair               // the code pull requests whose records a settle run read
	heads    heads                // what a code pull request's run shows on its heads
}

// carryOut does what p says and returns how it went: it judges the run's
// own request (reading its author's permission first, as p names), answers
// in the thread, builds the prompt once and sends it, and waits.
func (r *run) carryOut(ctx context.Context, p plan.Plan) *report.Outcome {
	if p.Skip != "" {
		return report.Skip(p.Skip)
	}
	o := &report.Outcome{}
	api, hc := r.clients()
	if p.DryRun {
		return r.dryRun(api, p)
	}
	gh, err := r.wire(api, hc, p)
	if err != nil {
		return o.Fail(ctx, err)
	}
	if p.Outside != nil {
		return r.outside(ctx, gh, p)
	}
	if p.Settle {
		var swept *report.Outcome
		swept, r.paired = r.settler.Sweep(ctx, p.Answer.Owner, p.Answer.Repo)
		if t := r.trig; t.Event == "schedule" || t.Event == "workflow_dispatch" && t.Moved == "" {
			r.coverOutside(ctx, gh, t.Owner, t.Repo)
		}
		return swept
	}
	if g := p.Group; g != nil {
		v, err := queue.Read(ctx, gh, *g)
		return r.group(ctx, report.Commit{Owner: g.Owner, Repo: g.Repo, HeadSHA: g.HeadSHA}, v.Facts(), err)
	}
	// Nothing is written to GitHub before the run's own request is
	// admitted: r.thread is nil until then.
	level, own, done := r.judge(ctx, gh, p, o)
	if done != nil {
		return done
	}
	if own != nil {
		// The request as judged: a review with its line comments.
		p.Own = own
	}
	send := []*request.Request{}
	if p.Own != nil {
		send = append(send, p.Own)
	}
	var answering *batch.Room
	if p.Answer != nil {
		r.thread = &conversation.Thread{GH: r.comments, Owner: p.Answer.Owner, Repo: p.Answer.Repo, Number: p.Answer.Number,
			Comments: p.Answer.CommentCount, Warn: r.log.Warning, Redact: r.log.Redact, Phrase: p.Rules.Phrase, Code: p.Code != nil}
		r.rep.Comment = r.thread
		answering = r.batchRoom(gh, p)
	}
	if c := p.Code; c != nil {
		if c.Approved || c.Held && (c.Action == "ready_for_review" || c.Action == "reopened") {
			// Read before anything is sent: the code's approval as the
			// rules of docs-check: approved judge it, on its latest head;
			// one given while a draft, or before a reopen, counts now.
			v := r.agent.CodeApproval(ctx, c.Number)
			switch {
			case v.Err != nil:
				// No skip, which would lose the approval: GitHub's error.
				return o.Fail(ctx, fmt.Errorf("could not read the reviews of pull request #%d, whose approval the docs wait for (docs-when: approved): %w; the next review, push or re-run reads them again", c.Number, v.Err))
			case v.Approves():
				r.prog.Logf("the code is approved: %s", v.Says())
				c.HeadSHA, c.Approved, c.Held = v.HeadSHA, true, false
			case c.Approved:
				return report.Skip("the code is not approved: " + strings.Replace(v.Says(), "#", "pull request #", 1) + "; nothing is sent until it is (docs-when: approved)")
			}
		}
		job, o := r.codeRoom(api, gh, p).Push(ctx, *p.Code)
		if job != nil && o.Stage == report.StageStart {
			// The comment's record, once the job took the head's change,
			// is written even when the run is cancelled or at its timeout
			// now (Reporter.Record): lost, the next run would send the
			// change again.
			r.rep.Record(ctx, o)
		}
		if job != nil && (o.Stage == report.StageStart || !job.Terminal()) {
			// Pending while the job works on this head; Finish sets the last.
			r.rep.Checks.Apply(ctx, p.Code.Owner, p.Code.Repo, r.heads.decide(r.rep.Code, o, r.rep.Comment != nil, false))
		}
		if job == nil && o.Closed {
			// The close may have merged or closed the docs pull request:
			// the head's check says how it stands, as judged now.
			return r.judgeDocs(ctx, p, o)
		}
		if job == nil {
			return o
		}
		return r.wait(ctx, p, job, o)
	}
	if answering != nil {
		if answered := r.answer(ctx, answering, p, level); answered != nil {
			return answered
		}
		if r.answers != nil {
			send = r.answers.Send
		}
	}

	text, err := p.Text(send, r.trig)
	if err != nil {
		o.Invalid = true
		return o.Fail(ctx, r.inTerms(err))
	}
	if done := r.overCap(ctx, p, level, o); done != nil {
		return done
	}
	o.Stage = report.StageStart
	job, err := r.startJob(ctx, api, p, text, o)
	if err != nil {
		if r.answers != nil {
			if note := r.answers.Release(err); note != "" {
				o.Note = note
			}
		}
		return o.Fail(ctx, err)
	}
	return r.wait(ctx, p, job, o)
}

// judge judges the run's own request as the plan says (reads.Judge: the
// permissions and line comments it names, then the plan's decision). It
// returns the author's permission and the request as judged, or the run's
// outcome when the run ends here.
func (r *run) judge(ctx context.Context, gh *ghclient.Client, p plan.Plan, o *report.Outcome) (string, *request.Request, *report.Outcome) {
	if p.Own == nil {
		return "", nil, nil
	}
	rd := reads.Reader{Log: r.log, Terms: r.rc.Terms()}
	if gh != nil {
		rd.GitHub = gh
	}
	v, err := rd.Judge(ctx, p, r.trig)
	switch {
	case err != nil:
		return "", nil, o.Fail(ctx, err)
	case v.Skip != "":
		return "", nil, report.Skip(v.Skip)
	case v.Invalid != nil:
		return "", nil, &report.Outcome{Invalid: true, Err: v.Invalid}
	}
	if p.Check != nil {
		r.prog.Logf("%s has %s permission (%s needed): acting on the %s event",
			escape.Log(v.Own.Author), escape.Log(v.Level), p.Rules.Required, escape.Log(r.trig.Event))
	}
	return v.Level, v.Own, nil
}

// startJob creates the job or sends the follow-up, the job-id output
// written at once (job.Room names it), so that a failure or cancellation
// later still leaves it, and takes what was sent into o: the job it names
// even when the send failed, whether it continues it, the note of a job
// that stood in. The job started, the comment shows it working, its
// record written even when the run is cancelled or at its timeout now
// (publish.Reporter.Keep): lost, the next run would not know the job
// heard the request, and would send it again.
func (r *run) startJob(ctx context.Context, api *agentapi.Client, p plan.Plan, text string, o *report.Outcome) (*agentapi.Job, error) {
	var (
		sent job.Sent
		err  error
	)
	switch p.Job {
	case plan.Watch:
		sent, err = r.jobs.Watch(ctx, p.JobID)
	case plan.FollowUp:
		// An explicit job-id never falls back to a new job.
		sent, err = r.jobs.FollowUp(ctx, p.JobID, text, nil)
	case plan.Continue:
		sent, err = r.threadRoom(api).Continue(ctx, text)
	default:
		sent.Job, err = r.jobs.Create(ctx, text)
		if err == nil {
			sent.ID = sent.Job.ID
		}
	}
	o.JobID, o.FollowUp = sent.ID, sent.FollowUp
	if sent.Note != "" {
		o.Note = sent.Note
	}
	if err != nil {
		return nil, err
	}
	o.Job = sent.Job
	if err := r.rep.Name(sent.Job.ID); err != nil {
		return nil, err
	}
	r.rep.Record(ctx, o)
	return sent.Job, nil
}

// dryRun shows what the run would send, and sends nothing: it reads
// nothing, permissions included (plan.DryAdmit).
func (r *run) dryRun(api *agentapi.Client, p plan.Plan) *report.Outcome {
	switch skip, invalid := p.DryAdmit(r.trig); {
	case skip != "":
		return report.Skip(skip)
	case invalid != nil:
		return &report.Outcome{Invalid: true, Err: invalid}
	}
	var send []*request.Request
	if p.Own != nil {
		send = append(send, p.Own)
	}
	text, err := p.Text(send, r.trig)
	if err != nil {
		return &report.Outcome{Invalid: true, Err: r.inTerms(err)}
	}
	req := api.CreateRequest(text)
	switch p.Job {
	case plan.FollowUp:
		req = api.MessageRequest(p.JobID, text)
	case plan.Watch:
		req = api.GetRequest(p.JobID)
	}
	job.DryRun(r.log, req)
	return &report.Outcome{DryRun: true, JobID: p.JobID}
}

// wait waits for the job started, unless the plan says not to, and when it ends with a
// pull request, links it back and asks for its preview.
func (r *run) wait(ctx context.Context, p plan.Plan, started *agentapi.Job, o *report.Outcome) *report.Outcome {
	if !p.Wait {
		return r.judgeDocs(ctx, p, o)
	}

	o.Stage = report.StageWait
	w := r.jobs.Wait(ctx, started, watching{job.Logged{Progress: r.prog}, r.rep, ctx, o})
	r.rep.Cost.Waited += w.Took
	if o.Job, o.Polls = w.Job, w.Polls; w.Err != nil {
		return o.Fail(ctx, w.Err)
	}
	if o.End() == report.Completed {
		if p.Backlink {
			r.agent.Backlink(ctx, o.Job, agentpr.AskOf(p, p.Asked, p.AskedURL, r.thread))
		}
		if c := r.rep.Code; c == nil || !c.Idle {
			// Unless the run sent the job nothing: its branch is as the
			// run before left it, preview included.
			o.Preview = r.agent.Preview(ctx, o.Job)
		}
	}
	return r.judgeDocs(ctx, p, o)
}

// recheck judges again, once the run's end is written, a docs pull request
// whose approval turned the check green: a change request made while the
// run wrote, which a settle run on it may have found the record too early
// to act on, is not left behind a success. When the judgment changed, the
// head's status and the comment are written again.
func (r *run) recheck(ctx context.Context, p plan.Plan, o *report.Outcome) {
	c := r.rep.Code
	if p.Code == nil || c == nil || o.Docs == nil || !o.Docs.Settles() || o.Job == nil || ctx.Err() != nil {
		return
	}
	again := r.agent.Judge(ctx, o.Job, c.Prior.PR, true)
	if again == nil || again.State == o.Docs.State {
		return
	}
	r.prog.Logf("the docs pull request changed while the run wrote its end: %s", again.Says())
	o.Docs = again
	r.rep.Amend(ctx, o, r.ending(o))
}

// outside sets the check of p.Outside, which no code job follows
// (check.DecideOutside), and nothing else: a release label's sender's
// permission is read first, and only required-permission releases.
func (r *run) outside(ctx context.Context, gh *ghclient.Client, p plan.Plan) *report.Outcome {
	o := p.Outside
	f := check.Outside{Number: o.Number, Head: o.HeadSHA, Bot: o.Bot, BotReleased: o.BotReleased, Fork: r.trig.Fork, Label: r.cfg.ReleaseLabel, RunURL: r.rc.RunURL()}
	if o.Release {
		rd := reads.Reader{GitHub: gh, Log: r.log, Terms: r.rc.Terms()}
		level, err := rd.Permission(ctx, p.Check, "check who added the label")
		if err != nil {
			return (&report.Outcome{}).Fail(ctx, err)
		}
		if skip, _ := p.Admit(level, o.Owner, o.Repo); skip != "" {
			return report.Skip(skip + "; nothing is written")
		}
		f.ReleasedBy = o.Sender
	}
	d := check.DecideOutside(f)
	r.rep.Checks.Apply(ctx, o.Owner, o.Repo, d)
	s := d.Sets[0].Status
	return &report.Outcome{Settled: fmt.Sprintf("#%d, which no code job follows: %s (%s)", o.Number, s.State, escape.Log(s.Description))}
}

// coverOutside gives each open pull request no code job follows (the oldest
// plan.OutsidePages pages) its check where its head shows none (IfNone): the
// writer's read each, and the write where it owes one. People's are not read
// past the list.
func (r *run) coverOutside(ctx context.Context, gh *ghclient.Client, owner, repo string) {
	pulls, more, err := gh.OpenPulls(ctx, owner, repo, plan.OutsidePages)
	if err != nil {
		r.log.Warning(fmt.Sprintf("%s; the next scheduled run gives the pull requests no code job follows their check", escape.Log(err.Error())))
		return
	}
	if more {
		r.prog.Logf("more than %d open pull requests: the oldest %d are given their check", len(pulls), len(pulls))
	}
	for _, pr := range pulls {
		fork := !strings.EqualFold(pr.HeadRepo, owner+"/"+repo)
		bot, released, ok := plan.OutsideOf(r.cfg, pr.Author, pr.AuthorIsBot, fork)
		if !ok || ctx.Err() != nil {
			continue
		}
		r.rep.Checks.Apply(ctx, owner, repo, check.DecideOutside(check.Outside{Number: pr.Number, Head: pr.HeadSHA, Bot: bot, BotReleased: released, Fork: fork,
			Label: r.cfg.ReleaseLabel, RunURL: r.rc.RunURL(), IfNone: true}))
	}
}

// waitingAt reads, for a success about to go on sha for pull request not,
// the other open pull requests there: the first that waits, 0 for none, -1
// unread. One of the repository's branches waits as its record says
// (check.Waits), read only where its author could have a docs job
// (plan.Trusted; permissions read once a run), trusted as the token's own,
// or any bot's where the run does not know its login (such a record can
// only hold a success back). A fork's holds another fork's release, until
// released itself. The list is GitHub's of the pull requests that hold
// sha, or, where that does not name not (a commit of the default branch, a
// fork's, a refusal), of every open one.
func (r *run) waitingAt(gh *ghclient.Client) func(ctx context.Context, owner, repo, sha string, not int) int {
	levels, trusted := map[string]string{}, plan.Trusted(r.cfg) // permission by login, read once a run
	return func(ctx context.Context, owner, repo, sha string, not int) int {
		ours := func(p ghclient.OpenPull) bool { return strings.EqualFold(p.HeadRepo, owner+"/"+repo) }
		pulls, more, err := gh.PullsAt(ctx, owner, repo, sha) // a token without contents: read may be refused it
		i := slices.IndexFunc(pulls, func(p ghclient.OpenPull) bool { return p.Number == not })
		if err != nil || more || i < 0 {
			if pulls, more, err = gh.OpenPulls(ctx, owner, repo, plan.OutsidePages); err == nil && more {
				err = fmt.Errorf("more than %d pull requests are open", len(pulls))
			}
			i = slices.IndexFunc(pulls, func(p ghclient.OpenPull) bool { return p.Number == not })
		}
		fork := i >= 0 && !ours(pulls[i])
		self := cmp.Or(r.settler.Self(), conversation.AnyBot)
		if r.thread != nil {
			self = cmp.Or(r.thread.Self(), self)
		}
		released := func(p ghclient.OpenPull) bool {
			return r.cfg.ReleaseLabel != "" && slices.ContainsFunc(p.Labels, func(l string) bool { return strings.EqualFold(l, r.cfg.ReleaseLabel) })
		}
		for _, p := range pulls {
			if err != nil || p.HeadSHA != sha || p.Number == not || !ours(p) && (!fork || released(p)) {
				continue
			}
			if !ours(p) {
				r.prog.Logf("#%d, a fork's, heads %s too, and waits for a release of its own: no success is written there", p.Number, ghclient.Short(sha))
				return p.Number
			}
			level, read := levels[p.Author]
			if !read && !p.AuthorIsBot {
				if level, err = gh.Permission(ctx, owner, repo, p.Author); err == nil {
					levels[p.Author] = level
				}
			}
			if err != nil || !trusted.Admits(p.Author, p.AuthorIsBot, level) {
				continue // an outsider's has no docs job, nor a record
			}
			th := &conversation.Thread{GH: gh, Owner: owner, Repo: repo, Number: p.Number, Code: true, Warn: r.log.Warning}
			th.SetSelf(self)
			if e, rerr := th.Record(ctx, conversation.Keep); rerr != nil {
				err = fmt.Errorf("read the record of #%d, which heads this commit too: %w", p.Number, rerr)
			} else if e != nil && check.Waits(e.Record, sha) {
				r.prog.Logf("#%d heads %s too, and its docs are not settled: no success is written there", p.Number, ghclient.Short(sha))
				return p.Number
			}
		}
		if err != nil {
			r.log.Warning(fmt.Sprintf("%s: no success is claimed on %s", escape.Log(err.Error()), ghclient.Short(sha)))
			return -1
		}
		return 0
	}
}

// keepPaired keeps, once the run's own checks are written, the check of each
// docs pull request in this repository that the run's threads pair
// (check.Paired): a code pull request's run its own, a settle run those of
// the records it read.
func (r *run) keepPaired(ctx context.Context, p plan.Plan, o *report.Outcome) {
	keep := func(code ghclient.PullRequest, docs string, request, working bool) {
		if f, ok := r.agent.Pairing(ctx, code, docs, request, working); ok && ctx.Err() == nil {
			r.rep.Checks.Apply(ctx, r.trig.Owner, r.trig.Repo, check.Paired(f))
		}
	}
	if c := r.rep.Code; p.Code != nil && c != nil { // as its event shows it
		if docs := cmp.Or(c.Prior.PR, o.PRURL(r.rc.ServerURL), c.DocsPR); docs != "" {
			keep(ghclient.PullRequest{Number: p.Code.Number, HeadSHA: p.Code.HeadSHA, Open: r.trig.Action != "closed", Merged: r.trig.Merged}, docs, false, false)
		}
	} else if r.thread != nil && o.Job != nil && o.Job.PR() != "" { // a pull request's thread's follows its code
		keep(ghclient.PullRequest{Number: r.thread.Number}, o.Job.PR(), !r.trig.IsPR, !o.Job.Terminal())
	}
	for _, pair := range r.paired {
		keep(ghclient.PullRequest{Number: pair.Code}, pair.Docs, pair.Request, pair.Working)
	}
}

// judgeDocs judges, for a code pull request's job seen to end, its docs
// pull request when the team wants it approved (plan.Plan.Approval): the
// check and the record then follow it.
func (r *run) judgeDocs(ctx context.Context, p plan.Plan, o *report.Outcome) *report.Outcome {
	if c := r.rep.Code; p.Code != nil && c != nil && o.Err == nil && o.Job != nil && o.Job.Terminal() {
		// The pull request the record pairs, when it names one: a job
		// that now names another does not change which one the check
		// waits for.
		o.Docs = r.agent.Judge(ctx, o.Job, c.Prior.PR, c.Prior.Asked())
	}
	return o
}

// watching reports the wait for the run's job o: in the log, and in the
// run's comment when the job's status changes while it works.
type watching struct {
	job.Logged
	rep *publish.Reporter
	ctx context.Context
	o   *report.Outcome
}

func (w watching) StatusChanged(j *agentapi.Job, from string) {
	w.Logged.StatusChanged(j, from)
	if !j.Terminal() {
		w.o.Job = j
		w.rep.Working(w.ctx, w.o)
	}
}
