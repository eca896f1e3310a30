// Package backlog decides which requests of an issue or pull request a run
// answers: its own, and every earlier one that no run has answered yet, so
// that a request whose run GitHub cancelled while it waited in the
// concurrency group is not lost, and one that a run already sent is not sent
// again.
//
// Runs record what they judged in the record of their own comment (Record):
// the requests they sent, those they left out or could not send, and when
// the newest thing they read was made. A later run trusts only records its
// token's own login wrote, and takes as pending the requests no record
// lists that were made since the oldest record's run read the thread.
// Deciding is pure: the caller reads the thread (package conversation) and
// the permissions, and carries the decision out. Each request is judged by
// the rules the run's own request was (package admit).
package backlog

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/admit"
	"github.com/agentjob/agent-job-action/internal/request"
)

// Owned is a comment the token's own login wrote in the thread.
type Owned struct {
	ID  int64
	URL string
	At  time.Time
	// Record is what the run that wrote it judged; nil for a backlink or
	// a run of a version that kept no record.
	Record *Record
}

// Thread is what a run read of its thread: every comment, line comment and
// review in the newest pages read, whoever wrote them (without the
// action's own comments), and the comments the token's login wrote.
type Thread struct {
	Items []*request.Request
	Own   []Owned
	// From is when the oldest thing read was made, when older things were
	// not read (a list longer than the pages a run reads); zero when the
	// run read everything. A request made before it is never pending: the
	// record that answered it may be among what was not read.
	From time.Time
}

// Unsent are the requests a record of th lists as unsent.
func (th Thread) Unsent() map[request.Key]bool {
	out := map[request.Key]bool{}
	for _, o := range th.Own {
		if o.Record != nil {
			for _, k := range o.Record.Unsent {
				out[k] = true
			}
		}
	}
	return out
}

// Upto is when the newest item of th, or own, was made: the Upto of the
// record of a run that read th.
func (th Thread) Upto(own *request.Request) time.Time {
	upto := own.At
	for _, it := range th.Items {
		if it.At.After(upto) {
			upto = it.At
		}
	}
	for _, o := range th.Own {
		if o.At.After(upto) {
			upto = o.At
		}
	}
	return upto
}

// Pending returns the requests of th that no run has answered, oldest
// first, own among them; own is the run's own request, read from its
// event, which the thread's pages may not list yet.
//
// With records in th, a request is pending when no record lists it as sent
// or left out, and either a record lists it as unsent or it was made no
// earlier than what the oldest record's run read (its Upto; records of runs
// that did not read the thread have none): every request judged since is
// listed, and the first run that kept a record judged all those made before
// what it read that no earlier run had answered. With no record, but with
// comments of the token's login (a backlink, or runs of a version that kept
// no record), the newest of them marks the point before which every request
// was answered. In a thread where the token never wrote, every request read
// is pending.
//
// Whatever the records, a request made before th.From, the oldest thing
// the run read, is never pending unless a record lists it as unsent: what
// answered it may be further back than the run read, and a request is
// never sent twice.
//
// When a record already lists own, Pending returns no requests and the
// comment that holds that record.
func Pending(th Thread, own *request.Request) ([]*request.Request, *Owned) {
	var records []*Owned
	listed := map[request.Key]*Owned{}
	unsent := th.Unsent()
	for i := range th.Own {
		o := &th.Own[i]
		if o.Record == nil {
			continue
		}
		if !o.Record.Upto.IsZero() {
			records = append(records, o)
		}
		for _, k := range slices.Concat(o.Record.Sent, o.Record.Left) {
			if listed[k] == nil {
				listed[k] = o
			}
		}
	}
	if by := listed[own.Key]; by != nil {
		return nil, by
	}
	var pending func(*request.Request) bool
	switch {
	case len(records) > 0:
		floor := slices.MinFunc(records, func(a, b *Owned) int { return a.Record.Upto.Compare(b.Record.Upto) }).Record.Upto
		pending = func(r *request.Request) bool {
			return listed[r.Key] == nil && (unsent[r.Key] || !r.At.Before(floor) && !r.At.Before(th.From))
		}
	case len(th.Own) > 0:
		last := slices.MaxFunc(th.Own, func(a, b Owned) int { return a.At.Compare(b.At) }).At
		pending = func(r *request.Request) bool { return r.At.After(last) && !r.At.Before(th.From) }
	default:
		pending = func(r *request.Request) bool { return !r.At.Before(th.From) }
	}
	out := []*request.Request{own}
	for _, it := range th.Items {
		if it.Key != own.Key && pending(it) {
			out = append(out, it)
		}
	}
	return sorted(out), nil
}

// sorted orders requests as they were made.
func sorted(rs []*request.Request) []*request.Request {
	slices.SortStableFunc(rs, func(a, b *request.Request) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.ID, b.ID))
	})
	return rs
}

// Record is what one run judged, kept in the record of its comment
// (package record).
type Record struct {
	Sent []request.Key // sent to the agent
	Left []request.Key // left out, with a reason the comment gives
	// Unsent were to be sent, but the API provably did not act on them:
	// they are pending until a record lists them as sent or left out.
	Unsent []request.Key
	// Upto is when the newest request or comment the run read was made:
	// the run judged every request made before it. Zero when the run did
	// not read the thread (it answered its own request alone): such a
	// record says what it sent, and nothing of what came before.
	Upto time.Time
}

// Date sets when own was made to the time the thread lists for it, when
// the thread lists it: an event's payload may date it otherwise, and
// Batch compares it with the thread's times.
func (th Thread) Date(own *request.Request) {
	for _, it := range th.Items {
		if it.Key == own.Key {
			own.At = it.At
		}
	}
}

// Batch returns what a run answers: the requests of th that are pending
// (see Pending) and may be requests (see Requests), own first among those
// made at once, oldest first. A review that may be a request carries its
// line comments, which are then not requests of their own; own stands
// alone whatever review it belongs to, and a review of its own carries the
// line comments it came with. by is the comment whose record already
// answered own, when one did.
//
// Batch changes neither th's items nor own: date own first (see Date).
func Batch(th Thread, own *request.Request, phrase string) (batch []*request.Request, by *Owned) {
	th.Items = Requests(th.Items, phrase)
	batch, by = Pending(th, own)
	inReview := map[request.Key]bool{}
	for _, r := range batch {
		if r == own || r.Kind != request.Review {
			continue
		}
		// r is Requests' copy of a review: its lines are this batch's.
		r.Lines = slices.DeleteFunc(r.Lines, func(l *request.Request) bool { return l.Key == own.Key })
		for _, l := range r.Lines {
			inReview[l.Key] = true
		}
	}
	if own.Kind == request.Review {
		for _, l := range own.Lines {
			inReview[l.Key] = true
		}
	}
	return slices.DeleteFunc(batch, func(r *request.Request) bool { return r != own && inReview[r.Key] }), by
}

// Requests keeps the items that may ask the agent for something: the
// trigger phrase written in a comment, a line comment or a review's body,
// as the workflow's own if: filter finds it. Whether a reader sees it is
// decided by Judge, after the author's permission, so that nobody without
// it can make a run parse their text. A review's line comments join the
// review when it may be a request, whatever they hold, as when a review
// starts a run. A text longer than GitHub allows is none: it did not come
// from GitHub.
func Requests(items []*request.Request, phrase string) []*request.Request {
	if phrase == "" {
		// Without a phrase every comment would be a request: only the
		// run's own is.
		return nil
	}
	asks := func(r *request.Request) bool {
		return r.Unread || strings.Contains(r.Body, phrase) && request.WithinLimit(r.Body)
	}
	var out []*request.Request
	reviews := map[int64]*request.Request{} // by review id
	for _, it := range items {
		if it.Kind != request.Line && asks(it) {
			if it.Kind == request.Review {
				// A copy: the lines it carries are this batch's.
				cp := *it
				cp.Lines = nil
				it = &cp
				reviews[it.ID] = it
			}
			out = append(out, it)
		}
	}
	for _, it := range items {
		if it.Kind != request.Line || !request.WithinLimit(it.Body) {
			continue
		}
		if r, ok := reviews[it.ReviewID]; ok {
			r.Lines = append(r.Lines, it)
		} else if asks(it) {
			out = append(out, it)
		}
	}
	return out
}

// MaxAuthors bounds the permissions one run reads for the requests of
// others: past it, requests wait, unjudged, for the next run.
const MaxAuthors = 50

// Left is a request left out or not judged, and why.
type Left struct {
	*request.Request
	Reason string
}

// Verdict is how Judge split a batch.
type Verdict struct {
	Send []*request.Request // to the agent
	Left []Left             // left out, for good
	// Later are requests that were not judged now (their author's
	// permission could not be read, or more than MaxAuthors people asked):
	// the run's record lists them as unsent, so the next run judges them
	// again.
	Later []Left
}

// Judge splits a batch as the run's own request, own, was judged (by the
// same rules, package admit), with the permissions permission reads, once
// a person and for at most MaxAuthors people. own, judged already, is
// sent. A request whose phrase a reader does not see is no request: it is
// neither sent nor left out.
func Judge(batch []*request.Request, own request.Key, rules admit.Rules, permission func(login string) (string, error)) Verdict {
	var v Verdict
	type level struct {
		name string
		err  error
	}
	levels := map[string]level{}
	for _, r := range batch {
		if r.Key == own {
			v.Send = append(v.Send, r)
			continue
		}
		if r.Unread || slices.ContainsFunc(r.Lines, func(l *request.Request) bool { return l.Unread }) {
			// A review waits whole when a line of it was not read.
			v.Later = append(v.Later, Left{r, "not read: the thread holds more text than one run reads"})
			continue
		}
		l := level{}
		if rules.NeedsPermission(r) {
			var read bool
			l, read = levels[strings.ToLower(r.Author)]
			if !read && len(levels) == MaxAuthors {
				v.Later = append(v.Later, Left{r, fmt.Sprintf("not judged: more than %d people asked at once", MaxAuthors)})
				continue
			}
			if !read {
				l.name, l.err = permission(r.Author)
				levels[strings.ToLower(r.Author)] = l
			}
			if l.err != nil {
				v.Later = append(v.Later, Left{r, l.err.Error()})
				continue
			}
		}
		switch d := rules.Judge(r, l.name); d.Verdict {
		case admit.Admitted:
			v.Send = append(v.Send, r)
		case admit.Unseen:
			// The phrase is quoted, in code or hidden: no request.
			drop(r)
		default:
			v.Left = append(v.Left, Left{r, d.Reason(rules)})
			drop(r)
		}
	}
	return v
}

// drop lets go of the text of a request that is not sent, once judged:
// a run holds no more of its thread's text than it sends.
func drop(r *request.Request) {
	r.Body, r.Text, r.DiffHunk = "", "", ""
	for _, l := range r.Lines {
		drop(l)
	}
}
