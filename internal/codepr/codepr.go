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
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/docspr"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/pathfilter"
	"github.com/agentjob/agent-job-action/internal/preview"
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
	case pr.Draft:
		return false, fmt.Sprintf("pull request #%d is a draft: its docs job starts when it is ready for review", pr.Number)
	case pr.Action == "edited" && !pr.Retargeted:
		return false, fmt.Sprintf("pull request #%d was edited but not moved to another base: its change is the same", pr.Number)
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
// pull request's files cut at GitHub's cap (see Outcome.Cut): c's own
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
	// Cut is true when GitHub's listing of the pull request's files
	// reached its cap: what it left out was not seen, so no success can be
	// claimed for it.
	Cut bool
	// PRLink is the docs pull request, Preview its preview; "" for none.
	PRLink, Preview string
	// PreviewState is the preview build's last state (package preview's
	// Success, Failure, or another when the run stopped waiting first).
	PreviewState string
	// RunURL is the workflow run, linked while working or on failure.
	RunURL string
	// Capped is why nothing was sent, at a cap on what is sent; "" when
	// no cap was reached.
	Capped string
	// Approval says the team wants the docs pull request approved before
	// the check is green (docs-check: approved): a cap, which stops the
	// docs job, then claims no success.
	Approval bool
	// Docs is the docs pull request as judged when the team wants it
	// approved (docs-check: approved); nil when the check asks only that
	// it exists, or the job opened none.
	Docs *docspr.Verdict
}

// docsStatus is s for a job that ended with a pull request the team wants
// approved, as judged (v): pending, linking it, until it is approved on
// its latest commit or merged; an error when it was closed unmerged (the
// next push starts a new job); pending, linking the run, when it could not
// be read, for nothing is claimed of it.
func docsStatus(s ghclient.CommitStatus, v docspr.Verdict, runURL string) ghclient.CommitStatus {
	n := v.PR.Number
	switch v.State {
	case docspr.Approved:
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, fmt.Sprintf("Docs approved in pull request #%d", n), escape.URL(v.URL)
	case docspr.Merged:
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, fmt.Sprintf("Docs merged in pull request #%d", n), escape.URL(v.URL)
	case docspr.Closed:
		s.State, s.Description, s.TargetURL = ghclient.StatusError, fmt.Sprintf("Docs pull request #%d was closed unmerged: reopen it, or push to start a new docs job", n), escape.URL(v.URL)
	case docspr.Unread:
		s.State, s.Description, s.TargetURL = ghclient.StatusPending, fmt.Sprintf("Waits for docs pull request #%d, whose reviews could not be read: see the run", n), escape.URL(runURL)
	default:
		s.State, s.Description, s.TargetURL = ghclient.StatusPending, fmt.Sprintf("Waits for an approving review of docs pull request #%d", n), escape.URL(v.URL)
	}
	return s
}

// Status returns the commit status that shows o: pending while the job
// works; success when it ends well or nothing needed it, linking the
// preview when its build succeeded, else the docs pull request, saying
// when the preview failed or is not ready (the check is the docs job's:
// a preview is a courtesy of the job's end, not part of it); failure,
// linking the run, when the job failed; error, linking the run, when the
// run could not start or follow it. Links are https URLs only.
func Status(o Outcome) ghclient.CommitStatus {
	s := ghclient.CommitStatus{Context: StatusContext}
	shown := escape.URL(o.Preview) != ""
	switch {
	case o.Failed:
		s.State, s.Description, s.TargetURL = ghclient.StatusFailure, "The docs job failed: see the run", escape.URL(o.RunURL)
	case o.Stopped:
		s.State, s.Description, s.TargetURL = ghclient.StatusError, "The run stopped before the docs job ended: re-run it", escape.URL(o.RunURL)
	case o.Errored:
		s.State, s.Description, s.TargetURL = ghclient.StatusError, "The docs job could not be started: see the run", escape.URL(o.RunURL)
	case o.Cut:
		s.State, s.Description, s.TargetURL = ghclient.StatusError, fmt.Sprintf("GitHub listed only %d files: the rest went unseen, so no success is claimed; see the run", ghclient.MaxPullFiles), escape.URL(o.RunURL)
	case o.Working:
		s.State, s.Description, s.TargetURL = ghclient.StatusPending, "The docs agent is updating the docs for this change", escape.URL(o.RunURL)
	case o.Capped != "" && o.Approval:
		s.State, s.Description, s.TargetURL = ghclient.StatusError, "Docs job cap reached, so no approved docs for this push: "+o.Capped, escape.URL(o.RunURL)
	case o.Capped != "":
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, "Docs job cap reached: "+o.Capped, escape.URL(o.RunURL)
	case o.NoChange:
		s.State, s.Description = ghclient.StatusSuccess, "No change under paths: no docs job needed"
	case o.Docs != nil && o.PRLink != "":
		return docsStatus(s, *o.Docs, o.RunURL)
	case shown && o.PreviewState == preview.Success:
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, "Docs updated: preview ready", escape.URL(o.Preview)
	case o.PRLink != "" && shown && o.PreviewState == preview.Failure:
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, "Docs updated in a pull request; its preview build failed", escape.URL(o.PRLink)
	case o.PRLink != "" && shown:
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, "Docs updated in a pull request; its preview is not ready", escape.URL(o.PRLink)
	case o.PRLink != "":
		s.State, s.Description, s.TargetURL = ghclient.StatusSuccess, "Docs updated in a pull request", escape.URL(o.PRLink)
	default:
		s.State, s.Description = ghclient.StatusSuccess, "No docs change needed"
	}
	return s
}
