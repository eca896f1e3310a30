// Package codepr is the docs job of a code pull request: which events of
// it act, which of its changes the job hears about (the paths input: the
// whole change for a new job, what is new since the commit the job last
// heard of for one that exists), and the commit status that shows the
// job's outcome on the pull request's head commit. It decides and reads;
// the run sends.
package codepr

import (
	"context"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/pathfilter"
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
}

// Decide says whether a run acts for pr, and when not, why, in one line
// for the log. A draft starts nothing until it is ready for review; a
// fork's run has no secrets and ends at once; of the other actions, those
// that open a pull request or push to it act.
func Decide(pr PullRequest) (bool, string) {
	switch {
	case pr.Fork:
		return false, fmt.Sprintf("pull request #%d comes from a fork: GitHub gives its runs no secrets, so no docs job is started (see the README's Docs follow code for forks)", pr.Number)
	case pr.Draft:
		return false, fmt.Sprintf("pull request #%d is a draft: its docs job starts when it is ready for review", pr.Number)
	}
	switch pr.Action {
	case "opened", "reopened", "ready_for_review", "synchronize":
		return true, ""
	}
	return false, fmt.Sprintf("the pull request action %s neither opens nor pushes to it: only opened, reopened, ready_for_review and synchronize are", escape.Log(pr.Action))
}

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
	// was no commit the job last heard of, or the branch was rewritten
	// since (Rewritten).
	Whole bool
	// Rewritten says that the branch was rewritten (a force push) since
	// the commit the job last heard of.
	Rewritten bool
}

// Read returns the changes of pr the docs job has not heard of, filtered
// by paths. since is the head commit the job last heard of: "" for a job
// that does not exist yet, which hears the pull request's whole change.
// Otherwise it is the change from since to pr.HeadSHA, or the whole
// change again when the branch was rewritten since: the event says the
// push was forced, or GitHub's comparison finds that HeadSHA does not
// follow since, or no longer knows since. A file passes when its name or,
// for a rename, its old name does.
func Read(ctx context.Context, gh GitHub, pr PullRequest, since string, paths *pathfilter.Filter) (*Changes, error) {
	out := &Changes{Whole: since == "", Rewritten: since != "" && pr.Forced}
	var all []*ghclient.File
	if since != "" && !out.Rewritten {
		cmp, err := gh.Compare(ctx, pr.Owner, pr.Repo, since, pr.HeadSHA)
		switch {
		case ghclient.IsNotFound(err):
			out.Rewritten = true
		case err != nil:
			return nil, err
		case cmp.Rewritten():
			out.Rewritten = true
		default:
			all = cmp.Files
		}
	}
	if out.Rewritten {
		out.Whole = true
	}
	if out.Whole {
		var err error
		if all, err = gh.PullFiles(ctx, pr.Owner, pr.Repo, pr.Number); err != nil {
			return nil, err
		}
	}
	out.Total = len(all)
	for _, f := range all {
		if paths.Match(f.Name) || f.Previous != "" && paths.Match(f.Previous) {
			out.Files = append(out.Files, f)
		}
	}
	return out, nil
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
	switch c.Total {
	case 0:
		return what + " no file: nothing to send to the docs job"
	case 1:
		return what + " 1 file, not under paths: nothing to send to the docs job"
	}
	return fmt.Sprintf("%s %d files, none under paths: nothing to send to the docs job", what, c.Total)
}

// StatusContext names the commit status the action sets: a branch
// protection rule requires it by this name.
const StatusContext = "docs / agent-job"

// Outcome is how a docs job stands, for its commit status.
type Outcome struct {
	// Working is true while the job runs, whether or not a run waits for
	// it: a later run reports its end.
	Working bool
	// Failed is true when the job failed.
	Failed bool
	// Errored is true when the run could not start or follow the job, and
	// no job is known to go on for it.
	Errored bool
	// Stopped is true when the run ended before the job did and keeps no
	// record a later run could settle it from (comment: false).
	Stopped bool
	// NoChange is true when nothing under paths changed: no job was
	// needed.
	NoChange bool
	// PRLink is the docs pull request, Preview its preview; "" for none.
	PRLink, Preview string
	// RunURL is the workflow run, linked while working or on failure.
	RunURL string
	// Capped is why nothing was sent, at a cap on what is sent; "" when
	// no cap was reached.
	Capped string
}

// Status returns the commit status that shows o: pending while the job
// works; success, linking the preview or else the docs pull request, when
// it ends well or nothing needed it; failure, linking the run, when the
// job failed; error, linking the run, when the run could not start or
// follow it. Links are https URLs only.
func Status(o Outcome) ghclient.CommitStatus {
	s := ghclient.CommitStatus{Context: StatusContext}
	switch {
	case o.Failed:
		s.State, s.Description, s.TargetURL = ghclient.StatusFailure, "The docs job failed: see the run", escape.URL(o.RunURL)
	case o.Stopped:
		s.State, s.Description, s.TargetURL = ghclient.StatusError, "The run stopped before the docs job ended: re-run it", escape.URL(o.RunURL)
	case o.Errored:
		s.State, s.Description, s.TargetURL = ghclient.StatusError, "The docs job could not be started: see the run", escape.URL(o.RunURL)
	case o.Working:
		s.State, s.Description, s.TargetURL = ghclient.StatusPending, "The docs agent is updating the docs for this change", escape.URL(o.RunURL)
	case o.Capped != "":
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, "Docs job cap reached: "+o.Capped, escape.URL(o.RunURL)
	case o.NoChange:
		s.State, s.Description = ghclient.StatusSuccess, "No change under paths: no docs job needed"
	case o.Preview != "" && escape.URL(o.Preview) != "":
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, "Docs updated: preview ready", escape.URL(o.Preview)
	case o.PRLink != "":
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, "Docs updated in a pull request", escape.URL(o.PRLink)
	default:
		s.State, s.Description = ghclient.StatusSuccess, "No docs change needed"
	}
	return s
}
