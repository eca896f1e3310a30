package doctor

import (
	"errors"
	"strings"
	"testing"
)

// TestParseRefuses: each flag doctor cannot use is a usage error that
// names it, before doctor reads anything.
func TestParseRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		says string
	}{
		{"a repository without its owner", []string{"--repo", "app"}, "--repo must name the code repository as owner/name"},
		{"a repository name GitHub does not allow", []string{"--repo", "acme/app name"}, "--repo must name"},
		{"an owner longer than GitHub allows", []string{"--repo", strings.Repeat("a", 40) + "/app"}, "--repo must name"},
		{"a docs repository without its owner", []string{"--repo", "acme/app", "--docs-repo", "handbook"}, "--docs-repo must name the docs repository as owner/name"},
		{"a docs checkout without its repository", []string{"--repo", "acme/app", "--docs-dir", "../handbook"}, "--docs-dir is for --docs-repo's checkout"},
		{"a file that is not YAML", []string{"--repo", "acme/app", "--file", "docs.txt"}, "--file must be a workflow file's name"},
		{"a file in a directory", []string{"--repo", "acme/app", "--file", "../docs.yml"}, "--file must be a workflow file's name"},
		{"an argument that is not a flag", []string{"--repo", "acme/app", "now"}, "doctor takes flags only; 1 more arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tc.args, func(string) string { return "" })
			var usage *UsageError
			if !errors.As(err, &usage) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Parse(%q) = %v, want a usage error saying %q", tc.args, err, tc.says)
			}
		})
	}
	if _, err := Parse([]string{"--repo", "acme/app", "--docs-repo", "acme/handbook", "--docs-dir", "../handbook", "--file", "docs.yaml"}, func(string) string { return "" }); err != nil {
		t.Errorf("Parse of good flags: %v", err)
	}
}
