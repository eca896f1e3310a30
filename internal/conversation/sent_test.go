package conversation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/request"
)

var (
	day1 = time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	day2 = time.Date(2026, 11, 29, 23, 59, 0, 0, time.UTC)
)

// sentBody is one of the action's comments that counts s.
func sentBody(s Sends) string { return Render(State{Phase: Done, JobID: "job_1", Sent: s}) }

func TestSendsAddAndMarker(t *testing.T) {
	t.Parallel()
	var s Sends
	if s.Marker() != "" {
		t.Errorf("no sends: marker %q, want none", s.Marker())
	}
	s = s.Add(day1).Add(day1.Add(time.Hour))
	if s != (Sends{Total: 2, Day: "2026-11-28", OnDay: 2}) {
		t.Fatalf("two sends on one day: %+v", s)
	}
	s = s.Add(day2)
	if want := (Sends{Total: 3, Day: "2026-11-29", OnDay: 1}); s != want {
		t.Fatalf("a send the next day: %+v, want %+v", s, want)
	}
	if got := s.Marker(); got != "<!-- agent-job-action:sent=3,2026-11-29:1 -->" {
		t.Errorf("marker %q", got)
	}
	if got := SendsFromMarker("text\n" + sentBody(s)); got != s {
		t.Errorf("read back %+v, want %+v", got, s)
	}
	if s.On("2026-11-29") != 1 || s.On("2026-11-28") != 0 {
		t.Errorf("On: %d and %d, want 1 and 0", s.On("2026-11-29"), s.On("2026-11-28"))
	}
	// A send at 23:59 in another zone is counted on its UTC day.
	if got := (Sends{}).Add(time.Date(2026, 11, 28, 23, 30, 0, 0, time.FixedZone("", -2*3600))); got.Day != "2026-11-29" {
		t.Errorf("day of a send at 23:30 -02:00 is %q, want the UTC day 2026-11-29", got.Day)
	}
}

func TestSendsFromMarkerRefusesWhatItDoesNotWrite(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		"",
		"<!-- agent-job-action:sent= -->",
		"<!-- agent-job-action:sent=-1 -->",
		"<!-- agent-job-action:sent=2 ",
		"<!-- agent-job-action:sent=1e3 -->",
		"<!-- agent-job-action:sent=99999999 -->",
		"<!-- agent-job-action:sent=2,2026-13-01:1 -->",
		"<!-- agent-job-action:sent=2,2026-11-28:3 -->", // more on a day than in all
		"<!-- agent-job-action:sent=2,2026-11-28 -->",
		"<!-- agent-job-action:sent=2,2026-11-28:0 -->",
	} {
		if got := SendsFromMarker(body); got != (Sends{}) {
			t.Errorf("SendsFromMarker(%q) = %+v, want none", body, got)
		}
	}
	if got := SendsFromMarker("<!-- agent-job-action:sent=4 -->"); got != (Sends{Total: 4}) {
		t.Errorf("a total alone: %+v", got)
	}
}

// TestSentHere: the thread's count is the sum of the token's own
// comments' markers; a person's copy of a marker and a backlink count
// nothing, and without the token's login nothing is read.
func TestSentHere(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self}
	rec.Seed(12, self, sentBody(Sends{Total: 2, Day: "2026-11-28", OnDay: 1}))
	rec.Seed(12, "mallory", sentBody(Sends{Total: 50}))
	rec.Seed(12, "writer", "/docs more")
	rec.Seed(12, self, sentBody(Sends{Total: 1, Day: "2026-11-29", OnDay: 1}))
	rec.Seed(12, self, RenderBacklink(BacklinkText{JobID: "job_5"})+"<!-- agent-job-action:sent=9 -->\n")
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
	rec.Seed(7, self, sentBody(Sends{Total: 2, Day: "2026-11-28", OnDay: 2}))
	var w warnings
	th := newThread(rec, &w)
	th.Number = 7
	ctx := context.Background()
	th.React(ctx, 7, request.Event, "eyes")
	if _, err := th.Adopt(ctx); err != nil {
		t.Fatal(err)
	}
	th.Spend(day2)
	th.Show(ctx, State{Phase: Working, JobID: "job_1"})
	cs := rec.Comments(7)
	if len(cs) != 1 {
		t.Fatalf("%d comments, want the adopted one alone", len(cs))
	}
	if got, want := SendsFromMarker(cs[0].Body), (Sends{Total: 3, Day: "2026-11-29", OnDay: 1}); got != want {
		t.Errorf("the comment counts %+v, want %+v:\n%s", got, want, cs[0].Body)
	}
	// A later run's report of the job's end keeps the count.
	e := EarlierOf(&cs[0])
	if !th.Settle(ctx, e, State{Phase: Done, JobID: "job_1"}) {
		t.Fatal("Settle failed")
	}
	if got := SendsFromMarker(rec.Comments(7)[0].Body); got.Total != 3 {
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
	c := func(author string, s Sends, updated time.Time) *ghclient.Comment {
		return &ghclient.Comment{Author: author, Body: sentBody(s), UpdatedAt: updated}
	}
	r := &repoPages{per: 2, comments: []*ghclient.Comment{
		c(self, Sends{Total: 5, Day: "2026-11-29", OnDay: 2}, today),
		c("mallory", Sends{Total: 40, Day: "2026-11-29", OnDay: 40}, today),
		c(self, Sends{Total: 1, Day: "2026-11-29", OnDay: 1}, today.Add(-time.Hour)),
		// Edited today (a settle run) with a send of yesterday: not today's.
		c(self, Sends{Total: 3, Day: "2026-11-28", OnDay: 3}, today.Add(-2*time.Hour)),
		c(self, Sends{Total: 1, Day: "2026-11-29", OnDay: 1}, today.Add(-3*time.Hour)),
		c(self, Sends{Total: 7, Day: "2026-11-28", OnDay: 7}, day1),
		c(self, Sends{Total: 9, Day: "2026-11-29", OnDay: 9}, day1), // never read
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
		many.comments = append(many.comments, c(self, Sends{Total: 1, Day: "2026-11-29", OnDay: 1}, today))
	}
	got, err = SentOn(context.Background(), many, "acme", "docs", self, today)
	if err != nil || got != (Tally{Sent: DayPages, Read: DayPages, Cut: true}) {
		t.Errorf("past the budget: %+v, %v; want %d sent, cut", got, err, DayPages)
	}
}
