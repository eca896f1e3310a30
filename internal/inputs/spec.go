// Package inputs validates the action's inputs, all of them before anything
// is sent, from their raw values (which runner.FromEnv and the command line
// gather), and holds the one list of inputs and outputs (spec.go).
package inputs

import (
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/request"
)

// Input describes one input of action.yml.
type Input struct {
	Name        string
	Default     string
	Description string
	Required    bool
	// Values are the words the input takes when it takes one of a few
	// (docs-merge: false, merge, squash or rebase), in the order errors
	// and --help name them, and any case; nil when it takes other text.
	// Read refuses any other word, and the command line makes a flag of
	// the input that needs no value only when they are true and false.
	Values []string
}

// TrueFalse are the Values of an input that takes true or false.
var TrueFalse = []string{"true", "false"}

// IsTrueFalse reports whether in takes true or false alone, as its Values
// say (never its default: docs-merge defaults to false and takes merge,
// squash or rebase too). Its flag then needs no value (--dry-run) or takes
// one after = (--wait=false); every other input's flag takes its value
// apart or after = (--docs-merge squash, --docs-merge=squash).
func (in Input) IsTrueFalse() bool { return slices.Equal(in.Values, TrueFalse) }

// Words names values as a sentence does: "exists or approved",
// "auto, true or false".
func Words(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// Output describes one output of action.yml.
type Output struct {
	Name        string
	Description string
}

// Inputs lists every input in action.yml order. A test keeps action.yml and
// this table in step.
var Inputs = []Input{
	{Name: "prompt", Description: "The instruction for the agent. When empty: prompt-file, or else the triggering comment (without the trigger phrase) or issue/pull request title and body."},
	{Name: "prompt-file", Description: "Path of a file whose contents are the prompt: inside the workspace, relative to it, in Actions; any path on a command line. Setting both prompt and prompt-file is an error."},
	{Name: "project-id", Required: true, Description: "The Mintlify project id the job runs in."},
	{Name: "api-key", Required: true, Description: "A Mintlify admin API key (starts with mint_). Pass it from a secret."},
	{Name: "base-url", Default: "https://api.mintlify.com", Description: "The Agent Job API base URL. Must be https://, except for loopback hosts."},
	{Name: "job-id", Description: "Send the prompt as a follow-up message to this job instead of creating a new one. Without a prompt, send nothing and wait for the job (resume a run that timed out or was cancelled)."},
	{Name: "wait", Default: "true", Values: TrueFalse, Description: "Wait for the job to end. false returns right after the create or follow-up call. In a settle run: wait, within timeout, for the job of the pull request its event names (the agent's)."},
	{Name: "settle", Default: "false", Values: TrueFalse, Description: "Start no job and send the agent nothing new: report the end of every job an earlier run left working (wait: false, a timeout, a cancellation) in this repository's issues and pull requests: their comments, commit statuses, backlinks and previews. For a scheduled or dispatched workflow, or one on the agent's pull request's events: then it waits (wait, within timeout) for the job of that pull request (a repository_dispatch names it in client_payload.pull_request, a workflow_dispatch in inputs.pull_request), and asks for previews without waiting for their builds. Reads at most the repository's 1,000 most recently written comments, and beyond them the record the backlink on its event's pull request names and the 20 oldest open pull requests whose commit status is pending, and 100 jobs, and writes to at most 20 threads a run."},
	{Name: "timeout", Default: "30m", Description: "The most the whole step may take: a Go duration (90s, 45m) or plain seconds."},
	{Name: "poll-interval", Default: "auto", Description: "How often to check the job: auto (often at first, less as the job goes on; checks do not count against the rate limit) or a fixed duration of at least 1s."},
	{Name: "dry-run", Default: "false", Values: TrueFalse, Description: "Validate everything and print the request that would be sent, with the key redacted; send nothing."},
	{Name: "github-token", Default: "${{ github.token }}", Description: "Token for comments, reactions and permission checks."},
	{Name: "comment", Default: "auto", Values: []string{"auto", "true", "false"}, Description: "auto: comment when the run was triggered by an issue, issue comment, pull request or review comment, or when issue-number is set; true: always (fails if there is nowhere to comment); false: never."},
	{Name: "issue-number", Description: "Issue or pull request to comment on when the event has none (workflow_dispatch, schedule, push)."},
	{Name: "trigger-phrase", Description: "When set (e.g. /docs), a comment-triggered run acts only if the comment contains the phrase as a whole word."},
	{Name: "trigger-label", Description: "When the prompt comes from the event: only adding this label (e.g. docs) to an issue or pull request starts a run; other labels are skipped. Empty: any label added acts."},
	{Name: "trigger-assignee", Description: "When the prompt comes from the event: only assigning this login (e.g. docs-bot) to an issue or pull request starts a run; other assignees are skipped. Empty: any assignment acts."},
	{Name: "required-permission", Default: "write", Values: request.Levels[1:], Description: "The least repository permission the person who triggered the run needs: read, triage, write, maintain or admin."},
	{Name: "allowed-bots", Description: "Comma-separated bot logins allowed to trigger a run; all other bots are refused."},
	{Name: "reviewers", Description: "Comma-separated logins asked to review the agent's pull request after runs no person started (schedule, workflow_dispatch, push). Runs a person started ask that person."},
	{Name: "paths", Description: "For a code pull request (pull_request opened, reopened, ready_for_review, synchronize): the changed files the docs follow, one pattern a line, as in a workflow's on.pull_request.paths (*, **, ?, +, [], ! to exclude; the last matching pattern decides), written bare: a quote, a list marker or a comment is an error that names its line. Empty: every file."},
	{Name: "preview", Default: "true", Values: TrueFalse, Description: "When the job ends with a pull request on a branch, ask for that branch's Mintlify preview deployment, wait for it within timeout, and show its link. false: do not."},
	{Name: "docs-token", Description: "A token that can write to the repository of the agent's pull request when that is another repository (docs kept apart from code), for the backlink comment and the review request there. Empty: github-token, and both are skipped in another repository. Pass it from a secret."},
	{Name: "docs-check", Default: "exists", Values: []string{"exists", "approved"}, Description: "What turns a code pull request's check (docs / agent-job) green once its docs job ends with a pull request: exists, the pull request is there; approved, it is approved on its latest commit by a reviewer with required-permission (or merged). While it waits, the check is pending and names the docs pull request; a settle run on that pull request's review or close events settles it."},
	{Name: "docs-merge", Default: "false", Values: []string{"false", "merge", "squash", "rebase"}, Description: "When a code pull request is merged, merge its docs pull request with this method: merge, squash or rebase, if it is approved on its latest commit by a reviewer with required-permission and GitHub allows the merge; otherwise both pull requests say why not. false: leave it to a person."},
	{Name: "docs-when", Default: "push", Values: []string{"push", "approved"}, Description: "When a code pull request's docs job hears its change: push, at every push (opened, pushed, ready for review); approved, once the code is approved: a reviewer with required-permission approves its latest commit, and no change request by one stands (the rules docs-check: approved applies to the docs pull request). Until then nothing is sent, and the check docs / agent-job waits, saying so; at the approval one create or follow-up carries every change since the job last heard. A push after an approval waits for the next. The code workflow must hear pull_request_review submitted."},
	{Name: "docs-close", Default: "false", Values: TrueFalse, Description: "When a code pull request is closed without being merged, close its docs pull request too, with a comment that says why. false: leave it open for a person."},
	{Name: "release-label", Default: "docs-not-needed", Description: "Adding this label to a code pull request releases its check (docs / agent-job) on the pull request's latest head: success, naming who added it, with no docs job for that head, when they are a person with required-permission (no bot may); from anyone else, nothing is written. The next push asks again. The code workflow must hear pull_request labeled. Empty: no release."},
	{Name: "agent-app", Default: "mintlify[bot]", Description: "The login of the app that opens the agent's pull requests: a settle run leaves them to the records that pair them with their code, never to release-bots or a fork's rules."},
	{Name: "release-bots", Default: "dependabot[bot]", Description: "Comma-separated bot logins whose pull requests need no docs job: a settle run on their pull_request_target events sets their check to success, saying so. Another bot's pull request (neither these, nor allowed-bots, nor agent-app) and a fork's get a pending check that waits for a maintainer's release-label. Empty: none."},
	{Name: "max-sends-per-thread", Description: "Most creates and follow-ups sent to the Agent Job API from one issue or pull request, counted from the action's own comments there. At the cap a run sends nothing and says so in its comment and commit status. A comment request by someone with maintain or admin permission passes it. Empty: no cap."},
	{Name: "max-sends-per-day", Description: "Most creates and follow-ups sent to the Agent Job API from this repository per day (UTC), counted from the action's own comments written that day. At the cap a run sends nothing and says so in its comment and commit status. Empty: no cap."},
}

// Outputs lists every output in action.yml order.
var Outputs = []Output{
	{Name: "job-id", Description: "The job's id, written as soon as it is known."},
	{Name: "status", Description: "The job's last seen status (active, completed, archived, failed, or a new one the API adds), dry-run, skipped when the run decided not to act, settled when a settle run (settle: true) reported the jobs it could, or error when the run failed before any job status was known."},
	{Name: "pr-link", Description: "The pull request the agent opened; empty when none."},
	{Name: "pr-number", Description: "The number of that pull request; empty when none."},
	{Name: "model", Description: "The model that ran the job."},
	{Name: "source-repository", Description: "The repository the job works on."},
	{Name: "source-ref", Description: "The branch the job works on; empty when none."},
	{Name: "created-at", Description: "When the job was created."},
	{Name: "archived-at", Description: "When the job was archived; empty when it was not."},
	{Name: "timed-out", Description: "true when the step gave up waiting at its timeout, otherwise false."},
	{Name: "job", Description: "The last job record as JSON."},
	{Name: "comment-url", Description: "The comment the run wrote in the issue or pull request; empty when none."},
	{Name: "creates", Description: "The creates the Agent Job API took in this run, each billed by the provider (the summary's cost line)."},
	{Name: "follow-ups", Description: "The follow-ups the Agent Job API took in this run, each billed by the provider."},
	{Name: "reads", Description: "The requests that read a job (polls), which the provider does not bill nor count against its rate limit."},
	{Name: "github-requests", Description: "The requests sent to GitHub's API, retries included."},
	{Name: "waited-seconds", Description: "The seconds the run waited for the job (0 with wait: false)."},
	{Name: "thread-sends", Description: "With max-sends-per-thread set: the creates and follow-ups sent from this issue or pull request before this run, as the cap read them; empty otherwise."},
	{Name: "day-sends", Description: "With max-sends-per-day set: the creates and follow-ups sent in the repository today (UTC) before this run, as the cap read them; empty otherwise."},
}
