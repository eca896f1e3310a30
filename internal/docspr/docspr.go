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

// MaxReviewers bounds the permissions one judgment reads: the reviewers
// who ask for changes, then the approvers, whose permission is read,
// newest first, each at most MaxReviewers, before the judgment stops at
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
	// Objector is the reviewer whose change request holds it, for
	// Waiting; "" when none does.
	Objector string
	// Crowded says, for Waiting, that it has more reviews than one
	// judgment reads (ghclient.ReviewsSeen): no approval counts.
	Crowded bool
	// Err is why it could not be read, for Unread.
	Err error
}

// Approves reports whether v is an approval that counts (Approved).
func (v Verdict) Approves() bool { return v.State == Approved }

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
	if v.Objector != "" {
		return n + " has changes requested by " + escape.Log(v.Objector) + ": it waits for their approval or a dismissal"
	}
	if v.Crowded {
		return n + " has more reviews than one run reads: a change request may be among those unread, so no approval counts"
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
	ReviewsSeen(ctx context.Context, owner, repo string, number int, keep ghclient.Keep) ([]*ghclient.Review, bool, error)
	Permission(ctx context.Context, owner, repo, user string) (string, error)
}

var _ GitHub = (*ghclient.Client)(nil)

// Read judges the docs pull request pr with gh, the token for its
// repository, by rules (required-permission, allowed-bots): merged or
// closed as GitHub says; otherwise approved when a reviewer's latest
// review that decides (an approval, a change request, a dismissal) is an
// approval of its latest commit, and the reviewer passes rules in pr's
// repository, and every review was read (a pull request with more reviews
// than three pages is Waiting, Crowded: the reads are bounded, whatever
// the count). Reads that fail make the verdict Unread, never Approved.
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
	reviews, whole, err := gh.ReviewsSeen(ctx, pr.Owner, pr.Repo, pr.Number, func(int64, string, string) string { return "" })
	if err != nil {
		v.Err = err
		return v
	}
	v.State = Waiting
	// A change request stands, as in GitHub's own review decision, until
	// its reviewer approves or it is dismissed: one by a reviewer the rules
	// let ask holds the check whatever others approve. More change requests
	// than MaxReviewers leave the check waiting unread.
	for i, o := range Objectors(reviews) {
		if i == MaxReviewers {
			return v
		}
		ok, err := permitted(ctx, gh, pr, rules, o)
		if err != nil {
			v.State, v.Err = Unread, err
			return v
		}
		if ok {
			v.Objector = o.Author
			return v
		}
	}
	if !whole {
		// Reviews between the oldest page and the newest were not read:
		// a change request among them would hold the pull request, so no
		// approval counts, however many reviews an outsider adds.
		v.Crowded = true
		return v
	}
	for i, a := range Approvers(reviews, info.HeadSHA) {
		if i == MaxReviewers {
			break
		}
		ok, err := permitted(ctx, gh, pr, rules, a)
		if err != nil {
			v.State, v.Err = Unread, err
			return v
		}
		if ok {
			v.State, v.Reviewer = Approved, a.Author
			return v
		}
	}
	return v
}

// permitted reports whether the author of review r passes rules in pr's
// repository, reading a person's permission there.
func permitted(ctx context.Context, gh GitHub, pr prlink.PullRequest, rules admit.Rules, r *ghclient.Review) (bool, error) {
	level := ""
	if !r.AuthorIsBot {
		var err error
		if level, err = gh.Permission(ctx, pr.Owner, pr.Repo, r.Author); err != nil {
			return false, err
		}
	}
	return rules.Admits(r.Author, r.AuthorIsBot, level), nil
}

// Approvers are the reviewers of reviews (oldest first, as GitHub lists
// them) whose latest review that decides is an approval of head, newest
// first. A comment decides nothing; a change request or a dismissal after
// an approval takes it back; an approval of an older commit is not one of
// head's.
func Approvers(reviews []*ghclient.Review, head string) []*ghclient.Review {
	return latest(reviews, func(r *ghclient.Review) bool { return r.State == "APPROVED" && head != "" && r.CommitID == head })
}

// Objectors are the reviewers of reviews (oldest first) whose latest
// review that decides is a change request, of any commit, newest first:
// GitHub keeps a change request past later pushes until it is dismissed or
// its reviewer approves.
func Objectors(reviews []*ghclient.Review) []*ghclient.Review {
	return latest(reviews, func(r *ghclient.Review) bool { return r.State == "CHANGES_REQUESTED" })
}

// latest is the reviews of reviews (oldest first) that are their
// reviewer's latest that decides (an approval, a change request, a
// dismissal) and that keep takes, newest first.
func latest(reviews []*ghclient.Review, keep func(*ghclient.Review) bool) []*ghclient.Review {
	last := map[string]int{} // by login, without case: the index of its latest review that decides
	for i, r := range reviews {
		switch r.State {
		case "APPROVED", "CHANGES_REQUESTED", "DISMISSED":
			last[strings.ToLower(r.Author)] = i
		}
	}
	var out []*ghclient.Review
	for i := len(reviews) - 1; i >= 0; i-- {
		r := reviews[i]
		if j, ok := last[strings.ToLower(r.Author)]; ok && j == i && keep(r) {
			out = append(out, r)
		}
	}
	return out
}
