package ghclient

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
)

const (
	baseSHA = "ba5e0000ba5e0000ba5e0000ba5e0000ba5e0000"
	headSHA = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00"
)

func sha(n int) string { return fmt.Sprintf("%040x", n) }

// TestCommits reads a comparison's commits in one request, within the
// limit asked, and how many there are in all.
func TestCommits(t *testing.T) {
	t.Parallel()
	all := []fakegithub.Commit{{SHA: sha(1), Parents: []string{baseSHA}}, {SHA: sha(2), Parents: []string{sha(1), sha(9)}}, {SHA: headSHA, Parents: []string{sha(2)}}}
	cases := []struct {
		name  string
		limit int
		want  []Commit
		total int
	}{
		{name: "all", limit: 10, want: []Commit{{sha(1), 1}, {sha(2), 2}, {headSHA, 1}}, total: 3},
		{name: "over the limit", limit: 2, want: []Commit{{sha(1), 1}, {sha(2), 2}}, total: 3},
	}
	for _, tc := range cases {
		for _, prefix := range prefixes {
			t.Run(tc.name+prefix, func(t *testing.T) {
				t.Parallel()
				c, srv := newFake(t, fakegithub.Options{Prefix: prefix})
				srv.SeedComparison("acme/code", baseSHA, headSHA, fakegithub.Comparison{Commits: all})
				got, total, err := c.Commits(context.Background(), "acme", "code", baseSHA, headSHA, tc.limit)
				if err != nil {
					t.Fatalf("Commits() error = %v", err)
				}
				if !slices.Equal(got, tc.want) || total != tc.total {
					t.Errorf("Commits() = %v, %d; want %v, %d", got, total, tc.want, tc.total)
				}
				if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Query != fmt.Sprintf("per_page=%d", tc.limit) {
					t.Errorf("requests = %+v, want one with per_page=%d", reqs, tc.limit)
				}
			})
		}
	}
}

// TestBranchesAt reads the branches whose newest commit is a commit.
func TestBranchesAt(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	srv.SeedBranch("acme/code", "gh-readonly-queue/main/pr-12-"+sha(7), sha(1))
	srv.SeedBranch("acme/code", "export", sha(1))
	srv.SeedBranch("acme/code", "import", sha(2))
	srv.SeedBranch("acme/other", "elsewhere", sha(1))
	got, err := c.BranchesAt(context.Background(), "acme", "code", sha(1))
	if err != nil {
		t.Fatalf("BranchesAt() error = %v", err)
	}
	if want := []string{"export", "gh-readonly-queue/main/pr-12-" + sha(7)}; !slices.Equal(got, want) {
		t.Errorf("BranchesAt() = %q, want %q", got, want)
	}
	if got, err := c.BranchesAt(context.Background(), "acme", "code", sha(3)); err != nil || len(got) != 0 {
		t.Errorf("BranchesAt() of a commit no branch is at = %q, %v", got, err)
	}
	if _, err := c.BranchesAt(context.Background(), "acme", "code", "main"); err == nil {
		t.Error("BranchesAt() of a branch name: no error")
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// TestStatus reads the newest status of one context on a commit, whole,
// and none for a context the commit has none of.
func TestStatus(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	srv.SeedStatus(fakegithub.Status{Repo: "acme/code", SHA: sha(1), State: "pending", Context: "docs / agent-job"})
	srv.SeedStatus(fakegithub.Status{Repo: "acme/code", SHA: sha(1), State: "success", Context: "ci"})
	srv.SeedStatus(fakegithub.Status{Repo: "acme/code", SHA: sha(1), State: "success", Context: "docs / agent-job"})
	srv.SeedStatus(fakegithub.Status{Repo: "acme/code", SHA: sha(2), State: "failure", Context: "docs / agent-job", Description: "The docs job failed", TargetURL: "https://github.com/acme/code/actions/runs/1"})
	cases := []struct {
		sha, context string
		want         CommitStatus
		ok           bool
	}{
		{sha(1), "docs / agent-job", CommitStatus{State: "success", Context: "docs / agent-job"}, true},
		{sha(2), "docs / agent-job", CommitStatus{State: "failure", Context: "docs / agent-job", Description: "The docs job failed", TargetURL: "https://github.com/acme/code/actions/runs/1"}, true},
		{sha(2), "ci", CommitStatus{}, false},
		{sha(3), "docs / agent-job", CommitStatus{}, false},
	}
	for _, tc := range cases {
		got, ok, err := c.Status(context.Background(), "acme", "code", tc.sha, tc.context)
		if err != nil || got != tc.want || ok != tc.ok {
			t.Errorf("Status(%s, %q) = %+v, %v, %v; want %+v, %v", tc.sha[:7], tc.context, got, ok, err, tc.want, tc.ok)
		}
	}
	if len(srv.Statuses()) != 0 {
		t.Errorf("Statuses() = %+v: seeded statuses are none the API set", srv.Statuses())
	}
}

// TestCommitStatusSame: two statuses are the same when a commit showing
// one needs no write of the other: the description compared as GitHub
// keeps it, cut to MaxStatusDescription; and a write takes a success back
// only when it turns one into anything else.
func TestCommitStatusSame(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", MaxStatusDescription+20)
	pending := CommitStatus{Context: "docs / agent-job", State: StatusPending, Description: long, TargetURL: "https://example.com/1"}
	cases := []struct {
		name       string
		shown      CommitStatus
		same, back bool
	}{
		{"as GitHub keeps it, cut", CommitStatus{Context: "docs / agent-job", State: StatusPending, Description: cut(long, MaxStatusDescription), TargetURL: "https://example.com/1"}, true, false},
		{"another state", CommitStatus{Context: "docs / agent-job", State: StatusSuccess, Description: long, TargetURL: "https://example.com/1"}, false, true},
		{"another link", CommitStatus{Context: "docs / agent-job", State: StatusPending, Description: long}, false, false},
		{"another context", CommitStatus{Context: "ci", State: StatusPending, Description: long, TargetURL: "https://example.com/1"}, false, false},
		{"a failure", CommitStatus{Context: "docs / agent-job", State: StatusFailure, Description: long, TargetURL: "https://example.com/1"}, false, false},
	}
	for _, tc := range cases {
		if got := pending.Same(tc.shown); got != tc.same {
			t.Errorf("%s: Same = %v, want %v", tc.name, got, tc.same)
		}
		if got := pending.TakesBack(tc.shown); got != tc.back {
			t.Errorf("%s: TakesBack = %v, want %v", tc.name, got, tc.back)
		}
	}
}
