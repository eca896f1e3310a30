package queue

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// recorder is a GitHub that answers from maps and records each call.
type recorder struct {
	commits  []ghclient.Commit
	total    int
	branches map[string][]string // by commit
	pulls    map[int]*ghclient.PullRequest
	states   map[string]string // by head
	fail     string            // the call that fails
	calls    []string
}

func (r *recorder) Commits(_ context.Context, owner, repo, base, head string, limit int) ([]ghclient.Commit, int, error) {
	r.calls = append(r.calls, fmt.Sprintf("commits %s/%s %s...%s %d", owner, repo, base, head, limit))
	if r.fail == "commits" {
		return nil, 0, errors.New("compare: HTTP 500")
	}
	return r.commits, max(r.total, len(r.commits)), nil
}

func (r *recorder) BranchesAt(_ context.Context, _, _, sha string) ([]string, error) {
	r.calls = append(r.calls, "branches "+sha)
	if r.fail == "branches" {
		return nil, errors.New("branches: HTTP 500")
	}
	return r.branches[sha], nil
}

func (r *recorder) PullRequest(_ context.Context, _, _ string, n int) (*ghclient.PullRequest, error) {
	r.calls = append(r.calls, fmt.Sprint("pull ", n))
	if r.fail == "pull" || r.pulls[n] == nil {
		return nil, errors.New("get pull request: HTTP 500")
	}
	return r.pulls[n], nil
}

func (r *recorder) Status(_ context.Context, _, _, sha, context string) (ghclient.CommitStatus, bool, error) {
	r.calls = append(r.calls, "status "+sha+" "+context)
	if r.fail == "status" {
		return ghclient.CommitStatus{}, false, errors.New("status: HTTP 500")
	}
	state, ok := r.states[sha]
	return ghclient.CommitStatus{State: state, Context: context}, ok, nil
}

func open(n int, head string) *ghclient.PullRequest {
	return &ghclient.PullRequest{Number: n, HeadSHA: head, Base: "main", Open: true}
}

// queueBranch is the queue's branch of pull request n's group, without
// refs/heads/.
func queueBranch(n int) string {
	return fmt.Sprintf("gh-readonly-queue/main/pr-%d-%040x", n, n)
}

func TestRead(t *testing.T) {
	t.Parallel()
	g := Group{Owner: "acme", Repo: "code", HeadSHA: "head", BaseSHA: "base", Branch: "main", HeadRef: "refs/heads/" + queueBranch(13)}
	pulls := map[int]*ghclient.PullRequest{12: open(12, "h12"), 13: open(13, "h13")}
	// The group of #13 is built on #12's: by merge commits (each pull
	// request's commits, then the queue's merge commit, which #12's queue
	// branch is at), or squashed (one commit each), or rebased (#12's two
	// commits, the second of them its branch's).
	methods := map[string][]ghclient.Commit{
		"merge":  {{SHA: "c1", Parents: 1}, {SHA: "m12", Parents: 2}, {SHA: "c2", Parents: 1}, {SHA: "head", Parents: 2}},
		"squash": {{SHA: "m12", Parents: 1}, {SHA: "head", Parents: 1}},
		"rebase": {{SHA: "c1", Parents: 1}, {SHA: "m12", Parents: 1}, {SHA: "head", Parents: 1}},
	}
	two := func(method string, states map[string]string) *recorder {
		return &recorder{commits: methods[method], pulls: pulls, states: states,
			branches: map[string][]string{"m12": {"docs-fix", queueBranch(12), "gh-readonly-queue/v2/pr-40-" + strings.Repeat("a", 40)}}}
	}
	cases := []struct {
		name   string
		gh     *recorder
		ref    string // the group's branch; "" for g's
		want   Verdict
		calls  int
		status string
		state  string
	}{
		{name: "merge commits, all settled", gh: two("merge", map[string]string{"h12": "success", "h13": "success"}),
			want: Verdict{PRs: []int{12, 13}}, calls: 1 + 3 + 4, state: "success", status: "Docs settled for all 2 pull requests in the merge group"},
		{name: "squashed, all settled", gh: two("squash", map[string]string{"h12": "success", "h13": "success"}),
			want: Verdict{PRs: []int{12, 13}}, calls: 1 + 1 + 4, state: "success", status: "Docs settled for all 2 pull requests in the merge group"},
		{name: "rebased, all settled", gh: two("rebase", map[string]string{"h12": "success", "h13": "success"}),
			want: Verdict{PRs: []int{12, 13}}, calls: 1 + 2 + 4, state: "success", status: "Docs settled for all 2 pull requests in the merge group"},
		{name: "squashed, the second pending", gh: two("squash", map[string]string{"h12": "success", "h13": "pending"}),
			want: Verdict{PRs: []int{12, 13}, Held: 13, HeldState: "pending"}, calls: 6, state: "failure", status: "#13 holds the merge group back: its docs check is pending"},
		{name: "rebased, the first never checked, the second not read", gh: two("rebase", map[string]string{"h13": "success"}),
			want: Verdict{PRs: []int{12}, Held: 12}, calls: 5, state: "failure", status: "#12 holds the merge group back: its docs check is not set"},
		{name: "a failed docs job", gh: two("merge", map[string]string{"h12": "error", "h13": "success"}),
			want: Verdict{PRs: []int{12}, Held: 12, HeldState: "error"}, calls: 6, state: "failure", status: "#12 holds the merge group back: its docs check is failed"},
		{name: "one pull request no longer open", gh: &recorder{commits: methods["squash"][1:], pulls: map[int]*ghclient.PullRequest{13: {Number: 13, HeadSHA: "h13", Base: "main"}}},
			want: Verdict{PRs: []int{13}, Held: 13, HeldState: "closed"}, calls: 2, state: "failure", status: "#13 holds the merge group back: it is no longer open into the group's branch"},
		{name: "the first merged already, its queue branch still there", gh: &recorder{commits: methods["squash"], pulls: map[int]*ghclient.PullRequest{12: {Number: 12, HeadSHA: "h12", Base: "main", Merged: true}, 13: open(13, "h13")},
			states: map[string]string{"h13": "success"}, branches: map[string][]string{"m12": {queueBranch(12)}}},
			want: Verdict{PRs: []int{12, 13}}, calls: 5, state: "success", status: "Docs settled for all 2 pull requests in the merge group"},
		{name: "too many commits, none looked up", gh: &recorder{commits: []ghclient.Commit{{SHA: "c1", Parents: 1}}, total: MaxCommits + 1},
			want: Verdict{TooLarge: MaxCommits + 1}, calls: 1, state: "failure", status: fmt.Sprintf("The merge group holds %d commits, over the %d this check reads", MaxCommits+1, MaxCommits)},
		{name: "no queue's branch", gh: &recorder{}, ref: "refs/heads/main", want: Verdict{}, calls: 0, state: "failure", status: "The merge group's branch is no merge queue's"},
		{name: "another base's queue", gh: &recorder{}, ref: "refs/heads/gh-readonly-queue/v2/pr-13-" + strings.Repeat("b", 40), want: Verdict{}, calls: 0, state: "failure", status: "The merge group's branch is no merge queue's"},
		{name: "one pull request", gh: &recorder{commits: methods["squash"][1:], pulls: pulls, states: map[string]string{"h13": "success"}},
			want: Verdict{PRs: []int{13}}, calls: 3, state: "success", status: "Docs settled for #13, the merge group's one pull request"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := g
			if tc.ref != "" {
				g.HeadRef = tc.ref
			}
			got, err := Read(context.Background(), tc.gh, g)
			if err != nil {
				t.Fatalf("Read() error = %v", err)
			}
			if !slices.Equal(got.PRs, tc.want.PRs) || got.Held != tc.want.Held || got.HeldState != tc.want.HeldState || got.TooLarge != tc.want.TooLarge {
				t.Errorf("Read() = %+v, want %+v", got, tc.want)
			}
			if len(tc.gh.calls) != tc.calls || tc.calls > 0 && tc.gh.calls[0] != fmt.Sprintf("commits acme/code base...head %d", MaxCommits) {
				t.Errorf("calls = %q, want %d, the comparison first", tc.gh.calls, tc.calls)
			}
			for _, c := range tc.gh.calls {
				if c == "branches head" {
					t.Errorf("the branches at the group's head were read: its own branch names its pull request")
				}
				if strings.HasPrefix(c, "status ") && !strings.HasSuffix(c, " "+check.Context) {
					t.Errorf("call %q reads another context than %s", c, check.Context)
				}
			}
			if len(tc.gh.calls) > 3*MaxCommits {
				t.Errorf("%d calls, over the bound", len(tc.gh.calls))
			}
			d := check.DecideGroup(got.Facts(), "head", "https://github.com/acme/code/actions/runs/1")
			s := d.Sets[0].Status
			if s.State != tc.state || !strings.HasPrefix(s.Description, tc.status) || s.Context != check.Context ||
				s.TargetURL != "https://github.com/acme/code/actions/runs/1" || len([]rune(s.Description)) > ghclient.MaxStatusDescription {
				t.Errorf("Status() = %+v, want %s %q...", s, tc.state, tc.status)
			}
		})
	}
}

// TestReadFails returns what could not be read: the run sets an error.
func TestReadFails(t *testing.T) {
	t.Parallel()
	for _, fail := range []string{"commits", "branches", "pull", "status"} {
		gh := &recorder{fail: fail, commits: []ghclient.Commit{{SHA: "c1", Parents: 1}, {SHA: "head", Parents: 1}},
			pulls: map[int]*ghclient.PullRequest{13: open(13, "h13")}}
		g := Group{Owner: "acme", Repo: "code", Branch: "main", HeadSHA: "head", HeadRef: "refs/heads/" + queueBranch(13)}
		if v, err := Read(context.Background(), gh, g); err == nil {
			t.Errorf("Read() with %s failing = %+v, want an error", fail, v)
		}
	}
	if s := check.DecideGroup(check.Group{Unread: true}, "head", "").Sets[0].Status; s.State != ghclient.StatusError || s.Context != check.Context {
		t.Errorf("an unread group's status = %+v, want an error", s)
	}
}

// TestQueuePR reads a merge queue's branch names, and nothing else.
func TestQueuePR(t *testing.T) {
	t.Parallel()
	sha := strings.Repeat("a", 40)
	for _, tc := range []struct {
		ref, branch string
		want        int
	}{
		{"refs/heads/gh-readonly-queue/main/pr-104-" + sha, "main", 104},
		{"refs/heads/gh-readonly-queue/release/v2/pr-7-" + sha, "release/v2", 7},
		{"refs/heads/gh-readonly-queue/main/pr-104-" + sha, "v2", 0},
		{"refs/heads/gh-readonly-queue/main/pr-104-" + sha[:39], "main", 0},
		{"refs/heads/gh-readonly-queue/main/pr-104-" + strings.Repeat("A", 40), "main", 0},
		{"refs/heads/gh-readonly-queue/main/pr-0104-" + sha, "main", 0},
		{"refs/heads/gh-readonly-queue/main/pr--" + sha, "main", 0},
		{"refs/heads/gh-readonly-queue/main/pr-12345678901-" + sha, "main", 0},
		{"refs/heads/gh-readonly-queue/main/pr-1x-" + sha, "main", 0},
		{"refs/heads/main", "main", 0},
		{"refs/heads/gh-readonly-queue//pr-1-" + sha, "", 0},
	} {
		if n, ok := queuePR(tc.ref, tc.branch); n != tc.want || ok != (tc.want != 0) {
			t.Errorf("queuePR(%q, %q) = %d, %v; want %d", tc.ref, tc.branch, n, ok, tc.want)
		}
	}
}
