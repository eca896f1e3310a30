package action

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/request"
)

// answering is what a run that continues its thread's job answers: its own
// request and every earlier one of the thread that no run answered
// (package backlog), and what it left out.
type answering struct {
	own  *request.Request
	send []*request.Request // own among them
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
	// unsent says the API provably did not act on send (see release).
	unsent bool
	// by is the comment whose run already answered this run's request;
	// nil when this run answers it.
	by *backlog.Owned
}

// alone is what a run answers when it answers its own request alone.
func alone(own *request.Request) *answering {
	return &answering{own: own, send: []*request.Request{own}}
}

// Record is what the run's comment records.
func (a *answering) Record() backlog.Record {
	rec := backlog.Record{Upto: a.upto}
	var sent []request.Key
	for _, s := range a.send {
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
func (a *answering) Refs() (answered, left, later []conversation.Ref) {
	if !a.unsent {
		for _, s := range a.send {
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

// gather reads the thread and decides what the run answers, by the rules
// the run's own request was judged with. When it cannot read the thread,
// the run answers its own request alone.
func (r *run) gather(ctx context.Context, gh *ghclient.Client, p plan.Plan, level string) *answering {
	a := alone(p.Own)
	th, err := r.thread.Read(ctx, r.trig.IsPR)
	switch {
	case errors.Is(err, conversation.ErrUnknownIdentity):
		r.logf("answering this request alone: %v", err)
		return a
	case err != nil:
		r.log.Warning(fmt.Sprintf("could not %v; answering this request alone", err))
		return a
	}
	th.Date(a.own)
	batch, by := backlog.Batch(th, a.own, p.Rules.Phrase)
	if a.by = by; by != nil {
		return a
	}
	a.upto, a.retry = th.Upto(a.own), th.Unsent()
	v := backlog.Judge(batch, a.own.Key, p.Rules, func(login string) (string, error) {
		if strings.EqualFold(login, a.own.Author) && level != "" {
			return level, nil
		}
		return gh.Permission(ctx, r.trig.Owner, r.trig.Repo, login)
	})
	send, full := prompt.Fit(v.Send, a.own.Key)
	a.send, a.left, a.later = send, v.Left, v.Later
	for _, f := range full {
		a.later = append(a.later, backlog.Left{Request: f, Reason: "the prompt is full"})
	}
	for _, l := range v.Left {
		r.logRequest("left out", l.Request, l.Reason)
	}
	for _, l := range v.Later {
		r.logRequest("not judged now, the next run judges it again", l.Request, l.Reason)
	}
	for _, f := range full {
		r.logRequest("not sent now, the next run sends it", f, "the prompt is full")
	}
	return a
}

// logRequest logs what became of a request of the thread, and why.
func (r *run) logRequest(what string, req *request.Request, why string) {
	r.logf("%s: the %s by %s (%s): %s", what, req.Kind.Name(), escape.Log(req.Author), escape.Log(req.URL), escape.Log(why))
}

// answer acknowledges a request that continues its thread's job and
// gathers the thread's other unanswered requests (see gather). The run's
// comment records them before anything is sent; a run that cannot write
// its comment cannot record them, and answers its own request alone. Each
// earlier request is then claimed with 👀: one the token had already
// reacted to was taken up by another run, and is left out. It returns
// what the run answers, or the run's outcome when the run is done, because
// an earlier run already answered this request.
func (r *run) answer(ctx context.Context, gh *ghclient.Client, p plan.Plan, level string, o *report.Outcome) (*answering, *report.Outcome) {
	if r.thread.Self() == "" {
		r.rep.Show(ctx, o, conversation.Working)
	}
	a := r.gather(ctx, gh, p, level)
	if why := plan.AnsweredBy(a.by); why != "" {
		done := r.rep.Skip(why)
		done.AnsweredIn = a.by.URL
		return nil, done
	}
	r.answers = a
	r.rep.Answers = r.answers
	r.rep.Show(ctx, o, conversation.Working)
	if r.thread.URL() == "" {
		r.answers = alone(a.own)
		r.rep.Answers = r.answers
	} else if r.claim(ctx, a) {
		r.rep.Show(ctx, o, conversation.Working)
	}
	if len(r.answers.send) > 1 {
		r.logf("answering %d requests of this thread at once", len(r.answers.send))
	}
	r.answeringIn(p)
	return r.answers, nil
}

// claim reacts 👀 to the comments and line comments the run sends besides
// its own (a review has no reactions), so that each shows it was taken up.
// GitHub answers 200 instead of 201 when the token had reacted so already:
// a run that could not record it (its comment could not be written), or
// one at the same moment without a concurrency group, took that request
// up, so it is left out here. It reports whether it left any out.
func (r *run) claim(ctx context.Context, a *answering) bool {
	var taken []request.Key
	for _, s := range a.send {
		if s.Key == a.own.Key || !s.Kind.Reacts() || a.retry[s.Key] {
			continue
		}
		if fresh, err := r.thread.Claim(ctx, s.ID, s.Kind); err == nil && !fresh {
			taken = append(taken, s.Key)
			a.left = append(a.left, backlog.Left{Request: s, Reason: "already taken up by another run"})
			r.logRequest("left out", s, "already taken up by another run (its 👀)")
		}
	}
	a.send = slices.DeleteFunc(a.send, func(s *request.Request) bool { return slices.Contains(taken, s.Key) })
	return len(taken) > 0
}

func ref(req *request.Request, reason string) conversation.Ref {
	return conversation.Ref{What: req.Kind.Name(), URL: req.URL, Author: req.Author, Reason: reason}
}

// release takes back the record of the requests a run sent when the API
// provably did not act on them: it was not reached, it asked to wait (429,
// or a 503 with Retry-After), or it refused the key, the project or the
// job (401, 403, 404). The next run then sends them again. A request the
// API refused for what it is (400, 413, 422) stays answered, with the
// error: sent again, it would be refused again and hold up every later
// request; and one that may have reached it stays answered, so that it is
// never sent twice.
func (r *run) release(o *report.Outcome, err error) {
	var f *httpclient.Failure
	if r.answers == nil || !errors.As(err, &f) {
		return
	}
	switch {
	case f.Kind == httpclient.Transient, f.Kind == httpclient.RateLimited,
		f.Kind == httpclient.Refused && slices.Contains([]int{401, 403, 404, 429}, f.Status):
		o.Note = "Nothing reached the agent, so this request is not answered yet: the next run in this thread sends it again."
		if len(r.answers.send) > 1 {
			o.Note = "Nothing reached the agent, so these requests are not answered yet: the next run in this thread sends them again."
		}
		r.answers.unsent = true
	}
}
