// Package prlink judges the link a job reports as its pull request: is it
// a pull request on the GitHub the workflow runs on? It is the one place
// that decides. Everything that acts on the link or shows it as a pull
// request of this GitHub (the pr-number output, the backlink, the review
// request, the comment, the summary and the notice) follows its answer, and
// uses the address it rebuilds from the parts it checked, never the link
// as the API sent it.
package prlink

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// DefaultServer is the GitHub a run talks to when none is named.
const DefaultServer = "https://github.com"

// PullRequest is a pull request on a GitHub.
type PullRequest struct {
	Owner, Repo string
	Number      int
}

// Judge reads link as a pull request on the GitHub at serverURL
// (DefaultServer when empty). ok is false for anything else: another host
// (github.com.evil.example), credentials or a port in the authority
// (https://github.com@evil.example), another scheme, a path that is not
// exactly owner/repo/pull/number below the server's path (dot segments,
// encoded slashes, /issues/3/pull/7), an owner or repository name GitHub
// would not give, or a number that is not a positive decimal. The token is
// for this GitHub only, and the pr-number output must never name a pull
// request of the workflow's own repository that the link does not.
func Judge(link, serverURL string) (pr PullRequest, ok bool) {
	if serverURL == "" {
		serverURL = DefaultServer
	}
	server, err := url.Parse(serverURL)
	if err != nil {
		return pr, false
	}
	u, err := url.Parse(link)
	if err != nil || u.Scheme != "https" || u.User != nil || u.Opaque != "" || !strings.EqualFold(u.Host, server.Host) {
		return pr, false
	}
	// u.RawPath is set only when the escaped path differs from the
	// decoded one's default encoding: %2F, %2E and the like have no place
	// in a pull request's address.
	if u.RawPath != "" {
		return pr, false
	}
	rest, found := strings.CutPrefix(u.Path, strings.TrimRight(server.Path, "/")+"/")
	parts := strings.Split(strings.TrimSuffix(rest, "/"), "/")
	if !found || len(parts) != 4 || parts[2] != "pull" || ghclient.CheckRepo(parts[0], parts[1]) != nil {
		return pr, false
	}
	n, err := strconv.Atoi(parts[3])
	if err != nil || n <= 0 || strconv.Itoa(n) != parts[3] {
		return pr, false
	}
	return PullRequest{Owner: parts[0], Repo: parts[1], Number: n}, true
}

// URL is the pull request's address on the GitHub at serverURL, built from
// its checked parts: the one form of an API's prLink the action links.
func (pr PullRequest) URL(serverURL string) string {
	if serverURL == "" {
		serverURL = DefaultServer
	}
	return fmt.Sprintf("%s/%s/%s/pull/%d", strings.TrimRight(serverURL, "/"), pr.Owner, pr.Repo, pr.Number)
}
