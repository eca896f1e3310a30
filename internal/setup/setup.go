// Package setup writes a team's workflow files for the choices it makes
// (init): one file in the code repository that covers every event the
// action hears (a person's code pull request, the agent's pull request,
// the docs pull request's reviews, /docs requests, a merge queue, the
// schedule, a dispatch), and, when the docs live in another repository,
// one file there that tells the code repository when the agent's pull
// request moves. It also says, in order, what a person must still do
// that no file can: the secrets, the tokens and the branch's ruleset.
package setup

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// File is the name of the workflow file init writes in each repository.
const File = "docs-agent.yml"

// Dir is where a repository's workflow files are.
const Dir = ".github/workflows"

// Guide is the page that says what each event of the files does.
const Guide = "https://github.com/agentjob/agent-job-action/blob/main/docs/setup.md"

// Choices are what a team chooses for its setup.
type Choices struct {
	// CodeRepo is the code repository, owner/name.
	CodeRepo string
	// CodeBranch is its default branch, where the workflow file lives and
	// a dispatch runs it.
	CodeBranch string
	// DocsRepo is the repository the agent opens its pull requests in,
	// owner/name; "" when it is the code repository.
	DocsRepo string
	// Wait says a run waits for its job rather than leaving it to the
	// settle job (the runner then waits on the agent).
	Wait bool
	// Approval says the check waits for an approval of the docs pull
	// request (docs-check: approved).
	Approval bool
	// Merge is how the docs pull request is merged with the code: "",
	// merge, squash or rebase.
	Merge string
	// Close says a code pull request closed unmerged closes its docs pull
	// request (docs-close).
	Close bool
	// WhenApproved says a code pull request's docs job hears its change
	// once the code is approved (docs-when: approved), not at every push.
	WhenApproved bool
	// MergeQueue says the default branch has a merge queue, whose groups
	// need the check.
	MergeQueue bool
	// Paths are the changed files the docs follow, one pattern each.
	Paths []string
	// PerThread and PerDay are the caps on sends (0: none).
	PerThread, PerDay int
	// Ref is the action's release (v1) or a full commit.
	Ref string
	// AgentApp is the login of the app that opens the agent's pull
	// requests.
	AgentApp string
	// Bots are other bots whose code pull requests get a docs job.
	Bots []string
	// Phrase is the trigger phrase of a request.
	Phrase string
	// ReleaseLabel is the label that releases the check.
	ReleaseLabel string
}

// Defaults are the choices init starts from.
var Defaults = Choices{CodeBranch: "main", Approval: true, AgentApp: "mintlify[bot]", Phrase: "/docs", ReleaseLabel: "docs-not-needed"}

var (
	repoName = &Regexp{Expr: `^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$`}
	login    = &Regexp{Expr: `^[A-Za-z0-9][A-Za-z0-9-]{0,38}(\[bot\])?$`}
	commit   = &Regexp{Expr: `^[0-9a-f]{40}$`}
	release  = &Regexp{Expr: `^v[0-9]+(\.[0-9]+){0,2}$`}
	branch   = &Regexp{Expr: `^[A-Za-z0-9._/-]{1,200}$`}
	label    = &Regexp{Expr: `^[^'\n\r\x00-\x1f]{1,50}$`}
	phrase   = &Regexp{Expr: `^[^'\s\x00-\x1f]{1,40}$`}
	pattern  = &Regexp{Expr: `^[^\x00-\x1f#'"]+$`}
)

// RepoName reports whether s names a repository as owner/name, in the
// characters and lengths GitHub allows: init's --repo and --docs-repo,
// doctor's alike.
func RepoName(s string) bool { return repoName.Re().MatchString(s) }

// RefName says s may name a ref: a tag, a branch or a commit.
func RefName(s string) bool { return branch.Re().MatchString(s) && !strings.Contains(s, "..") }

// Regexp is a regular expression compiled at its first use, not when the
// program starts: init's and doctor's patterns (a repository's name
// spelled with counted repetitions is hundreds of kilobytes of program)
// cost a run that uses neither nothing. Declared as &Regexp{Expr: ...}, a
// package-level one is laid out by the linker: no code runs for it at
// start either.
type Regexp struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
}

// Re is the compiled expression.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.Expr) })
	return r.re
}

// Error is a choice init cannot write, in the terms of its flag.
type Error struct {
	Flag, Why string
}

func (e *Error) Error() string { return "--" + e.Flag + " " + e.Why }

// Check refuses choices no workflow file can carry: each value is written
// into YAML and into GitHub's expressions, so only what those take as
// written passes.
func (c Choices) Check() error {
	bad := func(flag, why string) error { return &Error{Flag: flag, Why: why} }
	switch {
	case !RepoName(c.CodeRepo):
		return bad("repo", "must name the code repository as owner/name (init reads it from GITHUB_REPOSITORY or the git remote origin when it can)")
	case c.DocsRepo != "" && !RepoName(c.DocsRepo):
		return bad("docs-repo", "must name the docs repository as owner/name")
	case strings.EqualFold(c.DocsRepo, c.CodeRepo):
		return bad("docs-repo", "names the code repository: leave it out when the docs live there")
	case !branch.Re().MatchString(c.CodeBranch) || strings.Contains(c.CodeBranch, ".."):
		return bad("default-branch", "must be the code repository's default branch, as git names it")
	case !commit.Re().MatchString(c.Ref) && !release.Re().MatchString(c.Ref):
		return bad("ref", "must be the action's release (v1) or a full 40-character commit; a branch is not pinned")
	case !login.Re().MatchString(c.AgentApp):
		return bad("agent-app", "must be the login of the app that opens the agent's pull requests, such as mintlify[bot]")
	case !phrase.Re().MatchString(c.Phrase) || !carried(c.Phrase):
		return bad("trigger-phrase", "must be one word without quotes, line breaks or ${{, such as /docs")
	case !label.Re().MatchString(c.ReleaseLabel) || !carried(c.ReleaseLabel):
		return bad("release-label", "must be a label's name, without quotes, line breaks or ${{")
	case c.Merge != "" && !slices.Contains([]string{"merge", "squash", "rebase"}, c.Merge):
		return bad("docs-merge", "must be merge, squash or rebase")
	case c.PerThread < 0 || c.PerDay < 0:
		return bad("max-sends-per-thread", "and --max-sends-per-day must be 0 (no cap) or more")
	}
	for _, b := range c.Bots {
		if !login.Re().MatchString(b) || !strings.HasSuffix(b, "[bot]") {
			return bad("allowed-bots", fmt.Sprintf("names %q, which is not a bot's login (name[bot])", b))
		}
		if strings.EqualFold(b, c.AgentApp) {
			// GitHub compares logins without case: the code job would run
			// on the agent's own pull requests, each docs job opening one
			// that gets another.
			return bad("allowed-bots", fmt.Sprintf("names %q, the agent's app (--agent-app): its own pull requests would each get a docs job", b))
		}
	}
	for _, p := range c.Paths {
		if !pattern.Re().MatchString(p) || strings.TrimSpace(p) != p || !carried(p) {
			return bad("paths", "takes patterns without quotes, #, line breaks, ${{ or spaces around them, one a line")
		}
	}
	return nil
}

// carried says s, written as it is into a line of YAML or into a GitHub
// expression's string, stays there as written: it holds no control
// character, no line or paragraph separator (YAML ends a line at U+0085,
// U+2028 and U+2029 as at a newline, so the rest would be lines of the
// file's own), and no ${{, which GitHub evaluates in an input and which
// turns an if: into a string, always true.
func carried(s string) bool {
	return !strings.Contains(s, "${{") && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
	})
}

// Written is one file init writes: where, relative to its repository's
// root, and what.
type Written struct {
	// Repo is the repository it goes in, owner/name.
	Repo string
	Path string
	Body []byte
}

// plain is a scalar YAML reads back as the string it spells: one that
// starts with a digit, a dot or a sign may spell a number.
var plain = &Regexp{Expr: `^[A-Za-z/_][A-Za-z0-9/_.-]*$`}

// yamlScalar is s as a YAML scalar: as it is when YAML reads it back so,
// else double-quoted (JSON's quoting, which YAML reads). A word YAML reads
// as a boolean or null, in any case and in YAML 1.1's words too, is
// quoted.
func yamlScalar(s string) string {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null":
	default:
		if plain.Re().MatchString(s) {
			return s
		}
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// view is what the templates read.
type view struct {
	Choices
	Here, Pinned bool
	// AgentEvents are the agent's pull request's events in this
	// repository the settle job hears ("" for none): its own events
	// unless a run waits for its job, and its reviews with the approval.
	AgentEvents                 string
	Uses, Action, Runner, Guide string
	GoVersion, File, BotList    string
	CodeBots                    string
	JobMinutes                  int
}

// docsFile says the docs repository gets a file: the docs live there, and
// it has something to tell. A run that waits reports its job's end
// itself, so with --wait there is nothing to tell but reviews.
func (c Choices) docsFile() bool { return c.DocsRepo != "" && (!c.Wait || c.Approval) }

// GoVersion is the Go a runner builds the action with at a commit.
const GoVersion = "1.26"

// Files returns the files for c: the code repository's, then the docs
// repository's when the docs live apart. c must pass Check.
func Files(c Choices) ([]Written, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	v := view{Choices: c, Here: c.DocsRepo == "", Pinned: commit.Re().MatchString(c.Ref), Guide: Guide, GoVersion: GoVersion, File: File,
		Uses: "agentjob/agent-job-action/binary@" + c.Ref, Runner: "ubuntu-slim", JobMinutes: 10}
	v.Action = v.Uses
	if v.Pinned {
		v.Action = "agentjob/agent-job-action at " + c.Ref[:12]
	}
	if c.Wait {
		// A run that waits may take the job's 30 minutes: more than
		// ubuntu-slim's 15-minute limit on a job.
		v.Runner, v.JobMinutes = "ubuntu-latest", 40
	}
	v.BotList = strings.Join(c.Bots, ", ")
	bots := slices.Clone(c.Bots)
	if c.Merge != "" && c.MergeQueue {
		// A merge queue merges as this bot: its merge lands the docs.
		bots = append(bots, "github-merge-queue[bot]")
	}
	v.CodeBots = strings.Join(bots, ", ")
	if v.Here {
		switch {
		case !c.Wait && c.Approval:
			v.AgentEvents = "events and reviews"
		case !c.Wait:
			v.AgentEvents = "events"
		case c.Approval:
			v.AgentEvents = "reviews"
		}
	}
	out := []Written{{Repo: c.CodeRepo, Path: path.Join(Dir, File)}}
	if c.docsFile() {
		out = append(out, Written{Repo: c.DocsRepo, Path: path.Join(Dir, File)})
	}
	out[0].Body = []byte(v.codeFile())
	if len(out) > 1 {
		out[1].Body = []byte(v.docsFile())
	}
	return out, nil
}
