package setup

import (
	"fmt"
	"strings"
)

// The files are written line by line in Go rather than with text/template:
// a template's execution reaches reflect's method lookup, which keeps every
// exported method of every type in the binary (go-github's thousands), and
// made the action's binary 46 % larger.

// lines builds a file a line at a time.
type lines struct{ b strings.Builder }

func (l *lines) add(format string, args ...any) {
	fmt.Fprintf(&l.b, format, args...)
	l.b.WriteByte('\n')
}

// when returns s when cond holds, else "".
func when(cond bool, s string) string {
	if cond {
		return s
	}
	return ""
}

// expr is a GitHub expression, ${{ e }}.
func expr(e string) string { return "${{ " + e + " }}" }

// setupGo is the setup-go step a pinned commit needs.
func (v view) setupGo(l *lines) {
	if !v.Pinned {
		return
	}
	// Pinned as the action is, in jobs that hold the key: v6.5.0.
	l.add("      - uses: actions/setup-go@924ae3a1cded613372ab5595356fb5720e22ba16 # v6.5.0: at a commit, the action builds itself with Go %s", v.GoVersion)
	l.add("        with:")
	l.add("          go-version: \"%s\"", v.GoVersion)
	l.add("          cache: false")
}

// step opens the job's steps: setup-go when pinned, then the action's step,
// whose inputs follow.
func (v view) step(l *lines) {
	l.add("    steps:")
	v.setupGo(l)
	l.add("      - uses: %s", v.Uses)
	l.add("        with:")
}

// queued is a concurrency group that keeps every waiting run, each in its
// turn, rather than only the newest.
func queued(l *lines, comment, group string) {
	l.add("    concurrency:")
	l.add("      # %s", comment)
	l.add("      group: %s", group)
	l.add("      cancel-in-progress: false")
	l.add("      queue: max")
}

// caps are the caps' inputs.
func (v view) caps(l *lines) {
	if v.PerThread > 0 {
		l.add("          max-sends-per-thread: %d", v.PerThread)
	}
	if v.PerDay > 0 {
		l.add("          max-sends-per-day: %d", v.PerDay)
	}
}

// common are the inputs the code and request jobs pass alike.
func (v view) common(l *lines) {
	l.add("          project-id: %s", expr("vars.MINTLIFY_PROJECT_ID"))
	l.add("          api-key: %s", expr("secrets.MINTLIFY_API_KEY"))
	if !v.Wait {
		l.add("          wait: false")
		l.add("          timeout: 5m")
	}
	if !v.Here {
		l.add("          docs-token: %s", expr("secrets.DOCS_REPO_TOKEN"))
	}
	l.add("          # The phrase a request is made with, which the comments on the agent's pull request tell reviewers.")
	l.add("          trigger-phrase: %s", yamlScalar(v.Phrase))
	v.agentApp(l)
	v.caps(l)
}

// paths is the paths input, under the comment it is given.
func (v view) paths(l *lines, comment string) {
	if len(v.Paths) == 0 {
		return
	}
	l.add("          paths: |%s", comment)
	for _, p := range v.Paths {
		l.add("            %s", p)
	}
}

// bots is the condition that lets the pull requests of v's bots through
// (op "||", "=="), or keeps them out (op "&&", "!=").
func (v view) bots(op, is string) string {
	var b strings.Builder
	for _, login := range v.Bots {
		fmt.Fprintf(&b, " %s github.event.pull_request.user.login %s '%s'", op, is, login)
	}
	return b.String()
}

// agentApp is the agent-app input, when the app is not the default.
func (v view) agentApp(l *lines) {
	if v.AgentApp != Defaults.AgentApp {
		l.add("          agent-app: %s", yamlScalar(v.AgentApp))
	}
}

// outsideInputs are the inputs that tell the pull requests no code job
// follows, and what releases them, where they are not the defaults.
func (v view) outsideInputs(l *lines) {
	v.agentApp(l)
	if v.ReleaseLabel != "docs-not-needed" {
		l.add("          release-label: %s", yamlScalar(v.ReleaseLabel))
	}
	if v.BotList != "" {
		l.add("          allowed-bots: %s", yamlScalar(v.BotList))
	}
}

// codeFile is the code repository's workflow file.
func (v view) codeFile() string {
	var l lines
	here := v.Here
	l.add("# Written by agent-job-action init (%s). To change it, run init again with other", v.Action)
	l.add("# choices and --force; what each event does: %s", v.Guide)
	l.add("name: Docs agent")
	l.add("on:")
	l.add("  pull_request: # a person's code pull request, push by push")
	l.add("    types: [opened, reopened, ready_for_review, synchronize, edited, closed, labeled]")
	if here && !v.Wait {
		l.add("  pull_request_target: # the agent's pull request, a fork's and another bot's; this file's definition comes from the default branch")
		l.add("    types: [opened, synchronize, reopened, closed, labeled, edited]")
	} else {
		l.add("  pull_request_target: # a fork's and another bot's pull request; this file's definition comes from the default branch")
		l.add("    types: [opened, synchronize, reopened, labeled, edited]")
	}
	l.add("  pull_request_review: # %s/docs in a review", when(here && v.Approval, "the docs pull request's reviews, and "))
	l.add("    types: [submitted%s]", when(here && v.Approval, ", dismissed"))
	l.add("  pull_request_review_comment: # /docs on a line of a pull request")
	l.add("    types: [created]")
	l.add("  issue_comment: # /docs in an issue or a pull request's conversation")
	l.add("    types: [created]")
	if v.MergeQueue {
		l.add("  merge_group: # the check of a merge queue's group")
		l.add("    types: [checks_requested]")
	}
	l.add("  schedule:")
	l.add("    - cron: \"17 * * * *\" # every hour, at 17 past: the jobs that end without a pull request")
	l.add("  workflow_dispatch: # by hand%s", when(!here, ", and from "+v.DocsRepo+" when the agent's pull request moves"))
	l.add("    inputs:")
	l.add("      pull_request:")
	l.add("        description: The agent's pull request that moved, by its address (empty by hand)")
	l.add("        type: string")
	l.add("        required: false")
	l.add("")
	l.add("permissions: {}")
	l.add("")
	l.add("jobs:")
	l.add("  code:")
	l.add("    # A person's code pull request in this repository%s%s%s.", when(len(v.Bots) > 0, " or "+v.BotList+"'s"),
		when(v.WhenApproved, ", and its approvals"), when(v.MergeQueue, ", and a merge queue's group"))
	l.add("    # Skipped, billing nothing: a fork's pull request (GitHub gives it no secrets), %s bot's", map[bool]string{false: "a", true: "any other"}[len(v.Bots) > 0])
	l.add("    # (the agent's included), a draft's push, an edit of the title or description, and any label but %s.", v.ReleaseLabel)
	l.add("    if: >-")
	if v.MergeQueue {
		l.add("      github.event_name == 'merge_group' ||")
	}
	l.add("      github.event_name == 'pull_request' &&")
	l.add("      github.event.pull_request.head.repo.full_name == github.repository &&")
	l.add("      (github.event.pull_request.user.type != 'Bot'%s) &&", v.bots("||", "=="))
	l.add("      (github.event.action != 'edited' || github.event.changes.base) &&")
	l.add("      (!github.event.pull_request.draft || github.event.action == 'closed' || github.event.action == 'labeled') &&")
	l.add("      (github.event.action != 'labeled' || github.event.label.name == '%s')%s", v.ReleaseLabel, when(v.WhenApproved, " ||"))
	if v.WhenApproved {
		l.add("      github.event_name == 'pull_request_review' && github.event.review.state == 'approved' &&")
		l.add("      github.event.pull_request.head.repo.full_name == github.repository &&")
		l.add("      (github.event.pull_request.user.type != 'Bot'%s)", v.bots("||", "=="))
	}
	l.add("    runs-on: %s", v.Runner)
	l.add("    timeout-minutes: %d", v.JobMinutes)
	l.add("    permissions:")
	if here && v.Merge != "" {
		l.add("      contents: write      # compare a push's commits; merge the docs pull request with the code")
	} else {
		l.add("      contents: read       # compare a push's commits")
	}
	l.add("      pull-requests: write # the comment and 👀; the backlink and review request on the docs pull request")
	l.add("      statuses: write      # the commit status docs / agent-job")
	queued(&l, "Shared with the request job: one run at a time per pull request, each in its turn.",
		"docs-agent-"+expr("github.event.pull_request.number"+when(v.MergeQueue, " || github.event.merge_group.head_sha")))
	v.step(&l)
	v.common(&l)
	v.paths(&l, "")
	if v.Approval {
		l.add("          docs-check: approved")
	}
	if v.Merge != "" {
		l.add("          docs-merge: %s", v.Merge)
	}
	if v.Close {
		l.add("          docs-close: true")
	}
	if v.WhenApproved {
		l.add("          docs-when: approved")
	}
	if v.ReleaseLabel != "docs-not-needed" {
		l.add("          release-label: %s", yamlScalar(v.ReleaseLabel))
	}
	if v.CodeBots != "" {
		l.add("          allowed-bots: %s", yamlScalar(v.CodeBots))
	}
	l.add("")
	l.add("  request:")
	l.add("    # /docs in a comment or a review; the action checks the phrase and the author's permission itself.")
	l.add("    # Skipped, billing nothing: any other comment, and a review of a fork's pull request (no secrets).")
	l.add("    if: >-")
	l.add("      contains(github.event.comment.body || github.event.review.body, '%s') &&", v.Phrase)
	l.add("      (github.event_name == 'issue_comment' || github.event.pull_request.head.repo.full_name == github.repository) &&")
	l.add("      (github.event_name != 'pull_request_review' || github.event.action == 'submitted')")
	l.add("    runs-on: %s", v.Runner)
	l.add("    timeout-minutes: %d", v.JobMinutes)
	l.add("    permissions:")
	l.add("      contents: read")
	l.add("      issues: write        # the comment and 👀 in an issue")
	l.add("      pull-requests: write # the comment and 👀 in a pull request; the backlink on the agent's")
	queued(&l, "Shared with the code job: a request waits its turn behind a push's run, and the next request behind it.",
		"docs-agent-"+expr("github.event.issue.number || github.event.pull_request.number"))
	v.step(&l)
	v.common(&l)
	l.add("")
	l.add("  outside:")
	l.add("    # A pull request no other job can check: a fork's (GitHub gives its pull_request runs no secrets) and")
	l.add("    # another bot's: they wait for a maintainer's %s on their head (release-bots' pass, saying so).", v.ReleaseLabel)
	l.add("    # From the default branch's file, with nothing checked out. Skipped, billing nothing: any other.")
	l.add("    if: >-")
	l.add("      github.event_name == 'pull_request_target' && github.event.action != 'closed' &&")
	l.add("      (github.event.pull_request.head.repo.full_name != github.repository ||")
	l.add("      github.event.pull_request.user.type == 'Bot' && github.event.pull_request.user.login != '%s'%s) &&", v.AgentApp, v.bots("&&", "!="))
	l.add("      (github.event.action != 'labeled' || github.event.label.name == '%s') && (github.event.action != 'edited' || github.event.changes.base)", v.ReleaseLabel)
	l.add("    runs-on: ubuntu-slim")
	l.add("    timeout-minutes: 5")
	l.add("    permissions:")
	l.add("      pull-requests: read # which open pull requests head the same commit, in a private repository")
	l.add("      statuses: write     # the commit status docs / agent-job")
	queued(&l, "Shared with the code and request jobs: one run at a time per pull request, each in its turn.",
		"docs-agent-"+expr("github.event.pull_request.number"))
	v.step(&l)
	l.add("          project-id: %s", expr("vars.MINTLIFY_PROJECT_ID"))
	l.add("          api-key: %s", expr("secrets.MINTLIFY_API_KEY"))
	l.add("          settle: true")
	v.outsideInputs(&l)
	l.add("")
	l.add("  settle:")
	l.add("    # The jobs earlier runs left: %severy hour,", when(v.AgentEvents != "", "on the agent's pull request's "+v.AgentEvents+", "))
	l.add("    # and on a dispatch. Skipped, billing nothing: any other pull request's events and reviews.")
	l.add("    if: >-")
	if v.AgentEvents == "" {
		l.add("      github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'")
	} else {
		var events []string
		if !v.Wait {
			events = append(events, "github.event_name == 'pull_request_target'")
		}
		if v.Approval {
			events = append(events, "github.event_name == 'pull_request_review'")
		}
		l.add("      github.event_name == 'schedule' || github.event_name == 'workflow_dispatch' ||")
		l.add("      (%s) &&", strings.Join(events, " || "))
		l.add("      github.event.pull_request.user.login == '%s' && github.event.action != 'labeled' && github.event.action != 'edited'", v.AgentApp)
	}
	l.add("    runs-on: ubuntu-slim # a settle run ends in minutes: 1 vCPU, the cheapest runner")
	l.add("    timeout-minutes: 14")
	l.add("    permissions:")
	l.add("      contents: read       # read a change that waits")
	l.add("      issues: write        # edit the records in issues; the 👀 that tells the token's login")
	l.add("      pull-requests: write # edit the records in pull requests; the backlink and review request; read reviews")
	l.add("      statuses: write      # the commit statuses the records owe")
	l.add("    concurrency:")
	l.add("      group: docs-agent-settle")
	l.add("      cancel-in-progress: false")
	v.step(&l)
	l.add("          project-id: %s", expr("vars.MINTLIFY_PROJECT_ID"))
	l.add("          api-key: %s", expr("secrets.MINTLIFY_API_KEY"))
	l.add("          settle: true")
	l.add("          # The most it waits for the job of the pull request whose event started it.")
	l.add("          timeout: 12m")
	l.add("          # The phrase the backlink on the agent's pull request tells reviewers to write.")
	l.add("          trigger-phrase: %s", yamlScalar(v.Phrase))
	v.paths(&l, " # the code job's: a change that waits is filtered by it")
	if v.Approval {
		l.add("          docs-check: approved")
	}
	if !here {
		l.add("          docs-token: %s", expr("secrets.DOCS_REPO_TOKEN"))
	}
	v.outsideInputs(&l) // the schedule gives the pull requests no code job follows their checks too
	v.caps(&l)
	return l.b.String()
}

// docsFile is the docs repository's workflow file.
func (v view) docsFile() string {
	var l lines
	tells := when(!v.Wait, "moves") + when(!v.Wait && v.Approval, " or ") + when(v.Approval, "is reviewed")
	l.add("# Written by agent-job-action init (%s) for %s, where the agent opens its pull", v.Action, v.DocsRepo)
	l.add("# requests: it tells %s's workflow when one %s. What each event does:", v.CodeRepo, tells)
	l.add("# %s", v.Guide)
	l.add("name: Docs agent, tell the code repository")
	l.add("on:")
	if !v.Wait {
		l.add("  pull_request_target: # this file's definition comes from the default branch")
		l.add("    types: [opened, synchronize, reopened, closed]")
	}
	if v.Approval {
		l.add("  pull_request_review:")
		l.add("    types: [submitted, dismissed]")
	}
	l.add("")
	l.add("permissions: {}")
	l.add("")
	l.add("jobs:")
	l.add("  tell:")
	l.add("    # The agent's pull requests only; skipped, billing nothing, for any other.")
	l.add("    if: github.event.pull_request.user.login == '%s'", v.AgentApp)
	l.add("    runs-on: ubuntu-slim")
	l.add("    timeout-minutes: 2")
	l.add("    steps:")
	l.add("      - env:")
	l.add("          # actions: write on %s, and nothing else: it can start (or re-run, cancel) runs, not push code.", v.CodeRepo)
	l.add("          TOKEN: %s", expr("secrets.CODE_REPO_DISPATCH_TOKEN"))
	l.add("          PR: %s", expr("github.event.pull_request.html_url"))
	l.add("        run: >-")
	l.add("          curl -fsS -X POST \"$GITHUB_API_URL/repos/%s/actions/workflows/%s/dispatches\"", v.CodeRepo, v.File)
	l.add("          -H \"Authorization: Bearer $TOKEN\" -H \"Accept: application/vnd.github+json\"")
	l.add("          -d \"{\\\"ref\\\": \\\"%s\\\", \\\"inputs\\\": {\\\"pull_request\\\": \\\"$PR\\\"}}\"", v.CodeBranch)
	return l.b.String()
}
