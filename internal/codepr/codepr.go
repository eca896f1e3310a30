// Package codepr is the docs job of a code pull request: which events of
// it start the job, continue it or do nothing, which of its changes the
// job hears about (the paths input), and the commit status that shows the
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
	// Before and After are the head before and after a synchronize; Forced
	// is a push event's own word that the push was forced (a pull_request
	// payload has none, and the comparison tells).
	Before, After string
	Forced        bool
}

// Step is what a run does for a code pull request.
type Step int

// The steps.
const (
	// Skip does nothing: Decide says why.
	Skip Step = iota
	// Start reads the pull request's changes and starts its docs job.
	Start
	// Push reads what the push changed and sends it to the docs job.
	Push
)

// Decide returns the step for pr, and for Skip the reason, one line for
// the log. A draft starts nothing until it is ready for review; a fork's
// run has no secrets and ends at once.
func Decide(pr PullRequest) (Step, string) {
	switch {
	case pr.Fork:
		return Skip, fmt.Sprintf("pull request #%d comes from a fork: GitHub gives its runs no secrets, so no docs job is started (see the README's Docs follow code for forks)", pr.Number)
	case pr.Draft:
		return Skip, fmt.Sprintf("pull request #%d is a draft: its docs job starts when it is ready for review", pr.Number)
	}
	switch pr.Action {
	case "opened", "reopened", "ready_for_review":
		return Start, ""
	case "synchronize":
		return Push, ""
	}
	return Skip, fmt.Sprintf("the pull request action %s neither opens nor pushes to it: only opened, reopened, ready_for_review and synchronize are", escape.Log(pr.Action))
}

// GitHub is what Changes reads.
type GitHub interface {
	PullFiles(ctx context.Context, owner, repo string, number int) ([]*ghclient.File, error)
	Compare(ctx context.Context, owner, repo, base, head string) (*ghclient.Comparison, error)
}

// Changes is what a step found to tell the docs job.
type Changes struct {
	// Files are the changed files that pass the paths filter.
	Files []*ghclient.File
	// Total is how many files changed, filtered or not.
	Total int
	// Rewritten says that the push rewrote the branch (a force push):
	// Files are then the pull request's whole change.
	Rewritten bool
}

// Read returns the changes step must tell the docs job, filtered by
// paths: for Start the pull request's files; for Push what the push
// changed, from Before to After, or the whole change again when the push
// rewrote the branch (the event says it was forced, or GitHub's
// comparison finds After does not follow Before, or no longer knows
// Before). A file passes when its name or, for a rename, its old name
// does.
func Read(ctx context.Context, gh GitHub, step Step, pr PullRequest, paths *pathfilter.Filter) (*Changes, error) {
	out := &Changes{Rewritten: step == Push && pr.Forced}
	var all []*ghclient.File
	if step == Push && !out.Rewritten {
		cmp, err := gh.Compare(ctx, pr.Owner, pr.Repo, pr.Before, pr.After)
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
	if step == Start || out.Rewritten {
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
// filter, for step; "" when some did.
func (c *Changes) NothingToSend(step Step) string {
	if len(c.Files) > 0 {
		return ""
	}
	what := "the pull request changes"
	if step == Push {
		what = "the push changes"
	}
	if c.Total == 0 {
		return what + " no file: nothing to send to the docs job"
	}
	return fmt.Sprintf("%s %d files, none under paths: nothing to send to the docs job", what, c.Total)
}

// StatusContext names the commit status the action sets: a branch
// protection rule requires it by this name.
const StatusContext = "docs / agent-job"

// Outcome is how a docs job stands, for its commit status.
type Outcome struct {
	// Working is true while the job runs (or the run stopped waiting).
	Working bool
	// Failed is true when the job failed, or the run could not start it.
	Failed bool
	// NoChange is true when nothing under paths changed: no job was
	// needed.
	NoChange bool
	// PRLink is the docs pull request, Preview its preview; "" for none.
	PRLink, Preview string
	// RunURL is the workflow run, linked while working or on failure.
	RunURL string
}

// Status returns the commit status that shows o: pending while the job
// works; success, linking the preview or else the docs pull request, when
// it ends well or nothing needed it; failure, linking the run, when it
// failed. Links are https URLs only.
func Status(o Outcome) ghclient.CommitStatus {
	s := ghclient.CommitStatus{Context: StatusContext}
	switch {
	case o.Failed:
		s.State, s.Description, s.TargetURL = ghclient.StatusFailure, "The docs job failed: see the run", escape.URL(o.RunURL)
	case o.Working:
		s.State, s.Description, s.TargetURL = ghclient.StatusPending, "The docs agent is updating the docs for this change", escape.URL(o.RunURL)
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
