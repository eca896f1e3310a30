package ghclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-github/v62/github"
)

// Merge merges pull request number with method (merge, squash or rebase;
// "" for the repository's default), only if its head is still sha: a
// commit pushed since is not merged unseen. It returns the merge commit.
// A merge sent twice would merge what came after the first, so it is sent
// once, never repeated (see Client).
func (c *Client) Merge(ctx context.Context, owner, repo string, number int, sha, method string) (string, error) {
	res, err := call(fmt.Sprintf("merge pull request #%d", number), owner, repo, []string{sha}, func() (*github.PullRequestMergeResult, *github.Response, error) {
		return c.once.PullRequests.Merge(ctx, owner, repo, number, "", &github.PullRequestOptions{SHA: sha, MergeMethod: method})
	})
	return res.GetSHA(), err
}

// MergeRefused reports whether err is GitHub's refusal of a merge as
// such, with its reason: the pull request is not mergeable (405: a
// conflict, a required check or review missing, a rule), its head moved
// (409), or the request was invalid (422). A refusal for lack of access
// (403) is not one: IsForbidden tells it, and its advice is the token's.
func MergeRefused(err error) (reason string, ok bool) {
	var e *github.ErrorResponse
	if !errors.As(err, &e) || e.Response == nil {
		return "", false
	}
	switch e.Response.StatusCode {
	case http.StatusMethodNotAllowed, http.StatusConflict, http.StatusUnprocessableEntity:
		if e.Message == "" {
			return fmt.Sprintf("HTTP %d", e.Response.StatusCode), true
		}
		return e.Message, true
	}
	return "", false
}

// ClosePull closes pull request number without merging it. Closing a
// closed one changes nothing: the call may be repeated.
func (c *Client) ClosePull(ctx context.Context, owner, repo string, number int) error {
	_, err := call(fmt.Sprintf("close pull request #%d", number), owner, repo, nil, func() (*github.PullRequest, *github.Response, error) {
		return c.gh.PullRequests.Edit(ctx, owner, repo, number, &github.PullRequest{State: github.String("closed")})
	})
	return err
}
