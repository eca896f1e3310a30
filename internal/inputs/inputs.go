package inputs

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// Config is the validated set of inputs.
type Config struct {
	Prompt       string
	ProjectID    string
	APIKey       string
	BaseURL      *url.URL
	JobID        string
	Wait         bool
	Timeout      time.Duration
	PollInterval time.Duration // 0 means auto
	DryRun       bool

	GitHubToken        string
	Comment            string // auto, true or false
	IssueNumber        int    // 0 when unset
	TriggerPhrase      string
	RequiredPermission string
	AllowedBots        []string
}

// ErrEmptyPrompt is the problem with a run that has no prompt from the
// inputs nor from the event.
var ErrEmptyPrompt = &Error{Input: "prompt", Problem: "is empty: give the agent an instruction in prompt or prompt-file"}

// Error is a problem with one input.
type Error struct {
	Input   string
	Problem string
}

func (e *Error) Error() string { return fmt.Sprintf("input %s %s", e.Input, e.Problem) }

// MaxPromptBytes bounds a prompt read from a file.
const MaxPromptBytes = 256 << 10

// Getenv reads an environment variable.
type Getenv func(string) string

// Raw returns input name exactly as the runner passed it.
func Raw(getenv Getenv, name string) string {
	return getenv("INPUT_" + strings.ToUpper(strings.ReplaceAll(name, " ", "_")))
}

// Get returns input name trimmed, or its default when empty.
func Get(getenv Getenv, name string) string {
	v := strings.TrimSpace(Raw(getenv, name))
	if v == "" {
		for _, in := range Inputs {
			if in.Name == name {
				return in.Default
			}
		}
	}
	return v
}

// Read validates every input and returns the config, warnings to print, and
// an error joining one *Error per bad input.
func Read(getenv Getenv) (Config, []string, error) {
	var (
		c        Config
		warnings []string
		errs     []error
	)
	bad := func(input, problem string) { errs = append(errs, &Error{Input: input, Problem: problem}) }

	c.Prompt = Raw(getenv, "prompt")
	file := Get(getenv, "prompt-file")
	switch {
	case file != "" && strings.TrimSpace(c.Prompt) != "":
		bad("prompt-file", "is set together with prompt: set only one of them")
	case file != "":
		p, err := readPromptFile(getenv("GITHUB_WORKSPACE"), file)
		switch {
		case err != nil:
			bad("prompt-file", err.Error())
		case strings.TrimSpace(p) == "":
			bad("prompt-file", "names an empty file: write the instruction for the agent in it")
		}
		c.Prompt = p
	}

	if c.ProjectID = Get(getenv, "project-id"); c.ProjectID == "" {
		bad("project-id", "is required: set it to your Mintlify project id")
	}
	c.APIKey = strings.TrimSpace(Raw(getenv, "api-key"))
	switch {
	case c.APIKey == "":
		bad("api-key", "is required: pass an admin API key from a secret, e.g. ${{ secrets.MINTLIFY_API_KEY }}")
	case strings.ContainsFunc(c.APIKey, func(r rune) bool { return r < 0x21 || r == 0x7f }):
		bad("api-key", "contains spaces or control characters: copy the key again")
	case !strings.HasPrefix(c.APIKey, "mint_"):
		warnings = append(warnings, "input api-key does not start with mint_: the Agent Job API needs an admin API key")
	}

	var err error
	if c.BaseURL, err = ParseBaseURL(Get(getenv, "base-url")); err != nil {
		bad("base-url", err.Error())
	}
	if c.JobID = Get(getenv, "job-id"); c.JobID != "" {
		if err := agentapi.CheckJobID(c.JobID); err != nil {
			bad("job-id", "is "+err.Error())
		}
	}
	if c.Wait, err = ParseBool(Get(getenv, "wait")); err != nil {
		bad("wait", err.Error())
	}
	if c.DryRun, err = ParseBool(Get(getenv, "dry-run")); err != nil {
		bad("dry-run", err.Error())
	}
	if c.Timeout, err = ParseDuration(Get(getenv, "timeout")); err != nil {
		bad("timeout", err.Error())
	}
	if pi := Get(getenv, "poll-interval"); !strings.EqualFold(pi, "auto") {
		c.PollInterval, err = ParseDuration(pi)
		switch {
		case err != nil:
			bad("poll-interval", `must be "auto" or a duration of at least 1s`)
		case c.PollInterval < time.Second:
			bad("poll-interval", "must be at least 1s: the API allows 100 calls per project per hour")
		}
	}

	c.GitHubToken = strings.TrimSpace(Raw(getenv, "github-token"))
	switch c.Comment = strings.ToLower(Get(getenv, "comment")); c.Comment {
	case "auto", "true", "false":
	default:
		bad("comment", "must be auto, true or false")
	}
	if n := Get(getenv, "issue-number"); n != "" {
		v, err := strconv.Atoi(strings.TrimPrefix(n, "#"))
		if err != nil || v <= 0 {
			bad("issue-number", "must be a positive issue or pull request number")
		}
		c.IssueNumber = v
	}
	c.TriggerPhrase = Get(getenv, "trigger-phrase")
	if strings.ContainsFunc(c.TriggerPhrase, unicode.IsSpace) {
		bad("trigger-phrase", "must be one word, such as /docs")
	}
	c.RequiredPermission = strings.ToLower(Get(getenv, "required-permission"))
	if !slices.Contains(ghclient.Levels[1:], c.RequiredPermission) {
		bad("required-permission", "must be read, triage, write, maintain or admin")
	}
	for _, b := range strings.Split(Get(getenv, "allowed-bots"), ",") {
		if b = strings.TrimSpace(b); b != "" {
			c.AllowedBots = append(c.AllowedBots, b)
		}
	}
	return c, warnings, errors.Join(errs...)
}

func readPromptFile(workspace, name string) (string, error) {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(workspace, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("cannot be read (%v): check the path, relative to the workspace", errors.Unwrap(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxPromptBytes+1))
	if err != nil {
		return "", fmt.Errorf("cannot be read (%v)", err)
	}
	if len(data) > MaxPromptBytes {
		return "", fmt.Errorf("is larger than %d KiB", MaxPromptBytes>>10)
	}
	return string(data), nil
}
