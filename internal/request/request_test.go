package request

import (
	"testing"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestAtLeast(t *testing.T) {
	t.Parallel()
	levels := []string{"none", "read", "triage", "write", "maintain", "admin"}
	for i, have := range levels {
		for j, need := range levels {
			if got := AtLeast(have, need); got != (i >= j) {
				t.Errorf("AtLeast(%q, %q) = %v, want %v", have, need, got, i >= j)
			}
		}
	}
	for _, tc := range []struct{ have, need string }{
		{"", "none"}, {"owner", "read"}, {"Admin", "read"}, {"docs-editor", "none"}, {"admin", "owner"}, {"admin", ""},
	} {
		if AtLeast(tc.have, tc.need) {
			t.Errorf("AtLeast(%q, %q) = true, want false", tc.have, tc.need)
		}
	}
}

func TestIsBot(t *testing.T) {
	t.Parallel()
	cases := []struct {
		login, typ string
		want       bool
	}{
		{"github-actions[bot]", "Bot", true},
		{"docs-app", "Bot", true},
		{"renovate[bot]", "", true},
		{"renovate[bot]", "User", true},
		{"octocat", "User", false},
		{"octocat", "", false},
		{"bot", "User", false},
		{"[bot]user", "User", false},
		{"acme", "Organization", false},
	}
	for _, tc := range cases {
		if got := IsBot(tc.login, tc.typ); got != tc.want {
			t.Errorf("IsBot(%q, %q) = %v, want %v", tc.login, tc.typ, got, tc.want)
		}
	}
}
