package ghclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
)

func TestPullRequest(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		pull fakegithub.Pull
		want PullRequest
	}{
		{
			name: "same repository",
			pull: fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "mintlify[bot]", HeadRef: "agent/rate-limits", HeadSHA: "0a0b0c0d0e0f0a0b0c0d0e0f0a0b0c0d0e0f0a0b"},
			want: PullRequest{Number: 7, Author: "mintlify[bot]", HeadRef: "agent/rate-limits", HeadSHA: "0a0b0c0d0e0f0a0b0c0d0e0f0a0b0c0d0e0f0a0b", HeadRepo: "acme/docs", Base: "main", Open: true},
		},
		{
			name: "merged",
			pull: fakegithub.Pull{Repo: "acme/docs", Number: 9, Author: "mintlify[bot]", HeadRef: "agent/faq", State: "closed", Merged: true},
			want: PullRequest{Number: 9, Author: "mintlify[bot]", HeadRef: "agent/faq", HeadRepo: "acme/docs", Base: "main", Merged: true},
		},
		{
			name: "from a fork, closed",
			pull: fakegithub.Pull{Repo: "acme/docs", Number: 8, Author: "octocat", HeadRef: "patch-1", HeadRepo: "octocat/docs", State: "closed", BaseRef: "v2"},
			want: PullRequest{Number: 8, Author: "octocat", HeadRef: "patch-1", HeadRepo: "octocat/docs", Base: "v2"},
		},
	}
	for _, tc := range cases {
		for _, prefix := range prefixes {
			t.Run(tc.name+prefix, func(t *testing.T) {
				t.Parallel()
				c, srv := newFake(t, fakegithub.Options{Prefix: prefix})
				srv.SeedPull(tc.pull)
				got, err := c.PullRequest(context.Background(), "acme", "docs", tc.pull.Number)
				if err != nil {
					t.Fatalf("PullRequest() error = %v", err)
				}
				if *got != tc.want {
					t.Errorf("PullRequest() = %+v, want %+v", *got, tc.want)
				}
				reqs := srv.Requests()
				if len(reqs) != 1 || reqs[0].Method != http.MethodGet || reqs[0].Path != fmt.Sprintf("%s/repos/acme/docs/pulls/%d", prefix, tc.pull.Number) {
					t.Errorf("requests = %+v", reqs)
				}
			})
		}
	}
}

func TestPullRequestNotVisible(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	srv.SeedPull(fakegithub.Pull{Repo: "other/site", Number: 7, Author: "bot[bot]"})
	_, err := c.PullRequest(context.Background(), "acme", "docs", 7)
	if !IsNotFound(err) || IsForbidden(err) || !strings.HasPrefix(err.Error(), "get pull request #7: HTTP 404") {
		t.Errorf("PullRequest() error = %v, want a wrapped 404", err)
	}
}

func TestRequestReviewers(t *testing.T) {
	t.Parallel()
	perms := map[string]string{"ada": "write", "max": "maintain"}
	cases := []struct {
		name          string
		opt           fakegithub.Options
		reviewers     []string
		wantErr       string
		wantForbidden bool
		wantOnPull    []string
		wantRequests  int
	}{
		{name: "one reviewer", reviewers: []string{"ada"}, wantOnPull: []string{"ada"}, wantRequests: 1},
		{name: "two reviewers", reviewers: []string{"ada", "max"}, wantOnPull: []string{"ada", "max"}, wantRequests: 1},
		{name: "the author", reviewers: []string{"mintlify[bot]"}, wantErr: "HTTP 422: Review cannot be requested from pull request author.", wantRequests: 1},
		{name: "not a collaborator", reviewers: []string{"eve"}, wantErr: "HTTP 422: Reviews may only be requested from collaborators", wantRequests: 1},
		{name: "token without pull-requests: write", opt: fakegithub.Options{ForbidReviewRequests: true}, reviewers: []string{"ada"},
			wantErr: "HTTP 403: Resource not accessible by integration", wantForbidden: true, wantRequests: 1},
		{name: "nobody", wantErr: "request reviewers on #7: nobody to ask"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opt := tc.opt
			opt.Permissions = perms
			c, srv := newFake(t, opt)
			srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "mintlify[bot]", HeadRef: "agent/x"})
			err := c.RequestReviewers(context.Background(), "acme", "docs", 7, tc.reviewers)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("RequestReviewers() error = %v, want %q", err, tc.wantErr)
			}
			if IsForbidden(err) != tc.wantForbidden {
				t.Errorf("IsForbidden() = %v, want %v", IsForbidden(err), tc.wantForbidden)
			}
			p, _ := srv.PullRequest("acme/docs", 7)
			if !slices.Equal(p.Reviewers, tc.wantOnPull) {
				t.Errorf("reviewers on the pull request = %q, want %q", p.Reviewers, tc.wantOnPull)
			}
			reqs := srv.Requests()
			if len(reqs) != tc.wantRequests {
				t.Fatalf("requests = %d, want %d", len(reqs), tc.wantRequests)
			}
			if len(reqs) == 1 {
				r := reqs[0]
				var body map[string][]string
				if r.Method != http.MethodPost || r.Path != "/repos/acme/docs/pulls/7/requested_reviewers" {
					t.Errorf("request = %s %s", r.Method, r.Path)
				}
				if err := json.Unmarshal(r.Body, &body); err != nil || len(body) != 1 || !slices.Equal(body["reviewers"], tc.reviewers) {
					t.Errorf("request body = %s, want only reviewers %q", r.Body, tc.reviewers)
				}
			}
		})
	}
}

func TestReviewComments(t *testing.T) {
	t.Parallel()
	hunk := "@@ -1,3 +1,3 @@\n # Rate limits\n-hourly\n+per hour"
	seeded := []fakegithub.ReviewComment{
		{Author: "ada", Path: "docs/limits.mdx", Line: 12, Body: "shorten this", DiffHunk: hunk},
		{Author: "ada", Path: "docs/limits.mdx", StartLine: 3, Line: 5, Body: "these three lines", DiffHunk: hunk},
		{Author: "ada", Path: "docs/old.mdx", Line: 9, StartLine: 8, Outdated: true, Body: "moved since", DiffHunk: hunk},
	}
	c, srv := newFake(t, fakegithub.Options{})
	srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "mintlify[bot]"})
	srv.SeedReviewComments(7, 88, seeded)
	got, err := c.ReviewComments(context.Background(), "acme", "docs", 7, 88)
	if err != nil {
		t.Fatalf("ReviewComments() error = %v", err)
	}
	if len(got) != len(seeded) {
		t.Fatalf("ReviewComments() returned %d, want %d", len(got), len(seeded))
	}
	for i, s := range seeded {
		g := got[i]
		want := ReviewComment{ID: g.ID, ReviewID: 88, Author: "ada", CreatedAt: fakegithub.CreatedAt(g.ID), Side: "RIGHT",
			Path: s.Path, Line: s.Line, StartLine: s.StartLine, Body: s.Body, DiffHunk: hunk,
			URL: fmt.Sprintf("https://github.com/acme/docs/pull/7#discussion_r%d", g.ID)}
		if g.ID == 0 || *g != want {
			t.Errorf("comment %d = %+v, want %+v", i, *g, want)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/repos/acme/docs/pulls/7/reviews/88/comments" || reqs[0].Query != "page=1&per_page=100" {
		t.Errorf("requests = %+v", reqs)
	}
}

func TestReviewCommentsPages(t *testing.T) {
	t.Parallel()
	cases := []struct{ seeded, want, requests int }{
		{0, 0, 1}, {100, 100, 1}, {101, 101, 2}, {300, 300, 3}, {450, 300, 3},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.seeded), func(t *testing.T) {
			t.Parallel()
			c, srv := newFake(t, fakegithub.Options{})
			srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7})
			cs := make([]fakegithub.ReviewComment, tc.seeded)
			for i := range cs {
				cs[i] = fakegithub.ReviewComment{Path: "a.md", Line: i + 1, Body: fmt.Sprint(i)}
			}
			srv.SeedReviewComments(7, 1, cs)
			got, err := c.ReviewComments(context.Background(), "acme", "docs", 7, 1)
			if err != nil || len(got) != tc.want {
				t.Fatalf("ReviewComments() = %d comments, %v; want %d", len(got), err, tc.want)
			}
			for i, g := range got {
				if g.Body != fmt.Sprint(i) {
					t.Fatalf("comment %d body = %q: out of order", i, g.Body)
				}
			}
			if n := len(srv.Requests()); n != tc.requests {
				t.Errorf("requests = %d, want %d", n, tc.requests)
			}
		})
	}
}

// TestReviewCommentsInParts: a page of a review's line comments over the
// response cap is read again in ten pages of ten, and the pages after it
// as usual.
func TestReviewCommentsInParts(t *testing.T) {
	t.Parallel()
	srv := fakegithub.New(fakegithub.Options{Check: ghspec.Checker()})
	t.Cleanup(srv.Close)
	srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7})
	var cs []fakegithub.ReviewComment
	for i := range 130 {
		cs = append(cs, fakegithub.ReviewComment{Author: "ada", Path: "a.md", Line: i + 1, Body: strings.Repeat("x", 2000)})
	}
	srv.SeedReviewComments(7, 88, cs)
	hc := httpclient.New(httpclient.Options{MaxBodyBytes: 100 << 10}) // 100 comments of 2,000 bytes do not fit
	c, err := New(hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable}), hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once}), srv.APIURL(), fakegithub.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.ReviewComments(context.Background(), "acme", "docs", 7, 88)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 130 || got[0].Line != 1 || got[129].Line != 130 {
		t.Errorf("ReviewComments() = %d comments; want all 130 in GitHub's order", len(got))
	}
	if n := len(srv.Requests()); n != 12 {
		t.Errorf("%d requests, want 12: the page too large, ten parts, then page 2", n)
	}
	if u := srv.Unexpected(); len(u) > 0 {
		t.Errorf("unexpected requests: %q", u)
	}
}

func TestReviewCommentsUnknownReview(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7})
	_, err := c.ReviewComments(context.Background(), "acme", "docs", 7, 5)
	if !IsNotFound(err) || !strings.HasPrefix(err.Error(), "list comments of review 5: HTTP 404") {
		t.Errorf("ReviewComments() error = %v, want a wrapped 404", err)
	}
}

// TestReviews: a pull request's newest submitted reviews, oldest first,
// with at least the newest PerPage of them: page 1, then the last two pages
// when there are more; drafts (PENDING) are no one's but their author's.
func TestReviews(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 3, 150, 250} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			c, srv := newFake(t, fakegithub.Options{})
			srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "mintlify[bot]"})
			var ids []int64
			for i := range n {
				state := "APPROVED"
				if i == n-1 {
					state = "PENDING"
				}
				ids = append(ids, srv.SeedReview(7, fakegithub.Review{Author: "ada", Body: fmt.Sprint("review ", i), State: state, CommitID: sha(i)}))
			}
			got, err := c.Reviews(context.Background(), "acme", "docs", 7, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want []int64
			switch n {
			case 3:
				want = ids[:2]
			case 150:
				want = ids[:149] // pages 1 and 2, page 1 read once; the last is a draft
			case 250:
				want = ids[100:249] // pages 2 and 3; the last is a draft
			}
			var gotIDs []int64
			for _, r := range got {
				gotIDs = append(gotIDs, r.ID)
			}
			if !slices.Equal(gotIDs, want) {
				t.Errorf("Reviews() = %d reviews %v…, want %d from %v…", len(gotIDs), gotIDs[:min(3, len(gotIDs))], len(want), want[:min(3, len(want))])
			}
			if len(got) > 0 && (got[0].Author != "ada" || !got[0].SubmittedAt.Equal(fakegithub.CreatedAt(got[0].ID)) || !strings.HasPrefix(got[0].URL, "https://github.com/acme/docs/pull/7#pullrequestreview-") ||
				got[0].State != "APPROVED" || got[0].CommitID != sha(slices.Index(ids, got[0].ID))) {
				t.Errorf("review = %+v", got[0])
			}
			if wantReqs := map[int]int{0: 1, 3: 1, 150: 2, 250: 3}[n]; len(srv.Requests()) != wantReqs {
				t.Errorf("%d requests, want %d", len(srv.Requests()), wantReqs)
			}
		})
	}
}

// TestLineCommentsInParts: the newest line comments, newest first as GitHub
// sorts them, returned oldest first; a page over the response cap is read
// again in ten pages of ten.
func TestLineCommentsInParts(t *testing.T) {
	t.Parallel()
	srv := fakegithub.New(fakegithub.Options{Check: ghspec.Checker()})
	t.Cleanup(srv.Close)
	srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "mintlify[bot]"})
	var cs []fakegithub.ReviewComment
	for i := range 130 {
		cs = append(cs, fakegithub.ReviewComment{Author: "ada", Path: "a.md", Line: i + 1, Body: strings.Repeat("x", 2000)})
	}
	srv.SeedReviewComments(7, 88, cs)
	hc := httpclient.New(httpclient.Options{MaxBodyBytes: 100 << 10}) // 100 comments of 2,000 bytes do not fit
	c, err := New(hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable}), hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once}), srv.APIURL(), fakegithub.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.LineComments(context.Background(), "acme", "docs", 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 100 || got[0].Line != 31 || got[99].Line != 130 || got[0].ReviewID != 88 {
		t.Errorf("LineComments() = %d comments, lines %d to %d; want the newest 100, 31 to 130, oldest first", len(got), got[0].Line, got[len(got)-1].Line)
	}
	if n := len(srv.Requests()); n != 11 {
		t.Errorf("%d requests, want 11: the page too large, then ten parts", n)
	}
	if u := srv.Unexpected(); len(u) > 0 {
		t.Errorf("unexpected requests: %q", u)
	}
}
