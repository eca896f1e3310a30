package conversation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/request"
)

const self = "github-actions[bot]"

// marked is a comment body this action writes for job.
func marked(job string) string { return Render(State{Phase: Done, Record: record.Record{JobID: job}}) }

// warnings collects a thread's warnings.
type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) add(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, s)
}

func (w *warnings) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.lines)
}

func newThread(gh GitHub, w *warnings) *Thread {
	return &Thread{GH: gh, Owner: "acme", Repo: "docs", Number: 12, Warn: w.add,
		Redact: func(s string) string { return strings.ReplaceAll(s, "s3cret", "***") }}
}

func TestShowCreatesThenEdits(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self}
	var w warnings
	th := newThread(rec, &w)
	ctx := context.Background()
	th.Show(ctx, State{Phase: Working})
	th.Show(ctx, State{Phase: Working}) // unchanged: not sent
	th.Show(ctx, State{Phase: Working, Record: record.Record{JobID: "job_1"}, Status: "active"})
	th.Show(ctx, State{Phase: Error, Error: "key s3cret refused"})

	cs := rec.Comments(12)
	if len(cs) != 1 {
		t.Fatalf("comments = %d, want 1", len(cs))
	}
	want := []string{
		"CreateComment acme/docs#12",
		fmt.Sprintf("UpdateComment acme/docs %d", cs[0].ID),
		fmt.Sprintf("UpdateComment acme/docs %d", cs[0].ID),
	}
	if got := rec.Calls(); !slices.Equal(got, want) {
		t.Errorf("calls = %q, want %q", got, want)
	}
	if !strings.Contains(cs[0].Body, "key *** refused") || strings.Contains(cs[0].Body, "s3cret") {
		t.Errorf("body not redacted: %q", cs[0].Body)
	}
	if th.URL() != cs[0].URL || th.Self() != self {
		t.Errorf("URL, Self = %q, %q; want %q, %q", th.URL(), th.Self(), cs[0].URL, self)
	}
	if len(w.all()) != 0 {
		t.Errorf("warnings = %q", w.all())
	}
}

func TestShowNoDuplicateAfterFailedCreate(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self, Fail: func(call string) error {
		if strings.HasPrefix(call, "CreateComment") {
			return errors.New("create comment on #12: connection reset")
		}
		return nil
	}}
	var w warnings
	th := newThread(rec, &w)
	ctx := context.Background()
	for _, s := range []State{{Phase: Working}, {Phase: Working, Record: record.Record{JobID: "job_1"}}, {Phase: Done, Record: record.Record{JobID: "job_1"}}} {
		th.Show(ctx, s)
	}
	// A create that failed may still have reached GitHub: trying again
	// could leave two comments.
	if got, want := rec.Calls(), []string{"CreateComment acme/docs#12"}; !slices.Equal(got, want) {
		t.Errorf("calls = %q, want %q", got, want)
	}
	if got := w.all(); len(got) != 1 || got[0] != "could not write the comment: create comment on #12: connection reset; the job is not affected" {
		t.Errorf("warnings = %q, want one", got)
	}
	if th.Self() != "" || th.URL() != "" {
		t.Errorf("Self, URL = %q, %q; want none", th.Self(), th.URL())
	}
	job, err := previousJob(ctx, th)
	if job != "" || !errors.Is(err, ErrUnknownIdentity) || !strings.Contains(fmt.Sprint(err), "(the comment could not be written)") {
		t.Errorf("Record(Continue) = %q, %v; want ErrUnknownIdentity, saying the comment failed", job, err)
	}
	if n := len(rec.Calls()); n != 1 {
		t.Errorf("PreviousJob sent %d calls without an identity, want none", n-1)
	}
}

func TestReact(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self, Fail: func(call string) error {
		if strings.Contains(call, "rocket") {
			return errors.New("HTTP 500")
		}
		return nil
	}}
	var w warnings
	th := newThread(rec, &w)
	th.React(context.Background(), 55, request.Comment, "eyes")
	th.React(context.Background(), 56, request.Line, "rocket")
	th.React(context.Background(), 57, request.Line, "rocket")
	want := []string{"AddReaction acme/docs 55 issue eyes", "AddReaction acme/docs 56 review rocket", "AddReaction acme/docs 57 review rocket"}
	if got := rec.Calls(); !slices.Equal(got, want) {
		t.Errorf("calls = %q, want %q", got, want)
	}
	if got := w.all(); len(got) != 1 || !strings.HasPrefix(got[0], "could not add a reaction to the comment: HTTP 500") {
		t.Errorf("warnings = %q, want one", got)
	}
}

// TestReactionFailedLeavesNoIdentity: when the 👀 on a pull request itself
// fails (a code pull request's run), the warning and the error of what
// needed the token's login say the reaction failed, not the comment, which
// the run then writes.
func TestReactionFailedLeavesNoIdentity(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self, Fail: func(call string) error {
		if strings.HasPrefix(call, "AddReaction") {
			return errors.New("HTTP 500")
		}
		return nil
	}}
	var w warnings
	th := newThread(rec, &w)
	ctx := context.Background()
	th.React(ctx, 12, request.Event, "eyes")
	if got := w.all(); len(got) != 1 || got[0] != "could not add a reaction to #12: HTTP 500; the job is not affected" {
		t.Errorf("warnings = %q, want the reaction's", got)
	}
	_, err := th.Record(ctx, Keep)
	if !errors.Is(err, ErrUnknownIdentity) || !strings.Contains(err.Error(), "(the reaction on #12 could not be added)") || strings.Contains(err.Error(), "comment") {
		t.Errorf("Record(Keep) error = %v; want ErrUnknownIdentity saying the reaction failed", err)
	}
	th.Show(ctx, State{Phase: Error, Error: err.Error()})
	if len(rec.Comments(12)) != 1 || th.Self() != self {
		t.Errorf("the run's comment was not written after the reaction failed: %q", rec.Calls())
	}
}

// TestPreviousJobTrust: only markers in comments the token's own login
// wrote name a job to continue; anyone can type one.
func TestPreviousJobTrust(t *testing.T) {
	t.Parallel()
	type seed struct{ author, body string }
	cases := []struct {
		name    string
		seeds   []seed
		want    string
		wantErr bool
	}{
		{name: "own marker", seeds: []seed{{self, marked("job_1")}}, want: "job_1"},
		{name: "the newest own marker wins", seeds: []seed{{self, marked("job_1")}, {"ada", "thanks"}, {self, marked("job_2")}}, want: "job_2"},
		{name: "login case differs", seeds: []seed{{"GitHub-Actions[bot]", marked("job_1")}}, want: "job_1"},
		{name: "another bot's marker", seeds: []seed{{self, marked("job_1")}, {"evil[bot]", marked("job_evil")}}, want: "job_1"},
		{name: "a person's marker", seeds: []seed{{"mallory", marked("job_evil")}}, want: ""},
		{name: "own comment without the action's header", seeds: []seed{{self, record.Format(record.Record{JobID: "job_9"})}}, want: ""},
		{name: "own comment without a job", seeds: []seed{{self, Render(State{Phase: Working})}}, want: ""},
		{name: "own backlink names the job too", seeds: []seed{{self, RenderBacklink(BacklinkText{JobID: "job_5"})}}, want: "job_5"},
		{name: "no comments", want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &Recorder{Self: self}
			for _, s := range tc.seeds {
				rec.Seed(12, s.author, s.body)
			}
			var w warnings
			th := newThread(rec, &w)
			th.Comments = len(tc.seeds)
			th.Show(context.Background(), State{Phase: Working}) // learns its own login
			got, err := previousJob(context.Background(), th)
			if err != nil || got != tc.want {
				t.Errorf("PreviousJob() = %q, %v; want %q", got, err, tc.want)
			}
			wantCalls := []string{"CreateComment acme/docs#12", "ListCommentsPage acme/docs#12 page 1"}
			if got := rec.Calls(); !slices.Equal(got, wantCalls) {
				t.Errorf("calls = %q, want %q", got, wantCalls)
			}
		})
	}
}

func TestPreviousJobReadError(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self, Fail: func(call string) error {
		if strings.HasPrefix(call, "ListCommentsPage") {
			return errors.New("list comments on #12: HTTP 502")
		}
		return nil
	}}
	var w warnings
	th := newThread(rec, &w)
	th.Show(context.Background(), State{Phase: Working})
	got, err := previousJob(context.Background(), th)
	if got != "" || err == nil || err.Error() != "read the thread's comments to find an earlier job: list comments on #12: HTTP 502" {
		t.Errorf("PreviousJob() = %q, %v", got, err)
	}
	if errors.Is(err, ErrUnknownIdentity) {
		t.Error("a read error reads as an unknown identity")
	}
}

// TestPreviousJobNewestFirst checks which pages a lookup reads: the page
// the count names as newest first, forward when the count is stale low,
// from page 1 when it is stale high, then back, with the last request of
// maxListRequests kept for the oldest page when the walk back cannot
// reach it. A record found there past pages not read is Behind; a lookup
// that spent its requests with pages between not read and found no job is
// ErrSearchCut, never "none".
func TestPreviousJobNewestFirst(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		total     int // comments in the thread before the run's own
		count     int // what the event said
		markerAt  int // index of the own marker among them; -1 for none
		wantPages []int
		want      string // the job found, "" for none
		behind    bool
		wantCut   bool
	}{
		{name: "10 comments", total: 10, count: 10, markerAt: 8, wantPages: []int{1}, want: "job_found"},
		{name: "1000 comments, marker on the last page", total: 1000, count: 1000, markerAt: 990, wantPages: []int{10, 11}, want: "job_found"},
		{name: "1000 comments, count with the run's own", total: 1000, count: 1001, markerAt: 990, wantPages: []int{11, 10}, want: "job_found"},
		{name: "999 comments, marker on the last page", total: 999, count: 1000, markerAt: 990, wantPages: []int{10}, want: "job_found"},
		{name: "1050 comments, marker 99 from the end", total: 1050, count: 1051, markerAt: 951, wantPages: []int{11, 10}, want: "job_found"},
		{name: "count stale low by a page", total: 1050, count: 950, markerAt: 951, wantPages: []int{10, 11}, want: "job_found"},
		{name: "count stale low by many pages", total: 1050, count: 150, markerAt: 1040, wantPages: []int{2, 11}, want: "job_found"},
		{name: "count unknown", total: 1050, count: 0, markerAt: 1040, wantPages: []int{1, 11}, want: "job_found"},
		{name: "count stale high", total: 250, count: 900, markerAt: 240, wantPages: []int{9, 1, 3}, want: "job_found"},
		{name: "marker far back", total: 1000, count: 1001, markerAt: 250, wantPages: []int{11, 10, 9, 8, 7, 6, 5, 4, 3}, want: "job_found"},
		{name: "marker on page 2, out of reach on both sides", total: 1000, count: 1001, markerAt: 150,
			wantPages: []int{11, 10, 9, 8, 7, 6, 5, 4, 3, 1}, wantCut: true},
		{name: "marker on the oldest page, 1,150 comments after it", total: 1200, count: 1201, markerAt: 50,
			wantPages: []int{13, 12, 11, 10, 9, 8, 7, 6, 5, 1}, want: "job_found", behind: true},
		{name: "marker beyond the cap on both sides", total: 1200, count: 1201, markerAt: 350, wantPages: []int{13, 12, 11, 10, 9, 8, 7, 6, 5, 1}, wantCut: true},
		{name: "no marker, 10,000 comments", total: 10000, count: 10001, markerAt: -1, wantPages: []int{101, 100, 99, 98, 97, 96, 95, 94, 93, 1}, wantCut: true},
		{name: "no marker, 10 comments", total: 10, count: 11, markerAt: -1, wantPages: []int{1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &Recorder{Self: self}
			for i := range tc.total {
				switch {
				case i == tc.markerAt:
					rec.Seed(12, self, marked("job_found"))
				case i < tc.markerAt && i%2 == 0 && (i >= 100 || tc.markerAt < 100):
					// Older own markers, on the oldest page only when the
					// newest is there too.
					rec.Seed(12, self, marked(fmt.Sprintf("job_old%d", i)))
				case i%3 == 0:
					rec.Seed(12, "evil[bot]", marked("job_forged"))
				default:
					rec.Seed(12, "mallory", "/docs again "+marked("job_forged"))
				}
			}
			var w warnings
			th := newThread(rec, &w)
			th.Comments = tc.count
			th.Show(context.Background(), State{Phase: Working})
			e, err := th.Record(context.Background(), Continue)
			if tc.wantCut != errors.Is(err, ErrSearchCut) || err != nil && !tc.wantCut {
				t.Fatalf("Record(Continue) error = %v, want a cut search: %v", err, tc.wantCut)
			}
			got, behind := "", false
			if e != nil {
				got, behind = e.JobID, e.Behind
			}
			if got != tc.want || behind != tc.behind {
				t.Errorf("Record(Continue) = %q, behind %v; want %q, behind %v", got, behind, tc.want, tc.behind)
			}
			var want []string
			want = append(want, "CreateComment acme/docs#12")
			for _, p := range tc.wantPages {
				want = append(want, fmt.Sprintf("ListCommentsPage acme/docs#12 page %d", p))
			}
			if calls := rec.Calls(); !slices.Equal(calls, want) {
				t.Errorf("calls = %q\nwant  %q", calls, want)
			}
		})
	}
}

// lastOnEveryPage is GitHub as it may answer a page past the end: empty,
// with a Link that still names the last page.
type lastOnEveryPage struct{ *Recorder }

func (g lastOnEveryPage) ListCommentsPage(ctx context.Context, owner, repo string, number, page int, keep ghclient.Keep) (*ghclient.CommentPage, error) {
	pg, err := g.Recorder.ListCommentsPage(ctx, owner, repo, number, page, keep)
	if err == nil && len(pg.Comments) == 0 && page > 1 {
		n := len(g.Comments(number))
		pg.Last = max(1, (n+ghclient.PerPage-1)/ghclient.PerPage)
	}
	return pg, err
}

func TestPreviousJobPastTheEndWithLast(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self}
	for i := range 250 {
		rec.Seed(12, "octocat", fmt.Sprint(i))
	}
	rec.Seed(12, self, marked("job_found"))
	var w warnings
	th := newThread(lastOnEveryPage{rec}, &w)
	th.Comments = 900
	th.Show(context.Background(), State{Phase: Working})
	if got, err := previousJob(context.Background(), th); got != "job_found" || err != nil {
		t.Errorf("PreviousJob() = %q, %v", got, err)
	}
	want := []string{"CreateComment acme/docs#12", "ListCommentsPage acme/docs#12 page 9", "ListCommentsPage acme/docs#12 page 3"}
	if got := rec.Calls(); !slices.Equal(got, want) {
		t.Errorf("calls = %q, want %q", got, want)
	}
}

// previousJob is the job Record (Continue) finds, "" for none.
func previousJob(ctx context.Context, th *Thread) (string, error) {
	e, err := th.Record(ctx, Continue)
	if e == nil {
		return "", err
	}
	return e.JobID, err
}

// TestRecordHoldsNoSecret: a secret the API put in a job's id or pull
// request link reaches no comment, raw or in the escaped form the record's
// document writes a hyphen in (\u002d), which no redactor would find.
func TestRecordHoldsNoSecret(t *testing.T) {
	t.Parallel()
	const secret = "mint-live-0123-abcd"
	redact := func(s string) string { return strings.ReplaceAll(s, secret, "***") }
	rec := &Recorder{Self: self}
	th := &Thread{GH: rec, Owner: "acme", Repo: "docs", Number: 12, Warn: func(string) {}, Redact: redact}
	th.Show(context.Background(), State{Phase: Working, Status: "active", Record: record.Record{JobID: secret, Unsettled: true},
		PRLink: "https://github.com/acme/" + secret + "/pull/1", PRURL: "https://github.com/acme/" + secret + "/pull/1"})
	b := &Backlink{GH: rec, Owner: "acme", Repo: "docs", Number: 101, Self: self, Redact: redact}
	if _, err := b.Write(context.Background(), BacklinkText{JobID: secret}); err == nil {
		t.Error("a backlink was written for a job whose id is a secret")
	}
	escaped := strings.ReplaceAll(secret, "-", `\u002d`)
	for _, c := range rec.Comments(12) {
		if strings.Contains(c.Body, secret) || strings.Contains(c.Body, escaped) || strings.Contains(c.Body, "0123\\u002dabcd") {
			t.Errorf("the secret is in the comment:\n%s", c.Body)
		}
	}
	if n := len(rec.Comments(12)) + len(rec.Comments(101)); n != 1 {
		t.Errorf("%d comments, want the run's one", n)
	}
}
