package action

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/preview"
	"github.com/agentjob/agent-job-action/internal/prlink"
)

// preview asks for the preview deployment of the branch the job's pull
// request is on (read from GitHub), waits for its build within the run's
// deadline, and keeps it in o for the comment, the summary and the commit
// status. A plan without previews (403) costs one line; any other failure a
// warning; the job's outcome stays as it is.
func (r *run) preview(ctx context.Context, gh *ghclient.Client, o *Outcome) {
	link := o.Job.PR()
	if !r.cfg.Preview || link == "" || r.code != nil && r.code.idle {
		return
	}
	// A command line that left preview at its default asked for nothing,
	// so a preview its setup cannot have is not worth a line there.
	quiet := r.rc.CommandLine && !r.cfg.PreviewSet
	pr, ok := prlink.Judge(link, r.rc.ServerURL)
	if !ok {
		if quiet {
			return
		}
		r.logf("no preview: %s is not a pull request on this GitHub, whose branch could be read", escape.Log(link))
		return
	}
	docs := r.docsGitHub(gh, pr, o.Job.Source.Repository)
	if docs == nil {
		docs = gh
	}
	if docs == nil {
		if quiet {
			return
		}
		r.logf("no preview: the branch of %s/%s#%d cannot be read without %s", escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, r.rc.Terms().Name("github-token"))
		return
	}
	info, err := r.agentPR(ctx, docs, pr)
	if err != nil {
		r.log.Warning(fmt.Sprintf("no preview: could not read the branch of the pull request: %s", escape.Log(err.Error())))
		return
	}
	previews := preview.New(r.hc, r.cfg.BaseURL, r.cfg.ProjectID, r.cfg.APIKey)
	previews.Terms = r.rc.Terms()
	d, err := previews.Trigger(ctx, info.HeadRef)
	switch {
	case preview.NotInPlan(err):
		r.logf("no preview: the project's plan has no preview deployments (%s stops asking)", r.rc.Setting("preview", "false"))
		return
	case err != nil:
		r.log.Warning(fmt.Sprintf("no preview: %s; the job is not affected", escape.Log(err.Error())))
		return
	}
	r.logf("preview of branch %s requested: %s", escape.Log(info.HeadRef), escape.Log(d.URL))
	o.Preview = preview.Shown{URL: d.URL}
	w := preview.Waiter{Previews: previews, Clock: r.deps.Clock, Deadline: r.deadline}
	st, err := w.Wait(ctx, d.StatusID)
	if st != nil {
		// Redacted before Markdown cuts it, or a piece of a secret would
		// be left that no redactor knows.
		o.Preview.State, o.Preview.Image, o.Preview.Summary = st.State, st.Image(), r.log.Redact(st.Summary)
	}
	switch {
	case err != nil:
		r.log.Warning(fmt.Sprintf("the preview was not ready: %s; the job is not affected", escape.Log(err.Error())))
	default:
		r.logf("preview %s: %s", escape.Log(st.State), escape.Log(d.URL))
	}
}

// docsGitHub is the client for the repository of the agent's pull
// request pr: the run's own for its own repository, one with docs-token for
// another, nil when docs-token is not set (github-token can write only in
// the repository the workflow runs in). docs-token goes only to the job's
// source repository (source, the API's source.repository): a pull request
// link is the API's word, and the token must not follow it elsewhere. Such
// a pull request gets nil, and one warning a run.
func (r *run) docsGitHub(gh *ghclient.Client, pr prlink.PullRequest, source string) *ghclient.Client {
	if r.ownRepo(pr) {
		return gh
	}
	if r.cfg.DocsToken == "" {
		return nil
	}
	if !pr.In(source, r.rc.ServerURL) {
		if !r.docsHeld {
			r.docsHeld = true
			r.log.Warning(fmt.Sprintf("%s is not used on pull request %s/%s#%d: it is not in the job's repository (%s), the only one the token is sent to",
				r.rc.Terms().Name("docs-token"), escape.Log(pr.Owner), escape.Log(pr.Repo), pr.Number, escape.Log(source)))
		}
		return nil
	}
	if r.docs == nil {
		// New fails only for an empty token or a bad GITHUB_API_URL,
		// which the run's own client met first.
		r.docs, _ = ghclient.New(r.hc.HTTPClient(httpclient.Repeatable), r.hc.HTTPClient(httpclient.Once), r.rc.APIURL, r.cfg.DocsToken)
	}
	return r.docs
}

// ownRepo reports whether pr is in the repository the workflow runs in,
// which github-token is for.
func (r *run) ownRepo(pr prlink.PullRequest) bool {
	return strings.EqualFold(pr.Owner, r.trig.Owner) && strings.EqualFold(pr.Repo, r.trig.Repo)
}

// readOnce returns the job id as the run read it already (seen), or reads
// it when it did not: a run reads an earlier record's job once.
func readOnce(ctx context.Context, api *agentapi.Client, id string, seen *agentapi.Job) (*agentapi.Job, error) {
	if seen != nil {
		return seen, nil
	}
	return api.Get(ctx, id)
}

// agentPR reads the agent's pull request pr once a run: the review request
// wants its author, the preview its branch.
func (r *run) agentPR(ctx context.Context, gh *ghclient.Client, pr prlink.PullRequest) (*ghclient.PullRequest, error) {
	if r.agentPull != nil && r.agentPull.Number == pr.Number {
		return r.agentPull, nil
	}
	info, err := gh.PullRequest(ctx, pr.Owner, pr.Repo, pr.Number)
	if err == nil {
		r.agentPull = info
	}
	return info, err
}
