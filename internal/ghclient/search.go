package ghclient

import (
	"context"
	"fmt"

	"github.com/google/go-github/v62/github"
)

// Listed is an issue or pull request as a search lists it: its number
// and how many comments it has, which say where its newest page is.
type Listed struct {
	Number   int
	Comments int
}

// PendingPulls lists the open pull requests of owner/repo whose head
// commit's combined status is pending, the oldest first, as GitHub's
// search finds them: one search request, PerPage of them at most; more
// says GitHub found more. Of each, only its number and its comment count
// are kept, as each part of the page arrives: a page over the response
// cap is read again in parts (readPage), so it costs at most eleven
// requests.
//
// The pull requests opened first come first: a settle run reads a bounded
// number of them, and the newest are those whose records its read of the
// repository's newest comments finds. Comments do not move a pull request
// in that order.
func (c *Client) PendingPulls(ctx context.Context, owner, repo string) (found []Listed, more bool, err error) {
	q := fmt.Sprintf("repo:%s/%s is:pr is:open status:pending", owner, repo)
	list, links, err := readPage("search the pull requests whose commit status is pending", owner, repo, 1, func(page, perPage int) ([]*github.Issue, *github.Response, error) {
		res, resp, err := c.gh.Search.Issues(ctx, q, &github.SearchOptions{Sort: "created", Order: "asc", ListOptions: github.ListOptions{Page: page, PerPage: perPage}})
		if err != nil {
			return nil, resp, err
		}
		return res.Issues, resp, nil
	}, func(is *github.Issue) { is.Title, is.Body = nil, nil })
	if err != nil {
		return nil, false, err
	}
	for _, is := range list {
		if is.GetNumber() > 0 && is.IsPullRequest() {
			found = append(found, Listed{Number: is.GetNumber(), Comments: is.GetComments()})
		}
	}
	return found, links.next != 0, nil
}
