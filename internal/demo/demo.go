// Package demo runs the whole action in-process against fakes of the Agent
// Job API and of GitHub: no key, no network. `go run . demo` calls it.
package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/action"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/runner"
	"github.com/agentjob/agent-job-action/internal/testbed/fakeapi"
	"github.com/agentjob/agent-job-action/internal/testbed/fakegithub"
)

const (
	key     = "mint_demo_not_a_real_key"
	project = "demo-project"
)

// Run prints two demo runs to w: a workflow step with a prompt, then a
// maintainer's "/docs ..." comment on an issue. Time is simulated: jobs of a
// few minutes take milliseconds.
func Run(ctx context.Context, deps action.Deps, w io.Writer) error {
	dir, err := os.MkdirTemp("", "agent-job-action-demo")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer os.RemoveAll(dir)
	d := &demo{deps: deps, w: w, dir: dir}
	if err := d.step(ctx); err != nil {
		return err
	}
	return d.comment(ctx)
}

type demo struct {
	deps action.Deps
	w    io.Writer
	dir  string
}

func (d *demo) step(ctx context.Context) error {
	clk := clock.NewFake(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	api := fakeapi.New(project, fakeapi.Scenario{Key: key, Runtime: 2*time.Minute + 40*time.Second, Clock: clk})
	defer api.Close()
	fmt.Fprint(d.w, `# 1. A workflow step asks the agent for a docs change and waits for the pull request.
#    The Agent Job API is an in-process fake; time is simulated (the job takes 2m40s).
`)
	vars := map[string]string{
		"INPUT_PROMPT":     "Add a FAQ page about rate limits.",
		"INPUT_PROJECT-ID": project,
		"INPUT_API-KEY":    key,
		"INPUT_BASE-URL":   api.URL,
	}
	if err := d.run(ctx, "step", clk, vars); err != nil {
		return err
	}
	fmt.Fprintf(d.w, "# Requests the Agent Job API received: %d create, %d polls.\n\n", api.Creates(), api.Gets())
	return nil
}

func (d *demo) comment(ctx context.Context) error {
	clk := clock.NewFake(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	api := fakeapi.New(project, fakeapi.Scenario{Key: key, Runtime: 4 * time.Minute, Clock: clk})
	defer api.Close()
	gh := fakegithub.New(fakegithub.Options{Permissions: map[string]string{"maintainer": "write"}})
	defer gh.Close()
	fmt.Fprint(d.w, `# 2. A maintainer comments "/docs add a FAQ page about rate limits" on issue #12.
#    The action checks their permission, reacts with 👀, and keeps one comment up to date.
#    GitHub is an in-process fake too.
`)
	event, err := json.Marshal(map[string]any{
		"action": "created",
		"issue": map[string]any{"number": 12, "title": "Rate limits are undocumented",
			"html_url": "https://github.com/acme/docs/issues/12", "user": map[string]any{"login": "reporter", "type": "User"}},
		"comment": map[string]any{"id": 9001, "body": "/docs add a FAQ page about rate limits",
			"user": map[string]any{"login": "maintainer", "type": "User"}},
		"sender": map[string]any{"login": "maintainer", "type": "User"},
	})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	eventPath := filepath.Join(d.dir, "event.json")
	if err := os.WriteFile(eventPath, event, 0o600); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	vars := map[string]string{
		"INPUT_PROJECT-ID":     project,
		"INPUT_API-KEY":        key,
		"INPUT_BASE-URL":       api.URL,
		"INPUT_GITHUB-TOKEN":   fakegithub.DefaultToken,
		"INPUT_TRIGGER-PHRASE": "/docs",
		"GITHUB_EVENT_NAME":    "issue_comment",
		"GITHUB_EVENT_PATH":    eventPath,
		"GITHUB_REPOSITORY":    "acme/docs",
		"GITHUB_API_URL":       gh.APIURL(),
		"GITHUB_SERVER_URL":    "https://github.com",
		"GITHUB_RUN_ID":        "4242",
	}
	if err := d.run(ctx, "comment", clk, vars); err != nil {
		return err
	}
	comments := gh.Comments(12)
	if len(comments) != 1 {
		return fmt.Errorf("demo: %d comments on issue #12, want 1", len(comments))
	}
	fmt.Fprintf(d.w, "# The comment on issue #12 (created once, edited %d times), as Markdown:\n%s",
		comments[0].Edits, indent(comments[0].Body))
	fmt.Fprintf(d.w, "# The prompt the agent got:\n%s", indent(api.Requests()[0].Prompt()))
	return nil
}

// run runs the action once with vars and prints its log, outputs and summary.
func (d *demo) run(ctx context.Context, name string, clk *clock.Fake, vars map[string]string) error {
	outputs, summary := filepath.Join(d.dir, name+".output"), filepath.Join(d.dir, name+".summary")
	vars["GITHUB_OUTPUT"], vars["GITHUB_STEP_SUMMARY"] = outputs, summary
	fmt.Fprint(d.w, "# The step's log:\n\n")
	deps := d.deps
	deps.Clock = clk
	if err := action.Run(ctx, runner.FromEnv(func(k string) string { return vars[k] }), deps, d.w); err != nil {
		return fmt.Errorf("demo %s run failed: %w", name, err)
	}
	out, err := readOutputs(outputs)
	if err != nil {
		return err
	}
	sum, err := os.ReadFile(summary)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	fmt.Fprintf(d.w, "\n# Step outputs (GITHUB_OUTPUT):\n%s# Job summary (GITHUB_STEP_SUMMARY), as Markdown:\n%s", indent(out), indent(string(sum)))
	return nil
}

// readOutputs turns the GITHUB_OUTPUT file into name=value lines.
func readOutputs(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, delim, ok := strings.Cut(sc.Text(), "<<")
		if !ok {
			continue
		}
		var value []string
		for sc.Scan() && sc.Text() != delim {
			value = append(value, sc.Text())
		}
		fmt.Fprintf(&b, "%s=%s\n", name, strings.Join(value, "\n"))
	}
	return b.String(), sc.Err()
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") + "\n"
}
