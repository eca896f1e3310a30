package action

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/prompt"
)

// answering is what a run that continues its thread's job answers: its own
// request and every earlier one of the thread that no run answered
// (package backlog), and what it left out.
type answering struct {
	record   backlog.Record
	answered []conversation.Ref
	left     []conversation.Ref
	// prompt is the batch's prompt, "" when the run answers its own
	// request alone.
	prompt string
	// by is the comment whose run already answered this run's request;
	// nil when this run answers it.
	by *backlog.Owned
}

// alone is what a run answers when it answers its own request alone.
func alone(own backlog.Request) answering {
	return answering{record: backlog.Record{Sent: []backlog.Key{own.Key}}, answered: []conversation.Ref{ref(own, "")}}
}

// gather reads the thread and decides what the run answers. When it
// cannot read the thread, the run answers its own request alone.
func (r *run) gather(ctx context.Context, gh *ghclient.Client, level string) answering {
	own := ownRequest(r.trig)
	batch := []backlog.Request{own}
	th, err := r.thread.Read(ctx, r.trig.IsPR)
	switch {
	case errors.Is(err, conversation.ErrUnknownIdentity):
		r.logf("answering this request alone: %v", err)
	case err != nil:
		r.log.Warning(fmt.Sprintf("could not %v; answering this request alone", err))
	default:
		var by *backlog.Owned
		if batch, by = backlog.Batch(th, own, r.cfg.TriggerPhrase); by != nil {
			return answering{by: by}
		}
	}
	send, left := backlog.Judge(batch, own.Key, backlog.Rules{
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
	var a answering
	for _, s := range send {
		a.record.Sent = append(a.record.Sent, s.Key)
		for _, l := range s.Lines {
			a.record.Sent = append(a.record.Sent, l.Key)
		}
		a.answered = append(a.answered, ref(s, ""))
	}
	for _, l := range left {
		a.record.Left = append(a.record.Left, l.Key)
		a.left = append(a.left, ref(l.Request, l.Reason))
		r.logf("left out: the %s by %s (%s): %s", what(l.Kind), escape.Log(l.Author), escape.Log(l.URL), escape.Log(l.Reason))
	}
	if len(send) > 1 || len(send) == 1 && send[0].Key != own.Key {
		a.prompt = prompt.Batch(send, r.trig, r.cfg.TriggerPhrase)
	}
	return a
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

func what(k backlog.Kind) string {
	switch k {
	case backlog.Line:
		return "line comment"
	case backlog.Review:
		return "review"
	}
	return "comment"
}

func ref(req backlog.Request, reason string) conversation.Ref {
	return conversation.Ref{What: what(req.Kind), URL: req.URL, Author: req.Author, Reason: reason}
}

// claim reacts 👀 to the requests the run sends besides its own, so that
// each shows it was taken up. A review has no reactions.
func (r *run) claim(ctx context.Context, send []backlog.Key, own backlog.Key) {
	for _, k := range send {
		switch {
		case k == own:
		case k.Kind == backlog.Comment:
			r.thread.React(ctx, k.ID, ghclient.KindIssue, "eyes")
		case k.Kind == backlog.Line:
			r.thread.React(ctx, k.ID, ghclient.KindReview, "eyes")
		}
	}
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
		if len(r.answers.answered) > 1 {
			o.Note = "Nothing reached the agent, so these requests are not answered yet: the next run in this thread sends them again."
		}
		r.answers.record.Unsent, r.answers.record.Sent, r.answers.answered = r.answers.record.Sent, nil, nil
	}
}
