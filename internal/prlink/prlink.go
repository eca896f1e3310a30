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
	parts, ok := below(link, serverURL)
	if !ok || len(parts) != 4 || parts[2] != "pull" || ghclient.CheckRepo(parts[0], parts[1]) != nil {
		return pr, false
	}
	n, err := strconv.Atoi(parts[3])
	if err != nil || n <= 0 || strconv.Itoa(n) != parts[3] {
		return pr, false
	}
	return PullRequest{Owner: parts[0], Repo: parts[1], Number: n}, true
}

// Repository is a repository on this GitHub, by its checked names.
type Repository struct {
	Owner, Repo string
}

// JudgeRepository reads repoURL, a job's source.repository, as a
// repository on the GitHub at serverURL: an https address, owner/repo
// below its path (a final "/" or ".git" allowed), judged as Judge judges
// a pull request's. ok is false for anything else.
func JudgeRepository(repoURL, serverURL string) (r Repository, ok bool) {
	parts, ok := below(strings.TrimSuffix(strings.TrimSuffix(repoURL, "/"), ".git"), serverURL)
	if !ok || len(parts) != 2 || ghclient.CheckRepo(parts[0], parts[1]) != nil {
		return r, false
	}
	return Repository{Owner: parts[0], Repo: parts[1]}, true
}

// URL is the repository's page, rebuilt from its checked parts.
func (r Repository) URL(serverURL string) string {
	if serverURL == "" {
		serverURL = DefaultServer
	}
	return fmt.Sprintf("%s/%s/%s", strings.TrimRight(serverURL, "/"), r.Owner, r.Repo)
}

// In reports whether pr is in the repository that repoURL, a job's
// source.repository, names: an https address on the GitHub at serverURL,
// owner/repo below its path (a final "/" or ".git" allowed), judged as
// Judge judges a pull request's. Names are compared as GitHub compares
// them, without regard to case. Anything else names no repository, so no
// pull request is in it: docs-token is for the job's own repository only,
// and a job that does not say which that is gets none of it.
func (pr PullRequest) In(repoURL, serverURL string) bool {
	r, ok := JudgeRepository(repoURL, serverURL)
	return ok && strings.EqualFold(r.Owner, pr.Owner) && strings.EqualFold(r.Repo, pr.Repo)
}

// below returns the segments of link's path below the path of the GitHub
// at serverURL (DefaultServer when empty), without a final "/". ok is
// false for another host (github.com.evil.example), credentials or a port
// in the authority (https://github.com@evil.example), another scheme, or
// escapes in the path (%2F, %2E and the like, which have no place in an
// address GitHub gives).
func below(link, serverURL string) (parts []string, ok bool) {
	if serverURL == "" {
		serverURL = DefaultServer
	}
	server, err := url.Parse(serverURL)
	if err != nil {
		return nil, false
	}
	u, err := url.Parse(link)
	if err != nil || u.Scheme != "https" || u.User != nil || u.Opaque != "" || !strings.EqualFold(u.Host, server.Host) {
		return nil, false
	}
	// u.RawPath is set only when the escaped path differs from the
	// decoded one's default encoding.
	if u.RawPath != "" {
		return nil, false
	}
	rest, found := strings.CutPrefix(u.Path, strings.TrimRight(server.Path, "/")+"/")
	if !found {
		return nil, false
	}
	return strings.Split(strings.TrimSuffix(rest, "/"), "/"), true
}

// URL is the pull request's address on the GitHub at serverURL, built from
// its checked parts: the one form of an API's prLink the action links.
func (pr PullRequest) URL(serverURL string) string {
	if serverURL == "" {
		serverURL = DefaultServer
	}
	return fmt.Sprintf("%s/%s/%s/pull/%d", strings.TrimRight(serverURL, "/"), pr.Owner, pr.Repo, pr.Number)
}
