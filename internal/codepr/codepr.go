// Package codepr is the docs job of a code pull request: which events of
// it act, which of its changes the job hears about (the paths input: the
// whole change for a new job, what is new since the commit the job last
// heard of for one that exists). It decides and reads; the run sends,
// and package check decides the commit status.
package codepr

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/pathfilter"
	"github.com/agentjob/agent-job-action/internal/prompt"
)

// PullRequest is what a pull_request event says of a code pull request.
type PullRequest struct {
	Action      string // opened, reopened, ready_for_review, synchronize, ...
	Owner, Repo string // the base repository
	Number      int
	Draft       bool
	// Fork is true when the head branch is in another repository than the
	// base: GitHub gives such a run no secrets and a read-only token.
	Fork    bool
	HeadSHA string
	// Before is the head before a synchronize; Forced is a push event's
	// own word that the push was forced (a pull_request payload has none,
	// and the comparison tells).
	Before string
	Forced bool
	// BaseSHA is the base branch's commit the event names: comparing it
	// with a head gives the pull request's own change.
	BaseSHA string
	// Retargeted says an edited event moved the pull request to another
	// base branch; Merged says a closed one was merged.
	Retargeted bool
	Merged     bool
	// Release says a labeled event added the release label (release-label):
	// the run releases the check on HeadSHA, once its sender's permission
	// is verified, and sends the job nothing. Sender is who added it.
	Release bool
	Sender  string
	// Held says the team writes the docs once the code is approved
	// (docs-when: approved): a push's run sends nothing, and the check
	// waits for the approval. Approved says the event is an approval of
	// the code (a review submitted approving it), which the run judges
	// by the code pull request's reviews before it sends HeadSHA's change.
	Held, Approved bool
}

// Decide says whether a run acts for pr, and when not, why, in one line
// for the log. A fork's run has no secrets and ends at once; a draft
// starts nothing until it is ready for review; closing acts (it ends the
// job), draft or not; of the other actions, those that open a pull
// request, push to it or move it to another base act.
func Decide(pr PullRequest) (bool, string) {
	switch {
	case pr.Fork:
		return false, fmt.Sprintf("pull request #%d comes from a fork: GitHub gives its runs no secrets, so no docs job is started (see the README's Docs follow code for forks)", pr.Number)
	case pr.Action == "closed":
		return true, ""
	case pr.Release:
		// A draft too: its check may be required once it is ready, and
		// the release says no docs job is needed.
		return true, ""
	case pr.Draft:
		return false, fmt.Sprintf("pull request #%d is a draft: its docs job starts when it is ready for review", pr.Number)
	case pr.Action == "edited" && !pr.Retargeted:
		return false, fmt.Sprintf("pull request #%d was edited but not moved to another base: its change is the same", pr.Number)
	case pr.Approved:
		return true, ""
	}
	if Acts(pr.Action) {
		return true, ""
	}
	return false, fmt.Sprintf("the pull request action %s neither opens, pushes to, retargets nor closes it: only %s are", escape.Log(pr.Action), strings.Join(Actions, ", "))
}

// Actions are the pull_request actions a code pull request's docs job
// follows: the plan routes them here, and Decide judges each event.
var Actions = []string{"opened", "reopened", "ready_for_review", "synchronize", "edited", "closed"}

// Acts reports whether action is one of Actions.
func Acts(action string) bool { return slices.Contains(Actions, action) }

// GitHub is what Read reads.
type GitHub interface {
	PullFiles(ctx context.Context, owner, repo string, number int) ([]*ghclient.File, error)
	Compare(ctx context.Context, owner, repo, base, head string) (*ghclient.Comparison, error)
}

// Changes is what a run found to tell the docs job.
type Changes struct {
	// Files are the changed files that pass the paths filter.
	Files []*ghclient.File
	// Total is how many files changed, filtered or not.
	Total int
	// Whole says that Files are the pull request's whole change: there
	// was no commit the job last heard of, or Again says why it is sent
	// again.
	Whole bool
	// Again says why a job that heard of the pull request hears its
	// whole change again: prompt.Pushed when it does not.
	Again prompt.Again
	// Cut says that GitHub's listing reached its cap (MaxPullFiles): files
	// past it were not seen, so "nothing under paths" cannot be told.
	Cut bool
	// FromBase says the push merged the base branch: of what it changed,
	// Files keep only what the pull request itself changes (Dropped is how
	// many files under paths were left out), each with the pull
	// request's own change as it is now.
	FromBase bool
	Dropped  int
}

// LeavesCut says whether a job that hears c is left with a listing of the
// pull request's files cut at GitHub's cap (check.Facts.Cut): c's own
// listing was cut, or the job heard a cut one before (cut) and c does not
// list the whole change again.
func (c *Changes) LeavesCut(cut bool) bool { return c.Cut || cut && !c.Whole }

// Change is c as a prompt tells it.
func (c *Changes) Change() prompt.Change {
	return prompt.Change{Files: c.Files, Again: c.Again, Cut: c.Cut, FromBase: c.FromBase}
}

// Read returns the changes of pr the docs job has not heard of, filtered
// by paths. since is the head commit the job last heard of: "" for a job
// that does not exist yet, which hears the pull request's whole change.
// Otherwise it is the change from since to pr.HeadSHA, or the whole
// change again when the branch was rewritten since (the event says the
// push was forced, or GitHub's comparison finds that HeadSHA does not
// follow since, or no longer knows since), when the pull request was moved
// to another base, when the push changed more files than a comparison
// lists, or when the comparison's answer is longer than a run reads. A push that merged the base branch is told without what the base
// brought (see ownOnly). A file passes when its name or, for a rename, its
// old name does.
func Read(ctx context.Context, gh GitHub, pr PullRequest, since string, paths *pathfilter.Filter) (*Changes, error) {
	out := &Changes{Whole: since == ""}
	switch {
	case since == "":
	case pr.Forced:
		out.Again = prompt.Rewritten
	case pr.Retargeted:
		out.Again = prompt.Retargeted
	}
	var all []*ghclient.File
	if since != "" && out.Again == prompt.Pushed {
		cmp, err := gh.Compare(ctx, pr.Owner, pr.Repo, since, pr.HeadSHA)
		switch {
		case ghclient.IsNotFound(err):
			out.Again = prompt.Rewritten
		case ghclient.IsTooLarge(err):
			// The pull request's files are read page by page, each page
			// in parts when it is too large itself.
			out.Again = prompt.TooLargeToCompare
		case err != nil:
			return nil, err
		case cmp.Rewritten():
			out.Again = prompt.Rewritten
		case cmp.Cut():
			out.Again = prompt.TooManyToCompare
		default:
			all = cmp.Files
		}
	}
	if out.Again != prompt.Pushed {
		out.Whole = true
	}
	if out.Whole {
		var err error
		if all, err = gh.PullFiles(ctx, pr.Owner, pr.Repo, pr.Number); err != nil {
			return nil, err
		}
		out.Cut = len(all) >= ghclient.MaxPullFiles
	}
	out.Total = len(all)
	out.Files = under(all, paths)
	if !out.Whole && len(out.Files) > 0 && pr.BaseSHA != "" {
		return out, ownOnly(ctx, gh, pr, since, out)
	}
	return out, nil
}

// under returns the files of all that pass paths, by name or old name.
func under(all []*ghclient.File, paths *pathfilter.Filter) []*ghclient.File {
	var out []*ghclient.File
	for _, f := range all {
		if paths.Match(f.Name) || f.Previous != "" && paths.Match(f.Previous) {
			out = append(out, f)
		}
	}
	return out
}

// ownOnly leaves out of c the base branch's changes a push brought by
// merging it. GitHub's comparison base...head is the change since the
// newest commit both follow (the merge base): the pull request's own. When
// that commit is the same for the old head and the new one, the push
// merged nothing of the base, and c stands. Otherwise a file the push
// changed is kept only when the pull request changes it, now or before
// the push (a change it undid is news too), with the pull request's own
// change as it is now when it still changes it. When either comparison
// reaches GitHub's cap or is too large to read, or GitHub does not know
// the base commit, c stands: more is sent rather than less.
func ownOnly(ctx context.Context, gh GitHub, pr PullRequest, since string, c *Changes) error {
	now, err := gh.Compare(ctx, pr.Owner, pr.Repo, pr.BaseSHA, pr.HeadSHA)
	var then *ghclient.Comparison
	if err == nil {
		then, err = gh.Compare(ctx, pr.Owner, pr.Repo, pr.BaseSHA, since)
	}
	switch {
	case ghclient.IsNotFound(err), ghclient.IsTooLarge(err):
		// A base commit GitHub no longer knows (the base was force
		// pushed), or a comparison too large to read: nothing tells the
		// base's changes apart.
		return nil
	case err != nil:
		return err
	case now.MergeBase == then.MergeBase || now.Cut() || then.Cut():
		return nil
	}
	own := map[string]*ghclient.File{}
	for _, f := range then.Files {
		own[f.Name] = nil
	}
	for _, f := range now.Files {
		own[f.Name] = f
	}
	var kept []*ghclient.File
	for _, f := range c.Files {
		mine, ok := own[f.Name]
		if !ok && f.Previous != "" {
			mine, ok = own[f.Previous]
		}
		switch {
		case !ok:
			c.Dropped++
		case mine != nil:
			kept = append(kept, mine)
		default:
			kept = append(kept, f)
		}
	}
	c.Files, c.FromBase = kept, true
	return nil
}

// NothingToSend is the one line a run logs when no change passed the
// filter; "" when some did.
func (c *Changes) NothingToSend() string {
	if len(c.Files) > 0 {
		return ""
	}
	what := "the pull request changes"
	if !c.Whole {
		what = "the new commits change"
	}
	switch {
	case c.Cut:
		return fmt.Sprintf("%s at least %d files, as many as GitHub lists, none of them under paths: nothing to send to the docs job, and the files past them were not seen", what, c.Total)
	case c.Dropped > 0:
		return fmt.Sprintf("%s %s: the %d under paths came from merging the base branch: nothing to send to the docs job", what, files(c.Total), c.Dropped)
	}
	switch c.Total {
	case 0:
		return what + " no file: nothing to send to the docs job"
	case 1:
		return what + " 1 file, not under paths: nothing to send to the docs job"
	}
	return fmt.Sprintf("%s %d files, none under paths: nothing to send to the docs job", what, c.Total)
}

// files says n files, in words.
func files(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}
