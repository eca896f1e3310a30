package preview

import (
	"testing"

	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

// TestMarkdown keeps the preview's lines of the comment and the summary in
// testdata/shown (go test -run Markdown -update rewrites them).
func TestMarkdown(t *testing.T) {
	t.Parallel()
	const url = "https://acme-docs-agent-job-0001.mintlify.app"
	tests := []struct {
		name string
		s    Shown
	}{
		{"success", Shown{URL: url, State: Success}},
		{"success-screenshot", Shown{URL: url, State: Success, Image: "https://shots.mintlify.app/st_0001.png"}},
		{"failure", Shown{URL: url, State: Failure, Summary: "docs.json: *bad* @team [x](https://evil.example)"}},
		{"building", Shown{URL: url, State: InProgress}},
		{"hostile", Shown{URL: "javascript:alert(1)//https://x", State: Success, Image: "https://x/a.png"}},
		{"hostile-image", Shown{URL: url, State: Success, Image: "https://x/a.png) ![y](https://evil.example/track.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			golden.Check(t, "testdata/shown/"+tt.name+".md", tt.s.Markdown())
		})
	}
}
