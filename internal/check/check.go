// Package check decides the commit status a team makes required,
// docs / agent-job (Context): one pure function, Decide, from the thread's
// record and the facts a run read to the status each head gets and what the
// record keeps of the docs pull request. Every path (a push, the job's end
// found by any run, a settle run's judgment of a docs pull request, the
// code pull request's close, a merge group) reads its facts and asks
// Decide; no other package builds a status value, so a rule added here
// holds on every path.
package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/docspr"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/preview"
	"github.com/agentjob/agent-job-action/internal/record"
)

// Context names the commit status the action sets: a branch protection
// rule or a ruleset requires it by this name.
const Context = "docs / agent-job"

// Event is what a run saw happen to a code pull request's docs job.
type Event int

// The events, each a path that decides the check.
const (
	// Push: a push's run (opened, synchronize, ...): the job works on
	// the change, or the run ended before it did.
	Push Event = iota
	// Ended: the job's end, found by the run that waited, by the next
	// push, or by a settle run. Every head it heard gets its end.
	Ended
	// Judged: a settle run judged again the docs pull request a record
	// follows (a review, its close, a dispatch, the schedule).
	Judged
	// Abandoned: the job ended unable to take the heads pushed while it
	// worked (failed, archived, it takes no more messages).
	Abandoned
	// Gone: the Agent Job API no longer knows the job.
	Gone
	// Closed: the code pull request closed before its job heard the
	// heads pushed since it last heard.
	Closed
	// Capped: a cap let nothing be sent for the heads.
	Capped
	// Released: a person with required-permission released the check
	// (release-label) on the code pull request's latest head.
	Released
	// Held: the team writes the docs once the code is approved
	// (docs-when: approved), and the latest head is not: nothing was
	// sent for it.
	Held
)

// Events are every event, for the tables that give each a row.
var Events = []Event{Push, Ended, Judged, Abandoned, Gone, Closed, Capped, Released, Held}

func (e Event) String() string {
	return [...]string{"push", "ended", "judged", "abandoned", "gone", "closed", "capped", "released", "held"}[e]
}

// Job is how a code pull request's docs job stands, as a run read it.
type Job int

// The job's states.
const (
	// Working: the job runs, whether or not a run waits for it: a later
	// run reports its end.
	Working Job = iota
	// Done: the job ended well (completed, archived, or a terminal status
	// the API adds later).
	Done
	// Failed: the job ended failed.
	Failed
	// Errored: the run could not start or follow the job, and no job is
	// known to go on for it.
	Errored
	// Stopped: the run ended before the job did, and keeps no record a
	// later run could settle it from (comment: false).
	Stopped
	// NoChange: nothing under paths changed: no job was needed.
	NoChange
)

// Jobs are every job state, for the tables.
var Jobs = []Job{Working, Done, Failed, Errored, Stopped, NoChange}

func (j Job) String() string {
	return [...]string{"working", "done", "failed", "errored", "stopped", "no change"}[j]
}

// Facts are what a run read that the check rests on, besides the record.
type Facts struct {
	Event Event
	// Heads are the commits the event concerns, oldest first, the newest
	// last: the code pull request's latest head the run knows is last.
	Heads []string
	Job   Job
	// Cut says the run's own listing of the pull request's files reached
	// GitHub's cap (the record's Cut says a job heard one before).
	Cut bool
	// PRLink is the docs pull request as a status may link it, "" for
	// none; Preview its preview and PreviewState the build's last state
	// (package preview's Success, Failure, or another).
	PRLink, Preview, PreviewState string
	// Linked says the job names a pull request, whether or not the action
	// can judge it (PRLink is "" for one it cannot): when an approval is
	// asked, such a job ended with no docs pull request to approve.
	Linked bool
	// RunURL is the workflow run, linked while working or on failure.
	RunURL string
	// Cap is why nothing was sent at a cap ("" for none); CapUncounted
	// says the sends could not all be counted (a flood of comments), so
	// the cap only counts as reached: the bill fails closed, and the
	// check must not fail open for it.
	Cap          string
	CapUncounted bool
	// ReleasedBy is who released the check, for Released: GitHub's
	// login of the person (or allowed bot) whose permission the run
	// verified.
	ReleasedBy string
	// Approval says this run's workflow asks for the docs pull request's
	// approval (docs-check: approved); the record's Approval says a
	// run of the thread did.
	Approval bool
	// Docs is the docs pull request the record pairs with the code pull
	// request, as judged; nil when no approval is asked, or the job
	// opened none.
	Docs    *docspr.Verdict
	PR      int  // the code pull request whose heads these are (Set.For)
	Unheard bool // the job never heard the heads: only a status Revisited is written (Set.Back)
}

// HeldDescription is the check of a head whose docs wait for the code's
// approval (docs-when: approved).
const HeldDescription = "Waits for the code's approval before writing the docs"

// releasedBy starts the description of a released head's success.
const releasedBy = "Docs check released by "

// maxLogin is the longest login GitHub gives: a login in a description is
// cut to it.
const maxLogin = 39

// Set is one status on some heads.
type Set struct {
	Heads  []string
	Status ghclient.CommitStatus
	IfNone bool // only where GitHub shows none (nor one unread): one shown is kept
	For    int  // the pull request whose check this is, 0 for none (Shares)
	Back   bool // only where GitHub shows a status it may change (Revisited)
}

// Shares reports whether s is a pull request's success: it goes on a head
// only while no other open pull request there waits (Waits; else Shared).
func (s Set) Shares() bool { return s.For != 0 && s.Status.State == ghclient.StatusSuccess }

// Decision is what the check shows after an event: the statuses to set,
// in order, and what the record keeps of the docs pull request it pairs
// (record.Docs: waiting or approved while open, merged or closed after,
// "" for none).
type Decision struct {
	Sets []Set
	Docs string
}

// Decide is the one rule of the check: the statuses f's heads get, given
// the thread's record rec as the run read it. It is pure.
//
// Its rules, each held on every path:
//   - a listing the job heard cut at GitHub's cap (f.Cut or rec.Cut) claims
//     no success until a whole listing is sent again;
//   - when an approval is asked (f.Approval or rec.Approval, or the record
//     follows a docs pull request), only an approval of the docs pull
//     request the record pairs with the code pull request, or its merge,
//     turns a head green, and only the newest head; a cap then claims no
//     success, and a job whose docs pull request cannot be judged is an
//     error (nothing would settle a pending one);
//   - a cap whose count was cut by a flood claims no success;
//   - the heads a closed code pull request's job never heard are not
//     green;
//   - a release turns the newest head green, naming who released it,
//     whatever the job, the docs pull request or a cap say.
func Decide(rec record.Record, f Facts) Decision {
	asked := f.Approval || rec.Asked() || f.Docs != nil
	cut := f.Cut || rec.Cut
	if rec.Released != "" && f.Event != Released {
		// A person released that head: no later judgment, whatever it
		// finds, sets another status on it.
		f.Heads = slices.DeleteFunc(slices.Clone(f.Heads), func(sha string) bool { return sha == rec.Released })
	}
	d := Decision{}
	if v := f.Docs; v != nil {
		d.Docs = Following(v.State)
	}
	set := func(heads []string, s ghclient.CommitStatus) {
		if len(heads) > 0 {
			s.Context = Context
			d.Sets = append(d.Sets, Set{Heads: heads, Status: s, For: f.PR, Back: f.Unheard})
		}
	}
	run := escape.URL(f.RunURL)
	switch f.Event {
	case Abandoned:
		set(f.Heads, ghclient.CommitStatus{State: ghclient.StatusError, Description: "The docs job ended before it heard this push: push again", TargetURL: run})
		return d
	case Gone:
		set(f.Heads, ghclient.CommitStatus{State: ghclient.StatusError, Description: "The docs job is gone (the Agent Job API no longer knows it): push again", TargetURL: run})
		return d
	case Closed:
		set(f.Heads, ghclient.CommitStatus{State: ghclient.StatusError, Description: "Pull request closed before the docs job heard this push: reopen it and push again", TargetURL: run})
		return d
	case Capped:
		set(f.Heads, capped(f, asked, run))
		return d
	case Held:
		// The newest head only: what it waits for is said where a
		// required check is read.
		set(newest(f.Heads), ghclient.CommitStatus{State: ghclient.StatusPending, Description: HeldDescription, TargetURL: run})
		return d
	case Released:
		// The newest head only: a release is a person's word on what
		// they saw, never on a later push.
		set(newest(f.Heads), ghclient.CommitStatus{State: ghclient.StatusSuccess,
			Description: releasedBy + escape.Cut(escape.Line(f.ReleasedBy), maxLogin) + ": no docs job needed for this commit", TargetURL: run})
		return d
	}
	if f.Job == Failed {
		set(f.Heads, ghclient.CommitStatus{State: ghclient.StatusFailure, Description: "The docs job failed: see the run", TargetURL: run})
		return d
	}
	if cut && f.Job != Stopped && f.Job != Errored {
		// Said on the newest head only: the older ones keep what they
		// showed, and no end of the job settles what it never heard.
		set(newest(f.Heads), ghclient.CommitStatus{State: ghclient.StatusError,
			Description: fmt.Sprintf("GitHub listed only %d files: the rest went unseen, so no success is claimed; see the run", ghclient.MaxPullFiles), TargetURL: run})
		return d
	}
	s := ghclient.CommitStatus{}
	switch f.Job {
	case Stopped:
		s.State, s.Description, s.TargetURL = ghclient.StatusError, "The run stopped before the docs job ended: re-run it", run
	case Errored:
		s.State, s.Description, s.TargetURL = ghclient.StatusError, "The docs job could not be started: see the run", run
	case Working:
		s.State, s.Description, s.TargetURL = ghclient.StatusPending, "The docs agent is updating the docs for this change", run
	case NoChange:
		s.State, s.Description = ghclient.StatusSuccess, "No change under paths: no docs job needed"
	default:
		if asked {
			docs(f, rec.PR != "", set)
			return d
		}
		s = done(f)
	}
	set(f.Heads, s)
	return d
}

// Waits reports whether rec, the record of an open pull request, says
// its check on head is not success: its job works on head, or has yet to
// hear it, or failed there, its docs wait for the code's approval or for
// their own, or were closed, or its listing was cut. A release of head
// waits for nothing.
func Waits(rec record.Record, head string) bool {
	switch {
	case head == "" || rec.Released == head:
		return false
	case rec.Held == head, rec.Waiting == head, slices.Contains(rec.Owed, head):
		return true
	}
	return rec.Head == head && (rec.Cut || rec.Failed || rec.Docs == record.DocsWaiting || rec.Docs == record.DocsClosed)
}

// Revisited reports whether shown, on a head its job never heard (Set.Back),
// is one a judgment of the docs at docsURL may change: a success but a
// person's release, or one that links them (a run that lost its record
// judged them there).
func Revisited(shown ghclient.CommitStatus, docsURL string) bool {
	return shown.State == ghclient.StatusSuccess && !strings.HasPrefix(shown.Description, releasedBy) || shown.TargetURL != "" && shown.TargetURL == docsURL
}

// Shared is the status of a head whose pull request's check is success
// while another open pull request there, number, waits (Waits), or while
// they could not be read (number -1): a status is the commit's, so every
// pull request at it shows the strictest of their checks.
func Shared(number int, runURL string) ghclient.CommitStatus {
	s := ghclient.CommitStatus{Context: Context, State: ghclient.StatusPending, TargetURL: escape.URL(runURL),
		Description: fmt.Sprintf("#%d heads this commit too, and its docs are not settled: this commit waits for them", number)}
	if number < 0 {
		s.State, s.Description = ghclient.StatusError, "The pull requests at this commit could not be read, so no success is claimed: re-run the workflow"
	}
	return s
}

// newest is the newest of heads (oldest first), none of none.
func newest(heads []string) []string { return heads[max(0, len(heads)-1):] }

// capped is the status of heads for which a cap let nothing be sent.
func capped(f Facts, asked bool, run string) ghclient.CommitStatus {
	switch {
	case f.CapUncounted:
		return ghclient.CommitStatus{State: ghclient.StatusError, Description: "The docs job's sends could not all be counted, so nothing was sent and no success is claimed: see the run", TargetURL: run}
	case asked:
		return ghclient.CommitStatus{State: ghclient.StatusError, Description: "Docs job cap reached, so no approved docs for this push: " + f.Cap, TargetURL: run}
	}
	return ghclient.CommitStatus{State: ghclient.StatusSuccess, Description: "Docs job cap reached: " + f.Cap, TargetURL: run}
}

// done is the status of a job that ended well when no approval is asked:
// success, linking the preview when its build succeeded, else the docs
// pull request, saying when the preview failed or is not ready (the check
// is the docs job's: a preview is a courtesy of the job's end, not part of
// it). Links are https URLs only.
func done(f Facts) ghclient.CommitStatus {
	shown := escape.URL(f.Preview) != ""
	s := ghclient.CommitStatus{State: ghclient.StatusSuccess}
	switch {
	case shown && f.PreviewState == preview.Success:
		s.Description, s.TargetURL = "Docs updated: preview ready", escape.URL(f.Preview)
	case f.PRLink != "" && shown && f.PreviewState == preview.Failure:
		s.Description, s.TargetURL = "Docs updated in a pull request; its preview build failed", escape.URL(f.PRLink)
	case f.PRLink != "" && shown:
		s.Description, s.TargetURL = "Docs updated in a pull request; its preview is not ready", escape.URL(f.PRLink)
	case f.PRLink != "":
		s.Description, s.TargetURL = "Docs updated in a pull request", escape.URL(f.PRLink)
	default:
		s.Description = "No docs change needed"
	}
	return s
}

// docs sets the status of a job that ended when an approval is asked: the
// docs pull request as judged (f.Docs) decides it. Approved or merged
// turns the newest head green only, the older ones showing it waiting, as
// they would had the approval come after the job's end: an approval
// settles the code pull request's latest head, never an older one. A job
// that names a pull request the action cannot judge, or none while the
// record pairs one, claims nothing: an error; one that names none changed
// nothing, which needs no approval. paired says the record names a docs
// pull request.
func docs(f Facts, paired bool, set func([]string, ghclient.CommitStatus)) {
	v := f.Docs
	switch {
	case v == nil && f.PRLink == "" && !f.Linked && !paired:
		set(f.Heads, done(f))
	case v == nil:
		// A pull request nobody can judge here: nothing is claimed, and
		// nothing would settle a pending check: an error, which a push
		// (a new judgment) or a release clears.
		set(f.Heads, ghclient.CommitStatus{State: ghclient.StatusError, Description: "The docs job names a pull request the action cannot judge: see the run", TargetURL: escape.URL(f.RunURL)})
	case v.Settles() && len(f.Heads) > 1:
		waits := *v
		waits.State = docspr.Waiting
		set(f.Heads[:len(f.Heads)-1], docsStatus(waits, f.RunURL))
		set(f.Heads[len(f.Heads)-1:], docsStatus(*v, f.RunURL))
	default:
		set(f.Heads, docsStatus(*v, f.RunURL))
	}
}

// docsStatus is the status of a job that ended with the docs pull request
// v the team wants approved: pending, linking it, until it is approved on
// its latest commit or merged; an error when it was closed unmerged;
// pending, linking the run, when it could not be read, for nothing is
// claimed of it.
func docsStatus(v docspr.Verdict, runURL string) ghclient.CommitStatus {
	n := v.PR.Number
	s := ghclient.CommitStatus{}
	switch {
	case v.State == docspr.Approved:
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, fmt.Sprintf("Docs approved in pull request #%d", n), escape.URL(v.URL)
	case v.State == docspr.Merged:
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, fmt.Sprintf("Docs merged in pull request #%d", n), escape.URL(v.URL)
	case v.State == docspr.Closed:
		s.State, s.Description, s.TargetURL = ghclient.StatusError, fmt.Sprintf("Docs pull request #%d was closed unmerged: reopen it, or push to start a new docs job", n), escape.URL(v.URL)
	case v.State == docspr.Unread:
		s.State, s.Description, s.TargetURL = ghclient.StatusPending, fmt.Sprintf("Waits for docs pull request #%d, whose reviews could not be read: see the run", n), escape.URL(runURL)
	case v.Crowded:
		s.State, s.Description, s.TargetURL = ghclient.StatusPending, fmt.Sprintf("Waits for docs pull request #%d: too many reviews to read all, so no approval counts; see the run", n), escape.URL(runURL)
	default:
		s.State, s.Description, s.TargetURL = ghclient.StatusPending, fmt.Sprintf("Waits for an approving review of docs pull request #%d", n), escape.URL(v.URL)
	}
	return s
}

// Following is what a record keeps of a docs pull request in state st
// (record.Docs): waiting or approved while it is open, which the record
// follows; merged or closed once it is, when the next push starts a new
// job. One that could not be read is waiting: nothing is claimed of it.
func Following(st docspr.State) string {
	switch st {
	case docspr.Approved:
		return record.DocsApproved
	case docspr.Waiting, docspr.Unread:
		return record.DocsWaiting
	case docspr.Merged:
		return record.DocsMerged
	case docspr.Closed:
		return record.DocsClosed
	}
	return ""
}

// Pairing is what the check of the agent's docs pull request in its code's
// repository (whose ruleset holds it too) rests on: the code pull
// request's state, and the check GitHub shows on its latest head.
type Pairing struct {
	Code             int                   // the code pull request's number, or the request's thread's
	URL              string                // its address
	Open, Merged     bool                  // its state
	Shows            ghclient.CommitStatus // Context on its latest head, State "" for none
	DocsHead         string                // the docs pull request's latest commit
	Request, Working bool                  // Code is a /docs request's thread, not a code pull request; its job writes
}

// Paired is the check of the docs pull request p pairs, on its latest
// head: success exactly when its code's check is (the code may merge), or
// once the code merged or closed unmerged (the docs stand on their own
// reviews); pending with it otherwise, so that no merge queue takes the
// docs before the code may go. It is pure.
func Paired(p Pairing) Decision {
	s := ghclient.CommitStatus{Context: Context, TargetURL: escape.URL(p.URL)}
	switch {
	case p.Request && p.Working:
		s.State, s.Description = ghclient.StatusPending, fmt.Sprintf("The docs agent works on it for the request in #%d", p.Code)
	case p.Request:
		s.State, s.Description = ghclient.StatusSuccess, fmt.Sprintf("Opened for the request in #%d, whose docs job ended: its reviews decide", p.Code)
	case p.Merged:
		s.State, s.Description = ghclient.StatusSuccess, fmt.Sprintf("Code pull request #%d is merged: these docs may land", p.Code)
	case !p.Open:
		s.State, s.Description = ghclient.StatusSuccess, fmt.Sprintf("Code pull request #%d was closed unmerged: these docs stand on their own reviews", p.Code)
	case p.Shows.State == ghclient.StatusSuccess:
		s.State, s.Description = ghclient.StatusSuccess, fmt.Sprintf("Lands with code pull request #%d, whose docs check passed", p.Code)
	default:
		s.State, s.Description = ghclient.StatusPending, fmt.Sprintf("Waits for code pull request #%d's docs check: these docs land with the code", p.Code)
	}
	return Decision{Sets: []Set{{Heads: []string{p.DocsHead}, Status: s}}}
}

// Outside is a pull request no code job follows (a fork's, another bot's).
type Outside struct {
	Head        string // its latest commit
	Bot         string // the bot that opened it, "" for a person's
	BotReleased bool   // release-bots names Bot: no docs job needed
	Fork        bool
	ReleasedBy  string // the person with required-permission whose label released Head
	Label       string // the release label (release-label), "" for none
	RunURL      string // the workflow run, which the status links
	IfNone      bool   // the schedule's pass: writes only where Head shows no check (a release only its event says)
	Number      int    // the pull request's: its success waits for the others at Head (Set.For)
}

// DecideOutside is the check of a pull request no code job follows, on its
// latest head: a person's release, or a bot release-bots names, turns it
// green, saying so; any other waits, saying what a maintainer does. Nothing
// its own author does turns it green. It is pure.
func DecideOutside(o Outside) Decision {
	if o.ReleasedBy != "" {
		return Decide(record.Record{}, Facts{Event: Released, Heads: []string{o.Head}, PR: o.Number, ReleasedBy: o.ReleasedBy, RunURL: o.RunURL})
	}
	s := ghclient.CommitStatus{Context: Context, State: ghclient.StatusPending, TargetURL: escape.URL(o.RunURL)}
	who := "From a fork"
	if o.Bot != "" && !o.Fork {
		who = "Opened by " + escape.Cut(escape.Line(o.Bot), maxLogin)
	}
	switch {
	case o.Bot != "" && o.BotReleased && !o.Fork:
		s.State, s.Description = ghclient.StatusSuccess, who+", whose pull requests need no docs job (release-bots)"
	case o.Label != "":
		s.Description = who + ", where no docs job runs: a maintainer adds the label " + escape.Cut(escape.Line(o.Label), 50) + " to release this commit"
	default:
		s.Description = who + ", where no docs job runs: set release-label, so that a maintainer can release this commit"
	}
	return Decision{Sets: []Set{{Heads: []string{o.Head}, Status: s, IfNone: o.IfNone, For: o.Number}}}
}

// Group is what a merge group's check read of the group (package queue
// reads it): its pull requests, the first whose docs are not settled, or
// why it could not be read.
type Group struct {
	// PRs are the group's pull requests read, in the queue's order, up
	// to Held.
	PRs []int
	// Held is the first pull request whose docs are not settled, 0 when
	// all are; HeldState is its status's state ("" for none, "closed"
	// for a pull request no longer open into the group's branch).
	Held      int
	HeldState string
	// TooLarge is how many commits the group holds when that is over
	// MaxCommits, 0 otherwise; MaxCommits is what the check reads.
	TooLarge, MaxCommits int
	// Unread says the group's pull requests could not be read.
	Unread bool
}

// DecideGroup is the check of a merge group, on its head commit (head),
// linking the run: success when every pull request of the group was read
// and has its docs settled; otherwise a failure that names the pull
// request that holds the group back, or an error when the group could not
// be read, so that the queue does not wait for a check that never comes.
// It says nothing of anyone's text, only numbers.
func DecideGroup(g Group, head, runURL string) Decision {
	s := ghclient.CommitStatus{Context: Context, State: ghclient.StatusFailure, TargetURL: escape.URL(runURL)}
	switch {
	case g.Unread:
		s.State, s.Description = ghclient.StatusError, "The merge group's pull requests could not be read: see the run"
	case g.TooLarge > 0:
		s.Description = fmt.Sprintf("The merge group holds %d commits, over the %d this check reads: it does not pass unread", g.TooLarge, g.MaxCommits)
	case len(g.PRs) == 0:
		s.Description = "The merge group's branch is no merge queue's: its pull requests cannot be checked"
	case g.Held != 0 && g.HeldState == "closed":
		s.Description = fmt.Sprintf("#%d holds the merge group back: it is no longer open into the group's branch", g.Held)
	case g.Held != 0:
		s.Description = fmt.Sprintf("#%d holds the merge group back: its docs check is %s", g.Held, heldAs(g.HeldState))
	case len(g.PRs) == 1:
		s.State, s.Description = ghclient.StatusSuccess, fmt.Sprintf("Docs settled for #%d, the merge group's one pull request", g.PRs[0])
	default:
		s.State, s.Description = ghclient.StatusSuccess, fmt.Sprintf("Docs settled for all %d pull requests in the merge group", len(g.PRs))
	}
	return Decision{Sets: []Set{{Heads: []string{head}, Status: s}}}
}

// heldAs says a docs check's state as the status names it.
func heldAs(state string) string {
	switch state {
	case ghclient.StatusPending:
		return "pending"
	case ghclient.StatusFailure, ghclient.StatusError:
		return "failed"
	case "":
		return "not set"
	}
	return "not success"
}
