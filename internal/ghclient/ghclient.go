// Package ghclient is the action's side of the GitHub conversation: comments
// on the issue or pull request, reactions to the triggering comment, and the
// sender's permission. It wraps go-github and returns the package's own
// small structs, so callers and their fakes never touch go-github types.
package ghclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/google/go-github/v62/github"

	"github.com/agentjob/agent-job-action/internal/httpclient"
)

// DefaultAPIURL is GitHub.com's API, for a GITHUB_API_URL left empty.
const DefaultAPIURL = "https://api.github.com"

// maxListPages bounds ListComments: reading a thread longer than this many
// pages of 100 is not worth the requests.
const maxListPages = 10

// Comment is an issue or pull request comment.
type Comment struct {
	ID          int64
	Body        string
	URL         string // html_url
	Author      string
	AuthorIsBot bool
}

// Client talks to GitHub's REST API with go-github.
type Client struct {
	gh *github.Client
}

// New returns a client for apiURL (GITHUB_API_URL: "" for GitHub.com,
// "https://HOST/api/v3" on GitHub Enterprise Server) authenticated with
// token. httpClient carries the retry policy; nil means http.DefaultClient.
func New(httpClient *http.Client, apiURL, token string) (*Client, error) {
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
	gh := github.NewClient(httpClient).WithAuthToken(token)
	gh.BaseURL = base
	gh.UploadURL = &upload
	return &Client{gh: gh}, nil
}

// CreateComment posts body on issue or pull request number.
func (c *Client) CreateComment(ctx context.Context, owner, repo string, number int, body string) (*Comment, error) {
	ic, _, err := c.gh.Issues.CreateComment(ctx, owner, repo, number, &github.IssueComment{Body: &body})
	if err != nil {
		return nil, fmt.Errorf("create comment on #%d: %w", number, clean(err))
	}
	return fromIssueComment(ic), nil
}

// UpdateComment replaces the body of comment id.
func (c *Client) UpdateComment(ctx context.Context, owner, repo string, id int64, body string) (*Comment, error) {
	ic, _, err := c.gh.Issues.EditComment(ctx, owner, repo, id, &github.IssueComment{Body: &body})
	if err != nil {
		return nil, fmt.Errorf("update comment %d: %w", id, clean(err))
	}
	return fromIssueComment(ic), nil
}

// ListComments returns the comments on issue or pull request number, oldest
// first. On a thread of more than 1000 comments it returns the first page and
// the newest 900: the newest are the ones that name a job to continue.
func (c *Client) ListComments(ctx context.Context, owner, repo string, number int) ([]*Comment, error) {
	opt := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	var out []*Comment
	for n := 0; n < maxListPages; n++ {
		page, resp, err := c.gh.Issues.ListComments(ctx, owner, repo, number, opt)
		if err != nil {
			return nil, fmt.Errorf("list comments on #%d: %w", number, clean(err))
		}
		for _, ic := range page {
			out = append(out, fromIssueComment(ic))
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
		if n == 0 && resp.LastPage > maxListPages {
			opt.Page = resp.LastPage - (maxListPages - 2)
		}
	}
	return out, nil
}

// Reaction kinds: which endpoint a comment's reactions live under.
const (
	KindIssue  = "issue"  // comments on the conversation of an issue or pull request
	KindReview = "review" // pull request review comments, on the diff
)

// AddReaction reacts with content ("eyes", "rocket", ...) to a comment of the
// given kind. Reacting twice with the same content is not an error.
func (c *Client) AddReaction(ctx context.Context, owner, repo string, commentID int64, kind, content string) error {
	var err error
	switch kind {
	case KindIssue:
		_, _, err = c.gh.Reactions.CreateIssueCommentReaction(ctx, owner, repo, commentID, content)
	case KindReview:
		_, _, err = c.gh.Reactions.CreatePullRequestCommentReaction(ctx, owner, repo, commentID, content)
	default:
		return fmt.Errorf("add reaction to comment %d: unknown comment kind %q", commentID, kind)
	}
	if err != nil {
		return fmt.Errorf("add reaction to comment %d: %w", commentID, clean(err))
	}
	return nil
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
	req, err := c.gh.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return "", fmt.Errorf("permission of %s: %w", user, clean(err))
	}
	var p permissionLevel
	resp, err := c.gh.Do(ctx, req, &p)
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return "none", nil
		}
		return "", fmt.Errorf("permission of %s: %w", user, clean(err))
	}
	if slices.Contains(Levels, p.RoleName) {
		return p.RoleName, nil
	}
	if slices.Contains(Levels, p.Permission) {
		return p.Permission, nil
	}
	return "", fmt.Errorf("permission of %s: unknown permission %q", user, p.Permission)
}

// Levels lists GitHub's repository permission levels, lowest first.
var Levels = []string{"none", "read", "triage", "write", "maintain", "admin"}

// PermissionAtLeast reports whether have grants need, in the order of
// Levels. An unknown level on either side grants nothing.
func PermissionAtLeast(have, need string) bool {
	h, n := slices.Index(Levels, have), slices.Index(Levels, need)
	return h >= 0 && n >= 0 && h >= n
}

// IsBot reports whether an account is a bot: GitHub Apps have type "Bot",
// and their logins end in "[bot]" even where a payload says "User".
func IsBot(login, typ string) bool {
	return typ == "Bot" || strings.HasSuffix(login, "[bot]")
}

// IsForbidden reports whether GitHub refused the request for lack of
// permission (403 that is not a rate limit): typically a token without
// issues: write or pull-requests: write, or a fork's read-only token.
func IsForbidden(err error) bool {
	var e *github.ErrorResponse
	return errors.As(err, &e) && e.Response != nil && e.Response.StatusCode == http.StatusForbidden
}

// IsRateLimited reports whether GitHub refused the request for a primary or
// secondary rate limit.
func IsRateLimited(err error) bool {
	var rl *github.RateLimitError
	var abuse *github.AbuseRateLimitError
	var e *github.ErrorResponse
	switch {
	case errors.As(err, &rl), errors.As(err, &abuse):
		return true
	case errors.As(err, &e):
		return e.Response != nil && e.Response.StatusCode == http.StatusTooManyRequests
	}
	return false
}

func fromIssueComment(ic *github.IssueComment) *Comment {
	u := ic.GetUser()
	return &Comment{
		ID:          ic.GetID(),
		Body:        ic.GetBody(),
		URL:         ic.GetHTMLURL(),
		Author:      u.GetLogin(),
		AuthorIsBot: IsBot(u.GetLogin(), u.GetType()),
	}
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
