package prlink

import (
	"net/url"
	"strings"
	"testing"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestJudge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		link, server string
		want         PullRequest
		ok           bool
	}{
		{"https://github.com/acme/docs/pull/101", "", PullRequest{"acme", "docs", 101}, true},
		{"https://github.com/acme/docs/pull/101", "https://github.com", PullRequest{"acme", "docs", 101}, true},
		{"https://GitHub.com/acme/docs/pull/7/", "https://github.com/", PullRequest{"acme", "docs", 7}, true},
		{"https://github.com/acme/docs/pull/7?w=1#top", "", PullRequest{"acme", "docs", 7}, true},
		{"https://ghe.example.com/team/docs/pull/3", "https://ghe.example.com", PullRequest{"team", "docs", 3}, true},
		{"https://ghe.example.com/git/team/docs/pull/3", "https://ghe.example.com/git", PullRequest{"team", "docs", 3}, true},
		{"https://ghe.example.com/team/docs/pull/3", "https://ghe.example.com/git", PullRequest{}, false},
		{"https://github.com/acme/docs/pull/101", "https://ghe.example.com", PullRequest{}, false},
		{"https://gitlab.com/acme/docs/pull/101", "", PullRequest{}, false},
		{"https://gitlab.com/acme/docs/-/merge_requests/3", "", PullRequest{}, false},
		// The links issue 18 names: each set pr-number to 7.
		{"https://github.com@evil.example/acme/docs/pull/7", "", PullRequest{}, false},
		{"https://github.com.evil.example/acme/docs/pull/7", "", PullRequest{}, false},
		{"https://github.com/acme/docs/pull/1/../../../../other/repo/pull/7", "", PullRequest{}, false},
		{"https://github.com/acme/docs/issues/3/pull/7", "", PullRequest{}, false},
		// Their relatives.
		{"https://user@github.com/acme/docs/pull/101", "", PullRequest{}, false},
		{"https://github.com:8443/acme/docs/pull/7", "", PullRequest{}, false},
		{"https://github.com/acme%2Fdocs/x/pull/7", "", PullRequest{}, false},
		{"https://github.com/acme/docs/pull/%37", "", PullRequest{}, false},
		{"https://github.com/acme/%2e%2e/pull/7", "", PullRequest{}, false},
		{"https://github.com/acme/docs/pull/7/..", "", PullRequest{}, false},
		{`https://github.com\acme\docs\pull\7`, "", PullRequest{}, false},
		{"http://github.com/acme/docs/pull/101", "", PullRequest{}, false},
		{"https:github.com/acme/docs/pull/101", "", PullRequest{}, false},
		{"//github.com/acme/docs/pull/101", "", PullRequest{}, false},
		{"https://github.com/acme/docs/issues/101", "", PullRequest{}, false},
		{"https://github.com/acme/docs/pull/0", "", PullRequest{}, false},
		{"https://github.com/acme/docs/pull/+1", "", PullRequest{}, false},
		{"https://github.com/acme/docs/pull/007", "", PullRequest{}, false},
		{"https://github.com/acme/docs/pull/101/files", "", PullRequest{}, false},
		{"https://github.com/acme/pull/101", "", PullRequest{}, false},
		{"not a url", "", PullRequest{}, false},
		{"", "", PullRequest{}, false},
	}
	for _, tt := range tests {
		got, ok := Judge(tt.link, tt.server)
		if ok != tt.ok || got != tt.want {
			t.Errorf("Judge(%q, %q) = %+v, %v; want %+v, %v", tt.link, tt.server, got, ok, tt.want, tt.ok)
		}
	}
}

// TestIn: a pull request is in the job's source repository only when that
// repository's address names the same owner and name on the same GitHub;
// an address that names no repository holds no pull request.
func TestIn(t *testing.T) {
	t.Parallel()
	pr := PullRequest{Owner: "acme", Repo: "docs", Number: 101}
	tests := []struct {
		repo, server string
		want         bool
	}{
		{"https://github.com/acme/docs", "", true},
		{"https://github.com/acme/docs/", "", true},
		{"https://github.com/acme/docs.git", "", true},
		{"https://github.com/ACME/Docs", "https://github.com", true},
		{"https://GitHub.com/acme/docs", "", true},
		{"https://ghe.example.com/git/acme/docs", "https://ghe.example.com/git", true},
		{"https://github.com/acme/handbook", "", false},
		{"https://github.com/other/docs", "", false},
		{"https://github.com/acme/docs-old", "", false},
		{"https://github.com/acme/docs/pull/101", "", false},
		{"https://github.com/acme/docs/tree/main", "", false},
		{"https://github.com/acme", "", false},
		{"https://ghe.example.com/acme/docs", "", false},
		{"https://github.com/acme/docs", "https://ghe.example.com", false},
		{"https://github.com.evil.example/acme/docs", "", false},
		{"https://github.com@evil.example/acme/docs", "", false},
		{"https://user@github.com/acme/docs", "", false},
		{"https://github.com:8443/acme/docs", "", false},
		{"http://github.com/acme/docs", "", false},
		{"https://github.com/acme%2Fdocs", "", false},
		{"https://github.com/x/../acme/docs", "", false},
		{"git@github.com:acme/docs.git", "", false},
		{"acme/docs", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := pr.In(tt.repo, tt.server); got != tt.want {
			t.Errorf("%+v.In(%q, %q) = %v, want %v", pr, tt.repo, tt.server, got, tt.want)
		}
	}
}

// FuzzJudge holds two promises: an accepted link is on the server's host,
// and the address rebuilt from its parts is judged the same.
func FuzzJudge(f *testing.F) {
	for _, s := range []string{
		"https://github.com/acme/docs/pull/7",
		"https://github.com@evil.example/acme/docs/pull/7",
		"https://github.com/acme/docs/pull/1/../../other/repo/pull/7",
		"https://GITHUB.com/a/b/pull/1/",
	} {
		f.Add(s, "")
		f.Add(s, "https://ghe.example.com/api")
	}
	f.Fuzz(func(t *testing.T, link, server string) {
		pr, ok := Judge(link, server)
		if !ok {
			return
		}
		if server == "" {
			server = DefaultServer
		}
		u, _ := url.Parse(link)
		s, _ := url.Parse(server)
		if !strings.EqualFold(u.Hostname(), s.Hostname()) || u.User != nil {
			t.Fatalf("Judge(%q, %q) accepted another host", link, server)
		}
		if again, ok := Judge(pr.URL(server), server); !ok || again != pr {
			t.Fatalf("Judge(URL()) = %+v, %v; want %+v", again, ok, pr)
		}
	})
}

// TestRepositoryURL: a job's source repository on this GitHub is linked at
// the address rebuilt from its checked names, on the server's own host and
// path; an address that names no repository (TestIn) has none.
func TestRepositoryURL(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ repo, server, want string }{
		{"https://github.com/acme/docs", "", "https://github.com/acme/docs"},
		{"https://GitHub.com/acme/docs.git", "https://github.com/", "https://github.com/acme/docs"},
		{"https://github.com/acme/docs/?x=1#top", "", "https://github.com/acme/docs"},
		{"https://ghe.example.com/git/acme/docs/", "https://ghe.example.com/git", "https://ghe.example.com/git/acme/docs"},
		{"https://gitlab.com/acme/docs", "", ""},
		{"https://github.com/acme/docs/tree/main", "", ""},
	} {
		r, ok := JudgeRepository(tt.repo, tt.server)
		if got := r.URL(tt.server); ok != (tt.want != "") || ok && got != tt.want {
			t.Errorf("JudgeRepository(%q, %q) = %+v, %v: URL %q; want %q", tt.repo, tt.server, r, ok, got, tt.want)
		}
	}
}
