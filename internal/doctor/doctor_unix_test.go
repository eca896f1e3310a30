//go:build unix

package doctor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/setup"
	"github.com/agentjob/agent-job-action/internal/testbed/fifo"
)

// TestDoctorReadsRegularFilesOnly: a workflow file that is a named pipe,
// or a symbolic link to one (which a checkout can hold), is a problem
// doctor reports at once: the open and the read of a pipe with no writer
// would wait for ever, past doctor's own minute, which bounds its requests
// only.
func TestDoctorReadsRegularFilesOnly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		docs  bool // the docs repository's file, else the code's
		link  bool // a symbolic link to the pipe, else the pipe
		check string
	}{
		{name: "the code repository's file is a named pipe", check: "the workflow file"},
		{name: "the code repository's file links to a named pipe", link: true, check: "the workflow file"},
		{name: "the docs repository's file is a named pipe", docs: true, check: "the docs repository's dispatch"},
		{name: "the docs repository's file links to a named pipe", docs: true, link: true, check: "the docs repository's dispatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, nil)
			dir := w.code
			if tc.docs {
				dir = w.docs
			}
			path := filepath.Join(dir, ".github", "workflows", setup.File)
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			fifo.At(t, path, tc.link)
			o, err := Parse([]string{"--repo", "acme/app", "--dir", w.code, "--docs-repo", "acme/handbook", "--docs-dir", w.docs,
				"--base-url", w.api.URL, "--json"}, func(k string) string { return w.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			out := fifo.Returns(t, "doctor", func() string {
				var out strings.Builder
				_ = Run(context.Background(), o, Env{Getenv: func(k string) string { return w.env[k] }, Version: "test"}, &out)
				return out.String()
			})
			var got struct {
				Findings []Finding `json:"findings"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("--json printed %q: %v", out, err)
			}
			found := map[string]Finding{}
			for _, f := range got.Findings {
				found[f.Check] = f
			}
			if f := found[tc.check]; f.State != Problem || !strings.Contains(f.Says, "not a regular file") {
				t.Errorf("%s: %+v; want a problem saying it is not a regular file\n%s", tc.check, f, out)
			}
		})
	}
}
