package ghclient

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
)

const (
	before = "0123456789abcdef0123456789abcdef01234567"
	after  = "89abcdef0123456789abcdef0123456789abcdef"
)

// TestPullFiles reads a pull request's files a page of PerPage at a time,
// with their patches, renames and binaries as GitHub gives them.
func TestPullFiles(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 3, PerPage, PerPage + 1, 2*PerPage + 5} {
		t.Run(fmt.Sprint(n, " files"), func(t *testing.T) {
			t.Parallel()
			forEachPrefix(t, func(t *testing.T, prefix string) {
				c, srv := newFake(t, fakegithub.Options{Prefix: prefix})
				var files []fakegithub.File
				for i := range n {
					files = append(files, fakegithub.File{Name: fmt.Sprintf("src/f%03d.go", i), Additions: i, Deletions: 1, Patch: fmt.Sprintf("@@ -1 +1 @@\n-old\n+new %d", i)})
				}
				if n > 1 {
					files[1] = fakegithub.File{Name: "logo.png", Status: "added"}
					files[2] = fakegithub.File{Name: "src/new.go", Previous: "src/old.go", Status: "renamed", Patch: "@@ -1 +1 @@"}
				}
				srv.SeedPull(fakegithub.Pull{Repo: "acme/api", Number: 7, Author: "ada", HeadSHA: after, Files: files})
				got, err := c.PullFiles(context.Background(), "acme", "api", 7)
				if err != nil {
					t.Fatalf("PullFiles() error = %v", err)
				}
				if len(got) != n {
					t.Fatalf("PullFiles() = %d files, want %d", len(got), n)
				}
				if n > 1 {
					if f := got[0]; f.Name != "src/f000.go" || f.Status != "modified" || f.Deletions != 1 || f.Patch != "@@ -1 +1 @@\n-old\n+new 0" {
						t.Errorf("file 0 = %+v", f)
					}
					if f := got[1]; f.Name != "logo.png" || f.Status != "added" || f.Patch != "" {
						t.Errorf("binary file = %+v", f)
					}
					if f := got[2]; f.Name != "src/new.go" || f.Previous != "src/old.go" || f.Status != "renamed" {
						t.Errorf("renamed file = %+v", f)
					}
				}
				pages := max((n+PerPage-1)/PerPage, 1)
				reqs := srv.Requests()
				if len(reqs) != pages {
					t.Fatalf("%d requests, want %d (one a page of %d)", len(reqs), pages, PerPage)
				}
				for i, r := range reqs {
					want := fmt.Sprintf("page=%d&per_page=100", i+1)
					if r.Method != http.MethodGet || r.Path != prefix+"/repos/acme/api/pulls/7/files" || r.Query != want {
						t.Errorf("request %d = %s %s?%s, want GET .../pulls/7/files?%s", i, r.Method, r.Path, r.Query, want)
					}
				}
			})
		})
	}
}

// TestPullFilesTooLargeAPage reads a page too large for the response cap
// in parts, as comments are.
func TestPullFilesTooLargeAPage(t *testing.T) {
	t.Parallel()
	srv := fakegithub.New(fakegithub.Options{Check: ghspec.Checker()})
	t.Cleanup(srv.Close)
	var files []fakegithub.File
	for i := range 12 {
		files = append(files, fakegithub.File{Name: fmt.Sprintf("f%d", i), Patch: strings.Repeat("x", 9000)})
	}
	srv.SeedPull(fakegithub.Pull{Repo: "acme/api", Number: 7, Files: files})
	hc := httpclient.New(httpclient.Options{MaxBodyBytes: 100 << 10}) // 12 patches of 9,000 bytes do not fit, 10 do
	c, err := New(hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable}), hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once}), srv.APIURL(), fakegithub.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.PullFiles(context.Background(), "acme", "api", 7)
	if err != nil {
		t.Fatalf("PullFiles() error = %v", err)
	}
	if len(got) != 12 || got[11].Name != "f11" {
		t.Errorf("PullFiles() = %d files", len(got))
	}
	var queries []string
	for _, r := range srv.Requests() {
		queries = append(queries, r.Query)
	}
	if want := []string{"page=1&per_page=100", "page=1&per_page=10", "page=2&per_page=10"}; strings.Join(queries, " ") != strings.Join(want, " ") {
		t.Errorf("queries = %q, want %q", queries, want)
	}
	if u := srv.Unexpected(); len(u) > 0 {
		t.Errorf("unexpected requests: %q", u)
	}
}

// TestCompare asks for one commit a page, reads the files and tells a
// rewritten branch from one that moved on.
func TestCompare(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status    string
		rewritten bool
	}{{"ahead", false}, {"identical", false}, {"diverged", true}, {"behind", true}} {
		t.Run(tc.status, func(t *testing.T) {
			t.Parallel()
			forEachPrefix(t, func(t *testing.T, prefix string) {
				c, srv := newFake(t, fakegithub.Options{Prefix: prefix})
				srv.SeedComparison("acme/api", before, after, fakegithub.Comparison{Status: tc.status, Files: []fakegithub.File{
					{Name: "src/limits.go", Additions: 2, Patch: "@@ -1 +1,2 @@\n+a\n+b"},
				}})
				got, err := c.Compare(context.Background(), "acme", "api", before, after)
				if err != nil {
					t.Fatalf("Compare() error = %v", err)
				}
				if got.Status != tc.status || got.Rewritten() != tc.rewritten || len(got.Files) != 1 || got.Files[0].Patch != "@@ -1 +1,2 @@\n+a\n+b" {
					t.Errorf("Compare() = %+v (rewritten %v)", got, got.Rewritten())
				}
				reqs := srv.Requests()
				if len(reqs) != 1 || reqs[0].Path != prefix+"/repos/acme/api/compare/"+before+"..."+after || reqs[0].Query != "per_page=1" {
					t.Errorf("requests = %+v", reqs)
				}
			})
		})
	}
}

func TestCompareErrors(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	_, err := c.Compare(context.Background(), "acme", "api", before, after)
	if !IsNotFound(err) || err.Error() != "compare 0123456...89abcde: HTTP 404: Not Found" {
		t.Errorf("Compare() of unknown commits error = %v, want the 404", err)
	}
	for _, bad := range []string{"main", "../../x", "0123456789abcdef0123456789abcdef01234567?x=1", "012345"} {
		if _, err := c.Compare(context.Background(), "acme", "api", bad, after); err == nil || !strings.Contains(err.Error(), "is not a commit SHA") {
			t.Errorf("Compare(%q) error = %v, want a refusal", bad, err)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1: what is not a SHA is not sent", n)
	}
}

// TestSetStatus sets a commit status with what was given, and cuts a long
// description to what GitHub takes.
func TestSetStatus(t *testing.T) {
	t.Parallel()
	forEachPrefix(t, func(t *testing.T, prefix string) {
		c, srv := newFake(t, fakegithub.Options{Prefix: prefix})
		ctx := context.Background()
		if err := c.SetStatus(ctx, "acme", "api", after, CommitStatus{State: StatusPending, Context: "docs", Description: "Updating the docs"}); err != nil {
			t.Fatalf("SetStatus() error = %v", err)
		}
		long := strings.Repeat("é", 200)
		if err := c.SetStatus(ctx, "acme", "api", after, CommitStatus{State: StatusSuccess, Context: "docs", Description: long, TargetURL: "https://github.com/acme/docs/pull/3"}); err != nil {
			t.Fatalf("SetStatus() error = %v", err)
		}
		got := srv.Statuses()
		want := []fakegithub.Status{
			{Repo: "acme/api", SHA: after, State: "pending", Context: "docs", Description: "Updating the docs"},
			{Repo: "acme/api", SHA: after, State: "success", Context: "docs", Description: strings.Repeat("é", 139) + "…", TargetURL: "https://github.com/acme/docs/pull/3"},
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("statuses = %+v\nwant %+v", got, want)
		}
		if r := srv.Requests()[0]; r.Method != http.MethodPost || r.Path != prefix+"/repos/acme/api/statuses/"+after || string(r.Body) != `{"state":"pending","description":"Updating the docs","context":"docs"}`+"\n" {
			t.Errorf("request = %s %s %s", r.Method, r.Path, r.Body)
		}
	})
}

func TestSetStatusErrors(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{ForbidStatuses: true})
	err := c.SetStatus(context.Background(), "acme", "api", after, CommitStatus{State: StatusPending, Context: "docs"})
	if !IsForbidden(err) || !strings.HasPrefix(err.Error(), "set commit status on 89abcde: HTTP 403") {
		t.Errorf("SetStatus() error = %v, want the 403", err)
	}
	if err := c.SetStatus(context.Background(), "acme", "api", "HEAD", CommitStatus{State: StatusPending}); err == nil || !strings.Contains(err.Error(), "is not a commit SHA") {
		t.Errorf("SetStatus(HEAD) error = %v, want a refusal", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
