package terms

import (
	"testing"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestTerms(t *testing.T) {
	t.Parallel()
	workflow, cli := Terms{}, Terms{CommandLine: true}
	for _, tt := range []struct {
		got, want string
	}{
		{workflow.Name("project-id"), "project-id"},
		{cli.Name("project-id"), "--project-id"},
		{cli.Name("api-key"), "MINTLIFY_API_KEY or --api-key-stdin"},
		{cli.Name("github-token"), "GITHUB_TOKEN"},
		{cli.Name("docs-token"), "DOCS_TOKEN"},
		{workflow.Subject("timeout"), "input timeout"},
		{cli.Subject("timeout"), "--timeout"},
		{cli.Subject("api-key"), "the API key (MINTLIFY_API_KEY or --api-key-stdin)"},
		{cli.Subject("github-token"), "the GitHub token (GITHUB_TOKEN)"},
		{workflow.Setting("job-id", "job_1"), "job-id: job_1"},
		{cli.Setting("job-id", "job_1"), "--job-id job_1"},
		{workflow.Setting("wait", "false"), "wait: false"},
		{cli.Setting("wait", "false"), "--wait=false"},
		{workflow.Setting("timeout", ""), "timeout"},
		{cli.Setting("timeout", ""), "--timeout"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
