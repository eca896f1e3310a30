package ghclient

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
)

// TestPendingPulls: one search request lists the open pull requests whose
// head's combined status is pending, the oldest first, with their comment
// counts; a pull request closed, green, failing or with no status is not
// listed, nor one of another repository. On GitHub Enterprise Server the
// search is under the API's prefix too.
func TestPendingPulls(t *testing.T) {
	t.Parallel()
	for _, prefix := range prefixes {
		t.Run("prefix "+prefix, func(t *testing.T) {
			t.Parallel()
			c, srv := newFake(t, fakegithub.Options{Prefix: prefix})
			seed := func(repo string, number int, state string, statuses ...string) {
				sha := fmt.Sprintf("%040d", number)
				srv.SeedPull(fakegithub.Pull{Repo: repo, Number: number, Author: "writer", Body: strings.Repeat("a long body ", 100), HeadSHA: sha, State: state})
				for i, s := range statuses {
					srv.SeedStatus(fakegithub.Status{Repo: repo, SHA: sha, State: s, Context: fmt.Sprintf("ctx%d", i)})
				}
			}
			seed("acme/docs", 9, "", "pending")
			seed("acme/docs", 3, "", "success", "pending")
			seed("acme/docs", 4, "", "success")
			seed("acme/docs", 5, "", "pending", "failure")
			seed("acme/docs", 6, "closed", "pending")
			seed("acme/docs", 8, "")
			seed("acme/other", 2, "", "pending")
			for range 250 {
				srv.SeedComment(9, "stranger", false, "me too")
			}
			got, more, err := c.PendingPulls(context.Background(), "acme", "docs")
			if err != nil {
				t.Fatal(err)
			}
			if want := []Listed{{Number: 3}, {Number: 9, Comments: 250}}; !slices.Equal(got, want) || more {
				t.Errorf("PendingPulls() = %+v, more %v; want %+v", got, more, want)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].Path != prefix+"/search/issues" {
				t.Fatalf("requests %+v, want one search", reqs)
			}
			q, _ := url.ParseQuery(reqs[0].Query)
			if q.Get("q") != "repo:acme/docs is:pr is:open status:pending" || q.Get("sort") != "created" || q.Get("order") != "asc" || q.Get("per_page") != "100" {
				t.Errorf("the search asked %q", reqs[0].Query)
			}
		})
	}
}

// TestPendingPullsOnePage: more than a page of pull requests pending is
// read as one page, the oldest, and says there are more.
func TestPendingPullsOnePage(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	for n := range 130 {
		sha := fmt.Sprintf("%040d", n+1)
		srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: n + 1, HeadSHA: sha})
		srv.SeedStatus(fakegithub.Status{Repo: "acme/docs", SHA: sha, State: "pending", Context: "ci"})
	}
	got, more, err := c.PendingPulls(context.Background(), "acme", "docs")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != PerPage || got[0].Number != 1 || got[PerPage-1].Number != PerPage || !more || len(srv.Requests()) != 1 {
		t.Errorf("PendingPulls() = %d pull requests from #%d, more %v, in %d requests; want the oldest %d, more, in one", len(got), got[0].Number, more, len(srv.Requests()), PerPage)
	}
}

// TestPendingPullsRefused: a repository name that is no name is refused
// before anything is sent, so no query can be made of it.
func TestPendingPullsRefused(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	if _, _, err := c.PendingPulls(context.Background(), "acme", "docs is:issue"); err == nil || len(srv.Requests()) != 0 {
		t.Errorf("PendingPulls(a name with a space) = %v after %d requests, want an error and none", err, len(srv.Requests()))
	}
}

// TestPendingPullsInParts: a page of results over the response cap (long
// bodies) is read again in ten pages of ten, and only the numbers and
// counts are kept: eleven requests at most.
func TestPendingPullsInParts(t *testing.T) {
	t.Parallel()
	srv := fakegithub.New(fakegithub.Options{Check: ghspec.Checker()})
	t.Cleanup(srv.Close)
	for n := range 100 {
		sha := fmt.Sprintf("%040d", n+1)
		srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: n + 1, HeadSHA: sha, Body: strings.Repeat("x", 2000)})
		srv.SeedStatus(fakegithub.Status{Repo: "acme/docs", SHA: sha, State: "pending", Context: "ci"})
	}
	hc := httpclient.New(httpclient.Options{MaxBodyBytes: 100 << 10}) // 100 bodies of 2,000 bytes do not fit
	c, err := New(hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable}), hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once}), srv.APIURL(), fakegithub.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	got, more, err := c.PendingPulls(context.Background(), "acme", "docs")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 100 || got[0].Number != 1 || got[99].Number != 100 || more {
		t.Errorf("PendingPulls() = %d pull requests, more %v; want all 100, oldest first", len(got), more)
	}
	if n := len(srv.Requests()); n != 11 {
		t.Errorf("%d requests, want 11: the page too large, then ten parts", n)
	}
	if u := srv.Unexpected(); len(u) > 0 {
		t.Errorf("unexpected requests: %q", u)
	}
}
