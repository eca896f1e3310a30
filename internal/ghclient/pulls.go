package ghclient

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/google/go-github/v62/github"
)

// maxReviewCommentPages bounds ReviewComments: a review with more than this
// many pages of line comments is cut, the first ones kept.
const maxReviewCommentPages = 3

// PullRequest is what the action needs to know of a pull request.
type PullRequest struct {
	Number  int
	Author  string // the login that opened it
	HeadRef string // the branch the changes are on
	HeadSHA string // its newest commit
	// HeadRepo is the repository its branch is in (owner/name): a
	// fork's differs from the one it merges into.
	HeadRepo string
	Base     string // the branch it merges into
	// Open is false once it is closed, merged or not; Merged says which.
	Open, Merged bool
}

// PullRequest returns pull request number.
func (c *Client) PullRequest(ctx context.Context, owner, repo string, number int) (*PullRequest, error) {
	pr, err := call(fmt.Sprintf("get pull request #%d", number), owner, repo, nil, func() (*github.PullRequest, *github.Response, error) {
		return c.gh.PullRequests.Get(ctx, owner, repo, number)
	})
	if err != nil {
		return nil, err
	}
	return fromPull(pr), nil
}

func fromPull(pr *github.PullRequest) *PullRequest {
	return &PullRequest{
		Number:   pr.GetNumber(),
		Author:   pr.GetUser().GetLogin(),
		HeadRef:  pr.GetHead().GetRef(),
		HeadSHA:  pr.GetHead().GetSHA(),
		HeadRepo: pr.GetHead().GetRepo().GetFullName(),
		Base:     pr.GetBase().GetRef(),
		Open:     pr.GetState() == "open",
		Merged:   pr.GetMerged(),
	}
}

// RequestReviewers asks the given users to review pull request number.
// GitHub refuses (422) the pull request's author and users who cannot be
// collaborators; asking someone already asked is not an error.
func (c *Client) RequestReviewers(ctx context.Context, owner, repo string, number int, reviewers []string) error {
	if len(reviewers) == 0 {
		return fmt.Errorf("request reviewers on #%d: nobody to ask", number)
	}
	_, err := call(fmt.Sprintf("request reviewers on #%d", number), owner, repo, nil, func() (*github.PullRequest, *github.Response, error) {
		return c.gh.PullRequests.RequestReviewers(ctx, owner, repo, number, github.ReviewersRequest{Reviewers: reviewers})
	})
	return err
}

// ReviewComment is a comment on a line or lines of a pull request's diff,
// made as part of a review.
type ReviewComment struct {
	ID          int64
	ReviewID    int64 // the review it belongs to
	Author      string
	AuthorIsBot bool
	CreatedAt   time.Time
	Path        string // the file, relative to the repository's root
	// Line is the line commented on, or the last of the range; StartLine
	// is the range's first line, 0 for a single line. On a comment the diff
	// has since outdated they are the lines the reviewer saw.
	Line      int
	StartLine int
	Side      string // RIGHT (the new version) or LEFT (the old)
	Body      string
	DiffHunk  string // the diff around the line, as the reviewer saw it
	URL       string // html_url
}

// ReviewComments returns the line comments of one review of pull request
// number, in GitHub's order. A review with more than 300 is cut there. Each
// page is read by readPage, so a page too large for the response cap is
// read in parts, as every other list is.
func (c *Client) ReviewComments(ctx context.Context, owner, repo string, number int, reviewID int64) ([]*ReviewComment, error) {
	list := func(page, perPage int) ([]*github.PullRequestComment, *github.Response, error) {
		return c.gh.PullRequests.ListReviewComments(ctx, owner, repo, number, reviewID, &github.ListOptions{PerPage: perPage, Page: page})
	}
	// Every line comment of the review is part of its request: no body is
	// dropped as it arrives.
	keepAll := func(*github.PullRequestComment) {}
	var out []*ReviewComment
	for page := 1; page != 0 && page <= maxReviewCommentPages; {
		items, l, err := readPage(fmt.Sprintf("list comments of review %d", reviewID), owner, repo, page, list, keepAll)
		if err != nil {
			return nil, err
		}
		for _, rc := range items {
			out = append(out, fromReviewComment(rc))
		}
		page = l.next
	}
	return out, nil
}

// Request is line comment c as a request.
func (c *ReviewComment) Request() *request.Request {
	return &request.Request{Key: request.Key{Kind: request.Line, ID: c.ID},
		Author: c.Author, Bot: c.AuthorIsBot, Body: c.Body, URL: c.URL, At: c.CreatedAt,
		Place:    request.Place{Path: c.Path, Line: c.Line, StartLine: c.StartLine, Side: c.Side, DiffHunk: c.DiffHunk},
		ReviewID: c.ReviewID}
}

func fromReviewComment(rc *github.PullRequestComment) *ReviewComment {
	line, start := rc.GetLine(), rc.GetStartLine()
	// GitHub nulls line and start_line once a later push outdates the
	// comment; the original ones still say what the reviewer pointed at.
	if rc.Line == nil {
		line, start = rc.GetOriginalLine(), rc.GetOriginalStartLine()
	}
	return &ReviewComment{
		ID:          rc.GetID(),
		ReviewID:    rc.GetPullRequestReviewID(),
		Author:      rc.GetUser().GetLogin(),
		AuthorIsBot: request.IsBot(rc.GetUser().GetLogin(), rc.GetUser().GetType()),
		CreatedAt:   rc.GetCreatedAt().Time,
		Path:        rc.GetPath(),
		Line:        line,
		StartLine:   start,
		Side:        rc.GetSide(),
		Body:        rc.GetBody(),
		DiffHunk:    rc.GetDiffHunk(),
		URL:         rc.GetHTMLURL(),
	}
}

// LineComments returns the newest PerPage comments on lines of pull
// request number's diff, of every review, oldest first, with the bodies
// keep keeps: one list request, newest first as GitHub can sort them (read
// in parts when too large).
func (c *Client) LineComments(ctx context.Context, owner, repo string, number int, keep Keep) ([]*ReviewComment, error) {
	list, _, err := readPage(fmt.Sprintf("list line comments on #%d", number), owner, repo, 1, func(page, perPage int) ([]*github.PullRequestComment, *github.Response, error) {
		opt := &github.PullRequestListCommentsOptions{Sort: "created", Direction: "desc", ListOptions: github.ListOptions{PerPage: perPage, Page: page}}
		return c.gh.PullRequests.ListComments(ctx, owner, repo, number, opt)
	}, func(rc *github.PullRequestComment) {
		keep.cut(rc.GetID(), rc.GetUser().GetLogin(), rc.Body)
		if rc.Body != nil && *rc.Body == "" {
			// Its hunk is read for the prompt only with its text.
			rc.DiffHunk = nil
		}
	})
	if err != nil {
		return nil, err
	}
	out := make([]*ReviewComment, 0, len(list))
	for _, rc := range slices.Backward(list) {
		out = append(out, fromReviewComment(rc))
	}
	return out, nil
}

// Review is a submitted review of a pull request.
type Review struct {
	ID          int64
	Author      string
	AuthorIsBot bool
	Body        string
	URL         string // html_url
	SubmittedAt time.Time
	// State is GitHub's: APPROVED, CHANGES_REQUESTED, COMMENTED or
	// DISMISSED.
	State string
	// CommitID is the commit the review was made on; "" when GitHub
	// names none.
	CommitID string
}

// Reviews returns the newest submitted reviews of pull request number,
// oldest first: at least the newest PerPage when there are that many. GitHub
// lists reviews oldest first, so it costs page 1 and, in a pull request with
// more than PerPage reviews, the last page, and the one before it when
// that is not page 1 (each read in parts when too large), with the bodies
// keep keeps.
func (c *Client) Reviews(ctx context.Context, owner, repo string, number int, keep Keep) ([]*Review, error) {
	out, _, err := c.reviews(ctx, owner, repo, number, keep, false)
	return out, err
}

// ReviewsSeen returns the oldest and the newest submitted reviews of pull
// request number, oldest first, at the cost of Reviews (three pages at
// most, whatever their count), and whether they are all of them (whole):
// a flood of reviews between the oldest page and the newest two is not
// read, and a caller that must see every review that decides (a change
// request) can tell.
func (c *Client) ReviewsSeen(ctx context.Context, owner, repo string, number int, keep Keep) (reviews []*Review, whole bool, err error) {
	return c.reviews(ctx, owner, repo, number, keep, true)
}

// reviews reads pages as Reviews says; oldest keeps page 1 when the newest
// pages are others.
func (c *Client) reviews(ctx context.Context, owner, repo string, number int, keep Keep, oldest bool) ([]*Review, bool, error) {
	list := func(page, perPage int) ([]*github.PullRequestReview, *github.Response, error) {
		return c.gh.PullRequests.ListReviews(ctx, owner, repo, number, &github.ListOptions{PerPage: perPage, Page: page})
	}
	shrink := func(r *github.PullRequestReview) { keep.cut(r.GetID(), r.GetUser().GetLogin(), r.Body) }
	what := fmt.Sprintf("list reviews of #%d", number)
	all, l, err := readPage(what, owner, repo, 1, list, shrink)
	whole := l.last <= 3
	if err == nil && l.last > 1 {
		// The newest are on the last page; with the page before it, at
		// least PerPage of them. Page 1 is that page when there are two.
		var before, last []*github.PullRequestReview
		if l.last > 2 {
			before, _, err = readPage(what, owner, repo, l.last-1, list, shrink)
			if oldest {
				before = append(all, before...)
			}
		} else {
			before = all
		}
		if err == nil {
			last, _, err = readPage(what, owner, repo, l.last, list, shrink)
		}
		all = append(before, last...)
	}
	if err != nil {
		return nil, false, err
	}
	var out []*Review
	for _, r := range all {
		if r.GetState() == "PENDING" || r.SubmittedAt == nil {
			continue // a draft only its author sees
		}
		out = append(out, &Review{
			ID:          r.GetID(),
			Author:      r.GetUser().GetLogin(),
			AuthorIsBot: request.IsBot(r.GetUser().GetLogin(), r.GetUser().GetType()),
			Body:        r.GetBody(),
			URL:         r.GetHTMLURL(),
			SubmittedAt: r.GetSubmittedAt().Time,
			State:       r.GetState(),
			CommitID:    r.GetCommitID(),
		})
	}
	return out, whole, nil
}

// OpenPull is an open pull request as a list of them shows it: whose it
// is and where its head is, nothing of its text.
type OpenPull struct {
	Number  int
	HeadSHA string // the head's newest commit
	// HeadRepo is the head's repository, owner/name: a fork's differs
	// from the base's, and it is "" when the fork was deleted.
	HeadRepo    string
	Author      string // the login that opened it
	AuthorIsBot bool
	Labels      []string
}

// OpenPulls lists the open pull requests of owner/repo, the oldest first,
// at most maxPages pages of PerPage: one request a page (a page over the
// response cap is read again in parts, as readPage does), and more says
// GitHub has more after them. Their titles and bodies are dropped as each
// page arrives. The oldest come first so that a bounded read always
// reaches the pull requests that have waited longest.
func (c *Client) OpenPulls(ctx context.Context, owner, repo string, maxPages int) (pulls []OpenPull, more bool, err error) {
	if err := CheckRepo(owner, repo); err != nil {
		return nil, false, fmt.Errorf("list the open pull requests: %w", err)
	}
	if maxPages < 1 {
		return nil, false, fmt.Errorf("list the open pull requests of %s/%s: %d pages is none", owner, repo, maxPages)
	}
	list := func(page, perPage int) ([]*github.PullRequest, *github.Response, error) {
		opt := &github.PullRequestListOptions{State: "open", Sort: "created", Direction: "asc", ListOptions: github.ListOptions{Page: page, PerPage: perPage}}
		return c.gh.PullRequests.List(ctx, owner, repo, opt)
	}
	dropText := func(pr *github.PullRequest) { pr.Title, pr.Body = nil, nil }
	for page := 1; page <= maxPages; page++ {
		items, l, err := readPage("list the open pull requests of "+owner+"/"+repo, owner, repo, page, list, dropText)
		if err != nil {
			return nil, false, err
		}
		for _, pr := range items {
			pulls = append(pulls, fromOpenPull(pr))
		}
		if l.next == 0 {
			return pulls, false, nil
		}
	}
	return pulls, true, nil
}

// PullsAt lists the open pull requests of owner/repo that hold commit sha,
// whatever their head: one request, of the first PerPage; more says GitHub
// has more. GitHub lists none for a commit of the default branch, and no
// fork's for a commit only the fork has.
func (c *Client) PullsAt(ctx context.Context, owner, repo, sha string) (pulls []OpenPull, more bool, err error) {
	if !isSHA(sha) {
		return nil, false, fmt.Errorf("list the pull requests at a commit: %q is not a commit SHA", sha)
	}
	items, l, err := readPage("list the pull requests at "+Short(sha), owner, repo, 1, func(page, perPage int) ([]*github.PullRequest, *github.Response, error) {
		return c.gh.PullRequests.ListPullRequestsWithCommit(ctx, owner, repo, sha, &github.ListOptions{Page: page, PerPage: perPage})
	}, func(pr *github.PullRequest) { pr.Title, pr.Body = nil, nil })
	for _, pr := range items {
		if pr.GetState() == "open" {
			pulls = append(pulls, fromOpenPull(pr))
		}
	}
	return pulls, l.next != 0, err
}

func fromOpenPull(pr *github.PullRequest) OpenPull {
	out := OpenPull{Number: pr.GetNumber(), HeadSHA: pr.GetHead().GetSHA(), HeadRepo: pr.GetHead().GetRepo().GetFullName(),
		Author: pr.GetUser().GetLogin(), AuthorIsBot: request.IsBot(pr.GetUser().GetLogin(), pr.GetUser().GetType())}
	for _, l := range pr.Labels {
		out.Labels = append(out.Labels, l.GetName())
	}
	return out
}
