package ghclient

import (
	"context"
	"errors"
	"net/http"

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
	limit = min(max(limit, 1), PerPage)
	cmp, err := call("list the commits "+Short(base)+"..."+Short(head), owner, repo, []string{base, head}, func() (*github.CommitsComparison, *github.Response, error) {
		return c.gh.Repositories.CompareCommits(ctx, owner, repo, base, head, &github.ListOptions{PerPage: limit})
	})
	if err != nil {
		return nil, 0, err
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
	branches, err := call("list the branches at commit "+Short(sha), owner, repo, []string{sha}, func() ([]*github.BranchCommit, *github.Response, error) {
		return c.gh.Repositories.ListBranchesHeadCommit(ctx, owner, repo, sha)
	})
	if err != nil {
		return nil, err
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
	cs, err := call("read the commit status of "+Short(sha), owner, repo, []string{sha}, func() (*github.CombinedStatus, *github.Response, error) {
		return c.gh.Repositories.GetCombinedStatus(ctx, owner, repo, sha, &github.ListOptions{PerPage: PerPage})
	})
	if err != nil {
		return CommitStatus{}, false, err
	}
	for _, rs := range cs.Statuses {
		if rs.GetContext() == context {
			return CommitStatus{State: rs.GetState(), Context: context, Description: rs.GetDescription(), TargetURL: rs.GetTargetURL()}, true, nil
		}
	}
	return CommitStatus{}, false, nil
}

// Resolve returns the commit ref (a tag, a branch or a SHA) names in
// owner/repo; for one that names none, an error IsNotFound says so.
func (c *Client) Resolve(ctx context.Context, owner, repo, ref string) (string, error) {
	sha, err := call("resolve "+ref, owner, repo, nil, func() (string, *github.Response, error) {
		return c.gh.Repositories.GetCommitSHA1(ctx, owner, repo, ref, "")
	})
	if e := (*github.ErrorResponse)(nil); errors.As(err, &e) && e.Response != nil && e.Response.StatusCode == http.StatusUnprocessableEntity {
		e.Response.StatusCode = http.StatusNotFound // GitHub's 422: no commit by that name
	}
	return sha, err
}
