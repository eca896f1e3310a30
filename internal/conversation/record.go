package conversation

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
)

// ErrSearchCut is a search of a thread's comments that spent its budget of
// list requests before it reached the first comment: what it did not read
// may name the thread's job, so it is not "no job".
var ErrSearchCut = errors.New("the thread has more comments than one run reads (the newest 1,000 or so) and none of them names its job; nothing was sent, so that the thread does not get a second job")

// Earlier is the record an earlier run keeps in its comment in the
// thread (package record), and where that comment is.
type Earlier struct {
	record.Record
	URL string
	// CommentID is the comment that holds the record.
	CommentID int64
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

// RepoComments is what FindUnsettled reads.
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

// Unsettled is what FindUnsettled found.
type Unsettled struct {
	// Comments are the action's comments that record a job left working,
	// the most recently written first, with only their records kept (head);
	// their authors are not yet checked against the token's login.
	Comments []*ghclient.Comment
	// Read is how many comments were read; Cut says the search stopped at
	// SettlePages with more to read.
	Read int
	Cut  bool
}

// FindUnsettled reads the repository's most recently written comments, at
// most SettlePages pages of them, and returns those that record a job left
// working (by anyone: the caller trusts only its own login's). Of every
// other comment nothing is kept, so what it holds is bounded by the
// records it finds, not by the repository.
func FindUnsettled(ctx context.Context, gh RepoComments, owner, repo string) (*Unsettled, error) {
	keep := func(_ int64, _ string, body string) string {
		if r, line, ok := recordOf(body); ok && r.Unsettled && !r.Backlink && r.JobID != "" {
			return headOf(line)
		}
		return ""
	}
	out := &Unsettled{}
	var err error
	out.Read, out.Cut, err = readRecent(ctx, gh, owner, repo, SettlePages, keep, func(c *ghclient.Comment) bool {
		if c.Body != "" && c.Issue != 0 {
			out.Comments = append(out.Comments, c)
		}
		return false
	})
	if err != nil {
		return out, fmt.Errorf("read the repository's comments to find the jobs earlier runs left working: %w", err)
	}
	return out, nil
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

// Owns reports whether self wrote c (logins without case).
func Owns(c *ghclient.Comment, self string) bool { return ownedBy(c, self) }
