package runner

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/inputs"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestFromEnv(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_EVENT_NAME":   "issue_comment",
		"GITHUB_EVENT_PATH":   "/e.json",
		"GITHUB_REPOSITORY":   "acme/docs",
		"GITHUB_SERVER_URL":   "https://github.com/",
		"GITHUB_RUN_ID":       "42",
		"GITHUB_WORKSPACE":    "/ws",
		"GITHUB_OUTPUT":       "/out",
		"GITHUB_STEP_SUMMARY": "/sum",
		"INPUT_PROJECT-ID":    "p1",
		"INPUT_API-KEY":       " mint_k ",
		"INPUT_TRIGGER-LABEL": "docs",
		"INPUT_project-id":    "lower case is not the runner's",
		"INPUT_UNKNOWN":       "ignored",
	}
	var asked []string
	c := FromEnv(func(k string) string { asked = append(asked, k); return env[k] })
	if !c.InActions || c.EventName != "issue_comment" || c.EventPath != "/e.json" || c.Repository != "acme/docs" ||
		c.Workspace != "/ws" || c.OutputFile != "/out" || c.SummaryFile != "/sum" {
		t.Errorf("FromEnv() = %+v", c)
	}
	if got := c.RunURL(); got != "https://github.com/acme/docs/actions/runs/42" {
		t.Errorf("RunURL() = %q", got)
	}
	if len(c.Inputs) != len(inputs.Inputs) {
		t.Fatalf("%d inputs, want %d", len(c.Inputs), len(inputs.Inputs))
	}
	want := map[string]string{"project-id": "p1", "api-key": " mint_k ", "trigger-label": "docs", "prompt": ""}
	for k, v := range want {
		if c.Inputs[k] != v {
			t.Errorf("Inputs[%q] = %q, want %q (as given, untrimmed)", k, c.Inputs[k], v)
		}
	}
	if !strings.Contains(strings.Join(asked, " "), "INPUT_TRIGGER-ASSIGNEE") {
		t.Errorf("looked up %v", asked)
	}
}

func TestEnvName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"project-id":  "INPUT_PROJECT-ID",
		"prompt":      "INPUT_PROMPT",
		"two words":   "INPUT_TWO_WORDS",
		"Mixed_Case9": "INPUT_MIXED_CASE9",
	} {
		if got := envName(name); got != want {
			t.Errorf("envName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestFromEnvOutsideActions(t *testing.T) {
	t.Parallel()
	c := FromEnv(func(string) string { return "" })
	if c.InActions || c.Workspace != "" || c.RunURL() != "" {
		t.Errorf("FromEnv() outside Actions = %+v, want no workspace (the current directory) and no run", c)
	}
}

func TestCheckFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ok := Context{OutputFile: filepath.Join(dir, "out"), SummaryFile: filepath.Join(dir, "sum")}
	if err := ok.CheckFiles(); err != nil {
		t.Errorf("CheckFiles() = %v", err)
	}
	if err := (Context{}).CheckFiles(); err != nil {
		t.Errorf("no files outside Actions: %v", err)
	}
	bad := Context{OutputFile: filepath.Join(dir, "missing", "out"), SummaryFile: filepath.Join(dir, "gone", "sum")}
	err := bad.CheckFiles()
	if err == nil || !strings.Contains(err.Error(), "GITHUB_OUTPUT cannot be written") || !strings.Contains(err.Error(), "GITHUB_STEP_SUMMARY cannot be written") {
		t.Errorf("CheckFiles() = %v, want both files named", err)
	}
}

func TestSetting(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		cli         bool
		name, value string
		want        string
	}{
		{false, "job-id", "job_1", "job-id: job_1"},
		{true, "job-id", "job_1", "--job-id job_1"},
		{false, "wait", "false", "wait: false"},
		{true, "wait", "false", "--wait=false"},
		{false, "timeout", "", "timeout"},
		{true, "timeout", "", "--timeout"},
	} {
		if got := (Context{CommandLine: tt.cli}).Setting(tt.name, tt.value); got != tt.want {
			t.Errorf("Setting(%q, %q) on a command line %v = %q, want %q", tt.name, tt.value, tt.cli, got, tt.want)
		}
	}
}
