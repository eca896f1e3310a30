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
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/runner"
)

// docsToken is the demo's token for the docs repository (docs-token).
const docsToken = "ghp_demo_docs_repository"

// codePR is scene 4: a developer opens a code pull request in acme/api and
// pushes to it; the docs, in acme/docs, follow: one job, one comment edited
// in place, a commit status on each head, and the docs pull request's
// preview.
func (d *demo) codePR(ctx context.Context) error {
	clk := clock.NewFake(time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC))
	previews := fakepreview.New(fakepreview.Options{Key: key, Project: project, Reads: 2,
		Screenshot: "https://screenshots.mintlify.app/acme/docs-agent-job-0001.png"})
	api := fakeapi.New(project, fakeapi.Scenario{Key: key, Runtime: 3 * time.Minute, Clock: clk, Preview: previews})
	defer api.Close()
	gh := fakegithub.New(fakegithub.Options{Permissions: map[string]string{"developer": "write"},
		OtherTokens: map[string][]string{docsToken: {"acme/docs"}}})
	defer gh.Close()
	gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001"})
	const (
		head1 = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"
		head2 = "b2c3d4e5f60718293a4b5c6d7e8f901234567890"
	)
	limits := fakegithub.File{Name: "src/limits.go", Additions: 2, Deletions: 1,
		Patch: "@@ -10,3 +10,4 @@\n-\tw.WriteHeader(429)\n+\tw.Header().Set(\"X-RateLimit-Remaining\", \"0\")\n+\tw.WriteHeader(429)"}
	test := fakegithub.File{Name: "src/limits_test.go", Additions: 12, Patch: "@@ +1,12 @@\n+func TestLimits(t *testing.T) {"}
	retry := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 6, Patch: "@@ +1,6 @@\n+// Retry waits as Retry-After says, then sends again."}
	gh.SeedPull(fakegithub.Pull{Repo: "acme/api", Number: 7, Author: "developer", HeadRef: "rate-headers", HeadSHA: head1, Files: []fakegithub.File{limits, test}})
	rc := runner.Context{
		InActions: true, EventPath: filepath.Join(d.dir, "event.json"), EventName: "pull_request", Repository: "acme/api",
		ServerURL: "https://github.com", APIURL: gh.APIURL(), RunID: "5151",
		Inputs: map[string]string{
			"project-id":   project,
			"api-key":      key,
			"base-url":     api.URL,
			"github-token": fakegithub.DefaultToken,
			"paths":        "src/**\n!src/**/*_test.go",
			"docs-token":   docsToken,
		},
	}
	developer := map[string]any{"login": "developer", "type": "User"}
	event := func(action, head string) map[string]any {
		return map[string]any{
			"action": action, "number": 7,
			"pull_request": map[string]any{"number": 7, "title": "Send rate-limit headers", "body": "Adds X-RateLimit-Remaining to 429 answers.",
				"html_url": "https://github.com/acme/api/pull/7", "user": developer, "draft": false,
				"head": map[string]any{"ref": "rate-headers", "sha": head, "repo": map[string]any{"full_name": "acme/api"}},
				"base": map[string]any{"ref": "main", "repo": map[string]any{"full_name": "acme/api"}}},
			"repository": map[string]any{"full_name": "acme/api"},
			"sender":     developer,
		}
	}

	fmt.Fprint(d.w, `# 4. Docs follow code. A developer opens pull request #7 in acme/api, changing src/limits.go
#    and its test; the docs live in acme/docs. The workflow runs on pull_request, with paths
#    naming the files under src but the tests, and a docs-token for acme/docs. The action starts one
#    docs job with the matching change, comments in #7, sets the commit status docs / agent-job,
#    and when the job opens its pull request, waits for that branch's Mintlify preview.
`)
	if err := d.event(rc.EventPath, event("opened", head1)); err != nil {
		return err
	}
	if err := d.run(ctx, "opened", clk, rc, true); err != nil {
		return err
	}
	if err := d.codeComment(gh, "after the opening run"); err != nil {
		return err
	}
	fmt.Fprintf(d.w, "# The prompt the agent got:\n%s", indent(api.Requests()[0].Prompt()))

	fmt.Fprint(d.w, `# The developer pushes src/retry.go. The next run finds the job in its comment, sends the
#    same job what is new since the commit it last heard of, and edits the comment in place.
`)
	gh.SeedPull(fakegithub.Pull{Repo: "acme/api", Number: 7, Author: "developer", HeadRef: "rate-headers", HeadSHA: head2, Files: []fakegithub.File{limits, test, retry}})
	gh.SeedComparison("acme/api", head1, head2, fakegithub.Comparison{Files: []fakegithub.File{retry}})
	push := event("synchronize", head2)
	push["before"], push["after"] = head1, head2
	if err := d.event(rc.EventPath, push); err != nil {
		return err
	}
	// The push starts a workflow run of its own, which the comment and the
	// new head's commit status link to.
	rc.RunID = "5152"
	if err := d.run(ctx, "pushed", clk, rc, false); err != nil {
		return err
	}
	for _, r := range api.Requests() {
		if strings.HasSuffix(r.Path, "/message") {
			fmt.Fprintf(d.w, "# The follow-up job_0001 got (POST %s):\n%s", r.Path, indent(r.Prompt()))
		}
	}
	if err := d.codeComment(gh, "after the push"); err != nil {
		return err
	}
	var statuses []string
	for _, s := range gh.Statuses() {
		statuses = append(statuses, fmt.Sprintf("%s on %s: %s — %s %s", s.Context, s.SHA[:7], s.State, s.Description, s.TargetURL))
	}
	fmt.Fprintf(d.w, "# The commit statuses set on #7's head commits, in order:\n%s", indent(strings.Join(statuses, "\n")))
	fmt.Fprintf(d.w, "# Requests in scene 4: Agent Job API %d create, %d follow-up, %d polls; preview API %d; GitHub %d.\n",
		api.Creates(), api.Messages(), api.Gets(), len(previews.Requests()), len(gh.Requests()))
	return nil
}

// codeComment prints the one comment on pull request #7 as it reads.
func (d *demo) codeComment(gh *fakegithub.Server, when string) error {
	text, edits, err := theComment(gh, 7)
	if err != nil {
		return err
	}
	fmt.Fprintf(d.w, "# The comment on pull request #7 %s (edited %s), as it reads on GitHub:\n%s", when, times(edits), indent(text))
	return nil
}
