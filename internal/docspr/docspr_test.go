package docspr

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/agentjob/agent-job-action/internal/admit"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/prlink"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

const head, older = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"

func review(author, state, commit string) *ghclient.Review {
	return &ghclient.Review{Author: author, State: state, CommitID: commit}
}

func TestApprovers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		reviews []*ghclient.Review
		want    []string
	}{
		{"none", nil, nil},
		{"an approval of the head", []*ghclient.Review{review("ann", "APPROVED", head)}, []string{"ann"}},
		{"an approval of an older commit", []*ghclient.Review{review("ann", "APPROVED", older)}, nil},
		{"a comment after an approval keeps it", []*ghclient.Review{review("ann", "APPROVED", head), review("ann", "COMMENTED", head)}, []string{"ann"}},
		{"a change request after it takes it back", []*ghclient.Review{review("ann", "APPROVED", head), review("ANN", "CHANGES_REQUESTED", head)}, nil},
		{"a dismissal takes it back", []*ghclient.Review{review("ann", "APPROVED", head), review("ann", "DISMISSED", head)}, nil},
		{"an approval after a change request", []*ghclient.Review{review("ann", "CHANGES_REQUESTED", older), review("ann", "APPROVED", head)}, []string{"ann"}},
		{"a comment alone", []*ghclient.Review{review("ann", "COMMENTED", head)}, nil},
		{"newest first", []*ghclient.Review{review("bob", "APPROVED", older), review("ann", "APPROVED", head), review("bob", "APPROVED", head)}, []string{"bob", "ann"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, r := range Approvers(tc.reviews, head) {
				got = append(got, r.Author)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Approvers = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestObjectors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		reviews []*ghclient.Review
		want    []string
	}{
		{"none", nil, nil},
		{"a change request of an older commit stands", []*ghclient.Review{review("ann", "CHANGES_REQUESTED", older)}, []string{"ann"}},
		{"a comment after it keeps it", []*ghclient.Review{review("ann", "CHANGES_REQUESTED", older), review("ann", "COMMENTED", head)}, []string{"ann"}},
		{"an approval after it takes it back", []*ghclient.Review{review("ann", "CHANGES_REQUESTED", older), review("ANN", "APPROVED", head)}, nil},
		{"a dismissal takes it back", []*ghclient.Review{review("ann", "DISMISSED", older)}, nil},
		{"newest first", []*ghclient.Review{review("bob", "CHANGES_REQUESTED", older), review("ann", "CHANGES_REQUESTED", head)}, []string{"ann", "bob"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, r := range Objectors(tc.reviews) {
				got = append(got, r.Author)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Objectors = %q, want %q", got, tc.want)
			}
		})
	}
}

// recorder is a GitHub that answers from fields and records each call.
type recorder struct {
	pr      ghclient.PullRequest
	reviews []*ghclient.Review
	levels  map[string]string
	fail    string
	calls   []string
	// crowded says the reviews read are not all of them.
	crowded bool
}

func (r *recorder) PullRequest(_ context.Context, owner, repo string, n int) (*ghclient.PullRequest, error) {
	r.calls = append(r.calls, fmt.Sprintf("pull %s/%s#%d", owner, repo, n))
	if r.fail == "pull" {
		return nil, errors.New("get pull request #5: HTTP 502")
	}
	pr := r.pr
	return &pr, nil
}

func (r *recorder) ReviewsSeen(_ context.Context, _, _ string, _ int, keep ghclient.Keep) ([]*ghclient.Review, bool, error) {
	r.calls = append(r.calls, "reviews")
	if keep == nil || keep(1, "ann", "a body") != "" {
		return nil, false, errors.New("the bodies of reviews were asked for")
	}
	if r.fail == "reviews" {
		return nil, false, errors.New("list reviews: HTTP 502")
	}
	return r.reviews, !r.crowded, nil
}

func (r *recorder) Permission(_ context.Context, owner, repo, user string) (string, error) {
	r.calls = append(r.calls, fmt.Sprintf("permission %s/%s %s", owner, repo, user))
	if r.fail == "permission" {
		return "", errors.New("permission: HTTP 502")
	}
	return r.levels[user], nil
}

func TestRead(t *testing.T) {
	t.Parallel()
	open := ghclient.PullRequest{Number: 5, HeadSHA: head, Open: true}
	many := []*ghclient.Review{}
	for i := range MaxReviewers + 2 {
		many = append(many, review(fmt.Sprintf("reader%d", i), "APPROVED", head))
	}
	objecting := []*ghclient.Review{}
	for i := range MaxReviewers + 1 {
		objecting = append(objecting, review(fmt.Sprintf("reader%d", i), "CHANGES_REQUESTED", head))
	}
	rules := admit.Rules{Required: "write", AllowedBots: []string{"docs-lint[bot]"}}
	cases := []struct {
		name     string
		gh       *recorder
		want     State
		reviewer string
		calls    int
	}{
		{"merged", &recorder{pr: ghclient.PullRequest{Number: 5, Merged: true}}, Merged, "", 1},
		{"closed", &recorder{pr: ghclient.PullRequest{Number: 5}}, Closed, "", 1},
		{"no review", &recorder{pr: open}, Waiting, "", 2},
		{"approved by a writer", &recorder{pr: open, reviews: []*ghclient.Review{review("ann", "APPROVED", head)}, levels: map[string]string{"ann": "write"}}, Approved, "ann", 3},
		{"approved by a reader only", &recorder{pr: open, reviews: []*ghclient.Review{review("ann", "APPROVED", head)}, levels: map[string]string{"ann": "read"}}, Waiting, "", 3},
		{"the reader's approval is newer than the writer's", &recorder{pr: open,
			reviews: []*ghclient.Review{review("wes", "APPROVED", head), review("ann", "APPROVED", head)}, levels: map[string]string{"ann": "read", "wes": "admin"}}, Approved, "wes", 4},
		{"an approval of an older commit", &recorder{pr: open, reviews: []*ghclient.Review{review("ann", "APPROVED", older)}, levels: map[string]string{"ann": "admin"}}, Waiting, "", 2},
		{"a bot not allowed", &recorder{pr: open, reviews: []*ghclient.Review{{Author: "other[bot]", AuthorIsBot: true, State: "APPROVED", CommitID: head}}}, Waiting, "", 2},
		{"a bot allowed, its permission not read", &recorder{pr: open, reviews: []*ghclient.Review{{Author: "docs-lint[bot]", AuthorIsBot: true, State: "APPROVED", CommitID: head}}}, Approved, "docs-lint[bot]", 2},
		{"at most MaxReviewers permissions", &recorder{pr: open, reviews: many, levels: map[string]string{"reader0": "write"}}, Waiting, "", 2 + MaxReviewers},
		{"a writer's change request after another's approval", &recorder{pr: open,
			reviews: []*ghclient.Review{review("wes", "APPROVED", head), review("cal", "CHANGES_REQUESTED", older)}, levels: map[string]string{"wes": "write", "cal": "maintain"}}, Waiting, "", 3},
		{"a reader's change request after a writer's approval", &recorder{pr: open,
			reviews: []*ghclient.Review{review("wes", "APPROVED", head), review("ann", "CHANGES_REQUESTED", head)}, levels: map[string]string{"wes": "write", "ann": "read"}}, Approved, "wes", 4},
		{"at most MaxReviewers change requests read", &recorder{pr: open, reviews: append([]*ghclient.Review{review("wes", "APPROVED", head)}, objecting...),
			levels: map[string]string{"wes": "write"}}, Waiting, "", 2 + MaxReviewers},
		{"more reviews than a judgment reads, a writer's approval among the newest", &recorder{pr: open, crowded: true,
			reviews: []*ghclient.Review{review("wes", "APPROVED", head)}, levels: map[string]string{"wes": "write"}}, Waiting, "", 2},
		{"more reviews than a judgment reads, a writer's change request among those read", &recorder{pr: open, crowded: true,
			reviews: []*ghclient.Review{review("cal", "CHANGES_REQUESTED", older), review("wes", "APPROVED", head)}, levels: map[string]string{"wes": "write", "cal": "write"}}, Waiting, "", 3},
		{"the pull request unread", &recorder{pr: open, fail: "pull"}, Unread, "", 1},
		{"the reviews unread", &recorder{pr: open, fail: "reviews"}, Unread, "", 2},
		{"a permission unread", &recorder{pr: open, reviews: []*ghclient.Review{review("ann", "APPROVED", head)}, fail: "permission"}, Unread, "", 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pr := prlink.PullRequest{Owner: "acme", Repo: "docs", Number: 5}
			v := Read(context.Background(), tc.gh, pr, "https://github.com", rules)
			if v.State != tc.want || v.Reviewer != tc.reviewer {
				t.Errorf("Read = %s by %q (%v), want %s by %q", v.State, v.Reviewer, v.Err, tc.want, tc.reviewer)
			}
			if (v.State == Unread) != (v.Err != nil) {
				t.Errorf("Read's error = %v with state %s", v.Err, v.State)
			}
			if v.Settles() != (tc.want == Approved || tc.want == Merged) {
				t.Errorf("Settles = %v for %s", v.Settles(), v.State)
			}
			if len(tc.gh.calls) != tc.calls || tc.gh.calls[0] != "pull acme/docs#5" {
				t.Errorf("GitHub got %q, want %d calls, the pull request first", tc.gh.calls, tc.calls)
			}
			if v.URL != "https://github.com/acme/docs/pull/5" {
				t.Errorf("URL = %q", v.URL)
			}
		})
	}
}
