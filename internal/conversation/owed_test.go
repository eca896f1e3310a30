package conversation

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/record"
)

// TestOwed: the one reader of the records a repository still owes
// something finds them behind a flood of comments in the threads the
// backlink on the event's pull request and the pending statuses lead to,
// in a bound of requests that does not grow with the flood; it searches
// past the newest comments only when those were cut, and a search past
// them that fails is said in Past, with what the others found kept.
func TestOwed(t *testing.T) {
	t.Parallel()
	left := func(job string) string {
		return Render(State{Phase: NotWaiting, Record: record.Record{JobID: job, Head: strings.Repeat("1", 40), Unsettled: true}})
	}
	for _, tc := range []struct {
		name       string
		flood      int
		backlinked int
		fault      string // a path whose requests GitHub fails
		want       []string
		wantPast   Past
		wantSearch bool // the search past the newest comments was sent
	}{
		{name: "the newest comments hold them", flood: 10, backlinked: 101, want: []string{"job_recent", "job_backlinked", "job_waiting"}},
		{name: "behind a flood", flood: 1500, backlinked: 101, want: []string{"job_recent", "job_backlinked", "job_waiting"},
			wantPast: Past{Backlinks: true, FromBacklinks: 1, Listed: 1, Pending: 1, FromPending: 1}, wantSearch: true},
		{name: "no backlink to read", flood: 1500, want: []string{"job_recent", "job_waiting"},
			wantPast: Past{Listed: 1, Pending: 1, FromPending: 1}, wantSearch: true},
		{name: "the search fails", flood: 1500, backlinked: 101, fault: "/search/issues", want: []string{"job_recent", "job_backlinked"},
			wantPast: Past{Backlinks: true, FromBacklinks: 1}, wantSearch: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gh, srv := newFake(t, fakegithub.Options{})
			// #7 is a code pull request whose record waits, its head's
			// status pending; #9's record is linked from its docs pull
			// request #101; #8's is the newest.
			srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, HeadSHA: strings.Repeat("7", 40)})
			srv.SeedStatus(fakegithub.Status{Repo: "acme/docs", SHA: strings.Repeat("7", 40), State: "pending", Context: "docs / agent-job"})
			srv.SeedComment(7, fakegithub.BotLogin, true, left("job_waiting"))
			code := srv.SeedComment(9, fakegithub.BotLogin, true, left("job_backlinked"))
			srv.SeedComment(101, fakegithub.BotLogin, true, RenderBacklink(BacklinkText{JobID: "job_backlinked", Source: FromPullRequest, From: code}))
			for i := range tc.flood {
				srv.SeedComment(50+i%3, "stranger", false, "spam")
			}
			srv.SeedComment(8, fakegithub.BotLogin, true, left("job_recent"))
			if tc.fault != "" {
				srv.SetFault(func(w http.ResponseWriter, r *http.Request) bool {
					if r.URL.Path != tc.fault {
						return false
					}
					http.Error(w, `{"message":"Server Error"}`, http.StatusInternalServerError)
					return true
				})
			}
			found, err := Owed(context.Background(), gh, "acme", "docs", Search{Per: 100, Backlinked: tc.backlinked, Leads: 20})
			if err != nil {
				t.Fatal(err)
			}
			var jobs []string
			for _, c := range found.Comments {
				jobs = append(jobs, EarlierOf(c).JobID)
			}
			if !slices.Equal(jobs, tc.want) {
				t.Errorf("records %q, want %q", jobs, tc.want)
			}
			got := found.Past
			if (got.SearchErr != nil) != (tc.fault != "") {
				t.Errorf("SearchErr = %v, want one only when the search fails", got.SearchErr)
			}
			got.SearchErr = nil
			if fmt.Sprint(got) != fmt.Sprint(tc.wantPast) {
				t.Errorf("Past = %+v, want %+v", got, tc.wantPast)
			}
			searched := false
			for _, r := range srv.Requests() {
				searched = searched || r.Path == "/search/issues"
			}
			if searched != tc.wantSearch {
				t.Errorf("searched pending pull requests: %v, want %v", searched, tc.wantSearch)
			}
			if n, most := len(srv.Requests()), SettlePages+LeadPages+MaxFrom+1+20*LeadPages; n > most {
				t.Errorf("%d requests, want at most %d", n, most)
			}
		})
	}
}
