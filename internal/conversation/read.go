package conversation

import (
	"context"
	"fmt"
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
		return backlog.Thread{}, ErrUnknownIdentity
	}
	t.mu.Lock()
	mine := t.id
	t.mu.Unlock()
	var th backlog.Thread
	comments, whole, err := t.comments().recent(ctx)
	if err != nil {
		return th, fmt.Errorf("read the thread's comments: %w", err)
	}
	if !whole && len(comments) > 0 {
		th.From = comments[0].CreatedAt
	}
	own := func(c *ghclient.Comment) bool { return c.ID != mine && IsOwn(c.Body) && ownedBy(c, self) }
	for _, c := range comments {
		switch {
		case c.ID == mine:
		case own(c):
			th.Own = append(th.Own, owned(c))
		case !IsOwn(c.Body):
			th.Items = append(th.Items, &request.Request{Key: request.Key{Kind: request.Comment, ID: c.ID},
				Author: c.Author, Bot: c.AuthorIsBot, Body: c.Body, URL: c.URL, At: c.CreatedAt})
		}
	}
	if len(th.Own) == 0 {
		// Comments pushed the action's own out of the newest pages: the
		// newest further back still says what was answered before them.
		c, err := t.comments().newest(ctx, own)
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
	reviews, err := t.GH.Reviews(ctx, t.Owner, t.Repo, t.Number)
	if err != nil {
		return th, fmt.Errorf("read the pull request's reviews: %w", err)
	}
	submitted := map[int64]time.Time{} // by review id
	for _, r := range reviews {
		submitted[r.ID] = r.SubmittedAt
		if !IsOwn(r.Body) {
			th.Items = append(th.Items, &request.Request{Key: request.Key{Kind: request.Review, ID: r.ID},
				Author: r.Author, Bot: r.AuthorIsBot, Body: r.Body, URL: r.URL, At: r.SubmittedAt})
		}
	}
	lines, err := t.GH.LineComments(ctx, t.Owner, t.Repo, t.Number)
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
		req := LineRequest(l)
		req.At = at
		th.Items = append(th.Items, req)
	}
	return th, nil
}

// LineRequest is a line comment as a request.
func LineRequest(l *ghclient.ReviewComment) *request.Request {
	return &request.Request{Key: request.Key{Kind: request.Line, ID: l.ID},
		Author: l.Author, Bot: l.AuthorIsBot, Body: l.Body, URL: l.URL, At: l.CreatedAt,
		Place:    request.Place{Path: l.Path, Line: l.Line, StartLine: l.StartLine, Side: l.Side, DiffHunk: l.DiffHunk},
		ReviewID: l.ReviewID}
}

func owned(c *ghclient.Comment) backlog.Owned {
	o := backlog.Owned{ID: c.ID, URL: c.URL, At: c.CreatedAt}
	if r, ok := backlog.ParseRecord(c.Body); ok {
		o.Record = &r
	}
	return o
}
