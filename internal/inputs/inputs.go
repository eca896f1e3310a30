package inputs

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/pathfilter"
	"github.com/agentjob/agent-job-action/internal/terms"
)

// Config is the validated set of inputs.
type Config struct {
	Prompt    string
	ProjectID string
	APIKey    string
	BaseURL   *url.URL
	JobID     string
	Wait      bool
	// Settle starts no job: the run settles what earlier runs left
	// working in the repository's threads (package action).
	Settle       bool
	Timeout      time.Duration
	PollInterval time.Duration // 0 means auto
	DryRun       bool

	GitHubToken        string
	Comment            string // auto, true or false
	IssueNumber        int    // 0 when unset
	TriggerPhrase      string
	TriggerLabel       string // "" acts on any label added
	TriggerAssignee    string // a login without "@"; "" acts on any assignment
	RequiredPermission string
	AllowedBots        []string
	Reviewers          []string // logins, without "@"
	// AgentApp is the login of the app that opens the agent's pull
	// requests: its pull requests are the agent's, not another bot's.
	AgentApp string
	// ReleaseBots are the bots whose pull requests need no docs job.
	ReleaseBots []string

	// Paths chooses the changes of a code pull request the docs follow;
	// it lets every file through when the input is empty.
	Paths *pathfilter.Filter
	// Preview asks for the preview of the branch a job's pull request is on.
	Preview bool
	// PreviewSet is true when preview was given rather than left to its
	// default: a command line that did not ask for previews is not told
	// why it got none. In Actions the runner passes action.yml's default,
	// so it is always set there.
	PreviewSet bool
	// DocsToken writes to the repository of the agent's pull request when
	// that is not this one; "" when not given.
	DocsToken string
	// Approval says a code pull request's check waits for its docs pull
	// request's approval (docs-check: approved), not for it to exist.
	Approval bool
	// DocsMerge is the method a merged code pull request's docs pull
	// request is merged with (merge, squash, rebase); "" leaves it.
	DocsMerge string
	// DocsClose says a code pull request closed unmerged closes its docs
	// pull request.
	DocsClose bool
	// DocsWhenApproved says a code pull request's docs job hears its
	// change once the code is approved (docs-when: approved), not at
	// every push.
	DocsWhenApproved bool
	// ReleaseLabel is the label that, added to a code pull request by
	// someone with RequiredPermission, releases its check on its latest
	// head; "" for no release.
	ReleaseLabel string
	// MaxSendsPerThread and MaxSendsPerDay cap the creates and follow-ups
	// sent from one thread, and from the repository in one day (UTC); 0
	// is no cap.
	MaxSendsPerThread int
	MaxSendsPerDay    int
}

// ErrEmptyPrompt is the problem with a run that has no prompt from the
// inputs nor from the event.
var ErrEmptyPrompt = &Error{Input: "prompt", InTerms: func(t terms.Terms) string {
	return "is empty: give the agent an instruction in " + t.Name("prompt") + " or " + t.Name("prompt-file")
}}

// Error is a problem with one input.
type Error struct {
	Input   string
	Problem string
	// InTerms, when set, words the problem instead of Problem: its advice
	// names other settings, in the terms the error is shown in.
	InTerms func(terms.Terms) string
	// Terms names the inputs: a workflow's (input timeout), or the
	// command line's flags (--timeout).
	Terms terms.Terms
}

func (e *Error) Error() string {
	if e.InTerms != nil {
		return e.Terms.Subject(e.Input) + " " + e.InTerms(e.Terms)
	}
	return e.Terms.Subject(e.Input) + " " + e.Problem
}

// AsFlags returns err with every *Error in it, joined or not, naming the
// inputs as the command line's flags (and a secret by where it comes
// from).
func AsFlags(err error) error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		parts := j.Unwrap()
		out := make([]error, len(parts))
		for i, e := range parts {
			out[i] = AsFlags(e)
		}
		return errors.Join(out...)
	}
	if e, ok := err.(*Error); ok {
		flags := *e
		flags.Terms = terms.Terms{CommandLine: true}
		return &flags
	}
	return err
}

// MaxPromptBytes bounds a prompt read from a file.
const MaxPromptBytes = 256 << 10

// oneOf is input name's value, lower-cased, or its default when it is not
// given: one of the input's Values. Any other is refused with bad, naming
// them, and gives "".
func oneOf(raw map[string]string, name string, bad func(input, problem string)) string {
	v := strings.ToLower(Value(raw, name))
	values := spec(name).Values
	if !slices.Contains(values, v) {
		bad(name, "must be "+Words(values))
		return ""
	}
	return v
}

// spec is the input named name; the zero Input, named, when there is none.
func spec(name string) Input {
	if i := slices.IndexFunc(Inputs, func(in Input) bool { return in.Name == name }); i >= 0 {
		return Inputs[i]
	}
	return Input{Name: name}
}

// Value is input name's value in raw, trimmed, or its default when it is
// not given.
func Value(raw map[string]string, name string) string {
	if v := strings.TrimSpace(raw[name]); v != "" {
		return v
	}
	return spec(name).Default
}

// Read validates every input and returns the config, warnings to print, and
// an error joining one *Error per bad input. raw maps an input's name
// ("project-id") to its value as given ("" when missing), as
// runner.FromEnv builds it. workspace is the directory prompt-file must stay in
// (GITHUB_WORKSPACE, inside Actions); "" (outside Actions) reads the file a
// person names, anywhere.
func Read(raw map[string]string, workspace string) (Config, []string, error) {
	var (
		c        Config
		warnings []string
		errs     []error
	)
	bad := func(input, problem string) { errs = append(errs, &Error{Input: input, Problem: problem}) }

	c.Prompt = raw["prompt"]
	file := Value(raw, "prompt-file")
	switch {
	case file != "" && strings.TrimSpace(c.Prompt) != "":
		errs = append(errs, &Error{Input: "prompt-file", InTerms: func(t terms.Terms) string {
			return "is set together with " + t.Name("prompt") + ": set only one of them"
		}})
	case file != "":
		p, err := readPromptFile(workspace, file)
		switch {
		case err != nil:
			bad("prompt-file", err.Error())
		case strings.TrimSpace(p) == "":
			bad("prompt-file", escape.Log(file)+" is an empty file: write the instruction for the agent in it")
		}
		c.Prompt = p
	}

	if c.ProjectID = Value(raw, "project-id"); c.ProjectID == "" {
		bad("project-id", "is required: set it to your Mintlify project id")
	} else if err := checkProjectID(c.ProjectID); err != nil {
		errs = append(errs, err)
	}
	c.APIKey = strings.TrimSpace(raw["api-key"])
	switch {
	case c.APIKey == "":
		errs = append(errs, &Error{Input: "api-key", InTerms: func(t terms.Terms) string {
			if t.CommandLine {
				return "is required: set MINTLIFY_API_KEY, or pipe the key to --" + terms.KeyStdinFlag
			}
			return "is required: pass an admin API key from a secret, e.g. ${{ secrets.MINTLIFY_API_KEY }}"
		}})
	case strings.ContainsFunc(c.APIKey, func(r rune) bool { return r < 0x21 || r == 0x7f }):
		bad("api-key", "contains spaces or control characters: copy the key again")
	case !strings.HasPrefix(c.APIKey, "mint_"):
		warnings = append(warnings, "the API key does not start with mint_: the Agent Job API needs an admin API key")
	}

	var err error
	if c.BaseURL, err = ParseBaseURL(Value(raw, "base-url")); err != nil {
		bad("base-url", err.Error())
	}
	if c.JobID = Value(raw, "job-id"); c.JobID != "" {
		if err := agentapi.CheckJobID(c.JobID); err != nil {
			bad("job-id", "is "+err.Error())
		}
	}
	if c.Wait, err = ParseBool(Value(raw, "wait")); err != nil {
		bad("wait", err.Error())
	}
	if c.Settle, err = ParseBool(Value(raw, "settle")); err != nil {
		bad("settle", err.Error())
	}
	if c.DryRun, err = ParseBool(Value(raw, "dry-run")); err != nil {
		bad("dry-run", err.Error())
	}
	if c.Timeout, err = ParseDuration(Value(raw, "timeout")); err != nil {
		bad("timeout", err.Error())
	}
	if pi := Value(raw, "poll-interval"); !strings.EqualFold(pi, "auto") {
		c.PollInterval, err = ParseDuration(pi)
		switch {
		case err != nil:
			bad("poll-interval", `must be "auto" or a duration of at least 1s`)
		case c.PollInterval < time.Second:
			bad("poll-interval", "must be at least 1s: checks are not counted against the API's documented limit, but more than one a second only loads it ("+agentapi.LimitsURL+")")
		}
	}

	c.GitHubToken = strings.TrimSpace(raw["github-token"])
	c.Comment = oneOf(raw, "comment", bad)
	if n := Value(raw, "issue-number"); n != "" {
		v, err := strconv.Atoi(strings.TrimPrefix(n, "#"))
		if err != nil || v <= 0 {
			bad("issue-number", "must be a positive issue or pull request number")
		}
		c.IssueNumber = v
	}
	c.TriggerPhrase = Value(raw, "trigger-phrase")
	if strings.ContainsFunc(c.TriggerPhrase, unicode.IsSpace) {
		bad("trigger-phrase", "must be one word, such as /docs")
	}
	c.TriggerLabel = Value(raw, "trigger-label")
	c.TriggerAssignee = strings.TrimPrefix(Value(raw, "trigger-assignee"), "@")
	if !oneLogin(c.TriggerAssignee) {
		bad("trigger-assignee", "must be one GitHub login, such as docs-bot")
	}
	c.RequiredPermission = oneOf(raw, "required-permission", bad)
	for _, b := range strings.Split(Value(raw, "allowed-bots"), ",") {
		if b = strings.TrimSpace(b); b != "" {
			c.AllowedBots = append(c.AllowedBots, b)
		}
	}
	if c.AgentApp = strings.TrimSpace(Value(raw, "agent-app")); c.AgentApp == "" || !oneLogin(c.AgentApp) {
		bad("agent-app", "must be one GitHub login, such as mintlify[bot]")
	}
	for _, b := range strings.Split(Value(raw, "release-bots"), ",") {
		if b = strings.TrimSpace(b); b != "" && oneLogin(b) {
			c.ReleaseBots = append(c.ReleaseBots, b)
		} else if b != "" {
			bad("release-bots", "must be bot logins separated by commas, such as dependabot[bot]")
		}
	}
	for _, r := range strings.Split(Value(raw, "reviewers"), ",") {
		r = strings.TrimPrefix(strings.TrimSpace(r), "@")
		switch {
		case r == "":
		case !oneLogin(r):
			bad("reviewers", "must be GitHub logins separated by commas, such as docs-lead, tech-writer")
		default:
			c.Reviewers = append(c.Reviewers, r)
		}
	}
	// Lines are the patterns: only the spaces around each are trimmed.
	if c.Paths, err = pathfilter.Parse(raw["paths"]); err != nil {
		errs = append(errs, pathsError(err))
	}
	c.PreviewSet = strings.TrimSpace(raw["preview"]) != ""
	if c.Preview, err = ParseBool(Value(raw, "preview")); err != nil {
		bad("preview", err.Error())
	}
	c.Approval = oneOf(raw, "docs-check", bad) == "approved"
	if m := oneOf(raw, "docs-merge", bad); m != "false" {
		c.DocsMerge = m
	}
	c.DocsWhenApproved = oneOf(raw, "docs-when", bad) == "approved"
	if c.DocsClose, err = ParseBool(Value(raw, "docs-close")); err != nil {
		bad("docs-close", err.Error())
	}
	c.ReleaseLabel = strings.TrimSpace(Value(raw, "release-label"))
	if c.ReleaseLabel != "" && strings.EqualFold(c.ReleaseLabel, strings.TrimSpace(c.TriggerLabel)) {
		bad("release-label", "is the same label as trigger-label: a label cannot both start a docs job and release the check; choose another")
	}
	c.MaxSendsPerThread = atMost(raw, "max-sends-per-thread", bad)
	c.MaxSendsPerDay = atMost(raw, "max-sends-per-day", bad)
	c.DocsToken = strings.TrimSpace(raw["docs-token"])
	if strings.ContainsFunc(c.DocsToken, func(r rune) bool { return r < 0x21 || r == 0x7f }) {
		bad("docs-token", "contains spaces or control characters: copy the token again")
	}
	return c, warnings, errors.Join(errs...)
}

// pathsError words an error of the paths input. A line that holds YAML's
// syntax was likely copied from a workflow's on.pull_request.paths, where
// YAML would have taken it away: in a workflow, the advice says why it is
// not taken away here.
func pathsError(err error) *Error {
	var pe *pathfilter.PatternError
	if !errors.As(err, &pe) || !pe.YAML {
		return &Error{Input: "paths", Problem: err.Error()}
	}
	return &Error{Input: "paths", InTerms: func(t terms.Terms) string {
		if t.CommandLine {
			return pe.Error()
		}
		return pe.Error() + " (paths: | is read line by line, not as YAML)"
	}}
}

// APIKeysPage is where the dashboard shows the project id and makes admin
// API keys.
const APIKeysPage = "https://app.mintlify.com/settings/organization/api-keys"

// checkProjectID refuses an id that cannot be one, before anything is
// sent: the id is a segment of every request's path, so a URL or a path
// pasted in its place would otherwise be escaped into a request to an
// address that does not exist (/v2/agent/https:%2F%2F…/job), and a dry run
// would show it as if it were fine. Mintlify's ids are letters and digits;
// - and _ are let through for ids of other forms.
func checkProjectID(id string) *Error {
	if strings.Contains(id, "://") {
		// Pasting the dashboard's address, or the API's, is the likely
		// mistake: say where each part goes.
		return &Error{Input: "project-id", InTerms: func(t terms.Terms) string {
			return "is a URL: give the project id alone, as the API keys page (" + APIKeysPage +
				") shows it; the API's address, if not the default, goes in " + t.Name("base-url")
		}}
	}
	i := strings.IndexFunc(id, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_')
	})
	if i < 0 {
		return nil
	}
	r, _ := utf8.DecodeRuneInString(id[i:])
	return &Error{Input: "project-id", Problem: "holds " + strconv.QuoteRune(r) +
		": a project id is letters, digits, - and _ only; copy it from the API keys page (" + APIKeysPage + ")"}
}

// oneLogin reports whether s, its leading "@" already dropped, can be one
// GitHub login rather than several or an address.
func oneLogin(s string) bool {
	return !strings.ContainsFunc(s, unicode.IsSpace) && !strings.Contains(s, "@")
}

// maxCap bounds a cap on sends: a larger number is no cap a team means.
const maxCap = 100_000

// atMost reads the cap input name: empty is no cap (0); otherwise a whole
// number from 1 to maxCap. A cap of 0 would stop every run: a workflow
// that means that is disabled instead.
func atMost(raw map[string]string, name string, bad func(input, problem string)) int {
	v := Value(raw, name)
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxCap {
		bad(name, "must be a whole number of creates and follow-ups from 1 to 100000, or empty for no cap")
		return 0
	}
	return n
}
