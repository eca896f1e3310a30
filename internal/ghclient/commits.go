package ghclient

import (
	"context"
	"fmt"

	"github.com/google/go-github/v62/github"
)

// Commit is a commit of a comparison: its SHA and how many parents it
// has (two or more for a merge commit).
type Commit struct {
	SHA     string
	Parents int
}

// Commits returns the first commits from base to head, oldest first, at
// most limit (at most PerPage) of them, with how many there are in all:
// one request, whatever their number. Both are commit SHAs.
func (c *Client) Commits(ctx context.Context, owner, repo, base, head string, limit int) ([]Commit, int, error) {
	what := "list the commits " + Short(base) + "..." + Short(head)
	if err := CheckRepo(owner, repo); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", what, err)
	}
	for _, sha := range []string{base, head} {
		if !isSHA(sha) {
			return nil, 0, fmt.Errorf("%s: %q is not a commit SHA", what, sha)
		}
	}
	limit = min(max(limit, 1), PerPage)
	cmp, _, err := c.gh.Repositories.CompareCommits(ctx, owner, repo, base, head, &github.ListOptions{PerPage: limit})
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", what, clean(err))
	}
	var out []Commit
	for _, rc := range cmp.Commits {
		if len(out) == limit {
			break
		}
		out = append(out, Commit{SHA: rc.GetSHA(), Parents: len(rc.Parents)})
	}
	return out, max(cmp.GetTotalCommits(), len(out)), nil
}

// BranchesAt returns the names of the branches whose newest commit is
// sha (a merge queue's temporary branches among them), as GitHub lists
// them in one answer.
func (c *Client) BranchesAt(ctx context.Context, owner, repo, sha string) ([]string, error) {
	what := "list the branches at commit " + Short(sha)
	if err := CheckRepo(owner, repo); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !isSHA(sha) {
		return nil, fmt.Errorf("%s: %q is not a commit SHA", what, sha)
	}
	branches, _, err := c.gh.Repositories.ListBranchesHeadCommit(ctx, owner, repo, sha)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, clean(err))
	}
	out := make([]string, 0, len(branches))
	for _, b := range branches {
		out = append(out, b.GetName())
	}
	return out, nil
}

// Status returns the newest commit status of context on commit sha, as
// GitHub shows it to every pull request at that commit, whoever set it;
// ok is false when it has none. GitHub's combined status keeps the newest
// of each context, one page of PerPage contexts: a commit with more
// contexts than that, whose page leaves this one out, reads as having
// none.
func (c *Client) Status(ctx context.Context, owner, repo, sha, context string) (s CommitStatus, ok bool, err error) {
	what := "read the commit status of " + Short(sha)
	if err := CheckRepo(owner, repo); err != nil {
		return CommitStatus{}, false, fmt.Errorf("%s: %w", what, err)
	}
	if !isSHA(sha) {
		return CommitStatus{}, false, fmt.Errorf("%s: %q is not a commit SHA", what, sha)
	}
	cs, _, err := c.gh.Repositories.GetCombinedStatus(ctx, owner, repo, sha, &github.ListOptions{PerPage: PerPage})
	if err != nil {
		return CommitStatus{}, false, fmt.Errorf("%s: %w", what, clean(err))
	}
	for _, rs := range cs.Statuses {
		if rs.GetContext() == context {
			return CommitStatus{State: rs.GetState(), Context: context, Description: rs.GetDescription(), TargetURL: rs.GetTargetURL()}, true, nil
		}
	}
	return CommitStatus{}, false, nil
}
