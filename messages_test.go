package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/testbed/fakeapi"
	"github.com/agentjob/agent-job-action/internal/testbed/fakegithub"
)

// TestPermissionCheckAdvice (issue 17, item 5): when the sender's
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
		{"unauthorized", http.StatusUnauthorized, "GitHub refused github-token", "metadata: read"},
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
