package binary

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// TestBuildAtCommit runs run.sh where it is, in this checkout, as a
// workflow that uses the action at a commit runs it: no release is pinned,
// so it builds the action from the source above it with the Go on PATH and
// runs what it built against the fake Agent Job API. It claims no checksum,
// and the test binary, which a download would have run, does not run.
// .ci/run runs this test on its own, on a copy of the repository that has
// nothing beside it.
func TestBuildAtCommit(t *testing.T) {
	t.Parallel()
	runnerOS, runnerArch, _ := host(t)
	api := fakeapi.New("proj_1", fakeapi.Scenario{Key: "mint_secret", Reads: 1})
	t.Cleanup(api.Close)
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	files := t.TempDir()
	output := filepath.Join(files, "output")
	env := map[string]string{
		"RUNNER_OS":            runnerOS,
		"RUNNER_ARCH":          runnerArch,
		"AGENT_JOB_ACTION_TAG": "",
		"GITHUB_ACTIONS":       "true",
		"GITHUB_EVENT_NAME":    "workflow_dispatch",
		"GITHUB_OUTPUT":        output,
		"GITHUB_STEP_SUMMARY":  filepath.Join(files, "summary"),
		"GITHUB_WORKSPACE":     files,
		"INPUT_PROMPT":         "Fix the typos in the quickstart.",
		"INPUT_PROJECT-ID":     "proj_1",
		"INPUT_API-KEY":        "mint_secret",
		"INPUT_BASE-URL":       api.URL,
		"INPUT_WAIT":           "true",
		"INPUT_TIMEOUT":        "5m",
		"INPUT_POLL-INTERVAL":  "1s",
		"INPUT_COMMENT":        "false",
		"INPUT_PREVIEW":        "false",
	}
	res := runScriptIn(t, here, env)

	if res.exit != 0 {
		t.Fatalf("exit status %d, want 0; stderr:\n%s", res.exit, res.stderr)
	}
	if res.ran != nil {
		t.Fatalf("the test binary ran, not one built from the source: %+v", *res.ran)
	}
	for _, want := range []string{"no release pinned here, so building ", "agent-job-action built from source in "} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, res.stderr)
		}
	}
	for _, claim := range []string{"verified", "SHA-256"} {
		if strings.Contains(res.stderr, claim) {
			t.Errorf("stderr claims %q for a binary it built:\n%s", claim, res.stderr)
		}
	}
	if strings.Contains(res.stderr, "mint_secret") {
		t.Errorf("stderr shows the key:\n%s", res.stderr)
	}
	if got := api.Creates(); got != 1 {
		t.Errorf("%d creates, want 1: %v", got, api.Requests())
	}
	if u := api.Unexpected(); len(u) != 0 {
		t.Errorf("requests no endpoint serves: %q", u)
	}
	out := readOutputs(t, output)
	if out["status"] != "completed" || out["job-id"] == "" || out["timed-out"] != "false" {
		t.Errorf("outputs status %q, job-id %q, timed-out %q; want completed, an id, false", out["status"], out["job-id"], out["timed-out"])
	}
}

// TestBuildNeedsGo: at a commit, on a runner without Go, run.sh says in one
// line what to add, and runs nothing.
func TestBuildNeedsGo(t *testing.T) {
	t.Parallel()
	runnerOS, runnerArch, _ := host(t)
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	res := runScriptIn(t, here, map[string]string{
		"RUNNER_OS":            runnerOS,
		"RUNNER_ARCH":          runnerArch,
		"AGENT_JOB_ACTION_TAG": "",
		"PATH":                 t.TempDir(), // no go there
	})
	want := "::error title=agent-job-action binary::this copy of the action is not a release, so it builds from source with Go, and the runner has no go: add actions/setup-go before this step"
	if res.exit != 1 || !strings.HasPrefix(res.stderr, want) || strings.Count(res.stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr:\n%s\nwant 1 and one line starting %q", res.exit, res.stderr, want)
	}
	if res.ran != nil || len(res.leftover) != 0 {
		t.Errorf("ran %v, left %q; want nothing run and nothing left", res.ran, res.leftover)
	}
}

// readOutputs parses a GITHUB_OUTPUT file: name<<delimiter, the value's
// lines, the delimiter.
func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			t.Fatalf("GITHUB_OUTPUT line %d: %q is not name<<delimiter", i+1, lines[i])
		}
		var value []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			value = append(value, lines[i])
		}
		out[name] = strings.Join(value, "\n")
	}
	return out
}
