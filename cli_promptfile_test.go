package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// TestCLIPromptFileAnywhere: a person at a terminal
// names their own file, anywhere; inside Actions the workspace rule stays.
func TestCLIPromptFileAnywhere(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)
	elsewhere := filepath.Join(t.TempDir(), "x.md")
	if err := os.WriteFile(elsewhere, []byte("Document the limits.\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	t.Run("outside Actions: an absolute path elsewhere", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{Runtime: 20 * time.Millisecond})
		res := cliRun{args: []string{"--prompt-file", elsewhere, "--base-url", api.URL, "--project-id", "proj-1"},
			vars: map[string]string{"MINTLIFY_API_KEY": testKey}}.exec(t, bin)
		if res.code != 0 || api.Creates() != 1 || api.Requests()[0].Prompt() != "Document the limits.\n" {
			t.Errorf("exit %d, %d creates\nstdout:\n%s\nstderr:\n%s", res.code, api.Creates(), res.stdout, res.stderr)
		}
	})

	t.Run("inside Actions: outside the workspace is refused", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{})
		ws := t.TempDir()
		res := cliRun{dir: ws, args: []string{"--prompt-file", elsewhere, "--base-url", api.URL, "--project-id", "proj-1"},
			vars: map[string]string{"MINTLIFY_API_KEY": testKey, "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws,
				"GITHUB_OUTPUT": filepath.Join(ws, "out"), "GITHUB_STEP_SUMMARY": filepath.Join(ws, "sum")}}.exec(t, bin)
		if res.code != cli.ExitUsage || !strings.Contains(res.stdout, "is outside the workspace") || len(api.Requests()) != 0 {
			t.Errorf("exit %d, %d requests\nstdout:\n%s\nstderr:\n%s", res.code, len(api.Requests()), res.stdout, res.stderr)
		}
	})
}
