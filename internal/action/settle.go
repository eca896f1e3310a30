package action

// Settling is the hall's reconcile of what earlier runs left working: one
// record, met by the next run in its thread, or every record of the
// repository a settle run (settle: true) finds, within its bounds. A job
// still working is left as it is, with nothing written; a job that ended
// gets what a run that waited would have given it (the backlink, the
// preview, the commit status on every head it heard, the comment's end),
// and a code pull request's change that waited for it is sent in one
// follow-up. The hall's writer writes it: no room holds a port onto it.

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/agentpr"
	"github.com/agentjob/agent-job-action/internal/caps"
	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/codepr"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/docspr"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/job"
	"github.com/agentjob/agent-job-action/internal/pathfilter"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/preview"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/publish"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/terms"
)

// settleMost bounds the threads one settle run writes to, whose job it reports
// or sends the change that waited: each costs a read of its job, the edit
// of its comment, a status per head it owes (record.MaxOwed at most), and
// for a job with a pull request the backlink, the review request and the
// preview, or a follow-up. A job still working costs a read and nothing
// else, so it does not count: the records of jobs still working are the
// most recently written, and counting them would leave an older record
// whose job ended to no settle run at all.
const settleMost = 20

// settleReads bounds the jobs one settle run reads, 100: a read of a job still
// working is not billed, but the run's requests stay bounded. The records
// past it are the next settle run's once the newer ones settle: while the
// newest settleReads records all hold jobs still working, an older one waits
// (its own thread's next run settles it).
const settleReads = 100

// settleLeads bounds the pull requests whose commit status is pending that one
// settle run reads the records of, when the repository's newest comments
// do not reach back to its oldest (conversation.SettlePages): 20, the
// oldest first, each its newest page and its oldest
// (conversation.LeadPages), so at most 40 list requests and one search.
// Comments push no pull request out of that search, but more than settleLeads
// older pull requests with a pending status do: a newer one is then found
// by its own thread's next run, or once older ones settle.
const settleLeads = 20

// settleAgent follows the agent's pull request. *agentpr.Room is one.
type settleAgent interface {
	Backlink(ctx context.Context, job *agentapi.Job, a agentpr.Ask)
	// Closed tells the job's pull request that its code pull request
	// closed, and lands it as the workflow asks.
	Closed(ctx context.Context, job *agentapi.Job, number int, url string, merged bool, recorded string, land plan.Land) (note, ended string)
	Preview(ctx context.Context, job *agentapi.Job) preview.Shown
	// Judge judges the job's pull request for its code pull request's
	// check when the team wants it approved; nil when it does not.
	Judge(ctx context.Context, job *agentapi.Job, recorded string, followed bool) *docspr.Verdict
}

var _ settleAgent = (*agentpr.Room)(nil)

// settler settles records for one run: the part of the hall that
// reconciles what earlier runs left working.
type settler struct {
	// Jobs reads the jobs (its API) and sends the change that waits:
	// every send goes from there.
	Jobs   *job.Room
	GitHub *ghclient.Client
	// Comments writes the threads' comments: its calls outlive the run,
	// for the record of a send (publish.Reporter.Keep).
	Comments conversation.GitHub
	Agent    settleAgent
	// Reporter writes the comments and the statuses.
	Reporter *publish.Reporter
	// Waited is how long the room waited for the job its event names
	// (Ending), which the run's cost counts.
	Waited time.Duration
	// RunURL is the workflow run, which statuses and comments link; Terms
	// names the inputs as the run's mode does; Approval says the run's own
	// workflow asks for the docs pull request's approval (docs-check:
	// approved), which a record's asks for whatever this one says.
	RunURL   string
	Terms    terms.Terms
	Approval bool
	Progress runlog.Progress
	// Paths filters a change that waits.
	Paths *pathfilter.Filter
	// Ask is what the backlink of a job says asked for it, the comment at
	// url in th; nil when the run writes no backlinks.
	Ask func(url string, th *conversation.Thread) agentpr.Ask
	// Capped says why the caps let nothing more be sent from th ("" when
	// they do); nil when the run has no caps.
	Capped func(ctx context.Context, th *conversation.Thread) (caps.Cap, error)
	// Ending is the job a Sweep waits for when it finds it still working;
	// nil when the run's event names none.
	Ending *ending
	// Project is the mark of the run's Agent Job project
	// (record.ProjectMark): a Sweep reads no job of a record that names
	// another.
	Project string
	// Backlinked is the pull request of the run's event, in its
	// repository (a review or the close of the agent's docs pull
	// request), 0 for none: the backlink on it names the record that
	// asked for its job, which a Sweep reads whatever the comments written
	// since.
	Backlinked int
	self       string // the token's login, once a Sweep learned it
}

// Self is the token's login as a Sweep learned it, "" before.
func (s *settler) Self() string { return s.self }

// Earlier settles, before the run does its own work, the record e an
// earlier run in th left working. It reads the job once. A job still
// working stays for whoever comes next. A job that ended is reported: the
// backlink and review request on its pull request, the preview, the
// commit status on every head it heard, and the earlier comment's end,
// except when the comment is the run's own (own: a code pull request's,
// which the run then reports), when the heads e still owes after the job's
// end are returned for the run's record (ok). A code pull request's
// record met by any other run is left to the code workflow or a settle
// run: it may hold a change that waits. It returns the job as it read it,
// nil when it could not.
func (s *settler) Earlier(ctx context.Context, th *conversation.Thread, e *conversation.Earlier, own bool) (job *agentapi.Job, owed []string, ok bool) {
	job, err := s.Jobs.API.Get(ctx, e.JobID)
	if err != nil {
		s.Progress.Logf("the job an earlier run left working, %s, could not be read: %s; the next run settles it", escape.Log(e.JobID), escape.Log(err.Error()))
		return nil, nil, false
	}
	if !job.Terminal() {
		// Still working: a request that continues it says so in the
		// earlier comment once its follow-up went (Continued).
		s.Progress.Logf("the job an earlier run left working, %s, is %s", escape.Log(job.ID), escape.Log(job.Status))
		return job, nil, false
	}
	if !own && e.Code() {
		// A code pull request's record, met by a request in its thread: it
		// owes statuses and may hold a change that waits, which only the
		// code workflow's next run or a settle run sends.
		s.Progress.Logf("the job of the code pull request's record, %s, %s: its record is left to the code workflow or a settle run", escape.Log(job.ID), escape.Log(job.Status))
		return job, nil, false
	}
	if !e.Watched() { // one watched had its end reported: it follows its docs pull request
		shown := s.report(ctx, th, e, job, false)
		if !own {
			s.Reporter.Write(ctx, th, e, s.settled(e, shown))
		}
		s.Progress.Logf("settled the job an earlier run left working: %s", s.ended(shown))
	}
	if !own {
		return job, nil, false
	}
	_, owed = e.Heard() // what waits is this run's to send, with its own push
	return job, owed, true
}

// Continued says in an earlier request's comment e in th, whose job was
// still working, that this run's request continues the job: this run's
// comment reports its end. A code pull request's record is left as it is.
func (s *settler) Continued(ctx context.Context, th *conversation.Thread, e *conversation.Earlier) {
	if e.Code() {
		return
	}
	s.Reporter.Write(ctx, th, e, conversation.State{Phase: conversation.Continued, Record: record.Record{JobID: e.JobID, Answered: e.Answered},
		ContinuedIn: th.URL(), RunURL: escape.URL(s.RunURL)})
}

// Pair is a code pull request whose record a settle run read, and the docs
// pull request it pairs (or its job names), whose check follows it.
type Pair struct {
	Code             int
	Docs             string
	Request, Working bool // Code is a /docs request's thread; its job works
}

// Sweep is a settle run (settle: true) in owner/repo: it starts no job and
// sends the agent nothing but the changes that waited. It finds the
// records earlier runs left working through the one reader of them
// (conversation.Owed: the repository's most recently written comments
// and, when those do not reach back to its first, the one the backlink on
// its event's pull request names, and those in the oldest settleLeads open pull
// requests whose commit status is pending), and settles those the token's
// own login wrote, each as the next run in its thread would: a job still
// working is left as it is, with nothing written, so that a second
// settle writes nothing. It writes to at most settleMost threads and reads at
// most settleReads jobs.
func (s *settler) Sweep(ctx context.Context, owner, repo string) (o *report.Outcome, pairs []Pair) {
	// settleReads bounds the records of the token's login that the run reads:
	// no more of anyone's are kept.
	found, err := conversation.Owed(ctx, s.GitHub, owner, repo, conversation.Search{Per: settleReads, Backlinked: s.Backlinked, Leads: settleLeads})
	if err != nil {
		if ctx.Err() == nil {
			err = fmt.Errorf("%w; nothing was settled (%s)", err, ghclient.Advice(err, s.Terms.Name("github-token"), "issues: read"))
		}
		return (&report.Outcome{}).Fail(ctx, err), nil
	}
	s.Progress.Logf("read %s of %s/%s; records of jobs left working: %d", report.Count(found.Read, "comment"), escape.Log(owner), escape.Log(repo), len(found.Comments))
	t := tally{}
	if found.Cut {
		t = s.past(owner, repo, found)
	}
	if found.Left > 0 {
		s.Progress.Logf("left out %s: a search keeps the newest %d of each bot's and %d of people's, none of people's once a bot's is found", report.Count(found.Left, "record"), settleReads, settleReads)
	}
	// The token that writes records is an app's or GITHUB_TOKEN's, a bot:
	// a bot's record is the first to react to, so that the 👀 that tells
	// the login lands on one of the action's own comments.
	slices.SortStableFunc(found.Comments, func(a, b *ghclient.Comment) int {
		return cmp.Compare(boolInt(!a.AuthorIsBot), boolInt(!b.AuthorIsBot))
	})
	self := ""
	for _, c := range found.Comments {
		if t.stopped = t.full(); t.stopped != "" {
			s.Progress.Logf("%s: the next settle run goes on", t.stopped)
			break
		}
		if ctx.Err() != nil {
			// Cancelled, or at the timeout: what is left is the next
			// settle run's.
			return (&report.Outcome{}).Fail(ctx, fmt.Errorf("%s when the run stopped: %w; the next settle run goes on", t, ctx.Err())), pairs
		}
		th := &conversation.Thread{GH: s.Comments, Owner: owner, Repo: repo, Number: c.Issue, Warn: s.Progress.Log.Warning, Redact: s.Progress.Log.Redact}
		if self == "" {
			// The token's login, which alone may have written a record to
			// trust, is learned from its 👀 on the first record found, as
			// a run learns it from its 👀 on the request it answers.
			th.SeenComment(ctx, c.ID)
			if self = th.Self(); self == "" {
				return (&report.Outcome{}).Fail(ctx, fmt.Errorf("learn the token's login from a reaction to the comment %s: %w; nothing was settled", escape.Log(c.URL), conversation.ErrUnknownIdentity)), nil
			}
		}
		if !conversation.Owns(c, self) {
			s.Progress.Logf("left alone: %s records a job but was written by %s, not by this token's %s", escape.Log(c.URL), escape.Log(c.Author), escape.Log(self))
			continue
		}
		th.SetSelf(self)
		s.self = self
		e := conversation.EarlierOf(c)
		if e.Project != "" && s.Project != "" && e.Project != s.Project {
			// Its job is another project's, or another API's: a read of
			// it here would be answered 404 and taken for a job gone.
			s.Progress.Logf("left alone: %s records a job of another Agent Job project (its project-id or base-url differs from this run's)", escape.Log(c.URL))
			continue
		}
		v, docs := s.settle(ctx, th, e)
		t.add(v)
		if request := !e.Code() && !strings.Contains(e.URL, "/pull/"); docs != "" && v != left { // left: its job unread
			pairs = append(pairs, Pair{Code: th.Number, Docs: docs, Request: request, Working: request && (v == working || v == sent)})
		}
	}
	if t.stopped == "" && found.Left > 0 {
		// The search kept no more records than a bound lets the run
		// read or settle: one it left out is past that bound too.
		t.stopped = t.full()
	}
	return &report.Outcome{Settled: t.String()}, pairs
}

// past logs what the searches past the repository's newest comments
// found (conversation.Past), a failure as a warning (the run goes on with
// what the others found), and returns the tally's account of them.
func (s *settler) past(owner, repo string, found *conversation.Unsettled) tally {
	p, log := found.Past, s.Progress.Log
	t := tally{searched: found.Read, pending: p.Pending}
	switch {
	case p.Backlinks:
		t.backlinked = s.Backlinked
		s.Progress.Logf("read the backlinks on #%d; records of jobs left working they name: %d", s.Backlinked, p.FromBacklinks)
	case p.BacklinkErr != nil:
		log.Warning(fmt.Sprintf("%s; the next settle run tries again", escape.Log(p.BacklinkErr.Error())))
	}
	if p.SearchErr != nil {
		log.Warning(fmt.Sprintf("could not search the pull requests whose commit status is pending (%s): %s; a record older than the comments read waits for the next settle run",
			ghclient.Advice(p.SearchErr, s.Terms.Name("github-token"), "pull-requests: read"), escape.Log(p.SearchErr.Error())))
		t.pending = -1
		return t
	}
	switch {
	case p.More:
		s.Progress.Logf("more than %d open pull requests have a pending commit status: reading the oldest %d", p.Listed, settleLeads)
	case p.Listed > settleLeads:
		s.Progress.Logf("%d open pull requests have a pending commit status: reading the oldest %d", p.Listed, settleLeads)
	}
	s.Progress.Logf("read %s of the %s whose commit status is pending; records of jobs left working there: %d",
		report.Count(found.Threads, "thread"), report.Count(p.Pending, "open pull request"), p.FromPending)
	if p.ThreadErr != nil {
		log.Warning(fmt.Sprintf("%s; the next settle run tries again", escape.Log(p.ThreadErr.Error())))
	}
	return t
}

// verdict is what a settle run did with one record.
type verdict int

const (
	// left: the job or the record could not be read or written; the next
	// settle run tries again.
	left verdict = iota
	// working: the job still works; nothing was written.
	working
	// waiting: the job ended, and its docs pull request waits as the
	// check already shows; nothing was written.
	waiting
	// sent: the job ended, and works again on the change that waited,
	// which went.
	sent
	// settled: the job's end is reported.
	settled
)

// tally counts what a settle run did, for its bounds and its outcome.
type tally struct {
	// reads counts the jobs read; n what became of them, by verdict.
	reads int
	n     [settled + 1]int
	// searched is how many comments the search read when it stopped at
	// its bound (conversation.SettlePages) with more to read; 0 when it
	// read them all. pending is how many pull requests whose commit status
	// is pending it read then, -1 when it could not search them;
	// backlinked the pull request whose backlink it read then, 0 for none.
	searched, pending, backlinked int
	// stopped says which bound stopped the run before the records it
	// found ran out, "" for none.
	stopped string
}

func (t *tally) add(v verdict) { t.reads, t.n[v] = t.reads+1, t.n[v]+1 }

// full says which bound the run has reached (settleMost, settleReads), "" for none.
func (t *tally) full() string {
	switch {
	case t.n[settled]+t.n[sent] == settleMost:
		return fmt.Sprintf("wrote to %d threads, as many as one settle run writes to", settleMost)
	case t.reads == settleReads:
		return fmt.Sprintf("read %d jobs, as many as one settle run reads", settleReads)
	}
	return ""
}

// String is the outcome's sentence: the jobs still working count those
// sent the change that waited.
func (t tally) String() string {
	out := fmt.Sprintf("settled %s; %s still working", report.Count(t.n[settled], "thread"), report.Count(t.n[working]+t.n[sent], "job"))
	if t.n[waiting] > 0 {
		out += fmt.Sprintf("; %s waiting for an approving review", report.Count(t.n[waiting], "docs pull request"))
	}
	if t.stopped != "" {
		out += "; " + t.stopped + ": the next settle run goes on"
	}
	backlink := ""
	if t.backlinked > 0 {
		backlink = fmt.Sprintf(", the backlinks on #%d", t.backlinked)
	}
	switch {
	case t.searched > 0 && t.pending < 0:
		// A record further back was not seen: this run settled nothing
		// of it, which its own thread's next run does.
		out += fmt.Sprintf("; searched the newest %s%s only: a record further back is settled by the next run in its thread", report.Count(t.searched, "comment"), backlink)
	case t.searched > 0:
		// A record that owes no commit status (an issue's) and is
		// further back was not seen.
		out += fmt.Sprintf("; searched the newest %s%s and %s whose commit status is pending: a record elsewhere is settled by the next run in its thread",
			report.Count(t.searched, "comment"), backlink, report.Count(t.pending, "open pull request"))
	}
	return out
}

// settle settles the record e, of one of the token's own comments in th,
// as the next run in its thread would: it reads the job once; a job still
// working is left with nothing written; a job that ended is sent the
// change that waits for it, if any, or reported. docs is the docs pull
// request the record pairs, or the job names when the record names none.
func (s *settler) settle(ctx context.Context, th *conversation.Thread, e *conversation.Earlier) (v verdict, docs string) {
	docs = e.PR
	log := s.Progress.Log
	job, err := s.Jobs.API.Get(ctx, e.JobID)
	if f, refused := agentapi.TakesNoMessages(err); refused && f.Status == http.StatusNotFound {
		// Only a 404 says the API no longer knows the job: a read it
		// answers 400 was a request it could not take, of a job that
		// may still work, for the next settle run to read again.
		return s.gone(ctx, th, e, f), docs
	}
	if err != nil {
		log.Warning(fmt.Sprintf("could not read job %s of %s: %s; the next settle run tries again", escape.Log(e.JobID), escape.Log(e.URL), escape.Log(err.Error())))
		return left, docs
	}
	if docs == "" {
		docs = job.PR()
	}
	job, waited := s.awaited(ctx, job)
	if waited && job.Terminal() {
		if e, job = s.again(ctx, th, e, job); e == nil {
			return left, docs
		}
	}
	if !job.Terminal() {
		s.Progress.Logf("#%d: job %s is %s; left for the next run", th.Number, escape.Log(job.ID), escape.Log(job.Status))
		return working, docs
	}
	if e.Watched() && e.Waiting == "" {
		// A docs pull request followed, or one the record saw closed,
		// which a reopening makes followed again: judged again.
		return s.follow(ctx, th, e, job), docs
	}
	note := ""
	if e.Waiting != "" && job.Status != agentapi.StatusFailed {
		went, capped, err := s.send(ctx, th, e, job)
		_, gone := agentapi.TakesNoMessages(err)
		switch {
		case went:
			return sent, docs
		case capped.Why != "":
			note = s.atCap(ctx, th, e, job, capped)
		case err != nil && !gone:
			log.Warning(fmt.Sprintf("#%d: %s; the next run tries again", th.Number, escape.Log(err.Error())))
			return left, docs
		case err == nil:
			// Nothing of it passed paths: the job's end covers it.
			e.Waiting = ""
		}
	}
	closed, err := s.stillClosed(ctx, th, e)
	if err != nil {
		log.Warning(fmt.Sprintf("#%d, closed while job %s worked, could not be read: %s; the next settle run tries again", th.Number, escape.Log(job.ID), escape.Log(err.Error())))
		return left, docs
	}
	if e.Waiting != "" {
		s.abandon(ctx, th, e, job)
	}
	shown := s.report(ctx, th, e, job, closed)
	if note != "" {
		shown.Note = note
	}
	if !s.Reporter.Write(ctx, th, e, s.settled(e, shown)) {
		return left, docs
	}
	s.Progress.Logf("#%d: settled %s", th.Number, s.ended(shown))
	return settled, docs
}

// follow settles the check of the code pull request th from its docs
// pull request, which the record e follows (e.Docs) since its job, now
// read, ended with it: the docs pull request is judged as it stands, and
// a check that changes is set on the code pull request's latest head (on
// one the job never heard, only where it shows a status check.Revisited
// says the judgment may change: that push's run, its record perhaps lost,
// judged it there); the record keeps what the check shows, and ends once the docs pull
// request is merged or closed, or the code pull request is. A docs pull
// request as the record last kept it writes no record, and a status only
// where GitHub shows another than the judgment's.
func (s *settler) follow(ctx context.Context, th *conversation.Thread, e *conversation.Earlier, job *agentapi.Job) verdict {
	code, err := s.GitHub.PullRequest(ctx, th.Owner, th.Repo, th.Number)
	if err != nil {
		s.Progress.Log.Warning(fmt.Sprintf("#%d: %s; the next settle run tries again", th.Number, escape.Log(err.Error())))
		return left
	}
	shown := &report.Outcome{JobID: job.ID, Job: job}
	switch {
	case !code.Open:
		// Its own run said what became of the job and its docs pull
		// request when it closed: nothing is left to follow.
		s.Progress.Logf("#%d is closed: its record follows its docs pull request no more", th.Number)
	case code.HeadSHA == e.Released:
		// A person released the latest head: no judgment sets its check,
		// and the next push follows again what it needs.
		s.Progress.Logf("#%d: its head %s was released; its record follows its docs pull request no more", th.Number, escape.Log(ghclient.Short(code.HeadSHA)))
	case code.HeadSHA != e.Head:
		s.Progress.Logf("#%d: its head %s is newer than the one job %s heard; the run of that push sets its check", th.Number, escape.Log(ghclient.Short(code.HeadSHA)), escape.Log(job.ID))
		// Judged again where that run (whose record may be lost) judged it.
		if st, ok, err := s.GitHub.Status(ctx, th.Owner, th.Repo, code.HeadSHA, check.Context); err == nil && ok && check.Revisited(st, e.PR) {
			shown.Docs = s.Agent.Judge(ctx, job, e.PR, true)
			s.decide(ctx, th, e, check.Facts{Event: check.Judged, Heads: []string{code.HeadSHA}, Job: check.Done, Unheard: true,
				RunURL: s.RunURL, PRLink: shown.PRURL(s.Reporter.RC.ServerURL), Linked: job.PR() != "", Approval: s.Approval, Docs: shown.Docs})
		}
		return waiting
	default:
		// Judged as the code workflow asked, whatever this run's
		// docs-check: nil only when the job names no pull request here,
		// which then gets the check a job's end sets.
		shown.Docs = s.Agent.Judge(ctx, job, e.PR, true)
		// Applied whatever the record says: the check GitHub shows is
		// compared with the judgment, so that a status an earlier run set
		// but could not record, or one anything else set, is repaired.
		d := s.decide(ctx, th, e, check.Facts{Event: check.Judged, Heads: []string{code.HeadSHA}, Job: check.Done,
			RunURL: s.RunURL, PRLink: shown.PRURL(s.Reporter.RC.ServerURL), Linked: job.PR() != "", Approval: s.Approval, Docs: shown.Docs})
		if shown.Docs != nil && d.Docs == e.Docs {
			return waiting
		}
	}
	// Settled carries the pairing on: the record alone pairs the two.
	st := s.settled(e, shown)
	if !code.Open || code.HeadSHA == e.Released {
		// Nothing is left to follow; a reopening's, or the next, push
		// follows it again.
		st.Record.Unsettled = false
	}
	if !s.Reporter.Write(ctx, th, e, st) {
		return left
	}
	return settled
}

// send sends, in one follow-up, the change of a code pull request that
// waits in the record e (pushes made while its job worked), now that the
// job has ended: the change from the head the job heard of to the newest
// head that waits, filtered by paths. The record then says the job heard
// it, and works again; the statuses it owes stay pending. went says the
// follow-up went; capped says why the caps let nothing be sent; with
// neither and no error, nothing of the change passed paths. A change that
// cannot be read, a count of the caps that cannot be read, or a follow-up
// the API refused is the error, for the caller to tell apart (a job that
// takes no more messages); the record stays as it was.
func (s *settler) send(ctx context.Context, th *conversation.Thread, e *conversation.Earlier, job *agentapi.Job) (went bool, capped caps.Cap, err error) {
	pr := codepr.PullRequest{Owner: th.Owner, Repo: th.Repo, Number: th.Number, HeadSHA: e.Waiting, Retargeted: e.Retargeted}
	changes, err := codepr.Read(ctx, s.GitHub, pr, e.Head, s.Paths)
	if err != nil {
		return false, caps.Cap{}, fmt.Errorf("could not read the change that waits for job %s: %w", escape.Log(job.ID), err)
	}
	if changes.NothingToSend() != "" {
		s.Progress.Logf("#%d: %s", th.Number, changes.NothingToSend())
		return false, caps.Cap{}, nil
	}
	if s.Capped != nil {
		// A count that cannot be read is a cap: nothing is sent past
		// what the team chose.
		why, err := s.Capped(ctx, th)
		if err != nil || why.Why != "" {
			return false, why, err
		}
	}
	url, _, _ := strings.Cut(e.URL, "#")
	about := prompt.CodePR{Owner: th.Owner, Repo: th.Repo, Number: th.Number, URL: url}
	sentTo, err := s.Jobs.Send(ctx, job.ID, prompt.CodePushPrompt(about, changes.Change()))
	if err != nil {
		return false, caps.Cap{}, fmt.Errorf("could not send job %s the change that waits: %w", escape.Log(job.ID), err)
	}
	e.Sent = e.Sent.Add(s.Progress.Clock.Now())
	s.Progress.Logf("#%d: sent job %s the change that waited (%s), status %s", th.Number, escape.Log(sentTo.ID), report.Count(len(changes.Files), "file"), escape.Log(sentTo.Status))
	// The follow-up went: the record says so even when the run is
	// cancelled or at its timeout now, or the next run sends it again.
	ctx, cancel := s.Reporter.Keep(ctx)
	defer cancel()
	// The record as read, carried on whole (the approval asked, the
	// pairing, the docs pull request's state, the close), but for what
	// the send changed.
	rec := e.Record
	rec.Head, rec.Waiting, rec.Cut, rec.Unsettled, rec.Retargeted = e.Waiting, "", changes.LeavesCut(e.Cut), true, false
	// The job works again: its docs pull request is judged again at its
	// end, not followed meanwhile.
	rec.Docs = ""
	s.Reporter.Write(ctx, th, e, conversation.State{Phase: conversation.Working, Status: sentTo.Status, FollowUp: true,
		Record: rec, PRURL: e.PR, RunURL: escape.URL(s.RunURL),
		Note: "A later run sent the job the change pushed while it worked; the next run reports its end here."})
	return true, caps.Cap{}, nil
}

// atCap gives up, at a cap, the change that waits in the record e for
// job, which ended: nothing is sent, as a push at the cap sends nothing.
// The heads pushed since the job last heard get the success a push at the
// cap gets (check.Capped), never a pending
// that nothing settles; the record keeps the head the job heard, so that
// the next push the caps allow sends everything since it, and waits for
// nothing more. It returns the comment's note, which says so.
func (s *settler) atCap(ctx context.Context, th *conversation.Thread, e *conversation.Earlier, job *agentapi.Job, why caps.Cap) string {
	heard, unsent := e.Heard()
	s.decide(ctx, th, e, check.Facts{Event: check.Capped, Heads: unsent, Cap: why.Why, CapUncounted: why.Uncounted,
		RunURL: s.RunURL, Approval: s.Approval})
	s.Progress.Logf("#%d: docs job cap reached, nothing sent: %s; the change pushed while job %s worked is for the next push the caps allow", th.Number, why.Why, escape.Log(job.ID))
	e.Owed, e.Waiting = heard, ""
	return fmt.Sprintf("⏸️ Not sent: the change pushed while the job worked, as the docs job cap is reached: %s. The next push that the caps allow sends it.", escape.Markdown(why.Why))
}

// abandon gives up the change that waits in the record e, for a job that
// ended unable to take it (failed, archived, gone): the heads pushed since
// the job last heard get an error that says so, and the record keeps the
// head the job heard, so that the next push sends everything since it (to
// a new job, if this one takes no more).
func (s *settler) abandon(ctx context.Context, th *conversation.Thread, e *conversation.Earlier, job *agentapi.Job) {
	heard, unsent := e.Heard()
	s.decide(ctx, th, e, check.Facts{Event: check.Abandoned, Heads: unsent, RunURL: s.RunURL})
	s.Progress.Logf("#%d: job %s is %s and cannot take the change that waits; the heads pushed since it last heard get an error", th.Number, escape.Log(job.ID), escape.Log(job.Status))
	e.Owed, e.Waiting = heard, ""
}

// gone ends the record e whose job the API refused to read as one it does
// not know (f): a push's follow-up meets the same answer as a job that
// takes no more messages (agentapi.TakesNoMessages), and a new job stands
// in for it. The heads e owes get an error that says the job is gone and
// to push again, never a pending that nothing settles; the comment says
// it is gone, and the record keeps the job and the head it heard, so that
// the next run in the thread meets that answer too.
func (s *settler) gone(ctx context.Context, th *conversation.Thread, e *conversation.Earlier, f *httpclient.Failure) verdict {
	s.decide(ctx, th, e, check.Facts{Event: check.Gone, Heads: e.Owed, RunURL: s.RunURL})
	s.Progress.Logf("#%d: job %s is gone: the Agent Job API answered HTTP %d; its record ends, and the heads it owed get an error", th.Number, escape.Log(e.JobID), f.Status)
	if !s.Reporter.Write(ctx, th, e, s.goneState(e, f.Status)) {
		return left
	}
	return settled
}

// report does what a run that waited for job would have done at its end,
// for the earlier record e in th: the backlink and review request on its
// pull request, the preview, and the final commit status on the heads e
// owes whose change the job heard (a head whose change waits keeps its
// pending status). It returns what it saw, for the comment.
func (s *settler) report(ctx context.Context, th *conversation.Thread, e *conversation.Earlier, job *agentapi.Job, codeClosed bool) *report.Outcome {
	shown := &report.Outcome{JobID: job.ID, Job: job}
	switch {
	case job.Status == agentapi.StatusFailed:
	case codeClosed:
		// The code pull request closed while its job worked, and is
		// closed still: its docs pull request is told so and landed as
		// the workflow asks, never offered for review, nor previewed.
		url, _, _ := strings.Cut(e.URL, "#")
		// Only what the code pull request's closed run asked (its sender's
		// permission verified) is done: closed with it, never merged.
		shown.Note, _ = s.Agent.Closed(ctx, job, th.Number, url, e.CodeEnded == record.CodeMerged, e.PR, plan.Land{Close: e.DocsClose})
	default:
		if s.Ask != nil {
			a := s.Ask(e.URL, th)
			if e.Code() {
				a.From = e.CommentID
			}
			s.Agent.Backlink(ctx, job, a)
		}
		shown.Preview = s.Agent.Preview(ctx, job)
	}
	if e.Code() {
		shown.Docs = s.Agent.Judge(ctx, job, e.PR, e.Asked())
	}
	if heard, _ := e.Heard(); len(heard) > 0 {
		f := check.Facts{Event: check.Ended, Heads: heard, Job: check.Done, RunURL: s.RunURL, PRLink: shown.PRURL(s.Reporter.RC.ServerURL), Linked: job.PR() != "",
			Preview: shown.Preview.URL, PreviewState: shown.Preview.State, Approval: s.Approval, Docs: shown.Docs}
		if job.Status == agentapi.StatusFailed {
			f.Job = check.Failed
		}
		s.decide(ctx, th, e, f)
	}
	return shown
}

// stillClosed reports whether the code pull request of th, which its
// record e says was closed while its job worked (e.CodeEnded), is closed
// still: one reopened since, whose run did not act (a draft, a reader's
// reopening), gets what an open one gets. A record that says nothing of a
// close is not read. The error is a read that failed: the record is left
// for the next settle run, nothing landed nor offered on a guess.
func (s *settler) stillClosed(ctx context.Context, th *conversation.Thread, e *conversation.Earlier) (bool, error) {
	if e.CodeEnded == "" {
		return false, nil
	}
	code, err := s.GitHub.PullRequest(ctx, th.Owner, th.Repo, th.Number)
	if err != nil {
		return false, err
	}
	return !code.Open, nil
}

// decide applies the check f and e's record decide: settling's one ask.
func (s *settler) decide(ctx context.Context, th *conversation.Thread, e *conversation.Earlier, f check.Facts) check.Decision {
	if e.Code() {
		f.PR = th.Number
	}
	d := check.Decide(e.Record, f)
	s.Reporter.Checks.Apply(ctx, th.Owner, th.Repo, d)
	return d
}

// ended says how a settled job ended, for the log.
func (s *settler) ended(o *report.Outcome) string {
	what := fmt.Sprintf("job %s %s", escape.Log(o.Job.ID), escape.Log(o.Job.Status))
	if link := o.PRURL(s.Reporter.RC.ServerURL); link != "" {
		what += ", pull request " + link
	}
	return what
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// settled is the end of the earlier record e as a later run reports it:
// what e recorded (its job, the requests it answered, the head its job
// heard of, whether the listing it heard was cut), the job's end as
// shown with its note, and no longer working.
func (s *settler) settled(e *conversation.Earlier, shown *report.Outcome) conversation.State {
	st := s.Reporter.State(shown, conversation.Done)
	if shown.End() == report.JobFailed {
		st.Phase = conversation.Failed
	}
	// A cut listing stays cut until a push lists the whole change again:
	// the next push's status claims no success for files never seen.
	st.Record.Answered, st.Record.Head, st.Record.Owed, st.Record.Cut = e.Answered, e.Head, nil, e.Cut
	st.Record.Carry(e.Record, shown.Docs == nil)
	if e.PR != "" {
		st.PRURL = e.PR // the record alone pairs the docs pull request
	}
	st.Answered, st.Left, st.Later = nil, nil, nil
	st.FollowUp, st.Elapsed = false, 0
	// After what State wrote of shown (its note, its docs pull request).
	st.Note = strings.TrimPrefix(st.Note+"\n\nReported by a later run of this workflow.", "\n\n")
	return st
}

// goneState is the end of the earlier record e whose job the API no
// longer knows (it answered status for it): what e recorded, no longer working
// nor owing anything, and the comment says the job is gone, which the
// next run in the thread meets as a job that takes no more messages.
func (s *settler) goneState(e *conversation.Earlier, status int) conversation.State {
	st := s.settled(e, &report.Outcome{JobID: e.JobID})
	st.Phase, st.Status, st.Record.Unsettled = conversation.Error, "", false
	st.Error = fmt.Sprintf("Job %s is gone: the Agent Job API answered HTTP %d for it. The next run in this thread starts a new job.", e.JobID, status)
	return st
}
