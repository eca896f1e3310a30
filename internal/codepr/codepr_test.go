package codepr

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/pathfilter"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestDecide(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		pr   PullRequest
		act  bool
		why  string
	}{
		{"opened", PullRequest{Action: "opened", Number: 7}, true, ""},
		{"reopened", PullRequest{Action: "reopened", Number: 7}, true, ""},
		{"ready for review", PullRequest{Action: "ready_for_review", Number: 7}, true, ""},
		{"pushed", PullRequest{Action: "synchronize", Number: 7}, true, ""},
		{"draft opened", PullRequest{Action: "opened", Number: 7, Draft: true}, false, "pull request #7 is a draft: its docs job starts when it is ready for review"},
		{"draft pushed", PullRequest{Action: "synchronize", Number: 7, Draft: true}, false, "pull request #7 is a draft"},
		{"fork", PullRequest{Action: "opened", Number: 7, Fork: true}, false, "pull request #7 comes from a fork: GitHub gives its runs no secrets"},
		{"closed", PullRequest{Action: "closed", Number: 7}, false, "the pull request action closed neither opens nor pushes to it"},
		{"hostile action", PullRequest{Action: "::error::x", Number: 7}, false, `the pull request action "::error::x" neither`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			act, why := Decide(tt.pr)
			if act != tt.act || !strings.HasPrefix(why, tt.why) || (tt.why == "") != (why == "") {
				t.Errorf("Decide() = %v, %q; want %v, %q", act, why, tt.act, tt.why)
			}
		})
	}
}

const (
	before = "0123456789abcdef0123456789abcdef01234567"
	after  = "89abcdef0123456789abcdef0123456789abcdef"
)

var prFiles = []fakegithub.File{
	{Name: "src/limits.go", Additions: 3, Patch: "@@ +1,3 @@"},
	{Name: "src/limits_test.go", Additions: 9, Patch: "@@ +1,9 @@"},
	{Name: "api/v2.go", Previous: "src/v2.go", Status: "renamed"},
	{Name: "README.md", Additions: 1, Patch: "@@ +1 @@"},
}

// TestRead reads what each step needs from GitHub, through the real
// client and the fake held to GitHub's description, and filters it.
func TestRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		since      string // the commit the job last heard of; "" for no job
		forced     bool
		comparison *fakegithub.Comparison // nil: GitHub does not know since
		paths      string
		want       []string
		total      int
		whole      bool
		rewritten  bool
		requests   []string
	}{
		{
			name: "no job yet, every file",
			want: []string{"src/limits.go", "src/limits_test.go", "api/v2.go", "README.md"}, total: 4, whole: true,
			requests: []string{"GET /repos/acme/api/pulls/7/files"},
		},
		{
			name: "no job yet, filtered: a rename out of src counts", paths: "src/**\n!src/**/*_test.go",
			want: []string{"src/limits.go", "api/v2.go"}, total: 4, whole: true,
			requests: []string{"GET /repos/acme/api/pulls/7/files"},
		},
		{
			name: "no job yet, nothing matches", paths: "lib/**",
			want: nil, total: 4, whole: true,
			requests: []string{"GET /repos/acme/api/pulls/7/files"},
		},
		{
			name: "pushed", since: before, paths: "src/**",
			comparison: &fakegithub.Comparison{Status: "ahead", Files: []fakegithub.File{{Name: "src/retry.go", Patch: "@@ +1 @@"}, {Name: "docs/x.md"}}},
			want:       []string{"src/retry.go"}, total: 2,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after},
		},
		{
			name: "pushed, nothing matches", since: before, paths: "src/**",
			comparison: &fakegithub.Comparison{Status: "ahead", Files: []fakegithub.File{{Name: "docs/x.md"}}},
			want:       nil, total: 1,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after},
		},
		{
			name: "force-pushed: diverged", since: before, paths: "src/**",
			comparison: &fakegithub.Comparison{Status: "diverged", Files: []fakegithub.File{{Name: "src/gone.go"}}},
			want:       []string{"src/limits.go", "src/limits_test.go", "api/v2.go"}, total: 4, whole: true, rewritten: true,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after, "GET /repos/acme/api/pulls/7/files"},
		},
		{
			name: "force-pushed: reset to an older commit", since: before,
			comparison: &fakegithub.Comparison{Status: "behind"},
			want:       []string{"src/limits.go", "src/limits_test.go", "api/v2.go", "README.md"}, total: 4, whole: true, rewritten: true,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after, "GET /repos/acme/api/pulls/7/files"},
		},
		{
			name: "force-pushed: the old head is gone", since: before, paths: "README.md",
			want: []string{"README.md"}, total: 4, whole: true, rewritten: true,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after, "GET /repos/acme/api/pulls/7/files"},
		},
		{
			name: "force-pushed, as the event says: no comparison", since: before, forced: true, paths: "README.md",
			want: []string{"README.md"}, total: 4, whole: true, rewritten: true,
			requests: []string{"GET /repos/acme/api/pulls/7/files"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := fakegithub.New(fakegithub.Options{Check: ghspec.Checker()})
			t.Cleanup(srv.Close)
			srv.SeedPull(fakegithub.Pull{Repo: "acme/api", Number: 7, Author: "ada", HeadSHA: after, Files: prFiles})
			if tt.comparison != nil {
				srv.SeedComparison("acme/api", before, after, *tt.comparison)
			}
			gh, err := ghclient.New(srv.Client(), srv.Client(), srv.URL, fakegithub.DefaultToken)
			if err != nil {
				t.Fatal(err)
			}
			paths, err := pathfilter.Parse(tt.paths)
			if err != nil {
				t.Fatal(err)
			}
			pr := PullRequest{Action: "synchronize", Owner: "acme", Repo: "api", Number: 7, HeadSHA: after, Before: before, Forced: tt.forced}
			got, err := Read(context.Background(), gh, pr, tt.since, paths)
			if err != nil {
				t.Fatalf("Read() error = %v", err)
			}
			var names []string
			for _, f := range got.Files {
				names = append(names, f.Name)
			}
			if !slices.Equal(names, tt.want) || got.Total != tt.total || got.Whole != tt.whole || got.Rewritten != tt.rewritten {
				t.Errorf("Read() = %q of %d, whole %v, rewritten %v; want %q of %d, whole %v, rewritten %v",
					names, got.Total, got.Whole, got.Rewritten, tt.want, tt.total, tt.whole, tt.rewritten)
			}
			var reqs []string
			for _, r := range srv.Requests() {
				reqs = append(reqs, r.Method+" "+r.Path)
			}
			if !slices.Equal(reqs, tt.requests) {
				t.Errorf("requests = %q\nwant %q", reqs, tt.requests)
			}
			if u := srv.Unexpected(); len(u) > 0 {
				t.Errorf("unexpected requests: %q", u)
			}
		})
	}
}

func TestReadError(t *testing.T) {
	t.Parallel()
	srv := fakegithub.New(fakegithub.Options{Check: ghspec.Checker(), Repos: []string{"acme/other"}})
	t.Cleanup(srv.Close)
	gh, err := ghclient.New(srv.Client(), srv.Client(), srv.URL, fakegithub.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Read(context.Background(), gh, PullRequest{Owner: "acme", Repo: "api", Number: 7}, "", &pathfilter.Filter{})
	if err == nil || !strings.HasPrefix(err.Error(), "list files of #7: HTTP 404") {
		t.Errorf("Read() error = %v, want the 404", err)
	}
}

func TestNothingToSend(t *testing.T) {
	t.Parallel()
	tests := []struct {
		c    Changes
		want string
	}{
		{Changes{Files: []*ghclient.File{{Name: "a"}}, Total: 1, Whole: true}, ""},
		{Changes{Total: 3, Whole: true}, "the pull request changes 3 files, none under paths: nothing to send to the docs job"},
		{Changes{Total: 2}, "the new commits change 2 files, none under paths: nothing to send to the docs job"},
		{Changes{}, "the new commits change no file: nothing to send to the docs job"},
		{Changes{Total: 1}, "the new commits change 1 file, not under paths: nothing to send to the docs job"},
		{Changes{Total: 1, Whole: true}, "the pull request changes 1 file, not under paths: nothing to send to the docs job"},
	}
	for _, tt := range tests {
		if got := tt.c.NothingToSend(); got != tt.want {
			t.Errorf("NothingToSend() = %q, want %q", got, tt.want)
		}
	}
}

func TestStatus(t *testing.T) {
	t.Parallel()
	const run = "https://github.com/acme/api/actions/runs/1"
	tests := []struct {
		name string
		o    Outcome
		want ghclient.CommitStatus
	}{
		{"working", Outcome{Working: true, RunURL: run}, ghclient.CommitStatus{State: "pending", Description: "The docs agent is updating the docs for this change", TargetURL: run}},
		{"failed", Outcome{Failed: true, RunURL: run}, ghclient.CommitStatus{State: "failure", Description: "The docs job failed: see the run", TargetURL: run}},
		{"nothing under paths", Outcome{NoChange: true}, ghclient.CommitStatus{State: "success", Description: "No change under paths: no docs job needed"}},
		{"docs pull request", Outcome{PRLink: "https://github.com/acme/docs/pull/3"}, ghclient.CommitStatus{State: "success", Description: "Docs updated in a pull request", TargetURL: "https://github.com/acme/docs/pull/3"}},
		{"preview", Outcome{PRLink: "https://github.com/acme/docs/pull/3", Preview: "https://acme-docs-x.mintlify.app", PreviewState: "success"}, ghclient.CommitStatus{State: "success", Description: "Docs updated: preview ready", TargetURL: "https://acme-docs-x.mintlify.app"}},
		{"a preview whose build failed", Outcome{PRLink: "https://github.com/acme/docs/pull/3", Preview: "https://acme-docs-x.mintlify.app", PreviewState: "failure"}, ghclient.CommitStatus{State: "success", Description: "Docs updated in a pull request; its preview build failed", TargetURL: "https://github.com/acme/docs/pull/3"}},
		{"a preview still building", Outcome{PRLink: "https://github.com/acme/docs/pull/3", Preview: "https://acme-docs-x.mintlify.app", PreviewState: "in_progress"}, ghclient.CommitStatus{State: "success", Description: "Docs updated in a pull request; its preview is not ready", TargetURL: "https://github.com/acme/docs/pull/3"}},
		{"a preview that is no https link", Outcome{PRLink: "https://github.com/acme/docs/pull/3", Preview: "javascript:x", PreviewState: "success"}, ghclient.CommitStatus{State: "success", Description: "Docs updated in a pull request", TargetURL: "https://github.com/acme/docs/pull/3"}},
		{"no docs change", Outcome{}, ghclient.CommitStatus{State: "success", Description: "No docs change needed"}},
	}
	for _, tt := range tests {
		tt.want.Context = StatusContext
		if got := Status(tt.o); got != tt.want {
			t.Errorf("%s: Status() = %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}
