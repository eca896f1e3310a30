package conversation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
)

// ErrSearchCut is a search of a thread's comments that spent its budget of
// list requests with pages between its oldest and its newest not read:
// what it did not read may name the thread's job, so it is not "no job".
// Comments on both sides of a record hide it so; comments after it alone
// do not (see pager.newest).
var ErrSearchCut = errors.New("the thread has more comments than one run reads (its oldest 100 and newest 900 or so), and a record of its job may be among those not read; nothing was sent, so that the thread does not get a second job")

// Earlier is the record an earlier run keeps in its comment in the
// thread (package record), and where that comment is.
type Earlier struct {
	record.Record
	URL string
	// CommentID is the comment that holds the record.
	CommentID int64
	// Behind says the record was found on the thread's oldest page, with
	// pages between it and the newest that the run did not read (comments
	// by others pushed it back): it names the job the thread's first
	// records knew, and a newer record among those pages may name
	// another. A run may continue that job; it starts no other in its
	// place (ErrSearchCut).
	Behind bool
	// line is the record's line as read, which Settle compares with the
	// comment's when it reads it again.
	line string
}

// EarlierOf reads the record in c, one of the token's own comments.
// Only the record's line that starts the comment is read (see recordOf).
func EarlierOf(c *ghclient.Comment) *Earlier {
	r, line, _ := recordOf(c.Body)
	return &Earlier{Record: r, URL: c.URL, CommentID: c.ID, line: line}
}

// Changed reports whether now, the record of e's comment as read again,
// differs from e as it was read.
func (e *Earlier) Changed(now *Earlier) bool { return e.line != now.line }

// RepoComments is what findUnsettled reads.
type RepoComments interface {
	ListRepoCommentsPage(ctx context.Context, owner, repo string, page int, keep ghclient.Keep) (*ghclient.CommentPage, error)
}

var _ RepoComments = (*ghclient.Client)(nil)

// SettlePages bounds the list requests of one search for unsettled
// records: the repository's 1,000 most recently written comments. A record
// is written when its run ends, so one left further back than that is
// older than a thousand comments of the repository; the next run in its
// own thread still settles it.
const SettlePages = 10

// Unsettled is what Owed found.
type Unsettled struct {
	// Comments are the action's comments that record a job left working,
	// the most recently written first, then those the searches past them found, with only
	// their records kept (head); their authors are not yet checked against
	// the token's login.
	Comments []*ghclient.Comment
	// Read is how many comments were read; Cut says the search stopped at
	// SettlePages with more to read.
	Read int
	Cut  bool
	// Left is how many records of jobs left working were not kept, past
	// the bound of each author's (see findUnsettled).
	Left int
	// Threads is how many threads also read.
	Threads int
	// Past is what the searches past the newest comments did.
	Past Past

	k *keeper
}

// findUnsettled reads the repository's most recently written comments, at
// most SettlePages pages of them, and returns those that record a job left
// working (by anyone: the caller trusts only its own login's, which it
// learns later). Of every other comment nothing is kept, and of a record
// only its line (record.MaxBytes at most). Anyone can type a record, so
// the records kept are bounded too, the newest first: at most per of each
// bot's, at most per of people's in all, and none of people's once a
// bot's is found, since the token that writes records is normally an
// app's or GITHUB_TOKEN's, a bot. What it holds is then at most per
// records of each bot that writes in the repository and per of people's,
// however many comments anyone wrote; per is the most records of one
// login the caller settles.
func findUnsettled(ctx context.Context, gh RepoComments, owner, repo string, per int) (*Unsettled, error) {
	out := &Unsettled{k: &keeper{per: per, bots: map[string]int{}}}
	var err error
	out.Read, out.Cut, err = readRecent(ctx, gh, owner, repo, SettlePages, keepUnsettled, func(c *ghclient.Comment) bool {
		if c.Body != "" && c.Issue != 0 {
			out.k.add(c)
		}
		return false
	})
	out.Comments, out.Left = out.k.kept, out.k.left
	if err != nil {
		return out, fmt.Errorf("read the repository's comments to find the jobs earlier runs left working: %w", err)
	}
	return out, nil
}

// keepUnsettled keeps, of a comment, the line of a record of a job left
// working, and nothing of any other.
func keepUnsettled(_ int64, _ string, body string) string {
	if r, line, ok := recordOf(body); ok && r.Unsettled && !r.Backlink && r.JobID != "" {
		return headOf(line)
	}
	return ""
}

// CommentPages reads a page of a thread's comments. *ghclient.Client is
// one.
type CommentPages interface {
	ListCommentsPage(ctx context.Context, owner, repo string, number, page int, keep ghclient.Keep) (*ghclient.CommentPage, error)
}

// LeadPages bounds the list requests also spends on a thread: its newest
// page and its oldest, where its records are (a code pull request keeps
// one, in the comment its first run wrote; a request's answer is among
// the newest).
const LeadPages = 2

// also reads the threads of leads (found otherwise than among the
// repository's newest comments, which no flood of comments can push
// away): of each, its newest page and its oldest, LeadPages list requests
// at most, the comment count saying where the newest is. It keeps the
// records of jobs left working it finds there that it does not keep
// already, as findUnsettled keeps those of the newest comments, within the
// same bounds, after them. A thread is read even when a record of it was
// found among the newest comments: anyone can type a record there, and
// the thread's own may be further back. A thread it cannot read is the
// error, with what it kept before.
func (u *Unsettled) also(ctx context.Context, gh CommentPages, owner, repo string, leads []ghclient.Listed) error {
	defer func() { u.Comments, u.Left = u.k.kept, u.k.left }()
	read := map[int]bool{}
	for _, l := range leads {
		if read[l.Number] || l.Number <= 0 {
			continue
		}
		read[l.Number] = true
		u.Threads++
		pg := &pager{gh: gh, owner: owner, repo: repo, number: l.Number, count: l.Comments, keep: keepUnsettled, budget: LeadPages}
		if _, _, err := pg.newest(ctx, func(c *ghclient.Comment) bool {
			if c.Body != "" && !u.k.has(c.ID) {
				c.Issue = l.Number
				u.k.add(c)
			}
			return false
		}); err != nil {
			return fmt.Errorf("read the comments of #%d to find a job an earlier run left working: %w", l.Number, err)
		}
	}
	return nil
}

// BacklinkReads is what backlinked reads: a pull request's pages, and the
// comments its backlinks name. *ghclient.Client is one.
type BacklinkReads interface {
	CommentPages
	GetComment(ctx context.Context, owner, repo string, id int64) (*ghclient.Comment, error)
}

// MaxFrom bounds the comments one backlinked reads, those its pull
// request's backlinks name: the newest backlink of each bot, and of
// people's when no bot wrote one (as findUnsettled keeps records), at most
// this many of them.
const MaxFrom = 3

// backlinked reads the backlinks on pull request number (the pull request
// of a settle run's event, which its agent opened), on its newest page of
// comments and its oldest (LeadPages list requests), and the comments
// they name (record.Record's From: the record of the code pull request
// that asked for its job, in the same repository), MaxFrom at most, one
// request each. A record of a job left working among those is kept as
// findUnsettled keeps those of the newest comments, within the same
// bounds: a flood of comments elsewhere does not hide it, nor one after
// the backlink on the pull request. Anyone can type a backlink, so what
// it names is held to the same trust as any record (the caller's). A
// comment it names that cannot be read (deleted) is none; another
// failure is the error, with what it kept before.
func (u *Unsettled) backlinked(ctx context.Context, gh BacklinkReads, owner, repo string, number int) error {
	defer func() { u.Comments, u.Left = u.k.kept, u.k.left }()
	links := &keeper{per: 1, bots: map[string]int{}}
	pg := &pager{gh: gh, owner: owner, repo: repo, number: number, keep: keepFrom, budget: LeadPages}
	if _, _, err := pg.newest(ctx, func(c *ghclient.Comment) bool {
		if c.Body != "" {
			links.add(c)
		}
		return false
	}); err != nil {
		return fmt.Errorf("read the comments of #%d to find its backlink: %w", number, err)
	}
	asked := map[int64]bool{}
	for _, l := range links.kept[:min(len(links.kept), MaxFrom)] {
		r, _, _ := recordOf(l.Body)
		if asked[r.From] || u.k.has(r.From) {
			continue
		}
		asked[r.From] = true
		c, err := gh.GetComment(ctx, owner, repo, r.From)
		switch {
		case ghclient.IsNotFound(err):
			continue
		case err != nil:
			return fmt.Errorf("read the comment the backlink on #%d names: %w", number, err)
		}
		if c.Body = keepUnsettled(c.ID, c.Author, c.Body); c.Body != "" && c.Issue != 0 {
			u.k.add(c)
		}
	}
	return nil
}

// keepFrom keeps, of a comment, the line of a backlink's record that
// names the record of the code pull request that asked, and nothing of
// any other.
func keepFrom(_ int64, _ string, body string) string {
	if r, line, ok := recordOf(body); ok && r.Backlink && r.From > 0 {
		return headOf(line)
	}
	return ""
}

// keeper keeps the records a search finds within findUnsettled's bounds.
type keeper struct {
	per  int
	kept []*ghclient.Comment
	// bots counts the records kept of each bot, by login in lower case;
	// people those of people, in all.
	bots   map[string]int
	people int
	left   int
}

// has reports whether the comment id is kept already.
func (k *keeper) has(id int64) bool {
	return slices.ContainsFunc(k.kept, func(c *ghclient.Comment) bool { return c.ID == id })
}

// add keeps c, a record, unless its author's bound is reached; the first
// bot's record drops the people's kept before it.
func (k *keeper) add(c *ghclient.Comment) {
	switch login := strings.ToLower(c.Author); {
	case c.AuthorIsBot && k.bots[login] < k.per:
		if len(k.bots) == 0 && k.people > 0 {
			k.kept = slices.DeleteFunc(k.kept, func(c *ghclient.Comment) bool { return !c.AuthorIsBot })
			k.left, k.people = k.left+k.people, 0
		}
		k.bots[login]++
	case !c.AuthorIsBot && len(k.bots) == 0 && k.people < k.per:
		k.people++
	default:
		k.left++
		return
	}
	k.kept = append(k.kept, c)
}

// readRecent reads the repository's most recently written comments, at
// most pages pages of them, keeping of each what keep keeps, and passes
// each to visit; a page in which visit says enough is the last read. cut
// says the pages ran out with more to read.
func readRecent(ctx context.Context, gh RepoComments, owner, repo string, pages int, keep ghclient.Keep, visit func(*ghclient.Comment) (enough bool)) (read int, cut bool, err error) {
	for page := 1; ; page++ {
		if page > pages {
			return read, true, nil
		}
		pg, err := gh.ListRepoCommentsPage(ctx, owner, repo, page, keep)
		if err != nil {
			return read, false, err
		}
		read += len(pg.Comments)
		enough := false
		for _, c := range pg.Comments {
			enough = visit(c) || enough
		}
		if pg.Next == 0 || enough {
			return read, false, nil
		}
	}
}
