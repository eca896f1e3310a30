package queue

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/codepr"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// recorder is a GitHub that answers from maps and records each call.
type recorder struct {
	commits []ghclient.Commit
	total   int
	pulls   map[string][]*ghclient.PullRequest
	states  map[string]string
	fail    string // the call that fails
	calls   []string
}

func (r *recorder) Commits(_ context.Context, owner, repo, base, head string, limit int) ([]ghclient.Commit, int, error) {
	r.calls = append(r.calls, fmt.Sprintf("commits %s/%s %s...%s %d", owner, repo, base, head, limit))
	if r.fail == "commits" {
		return nil, 0, errors.New("compare: HTTP 500")
	}
	return r.commits, max(r.total, len(r.commits)), nil
}

func (r *recorder) CommitPulls(_ context.Context, _, _, sha string) ([]*ghclient.PullRequest, error) {
	r.calls = append(r.calls, "pulls "+sha)
	if r.fail == "pulls" {
		return nil, errors.New("pulls: HTTP 500")
	}
	return r.pulls[sha], nil
}

func (r *recorder) StatusState(_ context.Context, _, _, sha, context string) (string, error) {
	r.calls = append(r.calls, "status "+sha+" "+context)
	if r.fail == "status" {
		return "", errors.New("status: HTTP 500")
	}
	return r.states[sha], nil
}

func open(n int, head string) *ghclient.PullRequest {
	return &ghclient.PullRequest{Number: n, HeadSHA: head, Base: "main", Open: true}
}

func TestRead(t *testing.T) {
	t.Parallel()
	g := Group{Owner: "acme", Repo: "code", HeadSHA: "head", BaseSHA: "base", Branch: "main"}
	two := func(states map[string]string) *recorder {
		// Two pull requests merged by the queue: each one's commit, then
		// the queue's merge commit.
		return &recorder{
			commits: []ghclient.Commit{{SHA: "c1", Parents: 1}, {SHA: "m1", Parents: 2}, {SHA: "c2", Parents: 1}, {SHA: "m2", Parents: 2}},
			pulls:   map[string][]*ghclient.PullRequest{"c1": {open(12, "h12")}, "c2": {open(13, "h13"), {Number: 9, Base: "main"}, {Number: 8, Base: "v2", Open: true}}},
			states:  states,
		}
	}
	cases := []struct {
		name   string
		gh     *recorder
		want   Verdict
		calls  int
		status string
		state  string
	}{
		{name: "all settled", gh: two(map[string]string{"h12": "success", "h13": "success"}),
			want: Verdict{PRs: []int{12, 13}}, calls: 7, state: "success", status: "Docs settled for all 2 pull requests in the merge group"},
		{name: "the second pending", gh: two(map[string]string{"h12": "success", "h13": "pending"}),
			want: Verdict{PRs: []int{12, 13}, Held: 13, HeldState: "pending"}, calls: 7, state: "failure", status: "#13 holds the merge group back: its docs check is pending"},
		{name: "the first never checked, the second not read", gh: two(map[string]string{"h13": "success"}),
			want: Verdict{PRs: []int{12}, Held: 12}, calls: 6, state: "failure", status: "#12 holds the merge group back: its docs check is not set"},
		{name: "a failed docs job", gh: two(map[string]string{"h12": "error", "h13": "success"}),
			want: Verdict{PRs: []int{12}, Held: 12, HeldState: "error"}, calls: 6, state: "failure", status: "#12 holds the merge group back: its docs check is failed"},
		{name: "too many commits, none looked up", gh: &recorder{commits: []ghclient.Commit{{SHA: "c1", Parents: 1}}, total: MaxCommits + 1},
			want: Verdict{TooLarge: MaxCommits + 1}, calls: 1, state: "failure", status: fmt.Sprintf("The merge group holds %d commits or pull requests, over the %d this check reads", MaxCommits+1, MaxCommits)},
		{name: "a commit of nobody's", gh: &recorder{commits: []ghclient.Commit{{SHA: "c1", Parents: 1}, {SHA: "0123456789abcdef0123456789abcdef01234567", Parents: 1}},
			pulls: map[string][]*ghclient.PullRequest{"c1": {open(12, "h12")}}},
			want: Verdict{PRs: []int{12}, Orphan: "0123456789abcdef0123456789abcdef01234567"}, calls: 3, state: "failure", status: "Commit 0123456 of the merge group is in no open pull request"},
		{name: "no commits", gh: &recorder{}, want: Verdict{}, calls: 1, state: "failure", status: "No pull request found in the merge group"},
		{name: "one pull request", gh: &recorder{commits: []ghclient.Commit{{SHA: "c1", Parents: 1}}, pulls: map[string][]*ghclient.PullRequest{"c1": {open(12, "h12")}}, states: map[string]string{"h12": "success"}},
			want: Verdict{PRs: []int{12}}, calls: 3, state: "success", status: "Docs settled for #12, the merge group's one pull request"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Read(context.Background(), tc.gh, g)
			if err != nil {
				t.Fatalf("Read() error = %v", err)
			}
			if !slices.Equal(got.PRs, tc.want.PRs) || got.Held != tc.want.Held || got.HeldState != tc.want.HeldState || got.TooLarge != tc.want.TooLarge || got.Orphan != tc.want.Orphan {
				t.Errorf("Read() = %+v, want %+v", got, tc.want)
			}
			if len(tc.gh.calls) != tc.calls || tc.gh.calls[0] != fmt.Sprintf("commits acme/code base...head %d", MaxCommits) {
				t.Errorf("calls = %q, want %d, the comparison first", tc.gh.calls, tc.calls)
			}
			for _, c := range tc.gh.calls {
				if strings.HasPrefix(c, "status ") && !strings.HasSuffix(c, " "+codepr.StatusContext) {
					t.Errorf("call %q reads another context than %s", c, codepr.StatusContext)
				}
			}
			s := got.Status("https://github.com/acme/code/actions/runs/1")
			if s.State != tc.state || !strings.HasPrefix(s.Description, tc.status) || s.Context != codepr.StatusContext ||
				s.TargetURL != "https://github.com/acme/code/actions/runs/1" || len([]rune(s.Description)) > ghclient.MaxStatusDescription {
				t.Errorf("Status() = %+v, want %s %q...", s, tc.state, tc.status)
			}
			if got.Passes() != (tc.state == "success") {
				t.Errorf("Passes() = %v, want %v", got.Passes(), tc.state == "success")
			}
		})
	}
}

// TestReadFails returns what could not be read: the run sets an error.
func TestReadFails(t *testing.T) {
	t.Parallel()
	for _, fail := range []string{"commits", "pulls", "status"} {
		gh := &recorder{fail: fail, commits: []ghclient.Commit{{SHA: "c1", Parents: 1}}, pulls: map[string][]*ghclient.PullRequest{"c1": {open(12, "h12")}}}
		if v, err := Read(context.Background(), gh, Group{Owner: "acme", Repo: "code", Branch: "main"}); err == nil {
			t.Errorf("Read() with %s failing = %+v, want an error", fail, v)
		}
	}
	if s := Errored(""); s.State != ghclient.StatusError || s.Context != codepr.StatusContext {
		t.Errorf("Errored() = %+v", s)
	}
}
