package conversation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/request"
)

var (
	day1 = time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	day2 = time.Date(2026, 11, 29, 23, 59, 0, 0, time.UTC)
)

// sentBody is one of the action's comments that counts s.
func sentBody(s record.Sends) string {
	return Render(State{Phase: Done, Record: record.Record{JobID: "job_1", Sent: s}})
}

// TestSentHere: the thread's count is the sum of the token's own
// comments' markers; a person's copy of a marker and a backlink count
// nothing, and without the token's login nothing is read.
func TestSentHere(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self}
	rec.Seed(12, self, sentBody(record.Sends{Total: 2, Day: "2026-11-28", OnDay: 1}))
	rec.Seed(12, "mallory", sentBody(record.Sends{Total: 50}))
	rec.Seed(12, "writer", "/docs more")
	rec.Seed(12, self, sentBody(record.Sends{Total: 1, Day: "2026-11-29", OnDay: 1}))
	rec.Seed(12, self, ownMark+"\n"+record.Format(record.Record{JobID: "job_5", Backlink: true, Sent: record.Sends{Total: 9}})+"\n")
	rec.Seed(12, self, Render(State{Phase: Working}))
	var w warnings
	th := newThread(rec, &w)
	if _, err := th.SentHere(context.Background()); !errors.Is(err, ErrUnknownIdentity) {
		t.Fatalf("without the token's login: %v, want ErrUnknownIdentity", err)
	}
	if calls := rec.Calls(); len(calls) != 0 {
		t.Errorf("without the token's login, calls %q", calls)
	}
	th.React(context.Background(), 12, request.Event, "eyes")
	got, err := th.SentHere(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got != (Tally{Sent: 3, Read: 6}) {
		t.Errorf("SentHere = %+v, want 3 sent of 6 read", got)
	}
}

// TestShowCountsSpent: a send is written in the run's comment, and a
// comment adopted from an earlier run goes on from its count.
func TestShowCountsSpent(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self}
	rec.Seed(7, self, sentBody(record.Sends{Total: 2, Day: "2026-11-28", OnDay: 2}))
	var w warnings
	th := newThread(rec, &w)
	th.Number = 7
	ctx := context.Background()
	th.React(ctx, 7, request.Event, "eyes")
	if _, err := th.Record(ctx, Keep); err != nil {
		t.Fatal(err)
	}
	th.Spend(day2)
	th.Show(ctx, State{Phase: Working, Record: record.Record{JobID: "job_1"}})
	cs := rec.Comments(7)
	if len(cs) != 1 {
		t.Fatalf("%d comments, want the adopted one alone", len(cs))
	}
	if got, want := EarlierOf(&cs[0]).Sent, (record.Sends{Total: 3, Day: "2026-11-29", OnDay: 1}); got != want {
		t.Errorf("the comment counts %+v, want %+v:\n%s", got, want, cs[0].Body)
	}
	// A later run's report of the job's end keeps the count.
	e := EarlierOf(&cs[0])
	if !th.Settle(ctx, e, State{Phase: Done, Record: record.Record{JobID: "job_1"}}) {
		t.Fatal("Settle failed")
	}
	if got := EarlierOf(&rec.Comments(7)[0]).Sent; got.Total != 3 {
		t.Errorf("after Settle the comment counts %+v, want 3 in all", got)
	}
}

// repoPages is a repository's comments, the most recently written first,
// as GitHub lists them with sort=updated&direction=desc.
type repoPages struct {
	comments []*ghclient.Comment
	per      int
	pages    []int
}

func (r *repoPages) ListRepoCommentsPage(_ context.Context, owner, repo string, page int, keep ghclient.Keep) (*ghclient.CommentPage, error) {
	if owner != "acme" || repo != "docs" {
		return nil, fmt.Errorf("listed %s/%s", owner, repo)
	}
	r.pages = append(r.pages, page)
	from := min((page-1)*r.per, len(r.comments))
	out := &ghclient.CommentPage{}
	for _, c := range r.comments[from:min(from+r.per, len(r.comments))] {
		k := *c
		k.Body = keep(k.ID, k.Author, k.Body)
		out.Comments = append(out.Comments, &k)
	}
	if from+r.per < len(r.comments) {
		out.Next = page + 1
	}
	return out, nil
}

// TestSentOn: the day's count is the sum of that day's sends in the
// token's own comments written that day; the read stops after the page
// that reaches comments written before it.
func TestSentOn(t *testing.T) {
	t.Parallel()
	today := day2
	c := func(author string, s record.Sends, updated time.Time) *ghclient.Comment {
		return &ghclient.Comment{Author: author, Body: sentBody(s), UpdatedAt: updated}
	}
	r := &repoPages{per: 2, comments: []*ghclient.Comment{
		c(self, record.Sends{Total: 5, Day: "2026-11-29", OnDay: 2}, today),
		c("mallory", record.Sends{Total: 40, Day: "2026-11-29", OnDay: 40}, today),
		c(self, record.Sends{Total: 1, Day: "2026-11-29", OnDay: 1}, today.Add(-time.Hour)),
		// Edited today (a settle run) with a send of yesterday: not today's.
		c(self, record.Sends{Total: 3, Day: "2026-11-28", OnDay: 3}, today.Add(-2*time.Hour)),
		c(self, record.Sends{Total: 1, Day: "2026-11-29", OnDay: 1}, today.Add(-3*time.Hour)),
		c(self, record.Sends{Total: 7, Day: "2026-11-28", OnDay: 7}, day1),
		c(self, record.Sends{Total: 9, Day: "2026-11-29", OnDay: 9}, day1), // never read
	}}
	got, err := SentOn(context.Background(), r, "acme", "docs", self, today)
	if err != nil {
		t.Fatal(err)
	}
	if got != (Tally{Sent: 4, Read: 6}) {
		t.Errorf("SentOn = %+v, want 4 sent of 6 read", got)
	}
	if !slices.Equal(r.pages, []int{1, 2, 3}) {
		t.Errorf("pages read %v, want 1 to 3", r.pages)
	}

	many := &repoPages{per: 1}
	for range DayPages + 1 {
		many.comments = append(many.comments, c(self, record.Sends{Total: 1, Day: "2026-11-29", OnDay: 1}, today))
	}
	got, err = SentOn(context.Background(), many, "acme", "docs", self, today)
	if err != nil || got != (Tally{Sent: DayPages, Read: DayPages, Cut: true}) {
		t.Errorf("past the budget: %+v, %v; want %d sent, cut", got, err, DayPages)
	}
}
