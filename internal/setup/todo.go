package setup

import (
	"fmt"
	"strings"

	"github.com/agentjob/agent-job-action/internal/check"
)

// Step is one thing a person must still do, which no file can: what, and
// the command that does it, when there is one.
type Step struct {
	What    string
	Command string
}

// Steps are what a person must do, in order, for the files of c to work:
// the variable and the secrets (each with a gh command), the tokens with
// their permissions, the label, the files on each default branch, the
// ruleset that requires the check (and the merge queue), and the proof.
func Steps(c Choices) []Step {
	code := c.CodeRepo
	var steps []Step
	steps = append(steps,
		Step{What: "Set the Mintlify project's id (the dashboard's API keys page shows it) as a variable.",
			Command: fmt.Sprintf("gh variable set MINTLIFY_PROJECT_ID --repo %s --body '<project id>'", code)},
		Step{What: "Create an admin API key with write access in the Mintlify dashboard, and set it as a secret (gh asks for the value, so it stays out of your shell's history).",
			Command: fmt.Sprintf("gh secret set MINTLIFY_API_KEY --repo %s", code)},
	)
	if c.DocsRepo != "" {
		docsContents := "Contents: read"
		if c.Merge != "" {
			docsContents = "Contents: read and write (docs-merge merges there)"
		}
		steps = append(steps,
			Step{What: fmt.Sprintf("Create a fine-grained token with access to %s only: Pull requests: read and write (the backlink, the review request, the closing comment, reviews), %s, Metadata: read. Set it as a secret of %s.", c.DocsRepo, docsContents, code),
				Command: fmt.Sprintf("gh secret set DOCS_REPO_TOKEN --repo %s", code)},
		)
		if c.docsFile() {
			steps = append(steps, Step{What: fmt.Sprintf("Create a fine-grained token with access to %s only: Actions: read and write, and nothing else (it starts %s's workflow, and could re-run or cancel runs there; it cannot push code). Set it as a secret of %s.", code, File, c.DocsRepo),
				Command: fmt.Sprintf("gh secret set CODE_REPO_DISPATCH_TOKEN --repo %s", c.DocsRepo)})
		}
	}
	steps = append(steps, Step{What: "Create the label that releases the check on a pull request that needs no docs change (only a person with write permission can use it).",
		Command: fmt.Sprintf("gh label create %s --repo %s --description 'No docs change needed: releases docs / agent-job'", shellQuote(c.ReleaseLabel), code)})
	if c.bots("dependabot[bot]") {
		steps = append(steps, Step{What: "Dependabot's runs get Dependabot's secrets only: set the key there too, under the same name.",
			Command: fmt.Sprintf("gh secret set MINTLIFY_API_KEY --repo %s --app dependabot", code)})
	}
	// The files last but the ruleset: a run they start before the
	// settings exist fails for want of them.
	steps = append(steps, Step{What: fmt.Sprintf("Commit %s/%s to %s's default branch (%s): the schedule, pull_request_target and workflow_dispatch run only the default branch's file.", Dir, File, code, c.CodeBranch),
		Command: fmt.Sprintf("git add %s/%s && git commit -m 'Docs agent' && git push", Dir, File)})
	if c.docsFile() {
		steps = append(steps, Step{What: fmt.Sprintf("Commit the second file to %s's default branch, at %s/%s there, the same way.", c.DocsRepo, Dir, File),
			Command: fmt.Sprintf("git add %s/%s && git commit -m 'Docs agent' && git push", Dir, File)})
	}
	rules := fmt.Sprintf(`{"type":"required_status_checks","parameters":{"strict_required_status_checks_policy":false,"required_status_checks":[{"context":%q}]}}`, check.Context)
	what := fmt.Sprintf("Require the check %s on the default branch, in a ruleset (Settings, Rules, Rulesets)", check.Context)
	if c.MergeQueue {
		method := "SQUASH"
		if c.Merge != "" {
			method = strings.ToUpper(c.Merge)
		}
		rules += fmt.Sprintf(`,{"type":"merge_queue","parameters":{"check_response_timeout_minutes":60,"grouping_strategy":"ALLGREEN","max_entries_to_build":5,"max_entries_to_merge":5,"merge_method":%q,"min_entries_to_merge":1,"min_entries_to_merge_wait_minutes":5}}`, method)
		what += ", with the merge queue"
	}
	steps = append(steps,
		Step{What: what + ". Do it last: a required check with no workflow to set it holds every pull request.",
			Command: fmt.Sprintf(`gh api repos/%s/rulesets --method POST --input - <<'EOF'
{"name":"Docs agent","target":"branch","enforcement":"active","conditions":{"ref_name":{"include":["~DEFAULT_BRANCH"],"exclude":[]}},"rules":[%s]}
EOF`, code, rules)},
		Step{What: "Check the setup before the first pull request: doctor sends only reads, and names the fix of each problem (give it the tokens in its environment to check their reach).",
			Command: doctorCommand(c)},
	)
	return steps
}

// doctorCommand is the doctor command for c's setup.
func doctorCommand(c Choices) string {
	cmd := "go run github.com/agentjob/agent-job-action@" + c.Ref + " doctor --repo " + c.CodeRepo
	if c.DocsRepo != "" {
		cmd += " --docs-repo " + c.DocsRepo + " --docs-dir <its checkout>"
	}
	if c.AgentApp != Defaults.AgentApp {
		cmd += " --agent-app " + shellQuote(c.AgentApp)
	}
	return cmd
}

// bots says the bots whose pull requests get a docs job include login.
func (c Choices) bots(login string) bool {
	for _, b := range c.Bots {
		if strings.EqualFold(b, login) {
			return true
		}
	}
	return false
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
