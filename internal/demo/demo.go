// Package demo runs the whole action in-process against the fake Agent Job
// API: no key, no network, no GitHub. `go run . demo` calls it.
package demo

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/action"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakeapi"
)

// Run prints a demo run to w. Time is simulated: a job of a few minutes
// takes milliseconds.
func Run(ctx context.Context, env action.Env, w io.Writer) error {
	clk := clock.NewFake(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	const key = "mint_demo_not_a_real_key"
	api := fakeapi.New("demo-project", fakeapi.Scenario{Key: key, Runtime: 2*time.Minute + 40*time.Second, Clock: clk})
	defer api.Close()

	dir, err := os.MkdirTemp("", "agent-job-action-demo")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer os.RemoveAll(dir)
	outputs, summary := filepath.Join(dir, "output"), filepath.Join(dir, "summary")

	vars := map[string]string{
		"INPUT_PROMPT":        "Add a FAQ page about rate limits.",
		"INPUT_PROJECT-ID":    "demo-project",
		"INPUT_API-KEY":       key,
		"INPUT_BASE-URL":      api.URL,
		"GITHUB_OUTPUT":       outputs,
		"GITHUB_STEP_SUMMARY": summary,
	}
	fmt.Fprintf(w, `# agent-job-action demo: a workflow step asks the agent for a docs change.
# The Agent Job API is an in-process fake and time is simulated (a %s job).
# The step's inputs, as the runner passes them:
`, "2m40s")
	for _, k := range []string{"INPUT_PROMPT", "INPUT_PROJECT-ID", "INPUT_API-KEY", "INPUT_BASE-URL"} {
		fmt.Fprintf(w, "#   %s=%s\n", k, vars[k])
	}
	fmt.Fprint(w, "# The step's log:\n\n")

	env.Getenv = func(k string) string { return vars[k] }
	env.Clock = clk
	if err := action.Run(ctx, env, w); err != nil {
		return fmt.Errorf("demo run failed: %w", err)
	}

	for _, f := range []struct{ title, path string }{{"Step outputs (GITHUB_OUTPUT)", outputs}, {"Job summary (GITHUB_STEP_SUMMARY)", summary}} {
		data, err := os.ReadFile(f.path)
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		fmt.Fprintf(w, "\n# %s:\n%s", f.title, indent(string(data)))
	}
	fmt.Fprintf(w, "\n# Requests the fake service received: %d create, %d polls.\n", api.Creates(), api.Gets())
	return nil
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") + "\n"
}
