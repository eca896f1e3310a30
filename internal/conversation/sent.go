package conversation

import (
	"context"
	"fmt"
	"time"

	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
)

// Spend counts one send at now in the run's comment: Show writes it in the
// comment's record from then on. A comment adopted from an earlier run
// (Record, Keep) goes on from what it counted.
func (t *Thread) Spend(now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sent = t.sent.Add(now)
}

// Tally is what a count of sends read, and whether it read all it meant to.
type Tally struct {
	Sent int
	// Read is how many comments were read; Cut says the count stopped at
	// its budget of list requests with more to read, so Sent is at least
	// the true count's part in what was read.
	Read int
	Cut  bool
}

// SentHere counts the sends every run recorded in this thread: the sum of
// the counts in the records of the comments the token's own login wrote (anyone
// can type a record; a forged one must not use up the thread's cap).
// Without that login it sends nothing and returns ErrUnknownIdentity. It
// reads the thread's pages newest first, at most maxListRequests of them,
// sharing them with Record and Read.
func (t *Thread) SentHere(ctx context.Context) (Tally, error) {
	self := t.Self()
	if self == "" {
		return Tally{}, t.unknownSelf()
	}
	pg := t.comments()
	var out Tally
	_, _, err := pg.newest(ctx, func(c *ghclient.Comment) bool {
		out.Read++
		if r, _, ok := recordOf(c.Body); ok && Owns(c, self) && !r.Backlink {
			out.Sent += r.Sent.Total
		}
		return false
	})
	if err != nil {
		return Tally{}, fmt.Errorf("read the thread's comments to count what was sent from it: %w", err)
	}
	out.Cut = pg.cut
	return out, nil
}

// DayPages bounds the list requests of one count of the day's sends: the
// repository's 1,000 most recently written comments.
const DayPages = 10

// SentOn counts the sends the repository's runs recorded on the day of
// now (UTC): the sum, over the comments self wrote, of their sent
// records' count for that day. It reads the repository's comments the
// most recently written first, at most DayPages pages, and stops after a
// page that reaches comments last written before that day: a comment
// that counts a send that day was written that day. Of every comment
// only the record's count is kept.
func SentOn(ctx context.Context, gh RepoComments, owner, repo, self string, now time.Time) (Tally, error) {
	day := record.Day(now)
	start, _ := time.Parse(time.DateOnly, day)
	keep := func(_ int64, author, body string) string {
		// Of each of self's comments, its count alone.
		if r, _, ok := recordOf(body); ok && r.Sent.Total > 0 && Owns(&ghclient.Comment{Author: author}, self) {
			return ownMark + "\n" + record.Format(record.Record{Sent: r.Sent}) + "\n"
		}
		return ""
	}
	var out Tally
	var err error
	out.Read, out.Cut, err = readRecent(ctx, gh, owner, repo, DayPages, keep, func(c *ghclient.Comment) bool {
		if r, _, ok := recordOf(c.Body); ok && Owns(c, self) {
			out.Sent += r.Sent.On(day)
		}
		// Written before today: the pages after it are older still.
		return !c.UpdatedAt.IsZero() && c.UpdatedAt.Before(start)
	})
	if err != nil {
		return Tally{}, fmt.Errorf("read the repository's comments to count what was sent today: %w", err)
	}
	return out, nil
}
