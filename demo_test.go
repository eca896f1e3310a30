//go:build !nodemo

package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestDemo runs the demo as go run . demo does: the
// summary and the comments read as on GitHub (rendered, not Markdown
// source), each output once, and the elapsed time it announces explained.
func TestDemo(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"demo"}, Env{}, &out); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	got := out.String()
	for _, want := range []string{"created job job_0001", "active -> completed", "pr-link=https://github.com/acme/docs/pull/101",
		"maintainer has write permission", "answering in #12", "✅ Done. Job job_0001 completed and opened a pull request: https://github.com/acme/docs/pull/101",
		"comment-url=https://", "Pull request  https://github.com/acme/docs/pull/101", "the job runs for 2m40s", "The job ended after 2m40s; the step saw it at its next check",
		// Scene 3, a burst: three line comments, one follow-up.
		"answering 3 requests of this thread at once", "3 requests from this thread, oldest first.",
		`line 8 of the new version`, "line 12 of the new version", `file "docs.json", line 21`,
		"This run answers 3 requests together", "1 create, 1 follow-up,",
		// The rate limit as documented, linked, polls not counted.
		"counts the create and follow-ups, not these polls: https://github.com/agentjob/agent-job-action#limits",
		// Scene 4, docs follow code: opened, then pushed.
		"# 4. Docs follow code.", `- "src/limits.go" (modified, +2 -1)`, `- "src/retry.go" (added, +6 -0)`,
		"the docs job of pull request #7 is job_0001", "🔎 Preview: acme-docs-agent-job-0001.mintlify.app <https://acme-docs-agent-job-0001.mintlify.app>",
		"[image: Screenshot of the preview]", "docs / agent-job on b2c3d4e: success — Docs updated: preview ready",
		"Agent Job API 1 create, 1 follow-up,"} {
		if !strings.Contains(got, want) {
			t.Errorf("demo output lacks %q:\n%s", want, got)
		}
	}
	// Rendered text: no entities, no emphasis markers, no table pipes.
	for _, markup := range []string{"&#58;", "&#8288;", "**", "|---|"} {
		if strings.Contains(got, markup) {
			t.Errorf("demo output shows Markdown source %q:\n%s", markup, got)
		}
	}
	if strings.Contains(got, "src/limits_test.go") || strings.Contains(got, "no backlink") || strings.Contains(got, "::warning") {
		t.Errorf("scene 4 sent a file outside paths, or missed its backlink, or warned:\n%s", got)
	}
	if n := strings.Count(got, "skipped: an earlier run already sent this request to the agent, as its comment says: "); n != 2 {
		t.Errorf("%d runs of the burst said their request was answered, want 2:\n%s", n, got)
	}
	// Each scene prints each output once.
	for _, scene := range strings.Split(got, "# Step outputs:")[1:] {
		block, _, _ := strings.Cut(scene, "# Job summary")
		if n := strings.Count(block, "job-id="); n != 1 {
			t.Errorf("job-id printed %d times in a scene:\n%s", n, block)
		}
	}
	// The elapsed time announced is the one the summary shows.
	m := regexp.MustCompile(`saw it at its next check, (\S+) in`).FindStringSubmatch(got)
	if m == nil || !strings.Contains(got, "Elapsed       "+m[1]) {
		t.Errorf("the elapsed time explained (%v) is not the summary's:\n%s", m, got)
	}
}
