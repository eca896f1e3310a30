// Package docspr judges the docs pull request a code pull request's check
// waits for when the team asks for an approval (docs-check: approved):
// whether it is merged, closed, or approved on its latest commit by a
// reviewer the rules let ask (required-permission, allowed-bots). It reads
// the pull request, its reviews and the reviewers' permissions, and
// returns a Verdict; what the check, the comment or a merge do with it is
// the caller's.
package docspr

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentjob/agent-job-action/internal/admit"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/prlink"
	"github.com/agentjob/agent-job-action/internal/request"
)

// State is where the docs pull request stands for its code pull request.
type State string

// The states.
const (
	// Waiting: open, with no approval that counts on its latest commit.
	Waiting State = "waiting"
	// Approved: open, approved on its latest commit by a reviewer with
	// the permission required-permission names.
	Approved State = "approved"
	// Merged: merged, whatever its reviews.
	Merged State = "merged"
	// Closed: closed without being merged.
	Closed State = "closed"
	// Unread: it, its reviews or its reviewers' permissions could not be
	// read. Nothing is claimed of it.
	Unread State = "unread"
)

// MaxReviewers bounds the permissions one judgment reads: the approvers
// whose permission is read, newest first, before the judgment stops at
// Waiting. A team's approvers are few; a pull request flooded with
// approvals of people without the permission is not read without end.
const MaxReviewers = 5

// Verdict is the docs pull request's state, and what it rests on.
type Verdict struct {
	State State
	// PR is the docs pull request judged; URL its address on GitHub.
	PR  prlink.PullRequest
	URL string
	// HeadSHA is its latest commit when read, the one an approval must
	// be on and a merge must merge.
	HeadSHA string
	// Reviewer is the approval that counts, for Approved.
	Reviewer string
	// Err is why it could not be read, for Unread.
	Err error
}

// Settles reports whether v lets the code pull request's check pass.
func (v Verdict) Settles() bool { return v.State == Approved || v.State == Merged }

// Says is the verdict in a few words for a log or a comment, with the
// pull request's number: "#12 waits for an approving review".
func (v Verdict) Says() string {
	n := fmt.Sprintf("#%d", v.PR.Number)
	switch v.State {
	case Approved:
		return n + " is approved on its latest commit by " + escape.Log(v.Reviewer)
	case Merged:
		return n + " is merged"
	case Closed:
		return n + " was closed without being merged"
	case Unread:
		return n + " could not be read: " + escape.Log(errString(v.Err))
	}
	return n + " waits for an approving review on its latest commit"
}

func errString(err error) string {
	if err == nil {
		return "unknown error"
	}
	return err.Error()
}

// GitHub is what a judgment reads. *ghclient.Client is one.
type GitHub interface {
	PullRequest(ctx context.Context, owner, repo string, number int) (*ghclient.PullRequest, error)
	Reviews(ctx context.Context, owner, repo string, number int, keep ghclient.Keep) ([]*ghclient.Review, error)
	Permission(ctx context.Context, owner, repo, user string) (string, error)
}

var _ GitHub = (*ghclient.Client)(nil)

// Read judges the docs pull request pr with gh, the token for its
// repository, by rules (required-permission, allowed-bots): merged or
// closed as GitHub says; otherwise approved when a reviewer's latest
// review that decides (an approval, a change request, a dismissal) is an
// approval of its latest commit, and the reviewer passes rules in pr's
// repository. Reads that fail make the verdict Unread, never Approved.
func Read(ctx context.Context, gh GitHub, pr prlink.PullRequest, serverURL string, rules admit.Rules) Verdict {
	v := Verdict{State: Unread, PR: pr, URL: pr.URL(serverURL)}
	info, err := gh.PullRequest(ctx, pr.Owner, pr.Repo, pr.Number)
	if err != nil {
		v.Err = err
		return v
	}
	v.HeadSHA = info.HeadSHA
	switch {
	case info.Merged:
		v.State = Merged
		return v
	case !info.Open:
		v.State = Closed
		return v
	}
	// Bodies are not read: an approval is its state, not its text.
	reviews, err := gh.Reviews(ctx, pr.Owner, pr.Repo, pr.Number, func(int64, string, string) string { return "" })
	if err != nil {
		v.Err = err
		return v
	}
	v.State = Waiting
	for i, a := range Approvers(reviews, info.HeadSHA) {
		if i == MaxReviewers {
			break
		}
		r := &request.Request{Author: a.Author, Bot: a.AuthorIsBot}
		level := ""
		if rules.NeedsPermission(r) {
			if level, err = gh.Permission(ctx, pr.Owner, pr.Repo, a.Author); err != nil {
				v.State, v.Err = Unread, err
				return v
			}
		}
		if rules.Permitted(r, level) {
			v.State, v.Reviewer = Approved, a.Author
			return v
		}
	}
	return v
}

// Approvers are the reviewers of reviews (oldest first, as GitHub lists
// them) whose latest review that decides is an approval of head, newest
// first. A comment decides nothing; a change request or a dismissal after
// an approval takes it back; an approval of an older commit is not one of
// head's.
func Approvers(reviews []*ghclient.Review, head string) []*ghclient.Review {
	latest := map[string]int{} // by login, without case: the index of its latest review that decides
	for i, r := range reviews {
		switch r.State {
		case "APPROVED", "CHANGES_REQUESTED", "DISMISSED":
			latest[strings.ToLower(r.Author)] = i
		}
	}
	var out []*ghclient.Review
	for i := len(reviews) - 1; i >= 0; i-- {
		r := reviews[i]
		if j, ok := latest[strings.ToLower(r.Author)]; ok && j == i && r.State == "APPROVED" && head != "" && r.CommitID == head {
			out = append(out, r)
		}
	}
	return out
}
