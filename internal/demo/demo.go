// Package demo runs the whole action in-process against fakes of the Agent
// Job API and of GitHub: no key, no network. `go run . demo` calls it.
package demo

import (
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
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/runner"
	"github.com/agentjob/agent-job-action/internal/testbed/fakeapi"
	"github.com/agentjob/agent-job-action/internal/testbed/fakegithub"
)

const (
	key     = "mint_demo_not_a_real_key"
	project = "demo-project"
)

// Run prints three demo runs to w: a workflow step with a prompt; a
// maintainer's "/docs ..." comment on an issue; then that maintainer's
// comment on a line of the agent's pull request, which refines the same
// job. Time is simulated: jobs of a few minutes take milliseconds.
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
	return d.conversation(ctx)
}

type demo struct {
	deps action.Deps
	w    io.Writer
	dir  string
}

func (d *demo) step(ctx context.Context) error {
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	clk := clock.NewFake(start)
	const runtime = 2*time.Minute + 40*time.Second
	api := fakeapi.New(project, fakeapi.Scenario{Key: key, Runtime: runtime, Clock: clk})
	defer api.Close()
	fmt.Fprintf(d.w, `# 1. A workflow step asks the agent for a docs change and waits for the pull request.
#    The Agent Job API is an in-process fake; time is simulated: the job runs for %s.
`, runtime)
	rc := runner.Context{InActions: true, Inputs: map[string]string{
		"prompt":     "Add a FAQ page about rate limits.",
		"project-id": project,
		"api-key":    key,
		"base-url":   api.URL,
	}}
	if err := d.run(ctx, "step", clk, rc); err != nil {
		return err
	}
	fmt.Fprintf(d.w, "# Requests the Agent Job API received: %d create, %d polls.\n", api.Creates(), api.Gets())
	fmt.Fprintf(d.w, "# The job ended after %s; the step saw it at its next check, %s in. The automatic poll\n"+
		"# schedule checks less often as a job goes on, to spare the API's 100 calls an hour.\n\n",
		runtime, clk.Now().Sub(start).Round(time.Second))
	return nil
}

// conversation is scenes 2 and 3, in one world: the job scene 2 starts is
// the one scene 3 refines.
func (d *demo) conversation(ctx context.Context) error {
	clk := clock.NewFake(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	api := fakeapi.New(project, fakeapi.Scenario{Key: key, Runtime: 4 * time.Minute, Clock: clk})
	defer api.Close()
	gh := fakegithub.New(fakegithub.Options{Permissions: map[string]string{"maintainer": "write"}})
	defer gh.Close()
	// The pull request the fake agent opens.
	gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001"})
	rc := runner.Context{
		InActions: true, EventPath: filepath.Join(d.dir, "event.json"), Repository: "acme/docs",
		ServerURL: "https://github.com", APIURL: gh.APIURL(), RunID: "4242",
		Inputs: map[string]string{
			"project-id":     project,
			"api-key":        key,
			"base-url":       api.URL,
			"github-token":   fakegithub.DefaultToken,
			"trigger-phrase": "/docs",
		},
	}
	maintainer := map[string]any{"login": "maintainer", "type": "User"}

	fmt.Fprint(d.w, `# 2. A maintainer comments "/docs add a FAQ page about rate limits" on issue #12.
#    The action checks their permission, reacts with 👀, and keeps one comment up to date.
#    When the job opens a pull request, the action links it back and asks the maintainer to review it.
#    GitHub is an in-process fake too.
`)
	rc.EventName = "issue_comment"
	if err := d.event(rc.EventPath, map[string]any{
		"action": "created",
		"issue": map[string]any{"number": 12, "title": "Rate limits are undocumented",
			"html_url": "https://github.com/acme/docs/issues/12", "user": map[string]any{"login": "reporter", "type": "User"}},
		"comment": map[string]any{"id": 9001, "body": "/docs add a FAQ page about rate limits", "user": maintainer,
			"html_url": "https://github.com/acme/docs/issues/12#issuecomment-9001"},
		"sender": maintainer,
	}); err != nil {
		return err
	}
	if err := d.run(ctx, "comment", clk, rc); err != nil {
		return err
	}
	comments := gh.Comments(12)
	if len(comments) != 1 {
		return fmt.Errorf("demo: %d comments on issue #12, want 1", len(comments))
	}
	comment, err := asText(comments[0].Body)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "# The comment on issue #12 (created once, edited %d times), as it reads on GitHub:\n%s",
		comments[0].Edits, indent(comment))
	fmt.Fprintf(d.w, "# The prompt the agent got:\n%s", indent(api.Requests()[0].Prompt()))
	backlink := gh.Comments(101)
	if len(backlink) != 1 {
		return fmt.Errorf("demo: %d comments on pull request #101, want the backlink", len(backlink))
	}
	pr, _ := gh.PullRequest("acme/docs", 101)
	back, err := asText(backlink[0].Body)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "# The backlink on pull request #101, as it reads on GitHub (review requested from: %s):\n%s\n",
		strings.Join(pr.Reviewers, ", "), indent(back))

	fmt.Fprint(d.w, `# 3. The maintainer reviews pull request #101 and comments on a line of the diff:
#    /docs say "per hour", not "hourly"
#    The same job takes the request, with the file, the lines and the diff around them.
`)
	rc.EventName = "pull_request_review_comment"
	if err := d.event(rc.EventPath, map[string]any{
		"action": "created",
		"pull_request": map[string]any{"number": 101, "title": "Add a FAQ page about rate limits",
			"html_url": "https://github.com/acme/docs/pull/101", "user": map[string]any{"login": "docs-agent[bot]", "type": "Bot"},
			"head": map[string]any{"ref": "docs/agent-job_0001", "repo": map[string]any{"full_name": "acme/docs"}}},
		"comment": map[string]any{"id": 9101, "body": `/docs say "per hour", not "hourly"`, "user": maintainer,
			"html_url": "https://github.com/acme/docs/pull/101#discussion_r9101",
			"path":     "faq/rate-limits.mdx", "line": 8, "side": "RIGHT",
			"diff_hunk": "@@ -0,0 +1,8 @@\n+## How many jobs can I start?\n+\n+You can start 100 jobs hourly."},
		"sender": maintainer,
	}); err != nil {
		return err
	}
	if err := d.run(ctx, "review", clk, rc); err != nil {
		return err
	}
	reqs := api.Requests()
	var followUp fakeapi.Request
	for _, r := range reqs {
		if strings.HasSuffix(r.Path, "/message") {
			followUp = r
		}
	}
	if followUp.Path != "/v2/agent/"+project+"/job/job_0001/message" {
		return fmt.Errorf("demo: the line comment did not refine job_0001")
	}
	fmt.Fprintf(d.w, "# The follow-up job_0001 got (POST %s):\n%s", followUp.Path, indent(followUp.Prompt()))
	fmt.Fprintf(d.w, "# Requests the Agent Job API received in scenes 2 and 3: %d create, %d follow-up, %d polls.\n",
		api.Creates(), api.Messages(), api.Gets())
	return nil
}

// event writes a webhook payload where the runner would.
func (d *demo) event(path string, payload map[string]any) error {
	data, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	return nil
}

// run runs the action once and prints its log, its outputs (each once, in
// action.yml's order) and its summary as a reader sees it on the run's page.
func (d *demo) run(ctx context.Context, name string, clk *clock.Fake, rc runner.Context) error {
	rc.OutputFile, rc.SummaryFile = filepath.Join(d.dir, name+".output"), filepath.Join(d.dir, name+".summary")
	rc.Workspace = d.dir
	fmt.Fprint(d.w, "# The step's log, as the runner receives it:\n\n")
	deps := d.deps
	deps.Clock = clk
	res, err := action.Run(ctx, rc, deps, action.Streams{Log: d.w})
	if err != nil {
		return fmt.Errorf("demo %s run failed: %w", name, err)
	}
	var out strings.Builder
	for _, o := range inputs.Outputs {
		fmt.Fprintf(&out, "%s=%s\n", o.Name, res.Outputs[o.Name])
	}
	md, err := os.ReadFile(rc.SummaryFile)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	sum, err := asText(string(md))
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "\n# Step outputs:\n%s# Job summary, as it reads on the run's page:\n%s", indent(out.String()), indent(sum))
	return nil
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") + "\n"
}
