package demo

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/runner"
)

// landing is scene 5: the setup init writes, where no runner waits on the
// agent and the docs land with the code. A code pull request's run starts
// the job and ends in seconds; the agent's pull request's event starts a
// settle run, which settles the job's end; the check waits for an
// approval of the docs pull request; the approval turns it green; the
// code's merge merges the docs.
func (d *demo) landing(ctx context.Context) error {
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clk := clock.NewFake(start)
	const runtime = 3 * time.Minute
	api := fakeapi.New(project, fakeapi.Scenario{Key: key, Runtime: runtime, Clock: clk, Repository: "https://github.com/acme/app"})
	defer api.Close()
	gh := fakegithub.New(fakegithub.Options{Permissions: map[string]string{"developer": "write", "reviewer": "write"}})
	defer gh.Close()
	const (
		head1     = "c1d2e3f4a5b60718293a4b5c6d7e8f9012345678"
		agentHead = "abababababababababababababababababababab"
	)
	limits := fakegithub.File{Name: "src/limits.go", Additions: 2, Deletions: 1,
		Patch: "@@ -10,3 +10,4 @@\n-\tw.WriteHeader(429)\n+\tw.Header().Set(\"X-RateLimit-Remaining\", \"0\")\n+\tw.WriteHeader(429)"}
	gh.SeedPull(fakegithub.Pull{Repo: "acme/app", Number: 7, Author: "developer", HeadRef: "rate-headers", HeadSHA: head1, Files: []fakegithub.File{limits}})
	gh.SeedPull(fakegithub.Pull{Repo: "acme/app", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", HeadSHA: agentHead})
	// The settings of init's file (docs/setup.md): the code and settle jobs
	// pass the same inputs, but settle.
	inputs := func(settle bool) map[string]string {
		in := map[string]string{"project-id": project, "api-key": key, "base-url": api.URL, "github-token": fakegithub.DefaultToken,
			"paths": "src/**", "docs-check": "approved", "preview": "false"}
		if settle {
			in["settle"], in["timeout"], in["agent-app"] = "true", "12m", "docs-agent[bot]"
		} else {
			in["wait"], in["timeout"], in["docs-merge"], in["docs-close"] = "false", "5m", "squash", "true"
		}
		return in
	}
	rc := func(event, runID string, settle bool) runner.Context {
		return runner.Context{InActions: true, EventPath: filepath.Join(d.dir, "event.json"), EventName: event, Repository: "acme/app",
			ServerURL: "https://github.com", APIURL: gh.APIURL(), RunID: runID, Inputs: inputs(settle)}
	}
	person := func(login string) map[string]any { return map[string]any{"login": login, "type": "User"} }
	bot := map[string]any{"login": "docs-agent[bot]", "type": "Bot"}
	pr := func(number int, action, head string, author map[string]any) map[string]any {
		return map[string]any{"action": action, "number": number,
			"pull_request": map[string]any{"number": number, "title": "Send rate-limit headers", "html_url": fmt.Sprintf("https://github.com/acme/app/pull/%d", number),
				"user": author, "draft": false, "state": "open",
				"head": map[string]any{"ref": "rate-headers", "sha": head, "repo": map[string]any{"full_name": "acme/app"}},
				"base": map[string]any{"ref": "main", "repo": map[string]any{"full_name": "acme/app"}}},
			"repository": map[string]any{"full_name": "acme/app"}, "sender": author}
	}
	// The ruleset init prints: docs / agent-job required on every pull
	// request into main, the agent's among them.
	gh.SeedRepository(fakegithub.Repository{Name: "acme/app", DefaultBranch: "main", Required: []string{"docs / agent-job"}})
	shown := func(sha string) string {
		if s, ok := gh.Shown("acme/app", sha, "docs / agent-job"); ok {
			return s.State + " (" + s.Description + ")"
		}
		return "none"
	}
	step := func(what, event, runID string, settle bool, payload map[string]any) error {
		fmt.Fprintf(d.w, "# %s, %s in: a %s run.\n", what, clk.Now().Sub(start).Round(time.Second), map[bool]string{false: "code", true: "settle"}[settle])
		if err := d.event(filepath.Join(d.dir, "event.json"), payload); err != nil {
			return err
		}
		from := clk.Now()
		if err := d.run(ctx, "landing-"+runID, clk, rc(event, runID, settle), false); err != nil {
			return err
		}
		fmt.Fprintf(d.w, "# It took %s of the runner. docs / agent-job on #7's head: %s; on #101's: %s\n\n", clk.Now().Sub(from).Round(time.Second), shown(head1), shown(agentHead))
		return nil
	}

	fmt.Fprint(d.w, `# 5. The setup init writes: no runner waits on the agent, and the docs land with the code.
#    The code pull request's run starts the job and ends in seconds (wait: false); the agent's
#    pull request's own event starts a settle run (settle: true), which reports the job's end;
#    the check waits for a person's approval of the docs pull request (docs-check: approved);
#    the code's merge merges the docs (docs-merge: squash). Docs live beside the code here, and
#    the ruleset requires the check on every pull request: the docs pull request's follows its code's.
`)
	if err := step("A developer opens #7", "pull_request", "6161", false, pr(7, "opened", head1, person("developer"))); err != nil {
		return err
	}
	clk.Advance(runtime + 10*time.Second)
	if err := step("The agent opens #101 as its job ends", "pull_request_target", "6162", true, pr(101, "opened", agentHead, bot)); err != nil {
		return err
	}
	clk.Advance(time.Hour)
	gh.SeedReview(101, fakegithub.Review{Author: "reviewer", State: "APPROVED", CommitID: agentHead})
	review := pr(101, "submitted", agentHead, bot)
	review["sender"] = person("reviewer")
	review["review"] = map[string]any{"id": 777, "user": person("reviewer"), "body": "", "state": "approved", "commit_id": agentHead,
		"html_url": "https://github.com/acme/app/pull/101#pullrequestreview-777"}
	if err := step("A reviewer approves #101", "pull_request_review", "6163", true, review); err != nil {
		return err
	}
	clk.Advance(time.Hour)
	merged := pr(7, "closed", head1, person("developer"))
	merged["pull_request"].(map[string]any)["state"], merged["pull_request"].(map[string]any)["merged"] = "closed", true
	if err := step("The developer merges #7", "pull_request", "6164", false, merged); err != nil {
		return err
	}
	docs, _ := gh.PullRequest("acme/app", 101)
	if !docs.Merged {
		return fmt.Errorf("demo: the docs pull request #101 was not merged with the code")
	}
	if err := d.codeCommentIn(gh, "acme/app"); err != nil {
		return err
	}
	for _, at := range []struct {
		pr   int
		head string
	}{{7, head1}, {101, agentHead}} {
		var states []string
		for _, s := range gh.Statuses() {
			if s.SHA == at.head {
				states = append(states, s.State+": "+s.Description)
			}
		}
		fmt.Fprintf(d.w, "# docs / agent-job on #%d's head, in order:\n%s", at.pr, indent(strings.Join(states, "\n")))
	}
	fmt.Fprintf(d.w, "# #101 is merged (%s), under a ruleset that requires docs / agent-job on both.\n", docs.MergeMethod)
	fmt.Fprintf(d.w, "# Requests in scene 5: Agent Job API %d create, %d follow-ups, %d reads; GitHub %d.\n",
		api.Creates(), api.Messages(), api.Gets(), len(gh.Requests()))
	return nil
}

// codeCommentIn prints the one comment on pull request #7 as it reads.
func (d *demo) codeCommentIn(gh *fakegithub.Server, repo string) error {
	text, _, err := theComment(gh, 7)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "# The comment on #7 at the end, as it reads on GitHub:\n%s", indent(text))
	return nil
}
