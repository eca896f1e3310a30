package action_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

// TestPathsWithYAMLSyntax: a paths line copied from a workflow's YAML list
// (a quote, a list marker, a comment) fails the run with one error that
// names the line, before any request to GitHub, the Agent Job API or the
// preview API: a pattern that would match nothing never turns into "no
// change under paths".
func TestPathsWithYAMLSyntax(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, paths, want string
	}{
		{"quoted", "docs/**\n'src/**'", `::error::input paths has the pattern "'src/**'" on line 2: the quotes would be part of the pattern`},
		{"a list item", "- src/**", `::error::input paths has the pattern "- src/**" on line 1: the list marker "- " would be part of the pattern`},
		{"a trailing comment", "src/**\n\nlib/** # the library", `::error::input paths has the pattern "lib/** # the library" on line 3: the comment "# the library" would be part of the pattern`},
		{"a comment line", "# what the docs follow\nsrc/**", `::error::input paths has the pattern "# what the docs follow" on line 1: it would be a pattern, not a comment`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newCodeWorld(t, fakeapi.Scenario{}, fakepreview.Options{}, tt.paths, codePR("opened", head1, nil))
			if err := w.run(context.Background()); err == nil {
				t.Fatalf("run succeeded, want it to fail on paths\n%s", w.stdout.String())
			}
			var errs []string
			for line := range strings.Lines(w.stdout.String()) {
				if strings.HasPrefix(line, "::error::") {
					errs = append(errs, line)
				}
			}
			if len(errs) != 1 || !strings.HasPrefix(errs[0], tt.want) || !strings.HasSuffix(errs[0], " (paths: | is read line by line, not as YAML)\n") {
				t.Errorf("::error:: lines = %q, want one starting %q and saying how paths is read", errs, tt.want)
			}
			if n := len(w.api.Requests()) + len(w.gh.Requests()) + len(w.preview.Requests()); n != 0 {
				t.Errorf("the run sent %d requests, want none", n)
			}
			if got := w.outputs()["status"]; got == "skipped" {
				t.Errorf("status output %q: a refused paths must not read as nothing to do", got)
			}
		})
	}
}

// TestPathsMatchAnyName: a changed file whose name holds a newline, a tab,
// a carriage return or a bracket is under src/** as GitHub's filter would
// have it, and reaches the docs job quoted on one line; a name that only
// holds "src/" after its newline is not under src/.
func TestPathsMatchAnyName(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	names := []string{"src/a\nb.go", "src/\tc.go", "src/d\r.go", "src/[e].go", "src/日本.go"}
	files := []fakegithub.File{{Name: "lib/x\nsrc/y.go", Additions: 1, Patch: "@@ -0,0 +1 @@\n+lib"}}
	for _, n := range names {
		files = append(files, fakegithub.File{Name: n, Additions: 1, Patch: "@@ -0,0 +1 @@\n+code"})
	}
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: head1, Files: files})
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 0)
	p := w.api.Requests()[0].Prompt()
	want := "The files it changes (5):"
	for _, n := range names {
		want += "\n- " + strconv.Quote(n) + " (modified, +1 -0)"
	}
	if !strings.Contains(p, want) {
		t.Errorf("prompt lacks\n%s\nit is:\n%s", want, p)
	}
	if strings.Contains(p, "lib/x") {
		t.Errorf("prompt holds lib/x, which is not under src/:\n%s", p)
	}
}
