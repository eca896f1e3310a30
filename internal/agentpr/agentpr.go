// Package agentpr is the agent's pull request as a run follows it: which
// token may act there (github-token in the workflow's repository,
// docs-token in the job's own repository only), the backlink and the review
// request, the preview of its branch, whether the thread's docs pull
// request is still open, the note a closed code pull request leaves on it,
// and the branch a stand-in job must update. It writes on the agent's pull
// request only; the run's own comment and its commit statuses are the
// reporter's, to which it returns what it saw.
package agentpr

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/docspr"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/preview"
	"github.com/agentjob/agent-job-action/internal/prlink"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/terms"
)

// GitHub is what the room asks of GitHub, with either token.
// *ghclient.Client is one.
type GitHub interface {
	conversation.GitHub // the backlink, and the 👀 that tells docs-token's login
	docspr.GitHub       // the judgment of an approval
	// Merge and ClosePull land the docs pull request with its code
	// (docs-merge, docs-close).
	Merge(ctx context.Context, owner, repo string, number int, sha, method string) (string, error)
	ClosePull(ctx context.Context, owner, repo string, number int) error
	PullRequest(ctx context.Context, owner, repo string, number int) (*ghclient.PullRequest, error)
	RequestReviewers(ctx context.Context, owner, repo string, number int, reviewers []string) error
	// Status reads the check its code pull request's head shows, which
	// the docs pull request's own check follows (Pairing).
	Status(ctx context.Context, owner, repo, sha, context string) (ghclient.CommitStatus, bool, error)
}

// Previews is the preview API. *preview.Client is one.
type Previews interface {
	Trigger(ctx context.Context, branch string) (*preview.Deployment, error)
	Status(ctx context.Context, id string) (*preview.Status, error)
}

// Jobs reads a job. *agentapi.Client is one.
type Jobs interface {
	Get(ctx context.Context, id string) (*agentapi.Job, error)
}

var (
	_ GitHub   = (*ghclient.Client)(nil)
	_ Previews = (*preview.Client)(nil)
	_ Jobs     = (*agentapi.Client)(nil)
)

// Room follows the agent's pull request for one run. Its zero fields are
// what the run lacks: no GitHub, no docs-token, no previews.
type Room struct {
	// Own is github-token's client, for the workflow's repository; nil
	// when the run has none.
	Own GitHub
	// Docs is docs-token's, for the job's own repository when that is
	// another; nil when docs-token is not set.
	Docs GitHub
	// Previews asks for previews; nil when the run asks for none.
	Previews Previews
	// Owner and Repo are the workflow's repository.
	Owner, Repo string
	ServerURL   string
	// RunURL is the workflow run's address, which a backlink for a run
	// that no comment started links.
	RunURL string
	// Terms names the inputs as the run's mode does.
	Terms terms.Terms
	// Quiet says a preview that cannot be had is not worth a line: a
	// command line that left preview at its default asked for none.
	Quiet bool
	// Progress writes the room's lines of progress; its Log the warnings
	// and notices.
	Progress runlog.Progress
	// Redact removes secrets from what the room writes on GitHub.
	Redact func(string) string
	// Clock and Deadline bound the wait for a preview's build.
	Clock    clock.Clock
	Deadline time.Time
	// Unbuilt says a preview is asked for and linked without waiting for
	// its build: a settle run holds no runner for it.
	Unbuilt bool
	// Approval says its code pull request's check waits for the pull
	// request's approval, by Land.Approval's rules (plan.Plan.Approval).
	Approval bool
	App      string // agent-app: only its pull requests' checks are paired
	// Land is what a closed code pull request does with the pull request:
	// merge it with the code, close it, or neither (plan.Plan.Land).
	Land plan.Land

	held   bool                  // docs-token was held back from a pull request outside the job's repository
	pull   *ghclient.PullRequest // the agent's pull request, once read
	pullOf prlink.PullRequest    // which one pull is
}

// Ask is what asked for a job, which its backlink names.
type Ask struct {
	Source conversation.Source
	// URL is GitHub's address of what asked; a run no comment started
	// links the workflow run.
	URL string
	// Phrase is the trigger phrase; "" when none is set.
	Phrase string
	// Reviewers are asked to review the pull request.
	Reviewers []string
	// Self is the token's login as the thread learned it, "" when
	// unknown; Thread is the thread's issue or pull request, whose
	// comment count saves a request when the job's pull request is it.
	Self     string
	Thread   int
	Comments int
	// From is the comment that keeps the record of the code pull request
	// that asked, in the workflow's repository; 0 for another thread's
	// request. The backlink names it when it is in that repository too,
	// so that a settle run its review starts finds that record.
	From int64
}

// AskOf is what asked, as the plan p says (its reviewers, its trigger
// phrase), source at url, and the thread th the run answers in, whose
// token login wrote an earlier run's backlink (nil when the run has none).
func AskOf(p plan.Plan, source conversation.Source, url string, th *conversation.Thread) Ask {
	a := Ask{Source: source, URL: url, Phrase: p.Rules.Phrase, Reviewers: p.Reviewers}
	if th != nil {
		a.Self = th.Self()
	}
	if th != nil && p.Answer != nil {
		a.Thread, a.Comments = p.Answer.Number, p.Answer.CommentCount
	}
	if th != nil && th.Code {
		// A code pull request keeps one record, in one comment.
		a.From = th.CommentID()
	}
	return a
}

// Backlink answers on the agent's pull request: one comment there that
// names what asked and how to ask for changes, then a request for review.
// Nothing here changes the run's outcome: a pull request on another host,
// one in another repository without docs-token, or one the token cannot
// write to, costs one notice.
func (r *Room) Backlink(ctx context.Context, job *agentapi.Job, a Ask) {
	link := job.PR()
	if link == "" {
		return
	}
	// The review request is skipped with the backlink: the one line says
	// so of both, as the README does.
	skipped := "no backlink"
	if len(a.Reviewers) > 0 {
		skipped = "no backlink and no review request"
	}
	pr, ok := prlink.Judge(link, r.ServerURL)
	if !ok {
		r.Progress.Log.Notice(fmt.Sprintf("%s on the pull request: %s is not a pull request on this GitHub, which the token is for", skipped, escape.Log(link)))
		return
	}
	docs := r.client(pr, job.Source.Repository)
	if docs == nil && r.held {
		return
	}
	if docs == nil {
		r.Progress.Log.Notice(fmt.Sprintf("%s on pull request %s/%s#%d: it is in another repository, which %s cannot write to (set %s to a token that can)",
			skipped, escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, r.Terms.Name("github-token"), r.Terms.Name("docs-token")))
		return
	}
	text := conversation.BacklinkText{JobID: job.ID, Source: a.Source, SourceURL: a.URL, TriggerPhrase: a.Phrase}
	if a.Source == conversation.FromWorkflowRun {
		text.SourceURL = r.RunURL
	}
	b := conversation.Backlink{GH: docs, Owner: pr.Owner, Repo: pr.Repo, Number: pr.Number, Redact: r.Redact}
	switch {
	case docs != r.Own:
		// docs-token's login, which wrote the backlink of an earlier run,
		// is learned from its 👀 on the pull request, as a run learns its
		// own from the reaction to its request.
		if rx, err := docs.AddReaction(ctx, pr.Owner, pr.Repo, int64(pr.Number), request.Event, "eyes"); err == nil {
			b.Self = rx.By
		}
		text.Elsewhere, text.Login = true, b.Self
	default:
		b.Self = a.Self
		if r.ownRepo(pr) && a.Thread == pr.Number {
			b.Comments = a.Comments
		}
		if r.ownRepo(pr) {
			text.From = a.From
		}
	}
	c, err := b.Write(ctx, text)
	if err != nil {
		r.Progress.Log.Notice(fmt.Sprintf("%s on pull request %s/%s#%d: %s", skipped, escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, escape.Log(err.Error())))
		return
	}
	r.Progress.Logf("backlink on the pull request: %s", escape.Log(c.URL))
	r.requestReview(ctx, docs, pr, a.Reviewers)
}

// requestReview asks reviewers, but not the pull request's author, to
// review it. A refusal is a warning: the job is done either way.
func (r *Room) requestReview(ctx context.Context, gh GitHub, pr prlink.PullRequest, reviewers []string) {
	if len(reviewers) == 0 {
		return
	}
	info, err := r.read(ctx, gh, pr)
	if err != nil {
		r.Progress.Log.Warning(fmt.Sprintf("could not request a review of pull request #%d: %s", pr.Number, escape.Log(err.Error())))
		return
	}
	asked := slices.DeleteFunc(slices.Clone(reviewers), func(login string) bool {
		return strings.EqualFold(login, info.Author)
	})
	if len(asked) == 0 {
		return
	}
	if err := gh.RequestReviewers(ctx, pr.Owner, pr.Repo, pr.Number, asked); err != nil {
		r.Progress.Log.Warning(fmt.Sprintf("could not request a review of pull request #%d from %s: %s", pr.Number, escape.Log(strings.Join(asked, ", ")), escape.Log(err.Error())))
		return
	}
	r.Progress.Logf("asked %s to review pull request #%d", escape.Log(strings.Join(asked, ", ")), pr.Number)
}

// Preview asks for the preview deployment of the branch the job's pull
// request is on (read from GitHub), waits for its build within the
// deadline (unless Unbuilt), and returns it for the comment, the summary and the commit
// status; its URL is "" when there is none. A plan without previews (403)
// costs one line; any other failure a warning; the job's outcome stays as
// it is.
func (r *Room) Preview(ctx context.Context, job *agentapi.Job) preview.Shown {
	link := job.PR()
	if r.Previews == nil || link == "" {
		return preview.Shown{}
	}
	pr, ok := prlink.Judge(link, r.ServerURL)
	if !ok {
		if !r.Quiet {
			r.Progress.Logf("no preview: %s is not a pull request on this GitHub, whose branch could be read", escape.Log(link))
		}
		return preview.Shown{}
	}
	gh := r.client(pr, job.Source.Repository)
	if gh == nil {
		gh = r.Own
	}
	if gh == nil {
		if !r.Quiet {
			r.Progress.Logf("no preview: the branch of %s/%s#%d cannot be read without %s", escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, r.Terms.Name("github-token"))
		}
		return preview.Shown{}
	}
	info, err := r.read(ctx, gh, pr)
	if err != nil {
		r.Progress.Log.Warning(fmt.Sprintf("no preview: could not read the branch of the pull request: %s", escape.Log(err.Error())))
		return preview.Shown{}
	}
	d, err := r.Previews.Trigger(ctx, info.HeadRef)
	switch {
	case preview.NotInPlan(err):
		r.Progress.Logf("no preview: the project's plan has no preview deployments (%s stops asking)", r.Terms.Setting("preview", "false"))
		return preview.Shown{}
	case err != nil:
		r.Progress.Log.Warning(fmt.Sprintf("no preview: %s; the job is not affected", escape.Log(err.Error())))
		return preview.Shown{}
	}
	r.Progress.Logf("preview of branch %s requested: %s", escape.Log(info.HeadRef), escape.Log(d.URL))
	shown := preview.Shown{URL: d.URL}
	if r.Unbuilt {
		r.Progress.Logf("the preview builds on its own: this run does not wait for it")
		return shown
	}
	w := preview.Waiter{Previews: r.Previews, Clock: r.Clock, Deadline: r.Deadline}
	st, err := w.Wait(ctx, d.StatusID)
	if st != nil {
		// Redacted before Markdown cuts it, or a piece of a secret would
		// be left that no redactor knows.
		shown.State, shown.Image, shown.Summary = st.State, st.Image(), r.Redact(st.Summary)
	}
	switch {
	case err != nil:
		r.Progress.Log.Warning(fmt.Sprintf("the preview was not ready: %s; the job is not affected", escape.Log(err.Error())))
	default:
		r.Progress.Logf("preview %s: %s", escape.Log(st.State), escape.Log(d.URL))
	}
	return shown
}

// DocsPR reads the job's pull request, link as the run knows it (the job
// as it read it, or the record), for the plan's decision whether the
// thread's job goes on (threadjob's newJobFor). job reads the job, for
// docs-token's repository, when the pull request is in another. It is nil
// when the state is not known: no pull request yet, one on another host,
// one no token may read, or a read that failed.
func (r *Room) DocsPR(ctx context.Context, link string, job func(ctx context.Context) (*agentapi.Job, error)) *ghclient.PullRequest {
	pr, ok := prlink.Judge(link, r.ServerURL)
	if !ok {
		return nil
	}
	gh := r.Own
	if !r.ownRepo(pr) {
		// docs-token goes only to the job's own repository, which the
		// job's record from the API says.
		j, err := job(ctx)
		if err != nil {
			return nil
		}
		gh = r.client(pr, j.Source.Repository)
	}
	if gh == nil {
		return nil
	}
	info, err := r.read(ctx, gh, pr)
	if err != nil {
		return nil
	}
	return info
}

// Closed tells the job's pull request that the code pull request number
// (its address url) was merged or closed unmerged, in one comment there,
// after landing it as the workflow asks (Land): merged with the code when
// it is approved on its latest commit and GitHub allows it, or closed with
// it. It returns what the code pull request's comment says of it, safe
// Markdown; "" for nothing; and how the docs pull request ended when this
// run saw it merged or closed (record.DocsMerged, record.DocsClosed), ""
// when it did not: the record keeps it, so that a reopened code pull
// request's next run starts a new job. A pull request in another
// repository that no token may write to is told nothing, in one notice; a
// write GitHub refuses is a warning.
//
// recorded is the docs pull request the code pull request's record names
// ("" for none): it alone is landed, whatever the job names now.
func (r *Room) Closed(ctx context.Context, job *agentapi.Job, number int, url string, merged bool, recorded string, land plan.Land) (note, ended string) {
	pr, ok := r.paired(job, recorded)
	if !ok {
		return "", ""
	}
	docs := r.client(pr, job.Source.Repository)
	if docs == nil {
		r.Progress.Log.Notice(fmt.Sprintf("pull request %s/%s#%d was not told: it is in another repository, which %s cannot write to (set %s to a token that can)",
			escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, r.Terms.Name("github-token"), r.Terms.Name("docs-token")))
		if land.Lands(merged) {
			return fmt.Sprintf("⚠️ The docs pull request %s was left as it is: it is in another repository, which no token of this workflow may write to.", r.linkTo(pr)), ""
		}
		return "", ""
	}
	there, here, ended := r.land(ctx, docs, pr, merged, land)
	c, err := docs.CreateComment(ctx, pr.Owner, pr.Repo, pr.Number, r.Redact(conversation.ClosedText(number, url, merged, there)))
	if err != nil {
		r.Progress.Log.Warning(fmt.Sprintf("could not tell pull request %s/%s#%d: %s", escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, escape.Log(err.Error())))
		return here, ended
	}
	r.Progress.Logf("told the docs pull request: %s", escape.Log(c.URL))
	return here, ended
}

// land does with the docs pull request pr, through gh, what Land asks
// for a code pull request closed (merged or not): it merges an approved
// one with the code, or closes it. It returns what the docs pull
// request's comment says of it (there) and what the code pull request's
// says (here), each "" for nothing, and how it ended when the run saw it
// merged or closed (record.DocsMerged, record.DocsClosed; "" otherwise).
func (r *Room) land(ctx context.Context, gh GitHub, pr prlink.PullRequest, merged bool, land plan.Land) (there, here, ended string) {
	link := r.linkTo(pr)
	switch {
	case merged && land.Merge != "":
		return r.merge(ctx, gh, pr, link, land.Merge)
	case !merged && land.Close:
		info, err := r.read(ctx, gh, pr)
		switch {
		case err == nil && info.Merged:
			return "", fmt.Sprintf("⚠️ The docs pull request %s was merged before this pull request was closed: the published docs may describe code that will not land. Revert the docs change unless it stands on its own.", link), record.DocsMerged
		case err == nil && !info.Open:
			return "", "", record.DocsClosed
		}
		if err == nil {
			err = gh.ClosePull(ctx, pr.Owner, pr.Repo, pr.Number)
		}
		if err != nil {
			r.Progress.Log.Warning(fmt.Sprintf("could not close the docs pull request %s/%s#%d: %s%s", escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, escape.Log(err.Error()), r.writeAdvice(err, pr)))
			return "", fmt.Sprintf("⚠️ The docs pull request %s could not be closed with this one: %s. Close it unless its change stands on its own.", link, escape.Markdown(err.Error())), ""
		}
		r.Progress.Logf("closed the docs pull request %s/%s#%d with the code (docs-close)", escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number)
		return "This pull request is closed with it, as the workflow asks (docs-close).", fmt.Sprintf("🗙 The docs pull request %s is closed with this one.", link), record.DocsClosed
	}
	return "", "", ""
}

// merge merges the docs pull request pr with its merged code, when it is
// approved on its latest commit by a reviewer Land.Approval lets approve,
// on that commit only (a push since is not merged unseen), and GitHub
// allows it; otherwise it says why not, on both pull requests, and what a
// person should do.
func (r *Room) merge(ctx context.Context, gh GitHub, pr prlink.PullRequest, link, method string) (there, here, ended string) {
	v := docspr.Read(ctx, gh, pr, r.ServerURL, r.Land.Approval)
	r.Progress.Logf("docs pull request %s", v.Says())
	why, todo := "", "Review it, then merge it."
	switch v.State {
	case docspr.Merged:
		return "", fmt.Sprintf("The docs pull request %s was merged before this one.", link), record.DocsMerged
	case docspr.Closed:
		return "", fmt.Sprintf("The docs pull request %s was closed without being merged, so it was not merged with this one.", link), record.DocsClosed
	case docspr.Unread:
		why, todo = "it could not be read ("+escape.Markdown(v.Err.Error())+")", "Merge it once it is approved."
	case docspr.Waiting:
		why = fmt.Sprintf("it has no approving review on its latest commit by someone with %s permission", escape.Markdown(r.Land.Approval.Required))
		if v.Objector != "" {
			why = fmt.Sprintf("a reviewer with %s permission asked for changes", escape.Markdown(r.Land.Approval.Required))
		}
	case docspr.Approved:
		_, err := gh.Merge(ctx, pr.Owner, pr.Repo, pr.Number, v.HeadSHA, method)
		if err == nil {
			r.Progress.Logf("merged the docs pull request %s/%s#%d with the code (docs-merge: %s)", escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, method)
			return fmt.Sprintf("This pull request is merged with it (%s), as the workflow asks (docs-merge).", method),
				fmt.Sprintf("✅ The docs pull request %s is merged with this one (%s).", link, method), record.DocsMerged
		}
		r.Progress.Log.Warning(fmt.Sprintf("could not merge the docs pull request %s/%s#%d: %s%s", escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, escape.Log(err.Error()), r.writeAdvice(err, pr)))
		if reason, refused := ghclient.MergeRefused(err); refused {
			why, todo = "GitHub did not allow the merge ("+escape.Markdown(reason)+")", "Merge it once GitHub allows."
		} else {
			why, todo = "the merge failed ("+escape.Markdown(err.Error())+")", "Merge it by hand."
		}
	}
	return fmt.Sprintf("This pull request was not merged with it: %s. %s", why, todo),
		fmt.Sprintf("⚠️ The docs pull request %s was not merged with this one: %s. %s", link, why, todo), ""
}

// paired is the docs pull request of a code pull request's job: the one
// its record names (recorded), whatever the job names now (none, another
// pull request, a link the action cannot judge), since the record alone
// pairs the two; the job's own while the record names none. ok is false
// when that is no pull request on this GitHub.
func (r *Room) paired(job *agentapi.Job, recorded string) (prlink.PullRequest, bool) {
	link := job.PR()
	if recorded != "" {
		if link != "" && link != recorded {
			r.Progress.Logf("the job now names %s; the record pairs %s, which alone is judged", escape.Log(link), escape.Log(recorded))
		}
		link = recorded
	}
	return prlink.Judge(link, r.ServerURL)
}

// linkTo is pr as a Markdown link.
func (r *Room) linkTo(pr prlink.PullRequest) string {
	return fmt.Sprintf("[%s/%s#%d](%s)", escape.Markdown(pr.Owner), escape.Markdown(pr.Repo), pr.Number, escape.URL(pr.URL(r.ServerURL)))
}

// writeAdvice is what to do when GitHub refused a write to pr for lack of
// access, for the log; "" otherwise.
func (r *Room) writeAdvice(err error, pr prlink.PullRequest) string {
	if !ghclient.IsForbidden(err) {
		return ""
	}
	token := r.Terms.Name("github-token")
	if !r.ownRepo(pr) {
		token = r.Terms.Name("docs-token")
	}
	return fmt.Sprintf(" (%s needs contents: write and pull-requests: write on %s/%s)", token, escape.Log(pr.Owner), escape.Log(pr.Repo))
}

// Judge judges the job's pull request for its code pull request's check,
// when the team wants it approved (Approval, by Land's rules): merged, closed, approved on
// its latest commit, or waiting, with the token for its repository. nil
// when no approval is asked, or the job failed or opened no pull request
// on this GitHub. A pull request no token may read is Unread: nothing is
// claimed of it. The pull request the code pull request's record names
// (recorded; "" when it names none yet) is the one judged, whatever the
// job names now: the record alone pairs the two. followed says the
// record follows the pull request: the code workflow asked for an
// approval, which is then judged even in a run that asks none itself, so
// that no run turns a waiting check green unapproved.
func (r *Room) Judge(ctx context.Context, job *agentapi.Job, recorded string, followed bool) *docspr.Verdict {
	if !r.Approval && !followed || job.Status == agentapi.StatusFailed {
		return nil
	}
	pr, ok := r.paired(job, recorded)
	if !ok {
		return nil
	}
	v := docspr.Verdict{State: docspr.Unread, PR: pr, URL: pr.URL(r.ServerURL)}
	if gh := r.client(pr, job.Source.Repository); gh != nil {
		v = docspr.Read(ctx, gh, pr, r.ServerURL, r.Land.Approval)
	} else {
		v.Err = fmt.Errorf("it is in another repository, which %s cannot read (set %s to a token that can)", r.Terms.Name("github-token"), r.Terms.Name("docs-token"))
	}
	if v.State == docspr.Unread {
		r.Progress.Log.Warning(fmt.Sprintf("docs pull request %s; the code pull request's check waits", v.Says()))
	} else {
		r.Progress.Logf("docs pull request %s", v.Says())
	}
	return &v
}

// Target is the pull request a new job that stands in for old, a job that
// takes no more messages, must update, for a request made on the job's
// pull request t: its branch is old's ref, or the pull request's own head
// branch when the API names none.
func (r *Room) Target(ctx context.Context, jobs Jobs, old string, t prompt.Target) prompt.Target {
	if job, err := jobs.Get(ctx, old); err == nil && job.Ref() != "" {
		t.Branch = job.Ref()
	}
	if t.Branch == "" && r.Own != nil {
		if pr, err := r.Own.PullRequest(ctx, t.Owner, t.Repo, t.Number); err == nil {
			t.Branch = pr.HeadRef
		}
	}
	return t
}

// client is the client for the repository of the agent's pull request
// pr: github-token's for the workflow's own repository, docs-token's for
// another, nil when docs-token is not set (github-token can write only in
// the repository the workflow runs in). docs-token goes only to the job's
// source repository (source, the API's source.repository): a pull request
// link is the API's word, and the token must not follow it elsewhere. Such
// a pull request gets nil, and one warning a run. github-token is held to
// the same rule when the API names a source that reads as a repository
// of this GitHub: a job whose docs live in
// another repository opens no pull request in the workflow's own, so a
// link there is not its pull request, and is neither judged nor merged.
func (r *Room) client(pr prlink.PullRequest, source string) GitHub {
	own := r.ownRepo(pr)
	token, gh := r.Terms.Name("docs-token"), r.Docs
	if own {
		token, gh = r.Terms.Name("github-token"), r.Own
	}
	if gh == nil {
		return nil
	}
	// A source the action cannot read as a repository of this GitHub says
	// nothing against the workflow's own: only docs-token needs one.
	_, named := prlink.JudgeRepository(source, r.ServerURL)
	if (!own || named) && !pr.In(source, r.ServerURL) {
		if !r.held {
			r.held = true
			r.Progress.Log.Warning(fmt.Sprintf("%s is not used on pull request %s/%s#%d: it is not in the job's repository (%s), the only one the token is sent to",
				token, escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, escape.Log(source)))
		}
		return nil
	}
	return gh
}

// ownRepo reports whether pr is in the repository the workflow runs in,
// which github-token is for.
func (r *Room) ownRepo(pr prlink.PullRequest) bool {
	return strings.EqualFold(pr.Owner, r.Owner) && strings.EqualFold(pr.Repo, r.Repo)
}

// CodeApproval judges code pull request number as docs-when: approved reads
// it (docspr.Read, Land.Approval's rules); Unread with no GitHub client.
func (r *Room) CodeApproval(ctx context.Context, number int) docspr.Verdict {
	pr := prlink.PullRequest{Owner: r.Owner, Repo: r.Repo, Number: number}
	if r.Own == nil {
		return docspr.Verdict{State: docspr.Unread, PR: pr, URL: pr.URL(r.ServerURL), Err: fmt.Errorf("no %s to read it with", r.Terms.Name("github-token"))}
	}
	return docspr.Read(ctx, r.Own, pr, r.ServerURL, r.Land.Approval)
}

// Pairing reads what the check of the agent's docs pull request at docsURL
// in the workflow's own repository rests on (check.Pairing): it, and code,
// the code pull request it pairs, as the run knows it (read when HeadSHA is
// "") with the check its latest head shows. ok is false for none to keep:
// another repository's (its own rules hold it), closed, a fork's branch,
// or a read that failed, which the log says. With request, code is the
// thread of the /docs request the job answers (working: it still writes).
func (r *Room) Pairing(ctx context.Context, code ghclient.PullRequest, docsURL string, request, working bool) (p check.Pairing, ok bool) {
	docs, ok := prlink.Judge(docsURL, r.ServerURL)
	if !ok || r.Own == nil || !r.ownRepo(docs) || docs.Number == code.Number {
		return p, false
	}
	pull, err := r.Own.PullRequest(ctx, docs.Owner, docs.Repo, docs.Number) // as it is at the run's end
	if err == nil && (!pull.Open || pull.HeadSHA == "" || !strings.EqualFold(pull.HeadRepo, r.Owner+"/"+r.Repo) || !strings.EqualFold(pull.Author, r.App)) {
		return p, false
	}
	at := prlink.PullRequest{Owner: r.Owner, Repo: r.Repo, Number: code.Number}
	if err == nil && request {
		issue := strings.Replace(at.URL(r.ServerURL), "/pull/", "/issues/", 1) // GitHub takes it for either
		return check.Pairing{Code: code.Number, URL: issue, DocsHead: pull.HeadSHA, Request: true, Working: working}, true
	}
	read := &code
	if err == nil && code.HeadSHA == "" {
		read, err = r.Own.PullRequest(ctx, r.Owner, r.Repo, code.Number)
	}
	if err == nil && read.Open {
		p.Shows, _, err = r.Own.Status(ctx, r.Owner, r.Repo, read.HeadSHA, check.Context)
	}
	if err != nil {
		r.Progress.Log.Warning(fmt.Sprintf("the check of docs pull request #%d, which lands with #%d, could not be kept: %s; the next run that concerns them tries again", docs.Number, code.Number, escape.Log(err.Error())))
		return check.Pairing{}, false
	}
	return check.Pairing{Code: code.Number, URL: at.URL(r.ServerURL), Open: read.Open, Merged: read.Merged, Shows: p.Shows, DocsHead: pull.HeadSHA}, true
}

// read reads the agent's pull request pr once a run: the review request
// wants its author, the preview its branch, Open its state.
func (r *Room) read(ctx context.Context, gh GitHub, pr prlink.PullRequest) (*ghclient.PullRequest, error) {
	if r.pull != nil && r.pullOf == pr {
		return r.pull, nil
	}
	info, err := gh.PullRequest(ctx, pr.Owner, pr.Repo, pr.Number)
	if err == nil {
		r.pull, r.pullOf = info, pr
	}
	return info, err
}
