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
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/prompt"
)

// answering is what a run that continues its thread's job answers: its own
// request and every earlier one of the thread that no run answered
// (package backlog), and what it left out.
type answering struct {
	own  backlog.Request
	send []backlog.Request // own among them
	left []backlog.Left
	// upto is when the newest thing the run read was made; zero when it
	// did not read the thread.
	upto time.Time
	// retry are requests an earlier run recorded as unsent: its 👀 on them
	// does not say that they were sent.
	retry map[backlog.Key]bool
	// unsent says the API provably did not act on send (see release).
	unsent bool
	// by is the comment whose run already answered this run's request;
	// nil when this run answers it.
	by *backlog.Owned
}

// alone is what a run answers when it answers its own request alone.
func alone(own backlog.Request) *answering {
	return &answering{own: own, send: []backlog.Request{own}}
}

// record is what the run's comment records.
func (a *answering) record() backlog.Record {
	rec := backlog.Record{Upto: a.upto}
	var sent []backlog.Key
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
	return rec
}

// refs are the links the run's comment shows: the requests sent (none
// when nothing reached the agent) and those left out, with why.
func (a *answering) refs() (answered, left []conversation.Ref) {
	if !a.unsent {
		for _, s := range a.send {
			answered = append(answered, ref(s, ""))
		}
	}
	for _, l := range a.left {
		left = append(left, ref(l.Request, l.Reason))
	}
	return answered, left
}

// batched reports whether the run answers more than its own request, and
// so sends the batch's prompt.
func (a *answering) batched() bool {
	return len(a.send) > 1 || len(a.send) == 1 && a.send[0].Key != a.own.Key
}

// gather reads the thread and decides what the run answers. When it
// cannot read the thread, the run answers its own request alone.
func (r *run) gather(ctx context.Context, gh *ghclient.Client, level string) *answering {
	a := alone(ownRequest(r.trig))
	batch := a.send
	th, err := r.thread.Read(ctx, r.trig.IsPR)
	switch {
	case errors.Is(err, conversation.ErrUnknownIdentity):
		r.logf("answering this request alone: %v", err)
		return a
	case err != nil:
		r.log.Warning(fmt.Sprintf("could not %v; answering this request alone", err))
		return a
	}
	if batch, a.by = backlog.Batch(th, a.own, r.cfg.TriggerPhrase); a.by != nil {
		return a
	}
	a.upto, a.retry = th.Upto(a.own), th.Unsent()
	v := backlog.Judge(batch, a.own.Key, backlog.Rules{
		Phrase:      r.cfg.TriggerPhrase,
		AllowedBots: r.cfg.AllowedBots,
		Required:    r.cfg.RequiredPermission,
		Permission: func(login string) (string, error) {
			if strings.EqualFold(login, r.trig.Sender) && level != "" {
				return level, nil
			}
			return gh.Permission(ctx, r.trig.Owner, r.trig.Repo, login)
		},
	})
	a.send, a.left = v.Send, v.Left
	for _, l := range v.Left {
		r.logRequest("left out", l.Request, l.Reason)
	}
	for _, l := range v.Later {
		r.logRequest("not judged now, the next run judges it again", l.Request, l.Reason)
	}
	return a
}

// logRequest logs what became of a request of the thread, and why.
func (r *run) logRequest(what string, req backlog.Request, why string) {
	r.logf("%s: the %s by %s (%s): %s", what, kindName(req.Kind), escape.Log(req.Author), escape.Log(req.URL), escape.Log(why))
}

// answer acknowledges a request that continues its thread's job and
// gathers the thread's other unanswered requests (see gather). The run's
// comment records them before anything is sent; a run that cannot write
// its comment cannot record them, and answers its own request alone. Each
// earlier request is then claimed with 👀: one the token had already
// reacted to was taken up by another run, and is left out. It returns the
// run's outcome when the run is done, because an earlier run already
// answered this request, and nil when it goes on.
func (r *run) answer(ctx context.Context, gh *ghclient.Client, p *plan.Plan, level string, o *Outcome) *Outcome {
	if p.React != nil {
		// The reaction names the token's login, so that the thread's
		// records can be trusted before the run writes a comment.
		r.thread.React(ctx, p.React.CommentID, p.React.Kind, "eyes")
	}
	if r.thread.Self() == "" {
		r.thread.Show(ctx, r.state(o, conversation.Working))
	}
	a := r.gather(ctx, gh, level)
	if a.by != nil {
		done := r.skip("an earlier run already sent this request to the agent, as its comment says: " + escape.Log(a.by.URL))
		done.AnsweredIn = a.by.URL
		return done
	}
	r.answers = a
	r.thread.Show(ctx, r.state(o, conversation.Working))
	if r.thread.URL() == "" {
		r.answers = alone(a.own)
	} else if r.claim(ctx, a) {
		r.thread.Show(ctx, r.state(o, conversation.Working))
	}
	if r.answers.batched() {
		p.Prompt, p.Review = prompt.Batch(r.answers.send, r.trig, r.cfg.TriggerPhrase), 0
		r.logf("answering %d requests of this thread at once", len(r.answers.send))
	}
	r.answeringIn(*p)
	return nil
}

// claim reacts 👀 to the comments and line comments the run sends besides
// its own (a review has no reactions), so that each shows it was taken up.
// GitHub answers 200 instead of 201 when the token had reacted so already:
// a run that could not record it (its comment could not be written), or
// one at the same moment without a concurrency group, took that request
// up, so it is left out here. It reports whether it left any out.
func (r *run) claim(ctx context.Context, a *answering) bool {
	var taken []backlog.Key
	for _, s := range a.send {
		kind := map[backlog.Kind]string{backlog.Comment: ghclient.KindIssue, backlog.Line: ghclient.KindReview}[s.Kind]
		if s.Key == a.own.Key || kind == "" || a.retry[s.Key] {
			continue
		}
		if fresh, err := r.thread.Claim(ctx, s.ID, kind); err == nil && !fresh {
			taken = append(taken, s.Key)
			a.left = append(a.left, backlog.Left{Request: s, Reason: "already taken up by another run"})
			r.logRequest("left out", s, "already taken up by another run (its 👀)")
		}
	}
	a.send = slices.DeleteFunc(a.send, func(s backlog.Request) bool { return slices.Contains(taken, s.Key) })
	return len(taken) > 0
}

// ownRequest is the run's own request, as its event names it.
func ownRequest(t *event.Trigger) backlog.Request {
	req := backlog.Request{Author: t.Sender, Bot: t.SenderIsBot, URL: t.CommentURL}
	switch {
	case t.ReviewID != 0:
		req.Key, req.Body = backlog.Key{Kind: backlog.Review, ID: t.ReviewID}, t.ReviewBody
	case t.CommentKind == ghclient.KindReview:
		req.Key, req.Body = backlog.Key{Kind: backlog.Line, ID: t.CommentID}, t.CommentBody
		req.Path, req.Line, req.StartLine, req.Side, req.DiffHunk = t.Path, t.Line, t.StartLine, t.Side, t.DiffHunk
	default:
		req.Key, req.Body = backlog.Key{Kind: backlog.Comment, ID: t.CommentID}, t.CommentBody
	}
	return req
}

// kindName names a kind of request for a reader.
func kindName(k backlog.Kind) string {
	switch k {
	case backlog.Line:
		return "line comment"
	case backlog.Review:
		return "review"
	}
	return "comment"
}

func ref(req backlog.Request, reason string) conversation.Ref {
	return conversation.Ref{What: kindName(req.Kind), URL: req.URL, Author: req.Author, Reason: reason}
}

// release takes back the record of the requests a run sent when the API
// provably did not act on them: it was not reached, it asked to wait (429,
// or a 503 with Retry-After), or it refused the key, the project or the
// job (401, 403, 404). The next run then sends them again. A request the
// API refused for what it is (400, 413, 422) stays answered, with the
// error: sent again, it would be refused again and hold up every later
// request; and one that may have reached it stays answered, so that it is
// never sent twice.
func (r *run) release(o *Outcome, err error) {
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
