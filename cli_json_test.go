package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// TestCLIJSON runs the built binary with --json where a script would.
func TestCLIJSON(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)

	// The attack on --json: inside a run: step whose GITHUB_OUTPUT
	// already holds a line an earlier command wrote, the record is the
	// run's own, not read back from that file.
	t.Run("in a run: step whose GITHUB_OUTPUT holds other lines", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{Runtime: 20 * time.Millisecond})
		dir := t.TempDir()
		output := filepath.Join(dir, "output")
		if err := os.WriteFile(output, []byte("x=1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res := cliRun{args: []string{"--json", "--prompt", "p", "--base-url", api.URL, "--project-id", "proj-1"},
			vars: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": output, "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
				"GITHUB_WORKSPACE": dir, "MINTLIFY_API_KEY": testKey}}.exec(t, bin)
		if res.code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
		}
		var record struct {
			Job  map[string]any `json:"job"`
			Cost map[string]int `json:"cost"`
		}
		err := json.Unmarshal([]byte(res.stdout), &record)
		if job := record.Job; err != nil || job["id"] != "job_0001" || job["status"] != "completed" || record.Cost["creates"] != 1 {
			t.Errorf("stdout is not the record (%v):\n%s", err, res.stdout)
		}
		data, _ := os.ReadFile(output)
		if !strings.HasPrefix(string(data), "x=1\n") || strings.Count(string(data), "job-id<<") != 1 {
			t.Errorf("GITHUB_OUTPUT: the earlier line lost, or job-id written more than once:\n%s", data)
		}
		if api.Creates() != 1 {
			t.Errorf("%d creates", api.Creates())
		}
	})

	// Every control and bidirectional character of the
	// API's values is a \u escape, so nothing shows reversed.
	t.Run("control and bidirectional characters escaped", func(t *testing.T) {
		t.Parallel()
		hostile := "https://github.com/acme/docs/pull/101\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u0085\u2028x"
		rec, _ := json.Marshal(map[string]any{"id": "job_1", "status": "completed", "model": "m\u202eodel",
			"source": map[string]any{"repository": "r", "ref": nil}, "prLink": hostile, "createdAt": "t", "archivedAt": nil})
		srv := answering(t, string(rec))
		res := cliRun{args: []string{"--json", "--prompt", "p", "--base-url", srv.URL, "--project-id", "proj-1"},
			vars: map[string]string{"MINTLIFY_API_KEY": testKey}}.exec(t, bin)
		if res.code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
		}
		for _, r := range strings.TrimSuffix(res.stdout, "\n") {
			if r < 0x20 || r > 0x7e {
				t.Errorf("stdout holds %U raw:\n%q", r, res.stdout)
			}
		}
		var record struct {
			Job map[string]any `json:"job"`
		}
		err := json.Unmarshal([]byte(res.stdout), &record)
		if job := record.Job; err != nil || job["prLink"] != hostile || job["model"] != "m\u202eodel" {
			t.Errorf("the record does not decode to the API's values (%v): %q", err, res.stdout)
		}
		if !strings.Contains(res.stdout, `\u202e`) {
			t.Errorf("no \\u202e escape: %s", res.stdout)
		}
	})
}

// answering serves job, as it is, to every request: a create's answer is
// 201, any other 200. The values are an attacker's who controls the API.
func answering(t *testing.T, job string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
		}
		_, _ = w.Write([]byte(job))
	}))
	t.Cleanup(srv.Close)
	return srv
}
