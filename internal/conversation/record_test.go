package conversation

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
)

// forgedRecord is a record of a job left working, as anyone can type it,
// padded with a field no reader knows to the most a reader takes
// (record.MaxBytes).
func forgedRecord(job string) string {
	line := `<!-- agent-job-action:record {"v":1,"job":"` + job + `","unsettled":true,"pad":""} -->`
	pad := strings.Repeat("x", record.MaxBytes-len(line))
	return ownMark + "\n" + strings.Replace(line, `"pad":""`, `"pad":"`+pad+`"`, 1) + "\nDone.\n"
}

// TestFindUnsettledKeepsWhatSettlingNeeds: the search reads the records
// of anyone before it knows the token's login, and holds, of those it
// keeps, their records' lines (record.MaxBytes at most each). A person
// who types a thousand records of 40 KiB must not make it hold 40 MiB:
// it keeps at most per records of each bot, per of people in all, and
// none of people once a bot's is found (the token that writes records is
// normally an app's or GITHUB_TOKEN's, a bot).
func TestFindUnsettledKeepsWhatSettlingNeeds(t *testing.T) {
	t.Parallel()
	const per = 100
	real := Render(State{Phase: NotWaiting, Record: record.Record{JobID: "job_real", Unsettled: true}})
	tests := []struct {
		name  string
		seed  func(srv *fakegithub.Server)
		kept  int  // records kept
		left  int  // records left out
		real  bool // the real one among them
		bytes int  // at most, of the bodies kept
	}{
		{name: "a bot's record among a thousand of a person's", seed: func(srv *fakegithub.Server) {
			for i := range 1000 {
				if i == 500 {
					srv.SeedComment(7, fakegithub.BotLogin, true, real)
					continue
				}
				srv.SeedComment(12, "mallory", false, forgedRecord(fmt.Sprintf("job_%04d", i)))
			}
		}, kept: 1, left: 999, real: true, bytes: len(real)},
		{name: "a thousand of a person's, no bot's", seed: func(srv *fakegithub.Server) {
			for i := range 1000 {
				srv.SeedComment(12, "mallory", false, forgedRecord(fmt.Sprintf("job_%04d", i)))
			}
		}, kept: per, left: 1000 - per, bytes: per * (len(ownMark) + 1 + record.MaxBytes + 1)},
		{name: "a thousand of a bot's", seed: func(srv *fakegithub.Server) {
			for i := range 1000 {
				srv.SeedComment(12, "echo[bot]", true, forgedRecord(fmt.Sprintf("job_%04d", i)))
			}
			srv.SeedComment(7, fakegithub.BotLogin, true, real)
		}, kept: per + 1, left: 999 - per, real: true, bytes: per*(len(ownMark)+1+record.MaxBytes+1) + len(real)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			gh, srv := newFake(t, fakegithub.Options{})
			tt.seed(srv)
			found, err := findUnsettled(context.Background(), gh, "acme", "docs", per)
			if err != nil {
				t.Fatal(err)
			}
			held, real := 0, false
			for _, c := range found.Comments {
				held += len(c.Body)
				real = real || EarlierOf(c).JobID == "job_real"
			}
			if len(found.Comments) != tt.kept || found.Left != tt.left || real != tt.real || held > tt.bytes {
				t.Errorf("kept %d records, left out %d, the real one among them: %v, holding %d bytes; want %d, %d, %v, at most %d bytes",
					len(found.Comments), found.Left, real, held, tt.kept, tt.left, tt.real, tt.bytes)
			}
		})
	}
}

// TestAlsoReadsEachLeadsOldestAndNewestPage: the threads a settle run
// finds otherwise than among the repository's newest comments (its pull
// requests whose commit status is pending) are read, each, on its newest
// page and its oldest, two list requests at most whatever its length, and
// their records of jobs left working are kept with the others, once each,
// within the same bounds. A thread is read even when a record of it is
// among the newest comments: a record typed there (here by another bot)
// does not hide the thread's own.
func TestAlsoReadsEachLeadsOldestAndNewestPage(t *testing.T) {
	t.Parallel()
	gh, srv := newFake(t, fakegithub.Options{})
	left := func(job string) string {
		return Render(State{Phase: NotWaiting, Record: record.Record{JobID: job, Unsettled: true}})
	}
	srv.SeedComment(7, fakegithub.BotLogin, true, left("job_code"))
	for range 400 {
		srv.SeedComment(7, "stranger", false, "me too")
	}
	for range 250 {
		srv.SeedComment(9, "stranger", false, "me too")
	}
	srv.SeedComment(9, fakegithub.BotLogin, true, left("job_newest"))
	for range 1000 {
		srv.SeedComment(50, "stranger", false, "spam")
	}
	srv.SeedComment(7, "echo[bot]", true, left("job_typed"))
	srv.SeedComment(8, fakegithub.BotLogin, true, left("job_recent"))
	found, err := findUnsettled(context.Background(), gh, "acme", "docs", 100)
	if err != nil || !found.Cut || len(found.Comments) != 2 {
		t.Fatalf("findUnsettled() = %+v, %v; want #8's record and the one typed in #7, the search cut", found, err)
	}
	from := len(srv.Requests())
	if err := found.also(context.Background(), gh, "acme", "docs", []ghclient.Listed{{Number: 7, Comments: 402}, {Number: 8, Comments: 1}, {Number: 9, Comments: 251}}); err != nil {
		t.Fatal(err)
	}
	var jobs []string
	for _, c := range found.Comments {
		jobs = append(jobs, EarlierOf(c).JobID)
	}
	if want := []string{"job_recent", "job_typed", "job_code", "job_newest"}; !slices.Equal(jobs, want) || found.Threads != 3 {
		t.Errorf("records kept %q from %d threads, want %q from 3", jobs, found.Threads, want)
	}
	var pages []string
	for _, r := range srv.Requests()[from:] {
		pages = append(pages, r.Path+"?"+r.Query)
	}
	want := []string{"/repos/acme/docs/issues/7/comments?page=5&per_page=100", "/repos/acme/docs/issues/7/comments?page=1&per_page=100",
		"/repos/acme/docs/issues/8/comments?page=1&per_page=100",
		"/repos/acme/docs/issues/9/comments?page=3&per_page=100", "/repos/acme/docs/issues/9/comments?page=1&per_page=100"}
	if !slices.Equal(pages, want) {
		t.Errorf("requests %q, want %q", pages, want)
	}
}

// TestBacklinkedReadsWhatTheBacklinkNames: the backlink the action wrote
// on a docs pull request names the comment that keeps its code pull
// request's record; a settle run on that pull request reads the record
// there, however many comments were written since, in at most two list
// requests and one read. A backlink a person typed is passed over once a
// bot's is found, one that names a deleted comment is none, and one
// that names a record of no job left working adds nothing.
func TestBacklinkedReadsWhatTheBacklinkNames(t *testing.T) {
	t.Parallel()
	gh, srv := newFake(t, fakegithub.Options{})
	left := Render(State{Phase: NotWaiting, Record: record.Record{JobID: "job_code", Head: strings.Repeat("1", 40), Unsettled: true}})
	done := Render(State{Phase: Done, Record: record.Record{JobID: "job_done", Head: strings.Repeat("2", 40)}})
	code := srv.SeedComment(7, fakegithub.BotLogin, true, left)
	settled := srv.SeedComment(8, fakegithub.BotLogin, true, done)
	backlink := func(from int64) string {
		return RenderBacklink(BacklinkText{JobID: "job_code", Source: FromPullRequest, From: from})
	}
	srv.SeedComment(101, fakegithub.BotLogin, true, backlink(code))
	for range 300 {
		srv.SeedComment(101, "stranger", false, "nice")
	}
	srv.SeedComment(101, "mallory", false, backlink(settled))
	srv.SeedComment(102, fakegithub.BotLogin, true, backlink(settled))
	srv.SeedComment(103, fakegithub.BotLogin, true, backlink(99999))
	for range 1000 {
		srv.SeedComment(50, "stranger", false, "spam")
	}
	for _, tt := range []struct {
		pr   int
		want []string
	}{{101, []string{"job_code"}}, {102, nil}, {103, nil}} {
		found, err := findUnsettled(context.Background(), gh, "acme", "docs", 100)
		if err != nil || len(found.Comments) != 0 {
			t.Fatalf("findUnsettled() = %+v, %v; want nothing among the newest", found, err)
		}
		from := len(srv.Requests())
		if err := found.backlinked(context.Background(), gh, "acme", "docs", tt.pr); err != nil {
			t.Fatalf("#%d: %v", tt.pr, err)
		}
		var jobs []string
		for _, c := range found.Comments {
			jobs = append(jobs, EarlierOf(c).JobID)
		}
		if !slices.Equal(jobs, tt.want) {
			t.Errorf("#%d: records kept %q, want %q", tt.pr, jobs, tt.want)
		}
		if n := len(srv.Requests()) - from; n > LeadPages+1 {
			t.Errorf("#%d: %d requests, want at most %d", tt.pr, n, LeadPages+1)
		}
	}
}
