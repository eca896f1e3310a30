package ghclient

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
)

// TestOpenPulls: one request lists the open pull requests of the
// repository, the oldest first, each with what tells it from another: a
// fork's head repository, a bot's authorship, a draft, labels. A closed
// pull request is not listed, nor one of another repository. On GitHub
// Enterprise Server the list is under the API's prefix.
func TestOpenPulls(t *testing.T) {
	t.Parallel()
	forEachPrefix(t, func(t *testing.T, prefix string) {
		c, srv := newFake(t, fakegithub.Options{Prefix: prefix})
		srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 4, Author: "ada", HeadRef: "next", HeadSHA: sha(4), BaseRef: "release", Body: "text"})
		srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 1, Author: "ada", Title: "Fix the intro", HeadRef: "fix", HeadSHA: sha(1), Labels: []string{"docs"}})
		srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 2, Author: "renovate[bot]", HeadRef: "deps", HeadRepo: "fork/docs", HeadSHA: sha(2), Draft: true, Labels: []string{"dependencies", "bot"}})
		srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 3, Author: "ada", HeadRef: "old", HeadSHA: sha(3), State: "closed", Merged: true})
		srv.SeedPull(fakegithub.Pull{Repo: "acme/other", Number: 5, Author: "ada", HeadRef: "fix", HeadSHA: sha(5)})
		got, more, err := c.OpenPulls(context.Background(), "acme", "docs", 1)
		if err != nil {
			t.Fatalf("OpenPulls() error = %v", err)
		}
		want := []OpenPull{
			{Number: 1, HeadSHA: sha(1), HeadRepo: "acme/docs", Author: "ada", Labels: []string{"docs"}},
			{Number: 2, HeadSHA: sha(2), HeadRepo: "fork/docs", Author: "renovate[bot]", AuthorIsBot: true, Labels: []string{"dependencies", "bot"}},
			{Number: 4, HeadSHA: sha(4), HeadRepo: "acme/docs", Author: "ada"},
		}
		if !slices.EqualFunc(got, want, func(a, b OpenPull) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) || more {
			t.Errorf("OpenPulls() = %+v, more %v\nwant %+v", got, more, want)
		}
		reqs := srv.Requests()
		if len(reqs) != 1 || reqs[0].Method != http.MethodGet || reqs[0].Path != prefix+"/repos/acme/docs/pulls" {
			t.Fatalf("requests %+v, want one list", reqs)
		}
		q, _ := url.ParseQuery(reqs[0].Query)
		if q.Get("state") != "open" || q.Get("sort") != "created" || q.Get("direction") != "asc" || q.Get("per_page") != "100" || q.Get("page") != "1" {
			t.Errorf("the list asked %q", reqs[0].Query)
		}
	})
}

// TestOpenPullsPages: a list longer than a page is read a page at a time,
// one request each, up to maxPages: what is left over is not read, and
// more says it is there.
func TestOpenPullsPages(t *testing.T) {
	t.Parallel()
	cases := []struct {
		maxPages int
		n        int
		more     bool
		requests int
	}{
		{maxPages: 1, n: 100, more: true, requests: 1},
		{maxPages: 2, n: 200, more: true, requests: 2},
		{maxPages: 3, n: 250, more: false, requests: 3},
		{maxPages: 10, n: 250, more: false, requests: 3},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d pages", tc.maxPages), func(t *testing.T) {
			t.Parallel()
			c, srv := newFake(t, fakegithub.Options{})
			for n := range 250 {
				srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: n + 1, Author: "ada", HeadRef: fmt.Sprintf("b%d", n+1), HeadSHA: sha(n + 1)})
			}
			got, more, err := c.OpenPulls(context.Background(), "acme", "docs", tc.maxPages)
			if err != nil {
				t.Fatalf("OpenPulls() error = %v", err)
			}
			if len(got) != tc.n || more != tc.more {
				t.Errorf("OpenPulls(%d pages) = %d pull requests, more %v; want %d, more %v", tc.maxPages, len(got), more, tc.n, tc.more)
			}
			for i, p := range got {
				if p.Number != i+1 || p.HeadSHA != sha(i+1) {
					t.Fatalf("pull request %d is %+v, want #%d, the oldest first", i, p, i+1)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != tc.requests {
				t.Fatalf("%d requests, want %d", len(reqs), tc.requests)
			}
			for i, r := range reqs {
				if q, _ := url.ParseQuery(r.Query); q.Get("page") != fmt.Sprint(i+1) || q.Get("per_page") != "100" {
					t.Errorf("request %d asked %q, want page %d of 100", i+1, r.Query, i+1)
				}
			}
		})
	}
}

// TestOpenPullsInParts: a page over the response cap (long bodies) is
// read again in ten parts, and is still one page of the list.
func TestOpenPullsInParts(t *testing.T) {
	t.Parallel()
	srv := fakegithub.New(fakegithub.Options{Check: ghspec.Checker()})
	t.Cleanup(srv.Close)
	for n := range 100 {
		srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: n + 1, HeadSHA: sha(n + 1), Body: strings.Repeat("x", 2000)})
	}
	hc := httpclient.New(httpclient.Options{MaxBodyBytes: 100 << 10}) // 100 bodies of 2,000 bytes do not fit
	c, err := New(hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable}), hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once}), srv.APIURL(), fakegithub.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	got, more, err := c.OpenPulls(context.Background(), "acme", "docs", 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 100 || got[0].Number != 1 || got[99].Number != 100 || more {
		t.Errorf("OpenPulls() = %d pull requests, more %v; want all 100, oldest first", len(got), more)
	}
	if n := len(srv.Requests()); n != 11 {
		t.Errorf("%d requests, want 11: the page too large, then ten parts", n)
	}
	if u := srv.Unexpected(); len(u) > 0 {
		t.Errorf("unexpected requests: %q", u)
	}
}

// TestOpenPullsErrors: a name that is no name and a read of no pages are
// refused before anything is sent; GitHub's refusal, on the first page or
// a later one, is one line that says what failed and GitHub's reason,
// with no URL, and still tells its kind.
func TestOpenPullsErrors(t *testing.T) {
	t.Parallel()
	failOn := func(page string, code int, msg string) func(w http.ResponseWriter, r *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Query().Get("page") != page {
				return false
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			fmt.Fprintf(w, `{"message":%q,"documentation_url":"https://docs.github.com/rest"}`, msg)
			return true
		}
	}
	cases := []struct {
		name     string
		opt      fakegithub.Options
		repo     string
		maxPages int
		want     string
		kind     func(error) bool
		requests int
	}{
		{name: "a name that is no name", repo: "docs?state=closed", maxPages: 1,
			want: `list the open pull requests: "docs?state=closed" is not a GitHub owner or repository name`},
		{name: "no pages", repo: "docs", maxPages: 0, want: "list the open pull requests of acme/docs: 0 pages is none"},
		{name: "forbidden", opt: fakegithub.Options{Fault: failOn("1", http.StatusForbidden, "Resource not accessible by integration")}, repo: "docs", maxPages: 3,
			want: "list the open pull requests of acme/docs: HTTP 403: Resource not accessible by integration", kind: IsForbidden, requests: 1},
		{name: "a repository the token cannot see", opt: fakegithub.Options{Repos: []string{"acme/other"}}, repo: "docs", maxPages: 3,
			want: "list the open pull requests of acme/docs: HTTP 404: Not Found", kind: IsNotFound, requests: 1},
		{name: "a later page fails", opt: fakegithub.Options{Fault: failOn("2", http.StatusInternalServerError, "Server Error")}, repo: "docs", maxPages: 3,
			want: "list the open pull requests of acme/docs: HTTP 500: Server Error", kind: func(err error) bool { return !IsRefusal(err) }, requests: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newFake(t, tc.opt)
			for n := range 150 {
				srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: n + 1, HeadSHA: sha(n + 1)})
			}
			got, more, err := c.OpenPulls(context.Background(), "acme", tc.repo, tc.maxPages)
			if err == nil || err.Error() != tc.want || got != nil || more {
				t.Fatalf("OpenPulls() = %d pull requests, more %v, error %v; want none and %q", len(got), more, err, tc.want)
			}
			if tc.kind != nil && !tc.kind(err) {
				t.Errorf("OpenPulls() error %v is not of its kind", err)
			}
			if n := len(srv.Requests()); n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
		})
	}
}

// TestPullsAt: one request lists the open pull requests that hold a
// commit, labels and all; a closed one at the same commit is not listed.
// A head that is no commit SHA is refused before anything is sent: it
// goes into the request's path.
func TestPullsAt(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "ada", HeadRef: "fix", HeadSHA: sha(1), Labels: []string{"docs"}})
	srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 8, Author: "ada", HeadRef: "fix", HeadSHA: sha(1), State: "closed"})
	srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 9, Author: "ada", HeadRef: "other", HeadSHA: sha(2)})
	got, more, err := c.PullsAt(context.Background(), "acme", "docs", sha(1))
	if err != nil || more || len(got) != 1 || got[0].Number != 7 || !slices.Equal(got[0].Labels, []string{"docs"}) {
		t.Errorf("PullsAt() = %+v, %v, %v; want #7 alone, with its label", got, more, err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Path != "/repos/acme/docs/commits/"+sha(1)+"/pulls" {
		t.Errorf("requests %+v, want the one list at the commit", reqs)
	}
	if _, _, err := c.PullsAt(context.Background(), "acme", "docs", "../../../other"); err == nil || !strings.Contains(err.Error(), "is not a commit SHA") {
		t.Errorf("PullsAt(a path) error = %v, want it refused", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests after a head that is no SHA, want none more", n)
	}
}
