package conversation

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// sentPrefix starts the hidden marker of the creates and follow-ups the
// runs that wrote a comment sent (Sends): "<!-- agent-job-action:sent=3,2026-11-28:2 -->"
// is three in all, two of them on 28 November 2026 (UTC).
const sentPrefix = "<!-- agent-job-action:sent="

// dayLayout is how a marker writes a day: in UTC, so that every runner
// counts the same day.
const dayLayout = "2006-01-02"

// maxSends bounds a marker's counts: a larger number is none (a marker
// is read from GitHub, and only the token's own are trusted, but a count
// is still never allowed to overflow a sum).
const maxSends = 1_000_000

// Sends counts the creates and follow-ups sent to the Agent Job API by the
// runs that wrote one comment: a code pull request's comment is written
// again by each push's run, so it keeps the total and the count of its
// newest day, which is all a cap per thread and per day needs.
type Sends struct {
	Total int
	// Day is the newest day a send was counted on (UTC, 2006-01-02), ""
	// for none; OnDay is how many were sent that day.
	Day   string
	OnDay int
}

// Day returns the day of t as a marker writes it.
func Day(t time.Time) string { return t.UTC().Format(dayLayout) }

// Add returns s with one more send at now.
func (s Sends) Add(now time.Time) Sends {
	day := Day(now)
	if s.Day != day {
		s.Day, s.OnDay = day, 0
	}
	s.Total++
	s.OnDay++
	return s
}

// On returns how many of s were sent on day.
func (s Sends) On(day string) int {
	if s.Day != day {
		return 0
	}
	return s.OnDay
}

// Marker returns the hidden marker of s, or "" when it counts none.
func (s Sends) Marker() string {
	if s.Total <= 0 {
		return ""
	}
	m := sentPrefix + strconv.Itoa(s.Total)
	if s.Day != "" && s.OnDay > 0 {
		m += "," + s.Day + ":" + strconv.Itoa(s.OnDay)
	}
	return m + markerSuffix
}

// SendsFromMarker returns the count in body's sent marker; a marker that
// does not read as Marker writes it counts none.
func SendsFromMarker(body string) Sends {
	value, ok := markerValue(body, sentPrefix)
	if !ok {
		return Sends{}
	}
	total, day, hasDay := strings.Cut(value, ",")
	s := Sends{Total: count(total)}
	if s.Total <= 0 {
		return Sends{}
	}
	if !hasDay {
		return s
	}
	d, n, ok := strings.Cut(day, ":")
	if _, err := time.Parse(dayLayout, d); err != nil || !ok || count(n) <= 0 || count(n) > s.Total {
		return Sends{}
	}
	s.Day, s.OnDay = d, count(n)
	return s
}

// count reads a marker's count: plain decimal digits up to maxSends, or -1.
func count(s string) int {
	if s == "" || len(s) > 7 || strings.Trim(s, "0123456789") != "" {
		return -1
	}
	n, _ := strconv.Atoi(s)
	if n > maxSends {
		return -1
	}
	return n
}

// Spend counts one send at now in the run's comment: Show writes it in the
// comment's marker from then on. A comment adopted from an earlier run
// (Adopt) goes on from what it counted.
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
// the sent markers of the comments the token's own login wrote (anyone
// can type a marker; a forged one must not use up the thread's cap).
// Without that login it sends nothing and returns ErrUnknownIdentity. It
// reads the thread's pages newest first, at most maxListRequests of them,
// sharing them with Previous, Adopt and Read.
func (t *Thread) SentHere(ctx context.Context) (Tally, error) {
	self := t.Self()
	if self == "" {
		return Tally{}, t.unknownSelf()
	}
	pg := t.comments()
	var out Tally
	_, err := pg.newest(ctx, func(c *ghclient.Comment) bool {
		out.Read++
		if m := markers(c.Body); ownedBy(c, self) && !strings.Contains(m, backlinkMarker) {
			out.Sent += SendsFromMarker(m).Total
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
// markers' count for that day. It reads the repository's comments the
// most recently written first, at most DayPages pages, and stops after a
// page that reaches comments last written before that day: a comment
// that counts a send that day was written that day. Of every comment
// only the sent marker is kept.
func SentOn(ctx context.Context, gh RepoComments, owner, repo, self string, now time.Time) (Tally, error) {
	day := Day(now)
	start, _ := time.Parse(dayLayout, day)
	keep := func(_ int64, author, body string) string {
		if ownedBy(&ghclient.Comment{Author: author}, self) {
			return SendsFromMarker(markers(body)).Marker()
		}
		return ""
	}
	var out Tally
	var err error
	out.Read, out.Cut, err = readRecent(ctx, gh, owner, repo, DayPages, keep, func(c *ghclient.Comment) bool {
		if ownedBy(c, self) {
			out.Sent += SendsFromMarker(c.Body).On(day)
		}
		// Written before today: the pages after it are older still.
		return !c.UpdatedAt.IsZero() && c.UpdatedAt.Before(start)
	})
	if err != nil {
		return Tally{}, fmt.Errorf("read the repository's comments to count what was sent today: %w", err)
	}
	return out, nil
}
