package conversation

import (
	"context"
	"fmt"
	"sync"

	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// GitHub is what a conversation needs from GitHub.
type GitHub interface {
	CreateComment(ctx context.Context, owner, repo string, number int, body string) (*ghclient.Comment, error)
	UpdateComment(ctx context.Context, owner, repo string, id int64, body string) (*ghclient.Comment, error)
	ListComments(ctx context.Context, owner, repo string, number int) ([]*ghclient.Comment, error)
	AddReaction(ctx context.Context, owner, repo string, commentID int64, kind, content string) error
}

// Thread is the issue or pull request a run answers in. Its methods never
// fail the run: a comment that cannot be written is a warning, and the job's
// result still decides the exit status.
type Thread struct {
	GH     GitHub
	Owner  string
	Repo   string
	Number int
	// Warn prints a warning line.
	Warn func(string)
	// Redact removes secrets from a comment before it is sent.
	Redact func(string) string

	mu       sync.Mutex
	id       int64
	url      string
	last     string
	broken   bool // creating the comment failed: never try again, or there could be two
	warnOnce sync.Once
}

// React adds a reaction (e.g. "eyes") to the triggering comment.
func (t *Thread) React(ctx context.Context, commentID int64, kind, content string) {
	if err := t.GH.AddReaction(ctx, t.Owner, t.Repo, commentID, kind, content); err != nil {
		t.warn("add a reaction to the comment", err)
	}
}

// PreviousJob returns the job named by the newest marker in a comment the
// action wrote in this thread, or "". Only bot comments count: anyone can
// type a marker.
func (t *Thread) PreviousJob(ctx context.Context) string {
	comments, err := t.GH.ListComments(ctx, t.Owner, t.Repo, t.Number)
	if err != nil {
		t.warn("read the thread's comments to find an earlier job", err)
		return ""
	}
	for i := len(comments) - 1; i >= 0; i-- {
		c := comments[i]
		if c.AuthorIsBot && IsOwn(c.Body) {
			if id := JobFromMarker(c.Body); id != "" {
				return id
			}
		}
	}
	return ""
}

// Show writes s: the first call creates the run's comment, later calls edit
// that same comment. An edit that would change nothing is not sent.
func (t *Thread) Show(ctx context.Context, s State) {
	t.mu.Lock()
	defer t.mu.Unlock()
	body := t.Redact(Render(s))
	switch {
	case t.broken || body == t.last:
		return
	case t.id == 0:
		c, err := t.GH.CreateComment(ctx, t.Owner, t.Repo, t.Number, body)
		if err != nil {
			t.broken = true
			t.warn("write the comment", err)
			return
		}
		t.id, t.url = c.ID, c.URL
	default:
		if _, err := t.GH.UpdateComment(ctx, t.Owner, t.Repo, t.id, body); err != nil {
			t.warn("update the comment", err)
			return
		}
	}
	t.last = body
}

// URL returns the comment's address, or "" when there is none.
func (t *Thread) URL() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.url
}

// warn prints one warning per run: a token that cannot comment fails every
// call the same way.
func (t *Thread) warn(what string, err error) {
	t.warnOnce.Do(func() { t.warnNow(what, err) })
}

func (t *Thread) warnNow(what string, err error) {
	switch {
	case ghclient.IsForbidden(err):
		t.Warn(fmt.Sprintf("could not %s: the token is not allowed to (give the workflow permissions: issues: write and pull-requests: write); the job is not affected", what))
	case ghclient.IsRateLimited(err):
		t.Warn(fmt.Sprintf("could not %s: GitHub's rate limit was reached; the job is not affected", what))
	default:
		t.Warn(fmt.Sprintf("could not %s: %v; the job is not affected", what, err))
	}
}
