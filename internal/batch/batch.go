// Package batch is what a run answers in its thread: its own request and
// every earlier one no run answered (package backlog decides which, by the
// rules the run's own request was judged with), recorded in the run's
// comment before anything is sent, each earlier comment claimed with 👀,
// and, when the API provably did not act on them, released for the next
// run. It reads and returns what the run answers; the run's hall writes
// the comment between its steps (Gather, then Claim).
package batch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/admit"
	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/runlog"
)

// Thread is the thread the run answers in. *conversation.Thread is one.
type Thread interface {
	React(ctx context.Context, commentID int64, kind request.Kind, content string)
	Read(ctx context.Context, pr bool) (backlog.Thread, error)
	Claim(ctx context.Context, commentID int64, kind request.Kind) (bool, error)
	Self() string
	URL() string
}

// Permissions reads a login's permission on a repository.
// *ghclient.Client is one.
type Permissions interface {
	Permission(ctx context.Context, owner, repo, login string) (string, error)
}

var _ Thread = (*conversation.Thread)(nil)

// Room answers one run's thread.
type Room struct {
	Thread      Thread
	Permissions Permissions
	// Owner, Repo and Number are the thread's; PR says it is a pull
	// request (its reviews and line comments are read too).
	Owner, Repo string
	Number      int
	PR          bool
	// Rules judge each request as the run's own was.
	Rules    admit.Rules
	Progress runlog.Progress
}

// Answers is what a run that continues its thread's job answers: its own
// request and every earlier one of the thread that no run answered
// (package backlog), and what it left out.
type Answers struct {
	own *request.Request
	// Send are the requests sent, own among them.
	Send []*request.Request
	left []backlog.Left
	// later are requests the run did not judge (not read, or a permission
	// it could not read) or did not send (the prompt was full): its
	// record lists them as unsent, so that the next run judges them.
	later []backlog.Left
	// upto is when the newest thing the run read was made; zero when it
	// did not read the thread.
	upto time.Time
	// retry are requests an earlier run recorded as unsent: its 👀 on them
	// does not say that they were sent.
	retry map[request.Key]bool
	// unsent says the API provably did not act on Send (see Release), or
	// that a cap held them back (Unsent).
	unsent bool
	// by is the comment whose run already answered this run's request;
	// nil when this run answers it.
	by *backlog.Owned
}

// Alone is what a run answers when it answers its own request alone.
func Alone(own *request.Request) *Answers {
	return &Answers{own: own, Send: []*request.Request{own}}
}

// Unsent records that nothing of a was sent (a cap held it back): the
// next run that may send sends it.
func (a *Answers) Unsent() { a.unsent = true }

// Record is what the run's comment records.
func (a *Answers) Record() backlog.Record {
	rec := backlog.Record{Upto: a.upto}
	var sent []request.Key
	for _, s := range a.Send {
		sent = append(sent, s.Key)
		for _, l := range s.Lines {
			sent = append(sent, l.Key)
		}
	}
	if a.unsent {
		rec.Unsent = sent
	} else {
		rec.Sent = sent
	}
	for _, l := range a.left {
		rec.Left = append(rec.Left, l.Key)
	}
	for _, l := range a.later {
		rec.Unsent = append(rec.Unsent, l.Key)
	}
	return rec
}

// Refs are the links the run's comment shows: the requests sent (none
// when nothing reached the agent), those left out, with why, and those
// left for the next run.
func (a *Answers) Refs() (answered, left, later []conversation.Ref) {
	if !a.unsent {
		for _, s := range a.Send {
			answered = append(answered, ref(s, ""))
		}
	}
	for _, l := range a.left {
		left = append(left, ref(l.Request, l.Reason))
	}
	for _, l := range a.later {
		later = append(later, ref(l.Request, l.Reason))
	}
	return answered, left, later
}

// Gather reads the thread and decides what the run answers besides own,
// by the rules own was judged with (level is own's author's permission).
// When it cannot read the thread, the run answers own alone.
func (b *Room) Gather(ctx context.Context, own *request.Request, level string) *Answers {
	a := Alone(own)
	th, err := b.Thread.Read(ctx, b.PR)
	switch {
	case errors.Is(err, conversation.ErrUnknownIdentity):
		b.Progress.Logf("answering this request alone: %v", err)
		return a
	case err != nil:
		b.Progress.Log.Warning(fmt.Sprintf("could not %v; answering this request alone", err))
		return a
	}
	th.Date(a.own)
	batch, by := backlog.Batch(th, a.own, b.Rules.Phrase)
	if a.by = by; by != nil {
		return a
	}
	a.upto, a.retry = th.Upto(a.own), th.Unsent()
	v := backlog.Judge(batch, a.own.Key, b.Rules, func(login string) (string, error) {
		if strings.EqualFold(login, a.own.Author) && level != "" {
			return level, nil
		}
		return b.Permissions.Permission(ctx, b.Owner, b.Repo, login)
	})
	send, full := prompt.Fit(v.Send, a.own.Key)
	a.Send, a.left, a.later = send, v.Left, v.Later
	for _, f := range full {
		a.later = append(a.later, backlog.Left{Request: f, Reason: "the prompt is full"})
	}
	for _, l := range v.Left {
		b.logRequest("left out", l.Request, l.Reason)
	}
	for _, l := range v.Later {
		b.logRequest("not judged now, the next run judges it again", l.Request, l.Reason)
	}
	for _, f := range full {
		b.logRequest("not sent now, the next run sends it", f, "the prompt is full")
	}
	return a
}

// logRequest logs what became of a request of the thread, and why.
func (b *Room) logRequest(what string, req *request.Request, why string) {
	b.Progress.Logf("%s: the %s by %s (%s): %s", what, req.Kind.Name(), escape.Log(req.Author), escape.Log(req.URL), escape.Log(why))
}

// In says in the log where the run answers: its comment's address.
func (b *Room) In() {
	if url := b.Thread.URL(); url != "" {
		b.Progress.Logf("answering in #%d: %s", b.Number, escape.Log(url))
	}
}

// Claim reacts 👀 to the comments and line comments the run sends besides
// its own (a review has no reactions), so that each shows it was taken up.
// GitHub answers 200 instead of 201 when the token had reacted so already:
// a run that could not record it (its comment could not be written), or
// one at the same moment without a concurrency group, took that request
// up, so it is left out here. It reports whether it left any out.
func (b *Room) Claim(ctx context.Context, a *Answers) bool {
	var taken []request.Key
	for _, s := range a.Send {
		if s.Key == a.own.Key || !s.Kind.Reacts() || a.retry[s.Key] {
			continue
		}
		if fresh, err := b.Thread.Claim(ctx, s.ID, s.Kind); err == nil && !fresh {
			taken = append(taken, s.Key)
			a.left = append(a.left, backlog.Left{Request: s, Reason: "already taken up by another run"})
			b.logRequest("left out", s, "already taken up by another run (its 👀)")
		}
	}
	a.Send = slices.DeleteFunc(a.Send, func(s *request.Request) bool { return slices.Contains(taken, s.Key) })
	return len(taken) > 0
}

func ref(req *request.Request, reason string) conversation.Ref {
	return conversation.Ref{What: req.Kind.Name(), URL: req.URL, Author: req.Author, Reason: reason}
}

// Release takes back the record of the requests a run sent when the API
// provably did not act on them (err): it was not reached, it asked to
// wait (429, or a 503 with Retry-After), or it refused the key, the
// project or the job (401, 403, 404). The next run then sends them again;
// the note, "" when nothing was taken back, says so in the comment. A
// request the API refused for what it is (400, 413, 422) stays answered,
// with the error: sent again, it would be refused again and hold up every
// later request; and one that may have reached it stays answered, so that
// it is never sent twice. Requests the run sent nothing for, because
// others' comments hide the thread's job (conversation.ErrSearchCut), are
// taken back too, and the note says how to go on.
func (a *Answers) Release(err error) (note string) {
	if errors.Is(err, conversation.ErrSearchCut) {
		a.unsent = true
		if len(a.Send) > 1 {
			return "Nothing reached the agent, so these requests are not answered yet. To go on, send them to this thread's job by its id, with `job-id` in a run of the workflow (the action's earlier comments here name the job), or ask in a new issue."
		}
		return "Nothing reached the agent, so this request is not answered yet. To go on, send it to this thread's job by its id, with `job-id` in a run of the workflow (the action's earlier comments here name the job), or ask in a new issue."
	}
	var f *httpclient.Failure
	if !errors.As(err, &f) {
		return ""
	}
	switch {
	case f.Kind == httpclient.Transient, f.Kind == httpclient.RateLimited,
		f.Kind == httpclient.Refused && slices.Contains([]int{401, 403, 404, 429}, f.Status):
		a.unsent = true
		if len(a.Send) > 1 {
			return "Nothing reached the agent, so these requests are not answered yet: the next run in this thread sends them again."
		}
		return "Nothing reached the agent, so this request is not answered yet: the next run in this thread sends it again."
	}
	return ""
}

// AnsweredBy says, from the thread the run read, why the run sends
// nothing: an earlier run already sent its request ("" when none did), and
// the comment of that run.
func (a *Answers) AnsweredBy() (why, url string) {
	if a.by == nil {
		return "", ""
	}
	return "an earlier run already sent this request to the agent, as its comment says: " + escape.Log(a.by.URL), a.by.URL
}
