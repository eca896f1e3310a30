// Package doctor proves a setup before its first real run, with reads
// only: the workflow files and the inputs they pass, the dispatch from
// the docs repository, the API key, each token's reach, the required
// check and the merge queue on the default branch, and what the agent's
// app may change. What the services cannot tell it, it says it cannot
// tell; each problem names its fix.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/setup"
)

// State is how a finding came out.
type State string

// The states.
const (
	OK         State = "ok"
	Problem    State = "problem"
	CannotTell State = "cannot tell"
)

// Finding is one thing doctor checked: what, how it came out, what it
// saw, and for a problem or what it cannot tell, what to do.
type Finding struct {
	Check string `json:"check"`
	State State  `json:"state"`
	Says  string `json:"says"`
	Fix   string `json:"fix,omitempty"`
}

// Setup is the setup doctor checks.
type Setup struct {
	// CodeRepo is the code repository, owner/name; DocsRepo the one the
	// agent opens its pull requests in, "" when it is the same.
	CodeRepo, DocsRepo string
	// Dir and DocsDir are their checkouts ("" for DocsDir: none), where
	// the workflow file File is read.
	Dir, DocsDir string
	File         string
	// AgentApp is the login of the agent's app (mintlify[bot]).
	AgentApp string
	// Key says an API key was given, and its form.
	Key string
}

// GitHub is what doctor reads of GitHub with one token.
// *ghclient.Client is one.
type GitHub interface {
	Repository(ctx context.Context, owner, repo string) (ghclient.Repository, error)
	BranchRules(ctx context.Context, owner, repo, branch string) (ghclient.BranchRules, error)
	Protection(ctx context.Context, owner, repo, branch string) (ghclient.Protection, error)
	App(ctx context.Context, slug string) (map[string]string, error)
	Resolve(ctx context.Context, owner, repo, ref string) (string, error)
}

// Agent is what doctor reads of the Agent Job API. *agentapi.Client is
// one.
type Agent interface {
	Get(ctx context.Context, id string) (*agentapi.Job, error)
}

var (
	_ GitHub = (*ghclient.Client)(nil)
	_ Agent  = (*agentapi.Client)(nil)
)

// Doctor holds the clients doctor reads with; a nil one is a credential
// doctor was not given, whose checks it cannot make.
type Doctor struct {
	Agent Agent
	// GitHub reads with the person's (or the step's) token; Docs with
	// DOCS_REPO_TOKEN; Dispatch with CODE_REPO_DISPATCH_TOKEN.
	GitHub, Docs, Dispatch GitHub
}

// Probe is the job id doctor reads to reach the API: no job has it, so
// the read creates nothing and finds nothing.
const Probe = "doctor-probe-0000"

// Check checks s and returns its findings, in the order a person fixes
// them: the files, the key, the tokens, the branch's rules, the app.
func (d Doctor) Check(ctx context.Context, s Setup) []Finding {
	var out []Finding
	add := func(f Finding) { out = append(out, f) }
	code := d.files(s, add)
	d.ref(ctx, code, add)
	d.key(ctx, s, add)
	branch := d.tokens(ctx, s, add)
	d.rules(ctx, s, branch, code, add)
	d.app(ctx, s, add)
	return out
}

// files checks the code repository's workflow file, and the docs
// repository's when the docs live apart; it returns the code file, nil
// when it cannot be read.
func (d Doctor) files(s Setup, add func(Finding)) *workflow {
	const what = "the workflow file"
	path := workflowPath(s.Dir, s.File)
	w, err := readWorkflow(path)
	switch {
	case err != nil:
		add(Finding{Check: what, State: Problem, Says: fmt.Sprintf("%s cannot be read: %s", path, escape.Log(err.Error())), Fix: "run agent-job-action init again, with the choices of this setup"})
		return nil
	case w == nil:
		add(Finding{Check: what, State: Problem, Says: path + " does not exist", Fix: "run agent-job-action init in the code repository's checkout (or give doctor --dir, --file)"})
		return nil
	}
	jobs := w.actionJobs()
	var problems []string
	roles := map[role][]actionJob{}
	for _, a := range jobs {
		roles[a.role] = append(roles[a.role], a)
		problems = append(problems, inputProblems(a)...)
	}
	for _, r := range []role{roleCode, roleSettle} {
		if len(roles[r]) == 0 {
			problems = append(problems, fmt.Sprintf("no job runs the action as a %s job", r))
		}
	}
	codeJobs, settleJobs := roles[roleCode], roles[roleSettle]
	if len(codeJobs) > 0 && len(settleJobs) > 0 {
		c, st := codeJobs[0], settleJobs[0]
		if strings.TrimSpace(c.with["paths"]) != strings.TrimSpace(st.with["paths"]) {
			problems = append(problems, fmt.Sprintf("jobs %s and %s pass different paths: a change that waits is filtered by the settle job's", c.id, st.id))
		}
	}
	for _, a := range codeJobs {
		if strings.EqualFold(strings.TrimSpace(a.with["docs-when"]), "approved") && !w.hears("pull_request_review") {
			problems = append(problems, fmt.Sprintf("job %s passes docs-when: approved, but the file does not hear pull_request_review: the code's approval never reaches it, and its check waits for ever", a.id))
		}
	}
	if s.DocsRepo != "" {
		for _, a := range jobs {
			// The outside job writes only its pull request's status here.
			if a.with["docs-token"] == "" && a.role != roleOutside {
				problems = append(problems, fmt.Sprintf("job %s passes no docs-token, which %s needs", a.id, s.DocsRepo))
			}
		}
	}
	if len(problems) > 0 {
		add(Finding{Check: what, State: Problem, Says: path + ": " + strings.Join(problems, "; "), Fix: "run agent-job-action init again, or mend those lines"})
	} else {
		add(Finding{Check: what, State: OK, Says: fmt.Sprintf("%s: %d jobs run the action, with inputs it takes", path, len(jobs))})
	}
	d.permissions(path, jobs, s, add)
	d.dispatch(w, jobs, s, add)
	return w
}

// permissions checks that each job's GITHUB_TOKEN may write what the job
// writes, where the file says.
func (d Doctor) permissions(path string, jobs []actionJob, s Setup, add func(Finding)) {
	const what = "GITHUB_TOKEN's permissions"
	var lacking, unset []string
	for _, a := range jobs {
		merges := a.with["docs-merge"] != "" && a.with["docs-merge"] != "false" && s.DocsRepo == ""
		missing, ok := a.lacks(needs(a.role, merges))
		switch {
		case !ok:
			unset = append(unset, a.id)
		case len(missing) > 0:
			lacking = append(lacking, fmt.Sprintf("job %s lacks %s", a.id, strings.Join(missing, ", ")))
		}
	}
	switch {
	case len(lacking) > 0:
		add(Finding{Check: what, State: Problem, Says: path + ": " + strings.Join(lacking, "; "), Fix: "add them to the job's permissions:"})
	case len(unset) > 0:
		add(Finding{Check: what, State: CannotTell, Says: fmt.Sprintf("jobs %s set no permissions: the repository's default for GITHUB_TOKEN applies, which no file shows", strings.Join(unset, ", ")),
			Fix: "set each job's permissions: as init writes them"})
	default:
		add(Finding{Check: what, State: OK, Says: "each job's permissions: cover what it writes"})
	}
}

// dispatch checks the path by which the docs repository tells the code
// repository that the agent's pull request moved.
func (d Doctor) dispatch(w *workflow, jobs []actionJob, s Setup, add func(Finding)) {
	const what = "the docs repository's dispatch"
	// The docs repository tells of the agent's pull request when a run
	// leaves its job to the settle job (wait: false), and of its reviews
	// when the check waits for an approval.
	needed := false
	for _, a := range jobs {
		wait, err := inputs.ParseBool(a.with["wait"])
		needed = needed || a.role != roleSettle && err == nil && !wait || strings.EqualFold(a.with["docs-check"], "approved")
	}
	if s.DocsRepo != "" && !needed {
		add(Finding{Check: what, State: OK, Says: "every run waits for its job and the check waits for no approval: the docs repository has nothing to tell"})
		return
	}
	if s.DocsRepo == "" {
		for _, a := range jobs {
			if a.with["docs-token"] != "" {
				add(Finding{Check: what, State: CannotTell, Says: fmt.Sprintf("job %s passes docs-token, so the docs live in another repository, which doctor was not told", a.id),
					Fix: "give doctor --docs-repo owner/name and --docs-dir with its checkout"})
				return
			}
		}
		if !w.hears("pull_request_target") && !w.hears("pull_request") {
			add(Finding{Check: what, State: Problem, Says: "the file hears no event of the agent's pull request", Fix: "run agent-job-action init again"})
		}
		return
	}
	if !w.dispatchInput() {
		add(Finding{Check: what, State: Problem, Says: fmt.Sprintf("the code repository's file takes no dispatch from %s (workflow_dispatch with a pull_request input)", s.DocsRepo),
			Fix: "run agent-job-action init again with --docs-repo " + s.DocsRepo})
		return
	}
	if s.DocsDir == "" {
		add(Finding{Check: what, State: CannotTell, Says: fmt.Sprintf("doctor was given no checkout of %s, whose file sends it", s.DocsRepo), Fix: "give doctor --docs-dir with a checkout of " + s.DocsRepo})
		return
	}
	path := workflowPath(s.DocsDir, s.File)
	dw, err := readWorkflow(path)
	switch {
	case err != nil:
		add(Finding{Check: what, State: Problem, Says: fmt.Sprintf("%s cannot be read: %s", path, escape.Log(err.Error())), Fix: "run agent-job-action init again with --docs-dir"})
	case dw == nil, !dw.dispatches(s.CodeRepo, s.File):
		add(Finding{Check: what, State: Problem, Says: fmt.Sprintf("nothing in %s starts %s's %s when the agent's pull request moves: the check would wait for the hour's schedule", path, s.CodeRepo, s.File),
			Fix: "run agent-job-action init with --docs-repo " + s.DocsRepo + " --docs-dir, and commit its file there"})
	default:
		add(Finding{Check: what, State: OK, Says: fmt.Sprintf("%s starts %s's %s with the pull request", path, s.CodeRepo, s.File)})
	}
}

// ref checks that the action's ref each job of w names (its uses:) is a
// commit of the action's repository: a release that does not exist yet
// (init --ref v1 before v1) fails every run.
func (d Doctor) ref(ctx context.Context, w *workflow, add func(Finding)) {
	const what, action = "the action's ref", "agentjob/agent-job-action"
	if w == nil || d.GitHub == nil {
		add(Finding{Check: what, State: CannotTell, Says: "not read", Fix: "run doctor with a GitHub token (GITHUB_TOKEN), on the workflow file"})
		return
	}
	refs := map[string]bool{}
	for _, a := range w.actionJobs() {
		if _, ref, ok := strings.Cut(a.uses, "@"); ok && setup.RefName(ref) && !refs[ref] {
			refs[ref] = true
			switch _, err := d.GitHub.Resolve(ctx, "agentjob", "agent-job-action", ref); {
			case err == nil:
				add(Finding{Check: what, State: OK, Says: fmt.Sprintf("%s@%s names a commit", action, ref)})
			case ghclient.IsNotFound(err):
				add(Finding{Check: what, State: Problem, Says: fmt.Sprintf("%s has no %s: every run of the file fails to start", action, ref), Fix: "run agent-job-action init again with --ref naming a release or a commit of " + action})
			default:
				add(Finding{Check: what, State: CannotTell, Says: ref + " could not be read: " + escape.Log(oneLine(err.Error())), Fix: "run doctor where GitHub can be reached"})
			}
		}
	}
}

// key checks that the API key reaches the Agent Job API, with a read of
// a job no one created.
func (d Doctor) key(ctx context.Context, s Setup, add func(Finding)) {
	const what = "the API key"
	switch {
	case d.Agent == nil:
		add(Finding{Check: what, State: CannotTell, Says: "doctor was given no key", Fix: "set MINTLIFY_API_KEY in doctor's environment (it is read from there only)"})
		return
	case !strings.HasPrefix(s.Key, "mint_"):
		add(Finding{Check: what, State: Problem, Says: "the key does not start with mint_: it is no admin API key", Fix: "create an admin API key in the Mintlify dashboard and set it as the secret MINTLIFY_API_KEY"})
		return
	}
	_, err := d.Agent.Get(ctx, Probe)
	var f *httpclient.Failure
	switch {
	case err == nil:
		add(Finding{Check: what, State: OK, Says: "the Agent Job API took the key"})
	case errors.As(err, &f) && f.Status == 404:
		add(Finding{Check: what, State: CannotTell, Says: "the Agent Job API did not refuse the key, and answered 404 for a job no one created; it answers 404 alike for a project the key does not reach, so doctor cannot tell whether project-id is right",
			Fix: "the first run tells: a 404 on create job means project-id is wrong (copy it from the dashboard's API keys page)"})
	case errors.As(err, &f) && (f.Status == 401 || f.Status == 403):
		add(Finding{Check: what, State: Problem, Says: fmt.Sprintf("the Agent Job API refused the key (HTTP %d)", f.Status), Fix: "create an admin API key in the Mintlify dashboard and set it as the secret MINTLIFY_API_KEY"})
	case errors.As(err, &f) && (f.Status >= 500 || f.Status == 429):
		// The service failed, or asks to wait: it said nothing of the key.
		add(Finding{Check: what, State: CannotTell, Says: fmt.Sprintf("the Agent Job API answered HTTP %d, which says nothing of the key", f.Status), Fix: "run doctor again later"})
	case errors.As(err, &f) && f.Status != 0:
		add(Finding{Check: what, State: Problem, Says: fmt.Sprintf("the Agent Job API answered HTTP %d for a read of a job: %s", f.Status, escape.Log(oneLine(err.Error()))), Fix: "check base-url and project-id"})
	default:
		// No answer: nothing is known of the key.
		add(Finding{Check: what, State: CannotTell, Says: "the Agent Job API could not be reached: " + escape.Log(oneLine(err.Error())), Fix: "run doctor where the API can be reached"})
	}
}

// tokens checks each token's reach, and returns the code repository's
// default branch ("" when it could not be read).
func (d Doctor) tokens(ctx context.Context, s Setup, add func(Finding)) string {
	owner, name, _ := strings.Cut(s.CodeRepo, "/")
	branch := ""
	if d.GitHub == nil {
		add(Finding{Check: "GitHub", State: CannotTell, Says: "doctor was given no GitHub token, so it reads neither the branch's rules nor the app", Fix: "set GITHUB_TOKEN (or GH_TOKEN) to a token that can read " + s.CodeRepo})
	} else if r, err := d.GitHub.Repository(ctx, owner, name); err != nil && (ghclient.IsNotFound(err) || ghclient.IsUnauthorized(err)) {
		add(Finding{Check: "GitHub", State: Problem, Says: "the token cannot read " + s.CodeRepo + ": " + escape.Log(oneLine(err.Error())), Fix: "give doctor a token that can read " + s.CodeRepo})
	} else if err != nil {
		add(Finding{Check: "GitHub", State: CannotTell, Says: s.CodeRepo + " could not be read: " + escape.Log(oneLine(err.Error())), Fix: "run doctor where GitHub (GITHUB_API_URL) can be reached"})
	} else {
		branch = r.DefaultBranch
		add(Finding{Check: "GitHub", State: OK, Says: fmt.Sprintf("the token reads %s (default branch %s)", s.CodeRepo, branch)})
	}
	if s.DocsRepo == "" {
		return branch
	}
	dOwner, dName, _ := strings.Cut(s.DocsRepo, "/")
	reach := func(what, secret string, gh GitHub, owner, name string, judge func(ghclient.Repository) Finding) {
		repo := owner + "/" + name
		if gh == nil {
			add(Finding{Check: what, State: CannotTell, Says: "doctor was given no " + secret, Fix: "set " + secret + " in doctor's environment to check it (it is read from there only)"})
			return
		}
		r, err := gh.Repository(ctx, owner, name)
		if ghclient.IsNotFound(err) || ghclient.IsUnauthorized(err) {
			add(Finding{Check: what, State: Problem, Says: secret + " cannot read " + repo, Fix: "give " + secret + " access to " + repo + " (init's steps list its permissions), and set the secret again"})
			return
		}
		if err != nil {
			add(Finding{Check: what, State: CannotTell, Says: repo + " could not be read with " + secret + ": " + escape.Log(oneLine(err.Error())), Fix: "run doctor where GitHub can be reached"})
			return
		}
		add(judge(r))
	}
	reach("DOCS_REPO_TOKEN", "DOCS_REPO_TOKEN", d.Docs, dOwner, dName, func(r ghclient.Repository) Finding {
		f := Finding{Check: "DOCS_REPO_TOKEN", State: OK, Says: "it reads " + s.DocsRepo}
		switch {
		case r.Scopes == nil:
			f.State, f.Says = CannotTell, "it reads "+s.DocsRepo+"; GitHub shows no one a fine-grained token's other permissions"
			f.Fix = "check that it has Pull requests: read and write there (and Contents: write for docs-merge)"
		case !slices.Contains(r.Scopes, "repo") && !slices.Contains(r.Scopes, "public_repo"):
			f.State, f.Says = Problem, "it reads "+s.DocsRepo+", but its scopes ("+strings.Join(r.Scopes, ", ")+") cannot write there"
			f.Fix = "use a fine-grained token with Pull requests: read and write on " + s.DocsRepo
		}
		return f
	})
	reach("CODE_REPO_DISPATCH_TOKEN", "CODE_REPO_DISPATCH_TOKEN", d.Dispatch, owner, name, func(r ghclient.Repository) Finding {
		f := Finding{Check: "CODE_REPO_DISPATCH_TOKEN", State: CannotTell, Says: "it reads " + s.CodeRepo + "; GitHub shows no one a fine-grained token's other permissions",
			Fix: "check that it has Actions: read and write there, and nothing else"}
		if r.Scopes != nil {
			f.State, f.Says = Problem, "it is a classic token with scopes "+strings.Join(r.Scopes, ", ")+": it can push code to "+s.CodeRepo
			f.Fix = "replace it with a fine-grained token with Actions: read and write on " + s.CodeRepo + " alone"
			if len(r.Scopes) == 0 {
				f.Says = "it is a classic token with no scope: it cannot start " + s.CodeRepo + "'s workflow"
			}
		}
		return f
	})
	return branch
}

// rules checks that the default branch requires the check, and that a
// merge queue and the file agree.
func (d Doctor) rules(ctx context.Context, s Setup, branch string, w *workflow, add func(Finding)) {
	const what = "the required check"
	if d.GitHub == nil || branch == "" {
		add(Finding{Check: what, State: CannotTell, Says: "the default branch's rules were not read", Fix: "run doctor with a token that can read " + s.CodeRepo})
		return
	}
	owner, name, _ := strings.Cut(s.CodeRepo, "/")
	rules, err := d.GitHub.BranchRules(ctx, owner, name, branch)
	if err != nil {
		add(Finding{Check: what, State: CannotTell, Says: "the rules of " + branch + " could not be read: " + escape.Log(oneLine(err.Error())), Fix: "run doctor again"})
		return
	}
	prot, err := d.GitHub.Protection(ctx, owner, name, branch)
	if err != nil {
		add(Finding{Check: what, State: CannotTell, Says: "the protection of " + branch + " could not be read: " + escape.Log(oneLine(err.Error())), Fix: "run doctor again"})
		return
	}
	if slices.Contains(rules.Required, check.Context) || slices.Contains(prot.Required, check.Context) {
		add(Finding{Check: what, State: OK, Says: fmt.Sprintf("%s requires %s", branch, check.Context)})
	} else {
		add(Finding{Check: what, State: Problem, Says: fmt.Sprintf("%s does not require %s: a pull request merges whatever the check says", branch, check.Context),
			Fix: "add it to a ruleset on the default branch (agent-job-action init prints the gh command), once the files are committed"})
	}
	if w == nil {
		return
	}
	switch hears := w.hears("merge_group"); {
	case rules.MergeQueue && !hears:
		add(Finding{Check: "the merge queue", State: Problem, Says: branch + " has a merge queue, but the file does not hear merge_group: the queue waits for " + check.Context + " until it gives up",
			Fix: "run agent-job-action init again with --merge-queue"})
	case rules.MergeQueue:
		add(Finding{Check: "the merge queue", State: OK, Says: branch + " has a merge queue, and the file hears its groups"})
	case hears:
		add(Finding{Check: "the merge queue", State: OK, Says: "the file hears merge_group, and " + branch + " has no merge queue yet: its runs start with one"})
	}
}

// app checks what the agent's app may change: an app with workflows:
// write can change .github/workflows in the pull requests it opens, and
// so what the settle job runs on their reviews.
func (d Doctor) app(ctx context.Context, s Setup, add func(Finding)) {
	const what = "the agent's app"
	slug := strings.TrimSuffix(s.AgentApp, "[bot]")
	if d.GitHub == nil {
		add(Finding{Check: what, State: CannotTell, Says: "the app " + slug + " was not read", Fix: "run doctor with a GitHub token"})
		return
	}
	perms, err := d.GitHub.App(ctx, slug)
	switch {
	case ghclient.IsNotFound(err):
		add(Finding{Check: what, State: CannotTell, Says: "GitHub shows no public app " + slug, Fix: "give doctor --agent-app with the login of the app that opens the agent's pull requests"})
	case err != nil:
		add(Finding{Check: what, State: CannotTell, Says: "the app " + slug + " could not be read: " + escape.Log(oneLine(err.Error())), Fix: "run doctor again"})
	case perms["workflows"] == "write":
		add(Finding{Check: what, State: Problem, Says: slug + " asks workflows: write: it can change .github/workflows in a pull request it opens, and GitHub runs a review's workflow from the pull request, with the key",
			Fix: "take pull_request_review out of the settle job's if: (an approval then settles on the hour's schedule), or install the app without that permission"})
	default:
		add(Finding{Check: what, State: OK, Says: slug + " asks no workflows permission: it cannot change .github/workflows"})
	}
}

// Count counts the findings in state st.
func Count(fs []Finding, st State) int {
	n := 0
	for _, f := range fs {
		if f.State == st {
			n++
		}
	}
	return n
}
