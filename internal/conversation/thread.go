package conversation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/request"
)

// GitHub is what a conversation needs from GitHub. *ghclient.Client is
// one; Recorder (recorder_test.go) is another, for tests.
type GitHub interface {
	CreateComment(ctx context.Context, owner, repo string, number int, body string) (*ghclient.Comment, error)
	UpdateComment(ctx context.Context, owner, repo string, id int64, body string) (*ghclient.Comment, error)
	GetComment(ctx context.Context, owner, repo string, id int64) (*ghclient.Comment, error)
	ListCommentsPage(ctx context.Context, owner, repo string, number, page int, keep ghclient.Keep) (*ghclient.CommentPage, error)
	AddReaction(ctx context.Context, owner, repo string, commentID int64, kind request.Kind, content string) (*ghclient.Reaction, error)
	LineComments(ctx context.Context, owner, repo string, number int, keep ghclient.Keep) ([]*ghclient.ReviewComment, error)
	Reviews(ctx context.Context, owner, repo string, number int, keep ghclient.Keep) ([]*ghclient.Review, error)
}

var _ GitHub = (*ghclient.Client)(nil)

// ErrUnknownIdentity is Record's answer when the run does not know the
// login of its own token, because neither its reaction nor its comment
// could be written: anyone can type a record, so without that login no
// record can be trusted. A Thread's answer says which of them failed.
var ErrUnknownIdentity = errors.New("the token's own login is not known, so no earlier run's record can be told from a forged one")

// identityError is ErrUnknownIdentity saying why the login is not known.
type identityError struct{ why string }

func (e *identityError) Error() string {
	return "the token's own login is not known (" + e.why + "), so no earlier run's record can be told from a forged one"
}

func (e *identityError) Is(target error) bool { return target == ErrUnknownIdentity }

// unknownSelf is ErrUnknownIdentity with what failed that would have told
// the token's login: the reaction, the comment, or both.
func (t *Thread) unknownSelf() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.lost == "" {
		return ErrUnknownIdentity
	}
	return &identityError{why: t.lost}
}

// Thread is the issue or pull request a run answers in. Show and React
// never fail the run: a comment that cannot be written is a warning, and the
// job's result still decides the exit status. Record says when it
// cannot tell.
type Thread struct {
	GH     GitHub
	Owner  string
	Repo   string
	Number int
	// Comments is the thread's comment count as the event reported it, 0
	// when unknown. It says which page holds the newest comments; a stale
	// count costs a request or two more, not a different answer.
	Comments int
	// Warn prints a warning line.
	Warn func(string)
	// Redact removes secrets from a comment before it is sent.
	Redact func(string) string
	// Phrase is the trigger phrase: of the thread's comments, Read keeps
	// the text of those that hold it, and of the action's own comments.
	Phrase string
	// Code says the thread is a code pull request whose docs job the run
	// follows: Record (Keep) then takes only a record the code workflow wrote (one
	// that names a head commit), never a /docs request's, whose job was not
	// given the code workflow's instruction.
	Code bool

	mu     sync.Mutex
	id     int64
	url    string
	author string // who wrote the run's comment: the identity of github-token
	last   string
	sent   record.Sends // what the run's comment counts as sent (Spend)
	broken bool         // creating the comment failed: never try again, or there could be two
	// lost says what failed that would have told the token's login ("the
	// 👀 reaction on #7 could not be added"), for unknownSelf.
	lost string

	// pages are the comments read, shared by Read and PreviousJob, which
	// only the run itself calls, one after the other: it is not guarded.
	pages *pager
	// kept is what Read keeps of the thread's texts (see keeping); it is
	// not guarded, for the same reason.
	kept *keeping

	warnMu sync.Mutex // apart from mu: Show warns while holding mu
	warned map[string]bool
}

// React adds a reaction (e.g. "eyes") to a comment of the thread. The
// reaction names the token's login, which Self then returns.
func (t *Thread) React(ctx context.Context, commentID int64, kind request.Kind, content string) {
	_, _ = t.react(ctx, commentID, kind, content)
}

// Seen reacts 👀 to the thread itself (its issue or pull request), which
// tells the token's login (Self).
func (t *Thread) Seen(ctx context.Context) { t.React(ctx, int64(t.Number), request.Event, "eyes") }

// SeenComment reacts 👀 to comment id of the thread, as Seen.
func (t *Thread) SeenComment(ctx context.Context, id int64) {
	t.React(ctx, id, request.Comment, "eyes")
}

// Claim reacts 👀 to a comment of the thread (kind is request.Comment or
// request.Line) and reports whether the reaction is new: GitHub answers
// 200 instead of 201 when the token had reacted so already.
func (t *Thread) Claim(ctx context.Context, commentID int64, kind request.Kind) (bool, error) {
	r, err := t.react(ctx, commentID, kind, "eyes")
	if err != nil {
		return false, err
	}
	return r.New, nil
}

// react adds the reaction, learns the token's login from it, and warns
// when it cannot.
func (t *Thread) react(ctx context.Context, commentID int64, kind request.Kind, content string) (*ghclient.Reaction, error) {
	r, err := t.GH.AddReaction(ctx, t.Owner, t.Repo, commentID, kind, content)
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		on := "the comment"
		if kind == request.Event {
			// The reaction is on the issue or pull request itself.
			on = fmt.Sprintf("#%d", t.Number)
		}
		t.lost = join(t.lost, "the reaction on "+on+" could not be added")
		t.warn("add a reaction to "+on, err)
		return nil, err
	}
	if t.author == "" {
		t.author = r.By
	}
	return r, nil
}

// comments returns the thread's pager. Its first call comes once the
// token's login is known (Read and PreviousJob need it).
func (t *Thread) comments() *pager {
	if t.pages == nil {
		t.pages = &pager{gh: t.GH, owner: t.Owner, repo: t.Repo, number: t.Number, count: t.Comments,
			keep: t.keeping().comment}
	}
	return t.pages
}

// keeping returns what decides which of the thread's texts the run keeps.
func (t *Thread) keeping() *keeping {
	if t.kept == nil {
		t.kept = &keeping{self: t.Self(), phrase: t.Phrase, budget: MaxKeptText,
			unread: map[request.Key]bool{}, reviewers: map[string]bool{}}
	}
	return t.kept
}

// Use is what a run wants of its thread's record, which Record finds.
type Use int

const (
	// Continue: the job a request continues, in the newest record the
	// action wrote that names one (a backlink's included).
	Continue Use = iota + 1
	// Keep: the comment a code pull request's later run keeps editing,
	// the newest record that names a job or one the API named with an id
	// no record holds (record.Record's Lost), not a backlink, and for a
	// Code thread one that names a head commit (the code workflow's own
	// record). Record makes it this run's comment: Show then edits it in
	// place rather than writing another. A record found on the oldest
	// page past pages not read (Behind) is kept too: a code pull request
	// keeps one record, in the comment its first run wrote.
	Keep
)

// Record is the thread's one reader of its record: the newest comment the
// action wrote in this thread whose record serves u, or nil when there is
// none. Anyone can type a record, so only comments by the token's own
// login count: the author of this run's comment. When that is unknown it
// sends nothing and returns ErrUnknownIdentity; when the thread cannot be
// read, an error. Either way the caller cannot tell, and starts a new job.
// A search that spends the budget of list requests with pages between the
// thread's oldest and its newest not read, and finds no record in those it
// read, is ErrSearchCut, never "none": what it did not read may name the
// thread's job, and the caller must not start a second one. A record found
// on the oldest page past pages not read is Behind.
//
// It reads the newest page first: a record among the newest 100 comments
// costs at most 2 list requests, whatever the thread's length, and none
// when Read has read them; one on the oldest page costs at most
// maxListRequests, however many comments came after it.
func (t *Thread) Record(ctx context.Context, u Use) (*Earlier, error) {
	self := t.Self()
	if self == "" {
		return nil, t.unknownSelf()
	}
	serves := func(r record.Record) bool { return r.JobID != "" }
	what := "an earlier job"
	if u == Keep {
		serves = func(r record.Record) bool {
			return !r.Backlink && (r.JobID != "" || r.Lost || r.Held != "") && (!t.Code || r.Head != "" || r.Held != "")
		}
		what = "its docs job"
	}
	pg := t.comments()
	c, behind, err := pg.newest(ctx, func(c *ghclient.Comment) bool {
		r, _, ok := recordOf(c.Body)
		return Owns(c, self) && ok && serves(r)
	})
	if err != nil {
		return nil, fmt.Errorf("read the thread's comments to find %s: %w", what, err)
	}
	if c == nil && pg.cut {
		return nil, fmt.Errorf("read the thread's comments to find %s: none of those read names one, but %w", what, ErrSearchCut)
	}
	if c == nil {
		return nil, nil
	}
	e := EarlierOf(c)
	e.Behind = behind
	if u == Keep {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.id == 0 && !t.broken {
			t.id, t.url, t.last = c.ID, c.URL, c.Body
			t.sent = e.Sent
		}
	}
	return e, nil
}

// Settle rewrites an earlier run's comment, e, with s: its job's end,
// reported by a later run. It returns whether GitHub took the edit; a
// failure is a warning, and the comment stays as it was, unsettled, for
// the next run.
//
// The comment is read again first: a run that wrote it since e was read
// (a push's run adopting it) holds a newer record, which is left as it
// is, for the run after.
func (t *Thread) Settle(ctx context.Context, e *Earlier, s State) bool {
	now, err := t.GH.GetComment(ctx, t.Owner, t.Repo, e.CommentID)
	if err != nil {
		t.warn("read the earlier job's comment again before reporting its end", err)
		return false
	}
	if _, line, _ := recordOf(now.Body); line != e.line {
		t.Warn(fmt.Sprintf("the record in %s changed since this run read it: left for the next run", e.URL))
		return false
	}
	// What e's runs sent stays counted.
	s.Record.Sent = e.Sent
	body := t.render(s)
	if _, err := t.GH.UpdateComment(ctx, t.Owner, t.Repo, e.CommentID, body); err != nil {
		t.warn("report the earlier job's end in its comment", err)
		return false
	}
	t.mu.Lock()
	if t.id == e.CommentID {
		t.last = body
	}
	t.mu.Unlock()
	return true
}

// render is s as the comment's Markdown, with no secret in it: the
// record's values are redacted before the record is written, as the text
// is after, since the record's document escapes characters a secret may
// hold (a hyphen is written \u002d) and a redactor would not find it
// there. A redacted job id or link is then no value a reader takes.
func (t *Thread) render(s State) string {
	s.Record.JobID, s.PRURL = t.Redact(s.Record.JobID), t.Redact(s.PRURL)
	return t.Redact(Render(s))
}

// Self returns the login of the token's identity, learned from the run's
// own comment or a reaction, or "" while there is neither.
func (t *Thread) Self() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.author
}

// SetSelf gives the thread the token's login, learned elsewhere (a
// reaction in another thread of the same run).
func (t *Thread) SetSelf(login string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.author = login
}

// AnyBot, as a thread's login (SetSelf), trusts any bot's record: for a
// reader that a record can only hold back (the token's login unknown).
const AnyBot = "[bot]"

// Owns reports whether self wrote c. Logins are case-insensitive.
func Owns(c *ghclient.Comment, self string) bool {
	return self != "" && (strings.EqualFold(c.Author, self) || self == AnyBot && c.AuthorIsBot)
}

// Show writes s: the first call creates the run's comment, later calls edit
// that same comment. An edit that would change nothing is not sent.
func (t *Thread) Show(ctx context.Context, s State) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s.Record.Sent = t.sent
	body := t.render(s)
	switch {
	case t.broken || body == t.last:
		return
	case t.id == 0:
		c, err := t.GH.CreateComment(ctx, t.Owner, t.Repo, t.Number, body)
		if err != nil {
			c = t.created(ctx, body, err)
		}
		if c == nil {
			t.broken = true
			t.lost = join(t.lost, "the comment could not be written")
			t.warn("write the comment", err)
			return
		}
		t.id, t.url, t.author = c.ID, c.URL, c.Author
	default:
		if _, err := t.GH.UpdateComment(ctx, t.Owner, t.Repo, t.id, body); err != nil {
			t.warn("update the comment", err)
			return
		}
	}
	t.last = body
}

// created finds the comment a create that failed with err may still have
// made: GitHub can make it and the answer be lost (a 502, a dropped
// connection). Nothing is created twice: the caller never tries again. It
// is nil when GitHub refused (it made nothing), when the token's login is
// not known (a comment cannot be told from a copy), or when the newest
// comments hold none by that login with exactly body, which holds what the
// run records.
func (t *Thread) created(ctx context.Context, body string, err error) *ghclient.Comment {
	if ghclient.IsRefusal(err) || t.author == "" || ctx.Err() != nil {
		return nil
	}
	// A fresh read: the pages Read kept are from before the create.
	pg := &pager{gh: t.GH, owner: t.Owner, repo: t.Repo, number: t.Number, count: t.Comments + 1, keep: func(_ int64, author, body string) string {
		if Owns(&ghclient.Comment{Author: author}, t.author) {
			return body
		}
		return ""
	}}
	newest, _, ferr := pg.recent(ctx)
	if ferr != nil {
		return nil
	}
	for _, c := range slices.Backward(newest) {
		if Owns(c, t.author) && c.Body == body {
			return c
		}
	}
	return nil
}

// CommentID returns the id of the run's comment (its own, or one Record (Keep)
// made its own), or 0 when there is none.
func (t *Thread) CommentID() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.id
}

// URL returns the comment's address, or "" when there is none.
func (t *Thread) URL() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.url
}

// warn prints one warning per kind of failure: a token that cannot comment
// fails every call the same way, and a passing rate limit must not hide it.
// join adds why to the reasons in lost.
func join(lost, why string) string {
	if lost == "" {
		return why
	}
	return lost + ", and " + why
}

func (t *Thread) warn(what string, err error) {
	kind := "other"
	switch {
	case ghclient.IsForbidden(err):
		kind = "forbidden"
	case ghclient.IsRateLimited(err):
		kind = "rate"
	}
	t.warnMu.Lock()
	seen := t.warned[kind]
	if t.warned == nil {
		t.warned = map[string]bool{}
	}
	t.warned[kind] = true
	t.warnMu.Unlock()
	if seen {
		return
	}
	switch kind {
	case "forbidden":
		t.Warn(fmt.Sprintf("could not %s: the token is not allowed to (give the workflow permissions: issues: write and pull-requests: write); the job is not affected", what))
	case "rate":
		t.Warn(fmt.Sprintf("could not %s: GitHub's rate limit was reached; the job is not affected", what))
	default:
		t.Warn(fmt.Sprintf("could not %s: %v; the job is not affected", what, err))
	}
}
