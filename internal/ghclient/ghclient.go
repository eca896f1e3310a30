// Package ghclient is the action's side of the GitHub conversation: comments
// on the issue or pull request, reactions to the triggering comment, the
// sender's permission, and the agent's pull request (its details, review
// requests, a review's line comments), and the search of the pull requests
// whose commit status is pending. It wraps go-github and returns the package's own
// small structs, so callers and their fakes never touch go-github types.
package ghclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/request"
)

// DefaultAPIURL is GitHub.com's API, for a GITHUB_API_URL left empty.
const DefaultAPIURL = "https://api.github.com"

// Host is the host of the API at apiURL (GITHUB_API_URL; DefaultAPIURL
// when empty), "" when it is no URL: the host a run's GitHub requests go
// to, which its cost counts.
func Host(apiURL string) string {
	if apiURL == "" {
		apiURL = DefaultAPIURL
	}
	u, err := url.Parse(apiURL)
	if err != nil {
		return ""
	}
	return u.Host
}

// PerPage is the page size of every list request: GitHub's largest, so a
// thread costs as few requests as it can.
const PerPage = 100

// Comment is an issue or pull request comment.
type Comment struct {
	ID          int64
	Body        string
	URL         string // html_url
	Author      string
	AuthorIsBot bool
	CreatedAt   time.Time
	// UpdatedAt is when it was last written: created or edited.
	UpdatedAt time.Time
	// Issue is the number of the issue or pull request it is on, as its
	// issue_url ends; 0 when that does not end in a number.
	Issue int
}

// Client talks to GitHub's REST API with go-github.
//
// Each call says what may be sent again: gh sends the calls that read or
// set a value (listing, reading a permission or a pull request, editing a
// comment's body, adding a reaction, which GitHub answers 200 when it
// exists, requesting reviewers), which are repeated on transient
// failures; once sends the one call that creates something a second
// attempt would create again, a comment.
type Client struct {
	gh   *github.Client
	once *github.Client
}

// New returns a client for apiURL (GITHUB_API_URL: "" for GitHub.com,
// "https://HOST/api/v3" on GitHub Enterprise Server) authenticated with
// token. repeatable carries the policy for calls that may be repeated,
// once the one for calls that must not be (see Client); nil means
// http.DefaultClient.
func New(repeatable, once *http.Client, apiURL, token string) (*Client, error) {
	if token == "" {
		return nil, errors.New("github client: no token")
	}
	if apiURL == "" {
		apiURL = DefaultAPIURL
	}
	base, err := url.Parse(apiURL)
	if err != nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" {
		return nil, fmt.Errorf("github client: GITHUB_API_URL %q is not an http(s) URL", apiURL)
	}
	// go-github resolves paths relative to BaseURL, which drops the last
	// segment ("v3") unless the URL ends in a slash.
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	upload := *base
	if p, ok := strings.CutSuffix(base.Path, "/api/v3/"); ok {
		upload.Path = p + "/api/uploads/"
	} else if base.Host == "api.github.com" {
		upload.Host, upload.Path = "uploads.github.com", "/"
	}
	client := func(hc *http.Client) *github.Client {
		gh := github.NewClient(hc).WithAuthToken(token)
		gh.BaseURL, gh.UploadURL = base, &upload
		return gh
	}
	return &Client{gh: client(repeatable), once: client(once)}, nil
}

// call checks owner/repo and that each of shas is a commit SHA, then
// makes the request f; what says the call in every error.
func call[T any](what, owner, repo string, shas []string, f func() (T, *github.Response, error)) (T, error) {
	var none T
	if err := CheckRepo(owner, repo); err != nil {
		return none, fmt.Errorf("%s: %w", what, err)
	}
	for _, sha := range shas {
		if !isSHA(sha) {
			return none, fmt.Errorf("%s: %q is not a commit SHA", what, sha)
		}
	}
	v, _, err := f()
	if err != nil {
		return none, fmt.Errorf("%s: %w", what, clean(err))
	}
	return v, nil
}

// comment is the comment a call answered with, or its error.
func comment(ic *github.IssueComment, err error) (*Comment, error) {
	if err != nil {
		return nil, err
	}
	return fromIssueComment(ic), nil
}

// CreateComment posts body on issue or pull request number.
func (c *Client) CreateComment(ctx context.Context, owner, repo string, number int, body string) (*Comment, error) {
	return comment(call(fmt.Sprintf("create comment on #%d", number), owner, repo, nil, func() (*github.IssueComment, *github.Response, error) {
		return c.once.Issues.CreateComment(ctx, owner, repo, number, &github.IssueComment{Body: &body})
	}))
}

// UpdateComment replaces the body of comment id.
func (c *Client) UpdateComment(ctx context.Context, owner, repo string, id int64, body string) (*Comment, error) {
	return comment(call(fmt.Sprintf("update comment %d", id), owner, repo, nil, func() (*github.IssueComment, *github.Response, error) {
		return c.gh.Issues.EditComment(ctx, owner, repo, id, &github.IssueComment{Body: &body})
	}))
}

// GetComment returns the comment id as it is now.
func (c *Client) GetComment(ctx context.Context, owner, repo string, id int64) (*Comment, error) {
	return comment(call(fmt.Sprintf("get comment %d", id), owner, repo, nil, func() (*github.IssueComment, *github.Response, error) {
		return c.gh.Issues.GetComment(ctx, owner, repo, id)
	}))
}

// CommentPage is one page of the comments on an issue or pull request.
type CommentPage struct {
	Comments []*Comment // oldest first, as GitHub lists them
	// Next is the page after this one, 0 when this is the last.
	Next int
	// Last is the last page as GitHub's Link header names it, 0 when it
	// names none (GitHub leaves rel="last" out on the last page itself).
	Last int
}

// Keep decides, as a list is read, what of each text is kept: it sees
// each item's id, author and body, and returns what to keep of the body
// ("" to drop it). Texts are cut as each part of a page arrives, so a list
// costs the texts kept, not every text read. A nil Keep keeps all.
type Keep func(id int64, author, body string) string

// cut replaces *body with what k keeps of it.
func (k Keep) cut(id int64, author string, body *string) {
	if k != nil && body != nil {
		*body = k(id, author, *body)
	}
}

// ListCommentsPage returns page (from 1) of the comments on issue or pull
// request number, PerPage to a page, with the bodies keep keeps. GitHub
// lists them oldest first and has no other order, so a reader that wants
// the newest computes their page.
func (c *Client) ListCommentsPage(ctx context.Context, owner, repo string, number, page int, keep Keep) (*CommentPage, error) {
	return c.listComments(ctx, owner, repo, number, page, keep, github.IssueListCommentsOptions{}, fmt.Sprintf("comments on #%d", number))
}

// ListRepoCommentsPage returns page (from 1) of the comments on every
// issue and pull request of the repository, the most recently written
// first, PerPage to a page, with the bodies keep keeps.
func (c *Client) ListRepoCommentsPage(ctx context.Context, owner, repo string, page int, keep Keep) (*CommentPage, error) {
	newest := github.IssueListCommentsOptions{Sort: github.String("updated"), Direction: github.String("desc")}
	return c.listComments(ctx, owner, repo, 0, page, keep, newest, "the repository's comments")
}

// listComments reads page of the comments of issue number, or of the whole
// repository for 0, in the order opt asks, with the bodies keep keeps;
// what names them in an error.
func (c *Client) listComments(ctx context.Context, owner, repo string, number, page int, keep Keep, opt github.IssueListCommentsOptions, what string) (*CommentPage, error) {
	list, links, err := readPage("list "+what, owner, repo, page, func(page, perPage int) ([]*github.IssueComment, *github.Response, error) {
		opt.ListOptions = github.ListOptions{PerPage: perPage, Page: page}
		return c.gh.Issues.ListComments(ctx, owner, repo, number, &opt)
	}, func(ic *github.IssueComment) { keep.cut(ic.GetID(), ic.GetUser().GetLogin(), ic.Body) })
	if err != nil {
		return nil, err
	}
	out := &CommentPage{Next: links.next, Last: links.last}
	for _, ic := range list {
		out.Comments = append(out.Comments, fromIssueComment(ic))
	}
	return out, nil
}

// PartPerPage is the page size a page too large for the response cap is
// read again in: GitHub caps a comment at 65,536 characters, which JSON
// writes in at most 6 bytes each (\u0001), so ten comments and their other
// fields stay under the 4 MiB cap whatever they hold.
const PartPerPage = 10

// links are the pages a list answer's Link header names, 0 for none.
type links struct{ next, last int }

// readPage checks owner/repo, then reads page (from 1) of a list, PerPage
// to a page (what says the list in every error), and passes
// each item to shrink (which may drop its text) as it arrives. A page too
// large for the response cap (70 comments of 65,000 characters) is read
// again as PerPage/PartPerPage pages of PartPerPage, so it is still read
// whole. The cost of such a page: its failed request (at most the cap
// read) and ten requests of less than 4 MiB each.
func readPage[T any](what, owner, repo string, page int, list func(page, perPage int) ([]T, *github.Response, error), shrink func(T)) ([]T, links, error) {
	if err := CheckRepo(owner, repo); err != nil {
		return nil, links{}, fmt.Errorf("%s: %w", what, err)
	}
	items, resp, err := list(page, PerPage)
	if err == nil {
		for _, it := range items {
			shrink(it)
		}
		return items, links{resp.NextPage, resp.LastPage}, nil
	}
	if !errors.Is(err, httpclient.ErrBodyTooLarge) {
		return nil, links{}, fmt.Errorf("%s: %w", what, clean(err))
	}
	const parts = PerPage / PartPerPage
	var out links
	items = nil
	for i := 1; i <= parts; i++ {
		part, resp, err := list((page-1)*parts+i, PartPerPage)
		if err != nil {
			return nil, links{}, fmt.Errorf("%s: %w", what, clean(err))
		}
		for _, it := range part {
			shrink(it)
		}
		items = append(items, part...)
		if resp.LastPage > 0 {
			// Converted to pages of PerPage.
			out.last = (resp.LastPage + parts - 1) / parts
		}
		if resp.NextPage == 0 {
			// This part is the list's last.
			return items, out, nil
		}
	}
	if out.last > page {
		out.next = page + 1
	}
	return items, out, nil
}

// reactions are the contents GitHub accepts; it answers 422 to others.
var reactions = []string{"+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"}

// Reaction is a reaction the token added.
type Reaction struct {
	// By is the login of the token's identity, as GitHub names it.
	By string
	// New is false when the token had already reacted so: GitHub answers
	// 200 with the existing reaction instead of 201.
	New bool
}

// AddReaction reacts with content ("eyes", "rocket", ...) to a comment of the
// given kind (request.Comment or request.Line: which endpoint its reactions
// live under), or, for request.Event, to the issue or pull request itself,
// commentID being its number. Reacting twice with the same content is not
// an error.
func (c *Client) AddReaction(ctx context.Context, owner, repo string, commentID int64, kind request.Kind, content string) (*Reaction, error) {
	what := fmt.Sprintf("add reaction to comment %d", commentID)
	if kind == request.Event {
		what = fmt.Sprintf("add reaction to #%d", commentID)
	}
	if err := CheckRepo(owner, repo); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !slices.Contains(reactions, content) {
		return nil, fmt.Errorf("%s: %q is not a reaction GitHub offers", what, content)
	}
	var (
		r    *github.Reaction
		resp *github.Response
		err  error
	)
	switch kind {
	case request.Comment:
		r, resp, err = c.gh.Reactions.CreateIssueCommentReaction(ctx, owner, repo, commentID, content)
	case request.Line:
		r, resp, err = c.gh.Reactions.CreatePullRequestCommentReaction(ctx, owner, repo, commentID, content)
	case request.Event:
		r, resp, err = c.gh.Reactions.CreateIssueReaction(ctx, owner, repo, int(commentID), content)
	default:
		return nil, fmt.Errorf("%s: a %s takes no reactions", what, kind.Name())
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, clean(err))
	}
	return &Reaction{By: r.GetUser().GetLogin(), New: resp.StatusCode == http.StatusCreated}, nil
}

// get reads the API path u into v with a GET, into a small struct of the
// caller's rather than go-github's where go-github's type graph would grow
// every binary that links the action, or lacks a field.
func (c *Client) get(ctx context.Context, u string, v any) (*github.Response, error) {
	req, err := c.gh.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	return c.gh.Do(ctx, req, v)
}

// permissionLevel is the permission answer. go-github v62's
// RepositoryPermissionLevel has no role_name, the only field that tells
// maintain from write and triage from read.
type permissionLevel struct {
	Permission string `json:"permission"`
	RoleName   string `json:"role_name"`
}

// Permission returns user's role on the repository: admin, maintain, write,
// triage, read or none. A custom role reports its base permission. A user
// GitHub does not know as a collaborator has "none".
func (c *Client) Permission(ctx context.Context, owner, repo, user string) (string, error) {
	u := fmt.Sprintf("repos/%s/%s/collaborators/%s/permission",
		url.PathEscape(owner), url.PathEscape(repo), url.PathEscape(user))
	var p permissionLevel
	resp, err := c.get(ctx, u, &p)
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return "none", nil
		}
		return "", fmt.Errorf("permission of %s: %w", user, clean(err))
	}
	if slices.Contains(request.Levels, p.RoleName) {
		return p.RoleName, nil
	}
	if slices.Contains(request.Levels, p.Permission) {
		return p.Permission, nil
	}
	return "", fmt.Errorf("permission of %s: unknown permission %q", user, p.Permission)
}

// Advice says, in one clause for an error's line, what to do about err, a
// read GitHub refused or did not answer: give the token (the setting named
// token) the permission needs, check the token, wait for the rate limit,
// or check the address and the network.
func Advice(err error, token, needs string) string {
	switch {
	case IsForbidden(err):
		return "the token needs " + needs
	case IsUnauthorized(err):
		return "GitHub refused the token in " + token + ": check that it is the workflow's token or a valid one"
	case IsRateLimited(err):
		return "GitHub's rate limit: run again later"
	}
	return "GitHub did not answer: check GITHUB_API_URL and the network, then run again"
}

// IsForbidden reports whether GitHub refused the request for lack of
// permission (403 that is not a rate limit): typically a token without
// issues: write or pull-requests: write, or a fork's read-only token.
func IsForbidden(err error) bool {
	var e *github.ErrorResponse
	return errors.As(err, &e) && e.Response != nil && e.Response.StatusCode == http.StatusForbidden
}

// IsUnauthorized reports whether GitHub refused the token itself (401).
func IsUnauthorized(err error) bool {
	var e *github.ErrorResponse
	return errors.As(err, &e) && e.Response != nil && e.Response.StatusCode == http.StatusUnauthorized
}

// IsTooLarge reports whether GitHub's answer was longer than the cap on a
// response the run reads (httpclient.ErrBodyTooLarge).
func IsTooLarge(err error) bool { return errors.Is(err, httpclient.ErrBodyTooLarge) }

// IsNotFound reports whether GitHub answered 404: the resource does not
// exist, or, for a private repository, the token may not see it.
func IsNotFound(err error) bool {
	var e *github.ErrorResponse
	return errors.As(err, &e) && e.Response != nil && e.Response.StatusCode == http.StatusNotFound
}

// IsRefusal reports whether GitHub answered the request with a 4xx status
// (a refusal, a missing resource, a rate limit): it did nothing. Any other
// failure (a 5xx, a lost connection) may have come after GitHub acted.
func IsRefusal(err error) bool {
	var e *github.ErrorResponse
	if errors.As(err, &e) && e.Response != nil {
		return e.Response.StatusCode >= 400 && e.Response.StatusCode <= 499
	}
	return IsRateLimited(err)
}

// IsRateLimited reports whether GitHub refused the request for a primary or
// secondary rate limit: as go-github read the answer, or as the HTTP layer
// did when the 429's Retry-After outlasted the run (go-github then saw no
// answer).
func IsRateLimited(err error) bool {
	var rl *github.RateLimitError
	var abuse *github.AbuseRateLimitError
	var e *github.ErrorResponse
	var f *httpclient.Failure
	switch {
	case errors.As(err, &rl), errors.As(err, &abuse):
		return true
	case errors.As(err, &e):
		return e.Response != nil && e.Response.StatusCode == http.StatusTooManyRequests
	case errors.As(err, &f):
		return f.Kind == httpclient.RateLimited && f.Status == http.StatusTooManyRequests
	}
	return false
}

// CheckRepo refuses an owner or repository name that is not a plain GitHub
// name (letters, digits, "-", "_", "."; not "." or ".."). go-github puts
// both into the path unescaped, and a pull request's repository comes from
// the agent's answer: "..", "/" or "?" there would reach another endpoint
// with the token.
func CheckRepo(owner, repo string) error {
	for _, n := range []string{owner, repo} {
		if n == "" || n == "." || n == ".." || len(n) > 100 || strings.ContainsFunc(n, notNameChar) {
			return fmt.Errorf("%s is not a GitHub owner or repository name", escape.Log(n))
		}
	}
	return nil
}

func notNameChar(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
}

func fromIssueComment(ic *github.IssueComment) *Comment {
	return &Comment{
		ID:          ic.GetID(),
		Body:        ic.GetBody(),
		URL:         ic.GetHTMLURL(),
		Author:      ic.GetUser().GetLogin(),
		AuthorIsBot: request.IsBot(ic.GetUser().GetLogin(), ic.GetUser().GetType()),
		CreatedAt:   ic.GetCreatedAt().Time,
		UpdatedAt:   ic.GetUpdatedAt().Time,
		Issue:       issueNumber(ic.GetIssueURL()),
	}
}

// issueNumber is the number an issue's API address ends with, or 0.
func issueNumber(u string) int {
	n, err := strconv.Atoi(u[strings.LastIndexByte(u, '/')+1:])
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// clean keeps URLs out of error text, where go-github's errors put them,
// while errors.As still finds the original.
func clean(err error) error {
	var (
		er *github.ErrorResponse
		rl *github.RateLimitError
		ab *github.AbuseRateLimitError
	)
	switch {
	case errors.As(err, &rl):
		return httpclient.Rewrap("GitHub rate limit exceeded", err)
	case errors.As(err, &ab):
		return httpclient.Rewrap("GitHub secondary rate limit exceeded", err)
	case errors.As(err, &er) && er.Response != nil:
		msg := fmt.Sprintf("HTTP %d", er.Response.StatusCode)
		if er.Message != "" {
			msg += ": " + er.Message
		}
		return httpclient.Rewrap(msg, err)
	}
	return httpclient.StripURLs(err)
}
