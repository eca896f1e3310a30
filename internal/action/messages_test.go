package action_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

// TestPermissionCheckAdvice: when the sender's
// permission cannot be read, the advice follows GitHub's answer; a GitHub
// that cannot be reached is not blamed on the token's permissions.
func TestPermissionCheckAdvice(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		status  int // GitHub's answer to the permission check; 0: unreachable
		advice  string
		notSaid string
	}{
		{"unreachable", 0, "GitHub did not answer: check GITHUB_API_URL and the network", "metadata: read"},
		{"forbidden", http.StatusForbidden, "the token needs metadata: read", "did not answer"},
		{"unauthorized", http.StatusUnauthorized, "GitHub refused the token in github-token", "metadata: read"},
		{"server error", http.StatusBadGateway, "GitHub did not answer", "metadata: read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{})
			gh := h.withGitHub(fakegithub.Options{Fault: func(w http.ResponseWriter, r *http.Request) bool {
				if !strings.HasSuffix(r.URL.Path, "/permission") {
					return false
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(`{"message":"no"}`))
				return true
			}}, "issue_comment", issueComment("writer", "/docs add a FAQ"))
			if tt.status == 0 {
				gh.Close()
			}
			if err := h.run(context.Background()); err == nil {
				t.Fatalf("run succeeded\n%s", h.stdout.String())
			}
			log := h.stdout.String()
			if !strings.Contains(log, "::error::check who triggered the run: ") || !strings.Contains(log, tt.advice) || strings.Contains(log, tt.notSaid) {
				t.Errorf("log does not give %q (or says %q):\n%s", tt.advice, tt.notSaid, log)
			}
			if n := len(h.api.Requests()); n != 0 {
				t.Errorf("%d requests to the Agent Job API", n)
			}
			if tt.status != 0 {
				for _, r := range gh.Requests() {
					if r.Method != http.MethodGet {
						t.Errorf("wrote to GitHub: %s %s", r.Method, r.Path)
					}
				}
			}
		})
	}
}

// TestSummaryExplainsFailure: a failed run's summary
// says why (the service's own reason, redacted), what to do, and links the
// run; status has a documented value on every path, including an API
// error before any job status was known and inputs that cannot run.
func TestSummaryExplainsFailure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		setup  func(h *harness)
		golden string
	}{
		{"unauthorized", func(h *harness) { h.vars["INPUT_API-KEY"] = "mint_not_the_right_key_0123" }, "unauthorized.md"},
		{"invalid input", func(h *harness) { h.vars["INPUT_TIMEOUT"] = "soon" }, "invalid-input.md"},
		{"job failed", func(h *harness) {}, "job-failed.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sc := fakeapi.Scenario{Runtime: time.Minute}
			if tt.name == "job failed" {
				sc.Outcome = "failed"
			}
			h := newHarness(t, sc)
			h.vars["GITHUB_SERVER_URL"] = "https://github.com"
			h.vars["GITHUB_REPOSITORY"] = "acme/docs"
			h.vars["GITHUB_RUN_ID"] = "77"
			tt.setup(h)
			if err := h.run(context.Background()); err == nil {
				t.Fatalf("run succeeded\n%s", h.stdout.String())
			}
			out := h.outputs()
			if out["status"] == "" {
				t.Errorf("status output empty: %v", out)
			}
			summary := h.file("GITHUB_STEP_SUMMARY")
			if !strings.Contains(summary, "**The run failed** (status "+out["status"]+")") ||
				!strings.Contains(summary, "(https://github.com/acme/docs/actions/runs/77)") ||
				strings.Contains(summary, "mint_not_the_right_key_0123") {
				t.Errorf("summary does not explain the failure:\n%s", summary)
			}
			golden.Check(t, filepath.Join("testdata", "summaries", tt.golden), summary)
		})
	}
}
