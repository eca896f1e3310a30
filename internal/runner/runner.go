// Package runner is the edge between the process and the action: it reads
// the runner's environment (GITHUB_* variables, the workspace, the event
// file, the output and summary files) once, into one value. Every package
// below receives that value, or the parts of it that it needs, and none of
// them reads the environment.
package runner

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/terms"
)

// How the runner cancels a step (GitHub's "Workflow cancellation
// reference"): it sends the step's process SIGINT, then SIGTERM when the
// process still runs InterruptGrace later, then SIGKILL when it still
// runs TermGrace after that. What a cancelled run writes, it writes
// within these 10 s.
const (
	// InterruptGrace is the time from the SIGINT to the SIGTERM.
	InterruptGrace = 7500 * time.Millisecond
	// TermGrace is the time from the SIGTERM to the SIGKILL.
	TermGrace = 2500 * time.Millisecond
)

// Context is what the runner tells a step about itself. A run outside
// GitHub Actions has the zero value of every field but Inputs.
type Context struct {
	// InActions is true inside a GitHub Actions job (GITHUB_ACTIONS=true).
	InActions bool
	// EventName and EventPath say what triggered the workflow and where the
	// runner saved its payload.
	EventName string
	EventPath string
	// Repository is owner/name of the repository the workflow runs in.
	Repository string
	// ServerURL is GitHub's web address (https://github.com, or a GitHub
	// Enterprise Server); APIURL is its REST API ("" means api.github.com).
	ServerURL string
	APIURL    string
	RunID     string
	// Workspace is the directory that files named by inputs must stay in:
	// GITHUB_WORKSPACE; "" is the current directory (outside Actions), which
	// is looked up only when an input names a file.
	Workspace string
	// OutputFile and SummaryFile are the file commands' files; "" when the
	// runner gives none (outside Actions).
	OutputFile  string
	SummaryFile string
	// Inputs holds each input's raw value by its name ("project-id"), as
	// the runner passes it (INPUT_PROJECT-ID); "" when not given.
	Inputs map[string]string
	// CommandLine is true when a person or a script started the program
	// with flags, or outside Actions: advice then names flags, not inputs.
	CommandLine bool
}

// Terms names the settings as the person who started the run gives them.
func (c Context) Terms() terms.Terms { return terms.Terms{CommandLine: c.CommandLine} }

// Setting is how the person who started the run gives input name a value,
// for advice (terms.Terms.Setting).
func (c Context) Setting(name, value string) string { return c.Terms().Setting(name, value) }

// FromEnv reads the runner's environment. It is called once, by main.
func FromEnv(getenv func(string) string) Context {
	c := Context{
		InActions:   getenv("GITHUB_ACTIONS") == "true",
		EventName:   getenv("GITHUB_EVENT_NAME"),
		EventPath:   getenv("GITHUB_EVENT_PATH"),
		Repository:  getenv("GITHUB_REPOSITORY"),
		ServerURL:   getenv("GITHUB_SERVER_URL"),
		APIURL:      getenv("GITHUB_API_URL"),
		RunID:       getenv("GITHUB_RUN_ID"),
		Workspace:   getenv("GITHUB_WORKSPACE"),
		OutputFile:  getenv("GITHUB_OUTPUT"),
		SummaryFile: getenv("GITHUB_STEP_SUMMARY"),
		Inputs:      make(map[string]string, len(inputs.Inputs)),
	}
	for _, in := range inputs.Inputs {
		c.Inputs[in.Name] = getenv(envName(in.Name))
	}
	return c
}

// envName is the variable the runner passes input name in: upper case,
// hyphens kept, spaces as "_".
func envName(name string) string {
	return "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, " ", "_"))
}

// RunURL is the address of this workflow run's page, or "" when the runner
// does not say.
func (c Context) RunURL() string {
	if c.ServerURL == "" || c.Repository == "" || c.RunID == "" {
		return ""
	}
	return strings.TrimRight(c.ServerURL, "/") + "/" + c.Repository + "/actions/runs/" + c.RunID
}

// CheckFiles makes sure the output and summary files can be written, before
// the run sends anything: a job created by a run that then cannot report its
// id is a job nobody can find.
func (c Context) CheckFiles() error {
	var errs []error
	for _, f := range []struct{ name, path string }{{"GITHUB_OUTPUT", c.OutputFile}, {"GITHUB_STEP_SUMMARY", c.SummaryFile}} {
		if f.path == "" {
			continue
		}
		file, err := os.OpenFile(f.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s cannot be written (%v): the step can report nothing, so nothing was sent", f.name, errors.Unwrap(err)))
			continue
		}
		if err := file.Close(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.name, err))
		}
	}
	return errors.Join(errs...)
}
