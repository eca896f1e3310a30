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
	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
)

const (
	key     = "mint_demo_not_a_real_key"
	project = "demo-project"
)

// Run prints five demo scenes to w: a workflow step with a prompt; a
// maintainer's "/docs ..." comment on an issue; then that maintainer's
// three comments on lines of the agent's pull request, which refine the
// same job in one follow-up; then a code pull request opened and pushed
// to, whose docs follow it; then init's setup, where no runner waits and
// the docs land with the code. Time is simulated: jobs of a few minutes
// take milliseconds.
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
	if err := d.conversation(ctx); err != nil {
		return err
	}
	if err := d.codePR(ctx); err != nil {
		return err
	}
	return d.landing(ctx)
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
		// With no GitHub token, the branch of the pull request cannot be
		// read: scene 4 shows previews.
		"preview": "false",
	}}
	if err := d.run(ctx, "step", clk, rc, true); err != nil {
		return err
	}
	fmt.Fprintf(d.w, "# Requests the Agent Job API received: %d create, %d polls.\n", api.Creates(), api.Gets())
	fmt.Fprintf(d.w, "# The job ended after %s; the step saw it at its next check, %s in. The automatic poll\n"+
		"# schedule checks less often as a job goes on. The API's rate limit (100 uses per project\n"+
		"# per hour) counts the create and follow-ups, not these polls: %s\n\n",
		runtime, clk.Now().Sub(start).Round(time.Second), agentapi.LimitsURL)
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
			"preview":        "false", // scene 4 shows previews
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
	if err := d.run(ctx, "comment", clk, rc, true); err != nil {
		return err
	}
	comment, edits, err := theComment(gh, 12)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "# The comment on issue #12 (created once, edited %s), as it reads on GitHub:\n%s",
		times(edits), indent(comment))
	fmt.Fprintf(d.w, "# The prompt the agent got:\n%s", indent(api.Requests()[0].Prompt()))
	pr, _ := gh.PullRequest("acme/docs", 101)
	back, _, err := theComment(gh, 101) // the backlink
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "# The backlink on pull request #101, as it reads on GitHub (review requested from: %s):\n%s\n",
		strings.Join(pr.Reviewers, ", "), indent(back))

	fmt.Fprint(d.w, `# 3. The maintainer reviews pull request #101 and comments on three lines of the diff, one
#    after another. Each comment starts a run, and the runs queue in the workflow's concurrency
#    group. The first run answers all three in one follow-up to the same job, each with its file,
#    line and diff; the other two find their request answered and send nothing.
`)
	lines := []struct {
		path, body, hunk string
		line             int
	}{
		{"faq/rate-limits.mdx", `/docs say "per hour", not "hourly"`, "@@ -0,0 +1,8 @@\n+## How many jobs can I start?\n+\n+You can start 100 jobs hourly.", 8},
		{"faq/rate-limits.mdx", "/docs link the API reference here", "@@ -0,0 +1,12 @@\n+## What happens at the limit?\n+\n+The API answers 429.", 12},
		{"docs.json", "/docs put the FAQ last in the navigation", "@@ -20,3 +20,4 @@\n   \"quickstart\",\n+  \"faq/rate-limits\",\n   \"api\"", 21},
	}
	events := make([]map[string]any, len(lines))
	for i, l := range lines {
		review := gh.SeedReview(101, fakegithub.Review{Author: "maintainer"})
		gh.SeedReviewComments(101, review, []fakegithub.ReviewComment{{Author: "maintainer", Path: l.path, Line: l.line, Body: l.body, DiffHunk: l.hunk}})
		id := gh.ReviewComments(101, review)[0].ID
		events[i] = map[string]any{
			"action": "created",
			"pull_request": map[string]any{"number": 101, "title": "Add a FAQ page about rate limits",
				"html_url": "https://github.com/acme/docs/pull/101", "user": map[string]any{"login": "docs-agent[bot]", "type": "Bot"},
				"head": map[string]any{"ref": "docs/agent-job_0001", "repo": map[string]any{"full_name": "acme/docs"}}},
			"comment": map[string]any{"id": id, "body": l.body, "user": maintainer,
				"html_url": fmt.Sprintf("https://github.com/acme/docs/pull/101#discussion_r%d", id),
				"path":     l.path, "line": l.line, "side": "RIGHT", "diff_hunk": l.hunk},
			"sender": maintainer,
		}
	}
	rc.EventName = "pull_request_review_comment"
	for i, e := range events {
		if err := d.event(rc.EventPath, e); err != nil {
			return err
		}
		fmt.Fprintf(d.w, "# Run %d of 3, for the comment on %s line %d:\n", i+1, lines[i].path, lines[i].line)
		if err := d.run(ctx, fmt.Sprintf("line%d", i+1), clk, rc, i == 0); err != nil {
			return err
		}
	}
	var followUps []fakeapi.Request
	for _, r := range api.Requests() {
		if strings.HasSuffix(r.Path, "/message") {
			followUps = append(followUps, r)
		}
	}
	if len(followUps) != 1 || followUps[0].Path != "/v2/agent/"+project+"/job/job_0001/message" {
		return fmt.Errorf("demo: the three line comments made %d follow-ups, want one to job_0001", len(followUps))
	}
	fmt.Fprintf(d.w, "# The one follow-up job_0001 got (POST %s):\n%s", followUps[0].Path, indent(followUps[0].Prompt()))
	prComments := gh.Comments(101)
	answer, err := asText(prComments[len(prComments)-1].Body)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "# The first run's comment on pull request #101, as it reads on GitHub:\n%s", indent(answer))
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

// run runs the action once and prints its log and, when full, its outputs
// (each once, in action.yml's order) and its summary as a reader sees it on
// the run's page.
func (d *demo) run(ctx context.Context, name string, clk *clock.Fake, rc runner.Context, full bool) error {
	rc.OutputFile, rc.SummaryFile = filepath.Join(d.dir, name+".output"), filepath.Join(d.dir, name+".summary")
	rc.Workspace = d.dir
	fmt.Fprint(d.w, "# The step's log, as the runner receives it:\n\n")
	deps := d.deps
	deps.Clock = clk
	res, err := action.Run(ctx, rc, deps, action.Streams{Log: runlog.NewActions(d.w)})
	if err != nil {
		return fmt.Errorf("demo %s run failed: %w", name, err)
	}
	if !full {
		fmt.Fprintln(d.w)
		return nil
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

// times says how many times something happened as a reader would: "once",
// "twice", "3 times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
