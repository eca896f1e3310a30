package action_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
)

// TestPullRequestLinksJudgedOnce: one judgement
// of the job's prLink decides the pr-number output, the backlink, the
// review request, the comment, the summary and the notice. A link that is
// not a pull request on this GitHub sets no pr-number (a later
// `gh pr merge "$PR_NUMBER"` would act on pull request 7 of the workflow's
// own repository), writes nothing on any pull request, and is shown whole,
// in a code span a reader can copy, never as a link.
func TestPullRequestLinksJudgedOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		link   string
		number string // the pr-number output; "" when the link is refused
	}{
		{"https://github.com/acme/docs/pull/101", "101"},
		{"https://github.com@evil.example/acme/docs/pull/7", ""},
		{"https://github.com.evil.example/acme/docs/pull/7", ""},
		{"https://github.com/acme/docs/pull/1/../../../../other/repo/pull/7", ""},
		{"https://github.com/acme/docs/issues/3/pull/7", ""},
		{"https://gitlab.com/acme/docs/-/merge_requests/3", ""},
	}
	for _, tt := range tests {
		t.Run(tt.link, func(t *testing.T) {
			t.Parallel()
			job, _ := json.Marshal(map[string]any{"id": "job_1", "status": "completed", "model": "m",
				"source": map[string]any{"repository": "https://github.com/acme/docs", "ref": nil},
				"prLink": tt.link, "createdAt": "2026-11-22T09:00:00Z", "archivedAt": nil})
			srv, _ := hostileAPI(t, string(job))
			h := newHarness(t, fakeapi.Scenario{})
			gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs add a FAQ"))
			h.vars["INPUT_BASE-URL"] = srv.URL
			if err := h.run(context.Background()); err != nil {
				t.Fatalf("run: %v\n%s", err, h.stdout.String())
			}
			out := h.outputs()
			if out["pr-number"] != tt.number || out["pr-link"] != tt.link {
				t.Errorf("pr-number = %q, pr-link = %q; want %q, %q", out["pr-number"], out["pr-link"], tt.number, tt.link)
			}
			var wrotePull bool
			for _, r := range gh.Requests() {
				if r.Method != http.MethodGet && !strings.HasPrefix(r.Path, "/repos/acme/docs/issues/12/") && !strings.HasPrefix(r.Path, "/repos/acme/docs/issues/comments/") {
					wrotePull = true
				}
			}
			summary := h.file("GITHUB_STEP_SUMMARY")
			comment := gh.Comments(12)[0].Body
			log := h.stdout.String()
			if tt.number != "" {
				if !wrotePull || !strings.Contains(summary, "]("+tt.link+")") || !strings.Contains(comment, tt.link) {
					t.Errorf("a pull request on this GitHub: backlink %v, summary:\n%s\ncomment:\n%s", wrotePull, summary, comment)
				}
				return
			}
			if wrotePull {
				t.Errorf("wrote to a pull request for a link that is not one: %v", gh.Requests())
			}
			code := "`" + tt.link + "`"
			if !strings.Contains(summary, "| Pull request | "+code+" |") || strings.Contains(summary, "]("+tt.link) {
				t.Errorf("summary does not show the link whole and unlinked:\n%s", summary)
			}
			if !strings.Contains(comment, "not a pull request on this GitHub, so it is not linked: "+code) {
				t.Errorf("comment does not show the link whole and unlinked:\n%s", comment)
			}
			if !strings.Contains(log, "is not a pull request on this GitHub") {
				t.Errorf("log does not say why nothing was written on the pull request:\n%s", log)
			}
		})
	}
}
