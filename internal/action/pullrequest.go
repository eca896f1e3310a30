package action

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/prlink"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/request"
)

// readLines adds a submitted review's line comments to its request, with
// their places in the diff, before it is judged: they are part of what it
// asks. A review whose comments cannot be read is judged by its body alone.
func (r *run) readLines(ctx context.Context, gh *ghclient.Client, review *request.Request) {
	comments, err := gh.ReviewComments(ctx, r.trig.Owner, r.trig.Repo, r.trig.Number, review.ID)
	if err != nil {
		r.log.Warning(fmt.Sprintf("could not read the review's line comments: %s; sending the review's body alone", escape.Log(err.Error())))
		return
	}
	for _, c := range comments {
		review.Lines = append(review.Lines, conversation.LineRequest(c))
	}
}

// prTarget is the pull request a new job that stands in for one that takes
// no more messages must update, for a request made on the job's pull
// request: its number, address and branch.
func (r *run) prTarget(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, old string) prompt.Target {
	t := r.trig
	target := prompt.Target{Owner: t.Owner, Repo: t.Repo, Number: t.Number, URL: t.URL, Branch: t.HeadRef}
	if job, err := api.Get(ctx, old); err == nil && job.Ref() != "" {
		target.Branch = job.Ref()
	}
	if target.Branch == "" {
		if pr, err := gh.PullRequest(ctx, t.Owner, t.Repo, t.Number); err == nil {
			target.Branch = pr.HeadRef
		}
	}
	return target
}

// backlink answers on the agent's pull request: one comment there that
// names what asked and how to ask for changes, then a request for review.
// Nothing here changes the run's outcome: a pull request on another host,
// one in another repository without docs-token, or one the token cannot
// write to, costs one notice.
// th is the thread that asked, whose token login wrote an earlier run's
// backlink; nil when the run has none.
func (r *run) backlink(ctx context.Context, gh *ghclient.Client, p plan.Plan, job *agentapi.Job, th *conversation.Thread) {
	link := job.PR()
	if link == "" || !p.Backlink {
		return
	}
	// The review request is skipped with the backlink: the one line says
	// so of both, as the README does.
	skipped := "no backlink"
	if len(p.Reviewers) > 0 {
		skipped = "no backlink and no review request"
	}
	pr, ok := prlink.Judge(link, r.rc.ServerURL)
	if !ok {
		r.log.Notice(fmt.Sprintf("%s on the pull request: %s is not a pull request on this GitHub, which the token is for", skipped, escape.Log(link)))
		return
	}
	docs := r.docsGitHub(gh, pr, job.Source.Repository)
	if docs == nil && r.docsHeld {
		return
	}
	if docs == nil {
		r.log.Notice(fmt.Sprintf("%s on pull request %s/%s#%d: it is in another repository, which %s cannot write to (set %s to a token that can)",
			skipped, escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, r.rc.Terms().Name("github-token"), r.rc.Terms().Name("docs-token")))
		return
	}
	text := conversation.BacklinkText{JobID: job.ID, Source: p.Asked, SourceURL: p.AskedURL, TriggerPhrase: r.cfg.TriggerPhrase}
	if p.Asked == conversation.FromWorkflowRun {
		text.SourceURL = r.rc.RunURL()
	}
	b := conversation.Backlink{GH: docs, Owner: pr.Owner, Repo: pr.Repo, Number: pr.Number, Redact: r.log.Redact}
	switch {
	case docs != gh:
		// docs-token's login, which wrote the backlink of an earlier run,
		// is learned from its 👀 on the pull request, as a run learns its
		// own from the reaction to its request.
		if rx, err := docs.AddReaction(ctx, pr.Owner, pr.Repo, int64(pr.Number), request.Event, "eyes"); err == nil {
			b.Self = rx.By
		}
		text.Elsewhere, text.Login = true, b.Self
	case th != nil:
		b.Self = th.Self()
		if p.Answer.Owner == pr.Owner && p.Answer.Repo == pr.Repo && p.Answer.Number == pr.Number {
			b.Comments = p.Answer.CommentCount
		}
	}
	c, err := b.Write(ctx, text)
	if err != nil {
		r.log.Notice(fmt.Sprintf("%s on pull request %s/%s#%d: %s", skipped, escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, escape.Log(err.Error())))
		return
	}
	r.logf("backlink on the pull request: %s", escape.Log(c.URL))
	r.requestReview(ctx, docs, pr, p.Reviewers)
}

// requestReview asks reviewers, but not the pull request's author, to
// review it. A refusal is a warning: the job is done either way.
func (r *run) requestReview(ctx context.Context, gh *ghclient.Client, pr prlink.PullRequest, reviewers []string) {
	if len(reviewers) == 0 {
		return
	}
	info, err := r.agentPR(ctx, gh, pr)
	if err != nil {
		r.log.Warning(fmt.Sprintf("could not request a review of pull request #%d: %s", pr.Number, escape.Log(err.Error())))
		return
	}
	asked := slices.DeleteFunc(slices.Clone(reviewers), func(login string) bool {
		return strings.EqualFold(login, info.Author)
	})
	if len(asked) == 0 {
		return
	}
	if err := gh.RequestReviewers(ctx, pr.Owner, pr.Repo, pr.Number, asked); err != nil {
		r.log.Warning(fmt.Sprintf("could not request a review of pull request #%d from %s: %s", pr.Number, escape.Log(strings.Join(asked, ", ")), escape.Log(err.Error())))
		return
	}
	r.logf("asked %s to review pull request #%d", escape.Log(strings.Join(asked, ", ")), pr.Number)
}

// docsPROpen reports whether the thread's job, the one the record e
// names, may be continued: one docs pull request per thread, so a job
// whose pull request is merged or closed gets a new job, and one with none
// yet, or with an open one, a follow-up. seen is the job as the run read
// it already, nil when it did not: the pull request the record names is
// then read from GitHub alone. A pull request that cannot be read is
// continued, as before the rule: a second job is the costlier mistake.
func (r *run) docsPROpen(ctx context.Context, api *agentapi.Client, gh *ghclient.Client, e *conversation.Earlier, seen *agentapi.Job) bool {
	link := e.PR
	if seen != nil {
		link = seen.PR()
	}
	pr, ok := prlink.Judge(link, r.rc.ServerURL)
	if !ok {
		return true
	}
	docs := gh
	if !r.ownRepo(pr) {
		// docs-token goes only to the job's own repository, which the
		// job's record from the API says.
		job, err := readOnce(ctx, api, e.JobID, seen)
		if err != nil {
			return true
		}
		if docs = r.docsGitHub(gh, pr, job.Source.Repository); docs == nil {
			return true
		}
	}
	info, err := r.agentPR(ctx, docs, pr)
	if err != nil || info.Open {
		return true
	}
	how := "closed"
	if info.Merged {
		how = "merged"
	}
	r.logf("the docs pull request of job %s, #%d, is %s: starting a new job", escape.Log(e.JobID), pr.Number, how)
	return false
}
