package codepr

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/pathfilter"
	"github.com/agentjob/agent-job-action/internal/prompt"
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
		{"closed", PullRequest{Action: "closed", Number: 7}, true, ""},
		{"a draft closed", PullRequest{Action: "closed", Number: 7, Draft: true}, true, ""},
		{"a fork closed", PullRequest{Action: "closed", Number: 7, Fork: true}, false, "pull request #7 comes from a fork"},
		{"retargeted", PullRequest{Action: "edited", Number: 7, Retargeted: true}, true, ""},
		{"a draft retargeted", PullRequest{Action: "edited", Number: 7, Retargeted: true, Draft: true}, false, "pull request #7 is a draft"},
		{"edited, same base", PullRequest{Action: "edited", Number: 7}, false, "pull request #7 was edited but not moved to another base: its change is the same"},
		{"labeled", PullRequest{Action: "labeled", Number: 7}, false, "the pull request action labeled neither opens, pushes to, retargets nor closes it: only opened, reopened, ready_for_review, synchronize, edited, closed are"},
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
		// more are further comparisons, by "base...head"; base is the
		// event's base commit; files replace prFiles; retargeted is the
		// event's word.
		more       map[string]fakegithub.Comparison
		base       string
		files      []fakegithub.File
		retargeted bool
		again      prompt.Again
		cut        bool
		fromBase   bool
		dropped    int
		// maxBody is the cap on a response the client reads; 0 for none.
		maxBody int64
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
		{
			name: "retargeted: the whole change, no comparison", since: before, retargeted: true, paths: "src/**",
			want: []string{"src/limits.go", "src/limits_test.go", "api/v2.go"}, total: 4, whole: true, again: prompt.Retargeted,
			requests: []string{"GET /repos/acme/api/pulls/7/files"},
		},
		{
			name: "a push past the comparison's cap: the whole change", since: before, paths: "src/**",
			comparison: &fakegithub.Comparison{Files: many("vendor/x", 300)},
			want:       []string{"src/limits.go", "src/limits_test.go", "api/v2.go"}, total: 4, whole: true, again: prompt.TooManyToCompare,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after, "GET /repos/acme/api/pulls/7/files"},
		},
		{
			name: "a push whose comparison is too large to read: the whole change, page by page", since: before, paths: "src/**",
			comparison: &fakegithub.Comparison{Status: "ahead", Files: big("src/gen", 30)}, maxBody: 64 << 10,
			want: []string{"src/limits.go", "src/limits_test.go", "api/v2.go"}, total: 4, whole: true, again: prompt.TooLargeToCompare,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after, "GET /repos/acme/api/pulls/7/files"},
		},
		{
			name: "a push that merged the base, its own change too large to compare: the push's change stands", since: before, base: baseTip, paths: "src/**",
			comparison: &fakegithub.Comparison{Files: []fakegithub.File{{Name: "src/limits.go"}, {Name: "src/base.go"}}}, maxBody: 64 << 10,
			more: map[string]fakegithub.Comparison{
				baseTip + "..." + after: {MergeBase: baseTip, Files: big("src/gen", 30)},
			},
			want: []string{"src/limits.go", "src/base.go"}, total: 2,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after, "GET /repos/acme/api/compare/" + baseTip + "..." + after},
		},
		{
			name: "299 files compared are whole", since: before, paths: "vendor/**",
			comparison: &fakegithub.Comparison{Files: many("vendor/x", 299)}, want: names(many("vendor/x", 299)), total: 299,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after},
		},
		{
			name: "a pull request at the files' cap is cut", paths: "src/**", files: many("vendor/x", 3000),
			want: nil, total: 3000, whole: true, cut: true,
			requests: filePages(30),
		},
		{
			name: "2,999 files are whole", paths: "src/**", files: many("vendor/x", 2999),
			want: nil, total: 2999, whole: true,
			requests: filePages(30),
		},
		{
			name: "a push that merged the base: its files are left out", since: before, base: baseTip, paths: "src/**",
			comparison: &fakegithub.Comparison{Files: []fakegithub.File{{Name: "src/limits.go", Patch: "@@ push and base @@"}, {Name: "src/base.go"}, {Name: "src/reverted.go"}}},
			more: map[string]fakegithub.Comparison{
				baseTip + "..." + after:  {MergeBase: baseTip, Files: []fakegithub.File{{Name: "src/limits.go", Patch: "@@ own @@"}}},
				baseTip + "..." + before: {MergeBase: oldBase, Files: []fakegithub.File{{Name: "src/limits.go"}, {Name: "src/reverted.go"}}},
			},
			want: []string{"src/limits.go", "src/reverted.go"}, total: 3, fromBase: true, dropped: 1,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after, "GET /repos/acme/api/compare/" + baseTip + "..." + after, "GET /repos/acme/api/compare/" + baseTip + "..." + before},
		},
		{
			name: "a push that merged nothing of the base stands", since: before, base: baseTip, paths: "src/**",
			comparison: &fakegithub.Comparison{Files: []fakegithub.File{{Name: "src/limits.go"}, {Name: "src/new.go"}}},
			more: map[string]fakegithub.Comparison{
				baseTip + "..." + after:  {MergeBase: oldBase, Files: []fakegithub.File{{Name: "src/limits.go"}}},
				baseTip + "..." + before: {MergeBase: oldBase, Files: []fakegithub.File{{Name: "src/limits.go"}}},
			},
			want: []string{"src/limits.go", "src/new.go"}, total: 2,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after, "GET /repos/acme/api/compare/" + baseTip + "..." + after, "GET /repos/acme/api/compare/" + baseTip + "..." + before},
		},
		{
			name: "a push with nothing under paths compares no more", since: before, base: baseTip, paths: "src/**",
			comparison: &fakegithub.Comparison{Files: []fakegithub.File{{Name: "docs/x.md"}}},
			want:       nil, total: 1,
			requests: []string{"GET /repos/acme/api/compare/" + before + "..." + after},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := fakegithub.New(fakegithub.Options{Check: ghspec.Checker()})
			t.Cleanup(srv.Close)
			files := prFiles
			if tt.files != nil {
				files = tt.files
			}
			srv.SeedPull(fakegithub.Pull{Repo: "acme/api", Number: 7, Author: "ada", HeadSHA: after, Files: files})
			if tt.comparison != nil {
				srv.SeedComparison("acme/api", before, after, *tt.comparison)
			}
			for basehead, c := range tt.more {
				b, h, _ := strings.Cut(basehead, "...")
				srv.SeedComparison("acme/api", b, h, c)
			}
			repeat, once := srv.Client(), srv.Client()
			if tt.maxBody > 0 {
				hc := httpclient.New(httpclient.Options{MaxBodyBytes: tt.maxBody, Transport: srv.Client().Transport})
				repeat, once = hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable}), hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once})
			}
			gh, err := ghclient.New(repeat, once, srv.URL, fakegithub.DefaultToken)
			if err != nil {
				t.Fatal(err)
			}
			paths, err := pathfilter.Parse(tt.paths)
			if err != nil {
				t.Fatal(err)
			}
			pr := PullRequest{Action: "synchronize", Owner: "acme", Repo: "api", Number: 7, HeadSHA: after, Before: before, Forced: tt.forced,
				BaseSHA: tt.base, Retargeted: tt.retargeted}
			got, err := Read(context.Background(), gh, pr, tt.since, paths)
			if err != nil {
				t.Fatalf("Read() error = %v", err)
			}
			var names []string
			for _, f := range got.Files {
				names = append(names, f.Name)
			}
			if tt.rewritten {
				tt.again = prompt.Rewritten
			}
			if got.Cut != tt.cut || got.FromBase != tt.fromBase || got.Dropped != tt.dropped || got.Again != tt.again {
				t.Errorf("Read() cut %v, from base %v (%d dropped), again %v; want %v, %v (%d), %v", got.Cut, got.FromBase, got.Dropped, got.Again, tt.cut, tt.fromBase, tt.dropped, tt.again)
			}
			if !slices.Equal(names, tt.want) || got.Total != tt.total || got.Whole != tt.whole || (got.Again == prompt.Rewritten) != tt.rewritten {
				t.Errorf("Read() = %q of %d, whole %v, rewritten %v; want %q of %d, whole %v, rewritten %v",
					names, got.Total, got.Whole, got.Again == prompt.Rewritten, tt.want, tt.total, tt.whole, tt.rewritten)
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

// The base branch's commits, before and after a push that merges it.
const (
	oldBase = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	baseTip = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

// many returns n files named prefix0, prefix1, ...
func many(prefix string, n int) []fakegithub.File {
	out := make([]fakegithub.File, n)
	for i := range out {
		out[i] = fakegithub.File{Name: fmt.Sprintf("%s%d", prefix, i)}
	}
	return out
}

// big returns n files named prefix0, prefix1, ... each with a 4 KiB patch.
func big(prefix string, n int) []fakegithub.File {
	out := many(prefix, n)
	for i := range out {
		out[i].Patch = "@@ +1 @@\n+" + strings.Repeat("x", 4<<10)
	}
	return out
}

func names(files []fakegithub.File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Name)
	}
	return out
}

// filePages are the requests that list a pull request's n pages of files.
func filePages(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "GET /repos/acme/api/pulls/7/files"
	}
	return out
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
		{Changes{Total: 3000, Whole: true, Cut: true}, "the pull request changes at least 3000 files, as many as GitHub lists, none of them under paths: nothing to send to the docs job, and the files past them were not seen"},
		{Changes{Total: 4, Dropped: 2}, "the new commits change 4 files: the 2 under paths came from merging the base branch: nothing to send to the docs job"},
		{Changes{Total: 1, Dropped: 1}, "the new commits change 1 file: the 1 under paths came from merging the base branch: nothing to send to the docs job"},
	}
	for _, tt := range tests {
		if got := tt.c.NothingToSend(); got != tt.want {
			t.Errorf("NothingToSend() = %q, want %q", got, tt.want)
		}
	}
}
