// Package queue is a merge queue's check: which pull requests a merge
// group holds, read from GitHub (the commits from the group's base to its
// head, and the pull requests GitHub associates with each), and whether
// each has its docs settled (its own head's commit status
// codepr.StatusContext is success). It reads, within MaxCommits; it sets
// nothing and sends the agent nothing: the Verdict is a value, which the
// reporter writes as the group's status.
package queue

import (
	"context"
	"fmt"
	"slices"

	"github.com/agentjob/agent-job-action/internal/codepr"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// MaxCommits bounds what a group's check reads: the commits from its base
// to its head, the pull requests they belong to, and so its GitHub
// requests, at most 1 + 2*MaxCommits (the comparison, one look-up of each
// commit's pull requests, one status of each pull request). A larger
// group is not read, and its check fails (Verdict.TooLarge): a group
// whose pull requests were not all read does not pass.
const MaxCommits = 50

// GitHub is what Read reads. *ghclient.Client is one.
type GitHub interface {
	Commits(ctx context.Context, owner, repo, base, head string, limit int) ([]ghclient.Commit, int, error)
	CommitPulls(ctx context.Context, owner, repo, sha string) ([]*ghclient.PullRequest, error)
	StatusState(ctx context.Context, owner, repo, sha, context string) (string, error)
}

var _ GitHub = (*ghclient.Client)(nil)

// Group is the merge group a merge_group event names: its repository,
// the commit the queue asks the checks on, the base commit it is built
// on and the branch it merges into.
type Group struct {
	Owner, Repo      string
	HeadSHA, BaseSHA string
	Branch           string
}

// Verdict is what the check found of a group.
type Verdict struct {
	// PRs are the group's pull requests read, in the order its commits
	// hold them, up to Held.
	PRs []int
	// Held is the first pull request whose docs are not settled, 0 when
	// all are; HeldState is its status's state ("" for none).
	Held      int
	HeldState string
	// TooLarge is how many commits (or pull requests) the group holds
	// when that is over MaxCommits, 0 otherwise.
	TooLarge int
	// Orphan is a commit of the group that no open pull request into the
	// group's branch holds, "" when there is none: what it changes
	// belongs to nobody whose docs could be read.
	Orphan string
}

// Passes reports whether every pull request of the group was read and
// has its docs settled.
func (v Verdict) Passes() bool {
	return v.Held == 0 && v.TooLarge == 0 && v.Orphan == "" && len(v.PRs) > 0
}

// Read reads g's pull requests and their docs checks, in the group's
// order, and stops at the first whose docs are not settled.
func Read(ctx context.Context, gh GitHub, g Group) (Verdict, error) {
	commits, total, err := gh.Commits(ctx, g.Owner, g.Repo, g.BaseSHA, g.HeadSHA, MaxCommits)
	if err != nil {
		return Verdict{}, err
	}
	if total > MaxCommits {
		return Verdict{TooLarge: total}, nil
	}
	var v Verdict
	heads := map[int]string{}
	for _, c := range commits {
		prs, err := gh.CommitPulls(ctx, g.Owner, g.Repo, c.SHA)
		if err != nil {
			return Verdict{}, err
		}
		prs = slices.DeleteFunc(prs, func(pr *ghclient.PullRequest) bool { return !pr.Open || pr.Base != g.Branch })
		if len(prs) == 0 && c.Parents < 2 {
			// A merge commit is the queue's own, joining a pull
			// request to the group; any other commit is someone's
			// change.
			return Verdict{PRs: v.PRs, Orphan: c.SHA}, nil
		}
		for _, pr := range prs {
			if _, seen := heads[pr.Number]; !seen {
				heads[pr.Number] = pr.HeadSHA
				v.PRs = append(v.PRs, pr.Number)
			}
		}
	}
	if len(v.PRs) > MaxCommits {
		return Verdict{TooLarge: len(v.PRs)}, nil
	}
	for i, n := range v.PRs {
		state, err := gh.StatusState(ctx, g.Owner, g.Repo, heads[n], codepr.StatusContext)
		if err != nil {
			return Verdict{}, err
		}
		if state != ghclient.StatusSuccess {
			return Verdict{PRs: v.PRs[:i+1], Held: n, HeldState: state}, nil
		}
	}
	return v, nil
}

// Status is the group's check as v says, linking the run (runURL): it
// names the pull request that holds the group back, and says nothing of
// anyone's text, only numbers and a commit's SHA.
func (v Verdict) Status(runURL string) ghclient.CommitStatus {
	s := ghclient.CommitStatus{Context: codepr.StatusContext, State: ghclient.StatusFailure, TargetURL: escape.URL(runURL)}
	switch {
	case v.TooLarge > 0:
		s.Description = fmt.Sprintf("The merge group holds %d commits or pull requests, over the %d this check reads: it does not pass unread", v.TooLarge, MaxCommits)
	case v.Orphan != "":
		s.Description = fmt.Sprintf("Commit %s of the merge group is in no open pull request into its branch: its docs cannot be checked", ghclient.Short(v.Orphan))
	case len(v.PRs) == 0:
		s.Description = "No pull request found in the merge group: its docs cannot be checked"
	case v.Held != 0:
		s.Description = fmt.Sprintf("#%d holds the merge group back: its docs check is %s", v.Held, heldAs(v.HeldState))
	case len(v.PRs) == 1:
		s.State, s.Description = ghclient.StatusSuccess, fmt.Sprintf("Docs settled for #%d, the merge group's one pull request", v.PRs[0])
	default:
		s.State, s.Description = ghclient.StatusSuccess, fmt.Sprintf("Docs settled for all %d pull requests in the merge group", len(v.PRs))
	}
	return s
}

// Errored is the group's check when it could not be read: an error,
// linking the run, which says why.
func Errored(runURL string) ghclient.CommitStatus {
	return ghclient.CommitStatus{Context: codepr.StatusContext, State: ghclient.StatusError, TargetURL: escape.URL(runURL),
		Description: "The merge group's pull requests could not be read: see the run"}
}

// heldAs says a docs check's state as the status names it.
func heldAs(state string) string {
	switch state {
	case ghclient.StatusPending:
		return "pending"
	case ghclient.StatusFailure, ghclient.StatusError:
		return "failed"
	case "":
		return "not set"
	}
	return "not success"
}
