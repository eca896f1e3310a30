package conversation

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/request"
)

// Read returns what the thread holds for package backlog: the newest
// comments of its conversation (at least ghclient.PerPage of them), and in a
// pull request (pr) the newest line comments and submitted reviews; and
// the comments the token's own login wrote, with their records; and, when
// the conversation is longer than the pages read, when the oldest comment
// read was made (backlog.Thread.From). The
// action's own comments are no requests, whoever wrote them; this run's
// comment is left out.
//
// It costs the conversation's newest pages (2 list requests, more when
// the comment count is stale, or when none of the newest comments is the
// token's and older pages are searched for one; at most maxListRequests
// in all, the later search for an earlier job included), and in a pull
// request one list of line comments and one to three of reviews; a page
// over the response cap is read again in ten parts.
func (t *Thread) Read(ctx context.Context, pr bool) (backlog.Thread, error) {
	self := t.Self()
	if self == "" {
		return backlog.Thread{}, t.unknownSelf()
	}
	t.mu.Lock()
	mine := t.id
	t.mu.Unlock()
	var th backlog.Thread
	kept := t.keeping()
	comments, whole, err := t.comments().recent(ctx)
	if err != nil {
		return th, fmt.Errorf("read the thread's comments: %w", err)
	}
	if !whole && len(comments) > 0 {
		th.From = comments[0].CreatedAt
	}
	own := func(c *ghclient.Comment) bool { return c.ID != mine && IsRecord(c.Body) && Owns(c, self) }
	for _, c := range comments {
		switch {
		case c.ID == mine:
		case own(c):
			th.Own = append(th.Own, owned(c))
		case !IsOwn(c.Body):
			th.Items = append(th.Items, kept.request(&request.Request{Key: request.Key{Kind: request.Comment, ID: c.ID},
				Author: c.Author, Bot: c.AuthorIsBot, Body: c.Body, URL: c.URL, At: c.CreatedAt}))
		}
	}
	if len(th.Own) == 0 {
		// Comments pushed the action's own out of the newest pages: the
		// newest further back still says what was answered before them.
		c, _, err := t.comments().newest(ctx, own)
		if err != nil {
			return th, fmt.Errorf("read the thread's comments: %w", err)
		}
		if c != nil {
			th.Own = append(th.Own, owned(c))
		}
	}
	if !pr {
		return th, nil
	}
	reviews, err := t.GH.Reviews(ctx, t.Owner, t.Repo, t.Number, kept.review)
	if err != nil {
		return th, fmt.Errorf("read the pull request's reviews: %w", err)
	}
	submitted := map[int64]time.Time{} // by review id
	for _, r := range reviews {
		submitted[r.ID] = r.SubmittedAt
		if !IsOwn(r.Body) {
			th.Items = append(th.Items, kept.request(&request.Request{Key: request.Key{Kind: request.Review, ID: r.ID},
				Author: r.Author, Bot: r.AuthorIsBot, Body: r.Body, URL: r.URL, At: r.SubmittedAt}))
		}
	}
	lines, err := t.GH.LineComments(ctx, t.Owner, t.Repo, t.Number, kept.line)
	if err != nil {
		return th, fmt.Errorf("read the pull request's line comments: %w", err)
	}
	for _, l := range lines {
		if IsOwn(l.Body) {
			continue
		}
		at := l.CreatedAt
		if when, ok := submitted[l.ReviewID]; ok {
			// A line comment is shown when its review is submitted.
			at = when
		}
		req := l.Request()
		req.At = at
		th.Items = append(th.Items, kept.request(req))
	}
	return th, nil
}

// MaxKeptText bounds the texts of others one run keeps of its thread, in
// bytes: those that hold the trigger phrase, oldest pages aside, while
// the run reads (every other text is dropped as it arrives). A request
// past it is read again, and judged, by a later run.
const MaxKeptText = 8 << 20

// keeping decides which texts a run keeps as it reads its thread: the
// action's own comments by the token's login (their records), and the
// texts that may be requests, within MaxKeptText; a line comment is kept
// too when its author wrote a review that may be one, whose lines it may
// carry. The rest are dropped as each part of a list arrives (ghclient.Keep).
type keeping struct {
	self, phrase string
	budget       int
	unread       map[request.Key]bool // requests whose text did not fit
	reviewers    map[string]bool      // authors of reviews that may be requests
}

func (k *keeping) comment(id int64, author, body string) string {
	switch {
	case IsRecord(body) && Owns(&ghclient.Comment{Author: author, AuthorIsBot: request.IsBot(author, "")}, k.self):
		return head(body)
	case IsOwn(body):
		// The action's markup in someone else's comment: no request, and
		// no record either.
		return ownMark
	}
	return k.asks(request.Key{Kind: request.Comment, ID: id}, body, false)
}

func (k *keeping) review(id int64, author, body string) string {
	kept := k.asks(request.Key{Kind: request.Review, ID: id}, body, false)
	if kept != "" {
		k.reviewers[strings.ToLower(author)] = true
	}
	return kept
}

func (k *keeping) line(id int64, author, body string) string {
	return k.asks(request.Key{Kind: request.Line, ID: id}, body, k.reviewers[strings.ToLower(author)])
}

// asks keeps body when it may be a request (or anyway), within the budget;
// one that does not fit is remembered as unread.
func (k *keeping) asks(key request.Key, body string, anyway bool) string {
	switch {
	case IsOwn(body):
		return ownMark
	case !request.WithinLimit(body) || !anyway && (k.phrase == "" || !strings.Contains(body, k.phrase)):
		return ""
	case len(body) > k.budget:
		k.unread[key] = true
		return ""
	}
	k.budget -= len(body)
	return body
}

// request marks r as unread when its text did not fit.
func (k *keeping) request(r *request.Request) *request.Request {
	r.Unread = k.unread[r.Key]
	return r
}

func owned(c *ghclient.Comment) backlog.Owned {
	o := backlog.Owned{ID: c.ID, URL: c.URL, At: c.CreatedAt}
	if r, _, ok := recordOf(c.Body); ok {
		o.Record = r.Answered
	}
	return o
}
