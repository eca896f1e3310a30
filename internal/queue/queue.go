// Package queue is a merge queue's check: which pull requests a merge
// group holds, read from GitHub (the commits from the group's base to its
// head, and the merge queue's own branches among the branches at each),
// and whether each has its docs settled (its own head's commit status
// check.Context is success). It reads, within MaxCommits; it sets
// nothing and sends the agent nothing: the Verdict is a value, which
// package check turns into the group's status (Facts).
package queue

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// MaxCommits bounds what a group's check reads: the commits from its base
// to its head, and so the pull requests they belong to, and its GitHub
// requests, at most 3*MaxCommits (the comparison, the branches at each
// commit but the head, and each pull request and its status). A larger
// group is not read, and its check fails (Verdict.TooLarge): a group
// whose pull requests were not all read does not pass.
const MaxCommits = 50

// GitHub is what Read reads. *ghclient.Client is one.
type GitHub interface {
	Commits(ctx context.Context, owner, repo, base, head string, limit int) ([]ghclient.Commit, int, error)
	BranchesAt(ctx context.Context, owner, repo, sha string) ([]string, error)
	PullRequest(ctx context.Context, owner, repo string, number int) (*ghclient.PullRequest, error)
	Status(ctx context.Context, owner, repo, sha, context string) (ghclient.CommitStatus, bool, error)
}

var _ GitHub = (*ghclient.Client)(nil)

// Group is the merge group a merge_group event names: its repository,
// the commit the queue asks the checks on, the base commit it is built
// on, the branch it merges into, and the queue's branch for it
// (gh-readonly-queue/<branch>/pr-<number>-<sha>, as a full ref), which
// names its last pull request.
type Group struct {
	Owner, Repo      string
	HeadSHA, BaseSHA string
	Branch           string
	HeadRef          string
}

// Verdict is what the check found of a group.
type Verdict struct {
	// PRs are the group's pull requests read, in the queue's order, up
	// to Held.
	PRs []int
	// Held is the first pull request whose docs are not settled, 0 when
	// all are; HeldState is its status's state ("" for none, "closed"
	// for a pull request no longer open into the group's branch).
	Held      int
	HeldState string
	// TooLarge is how many commits the group holds when that is over
	// MaxCommits, 0 otherwise.
	TooLarge int
}

// Read reads g's pull requests and their docs checks, in the queue's
// order, and stops at the first whose docs are not settled. A merge queue
// builds each pull request's group on the group of the one ahead of it,
// on a branch of its own, whatever the merge method (merge commits,
// squashed or rebased commits): the pull requests ahead are those whose
// queue branch is at a commit of the group, and the last is the one g's
// own branch names.
func Read(ctx context.Context, gh GitHub, g Group) (Verdict, error) {
	last, ok := queuePR(g.HeadRef, g.Branch)
	if !ok {
		// Not a queue's branch: nobody's docs can be told.
		return Verdict{}, nil
	}
	commits, total, err := gh.Commits(ctx, g.Owner, g.Repo, g.BaseSHA, g.HeadSHA, MaxCommits)
	if err != nil {
		return Verdict{}, err
	}
	if total > MaxCommits {
		return Verdict{TooLarge: total}, nil
	}
	var v Verdict
	for _, c := range commits {
		if c.SHA == g.HeadSHA {
			continue
		}
		names, err := gh.BranchesAt(ctx, g.Owner, g.Repo, c.SHA)
		if err != nil {
			return Verdict{}, err
		}
		for _, name := range names {
			if n, ok := queuePR("refs/heads/"+name, g.Branch); ok && n != last && !slices.Contains(v.PRs, n) {
				v.PRs = append(v.PRs, n)
			}
		}
	}
	v.PRs = append(v.PRs, last)
	for i, n := range v.PRs {
		pr, err := gh.PullRequest(ctx, g.Owner, g.Repo, n)
		if err != nil {
			return Verdict{}, err
		}
		if pr.Merged && n != last {
			// Merged ahead of the group while its queue branch stayed:
			// its docs are the past's, no longer the group's to hold.
			continue
		}
		state := "closed"
		if pr.Open && pr.Base == g.Branch {
			s, _, err := gh.Status(ctx, g.Owner, g.Repo, pr.HeadSHA, check.Context)
			if err != nil {
				return Verdict{}, err
			}
			state = s.State
		}
		if state != ghclient.StatusSuccess {
			return Verdict{PRs: v.PRs[:i+1], Held: n, HeldState: state}, nil
		}
	}
	return v, nil
}

// queuePR is the pull request whose group ref is, when ref is a merge
// queue's branch into branch:
// refs/heads/gh-readonly-queue/<branch>/pr-<number>-<the base's SHA>.
// Parsed by hand, not by a regular expression compiled at every start of
// the program, which most runs never use.
func queuePR(ref, branch string) (int, bool) {
	rest, ok := strings.CutPrefix(ref, "refs/heads/gh-readonly-queue/"+branch+"/pr-")
	if !ok || branch == "" {
		return 0, false
	}
	num, sha, ok := strings.Cut(rest, "-")
	if !ok || len(sha) != 40 || strings.Trim(sha, "0123456789abcdef") != "" ||
		num == "" || len(num) > 10 || num[0] == '0' || strings.Trim(num, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	return n, err == nil
}

// Facts is v as the check reads it (check.DecideGroup).
func (v Verdict) Facts() check.Group {
	return check.Group{PRs: v.PRs, Held: v.Held, HeldState: v.HeldState, TooLarge: v.TooLarge, MaxCommits: MaxCommits}
}
