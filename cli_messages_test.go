package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// TestCLIMessages runs the built binary for what issue 17 asks of its
// messages, its summary and its limits (items 5, 6, 8 and 9): each stream,
// the exit status and the requests the server received.
func TestCLIMessages(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)

	// serve answers every request with status and body, and counts them.
	serve := func(t *testing.T, status int, body string) (*httptest.Server, func() []string) {
		var (
			mu   sync.Mutex
			seen []string
		)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, r.Method+" "+r.URL.Path)
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		}))
		t.Cleanup(srv.Close)
		return srv, func() []string {
			mu.Lock()
			defer mu.Unlock()
			return slices.Clone(seen)
		}
	}

	t.Run("a record over the size cap is one permanent error", func(t *testing.T) {
		t.Parallel()
		srv, seen := serve(t, http.StatusCreated, `{"id":"job_1","status":"active","pad":"`+strings.Repeat("x", 2<<20)+`"}`)
		res := cliRun{args: []string{"--prompt", "p", "--project-id", "proj-1", "--base-url", srv.URL},
			vars: map[string]string{"MINTLIFY_API_KEY": testKey}}.exec(t, bin)
		if res.code != cli.ExitError || strings.Count(res.stderr, "response body too large") != 1 || !strings.Contains(res.stderr, "KiB cap on a job record") {
			t.Errorf("exit %d\nstderr:\n%s", res.code, res.stderr)
		}
		if got := seen(); len(got) != 1 {
			t.Errorf("requests %v, want the one create", got)
		}
		wantResultsOnly(t, res.stdout)
	})

	t.Run("a reply that is not a job record says so", func(t *testing.T) {
		t.Parallel()
		srv, seen := serve(t, http.StatusCreated, `<html>maintenance</html>`)
		res := cliRun{args: []string{"--prompt", "p", "--project-id", "proj-1", "--base-url", srv.URL},
			vars: map[string]string{"MINTLIFY_API_KEY": testKey}}.exec(t, bin)
		if res.code != cli.ExitError || !strings.Contains(res.stderr, "the reply is not a job record") || len(seen()) != 1 {
			t.Errorf("exit %d, requests %v\nstderr:\n%s", res.code, seen(), res.stderr)
		}
	})

	t.Run("in Actions, a 401's summary explains it", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{})
		dir := t.TempDir()
		summary, output := filepath.Join(dir, "summary"), filepath.Join(dir, "output")
		res := cliRun{vars: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": dir, "GITHUB_OUTPUT": output,
			"GITHUB_STEP_SUMMARY": summary, "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "acme/docs", "GITHUB_RUN_ID": "9",
			"INPUT_PROMPT": "p", "INPUT_PROJECT-ID": "proj-1", "INPUT_API-KEY": "mint_wrong_key_0123456789", "INPUT_BASE-URL": api.URL}}.exec(t, bin)
		sum, _ := os.ReadFile(summary)
		out, _ := os.ReadFile(output)
		if res.code != cli.ExitError || !strings.Contains(string(sum), "**The run failed** (status error)") ||
			!strings.Contains(string(sum), "HTTP 401 Unauthorized") || !strings.Contains(string(sum), "check that the key in api-key is an admin API key") ||
			!strings.Contains(string(sum), "(https://github.com/acme/docs/actions/runs/9)") || strings.Contains(string(sum), "mint_wrong_key") {
			t.Errorf("exit %d\nsummary:\n%s\nstdout:\n%s", res.code, sum, res.stdout)
		}
		if !strings.Contains(string(out), "status<<") || !strings.Contains(string(out), "\nerror\n") {
			t.Errorf("status output is not error:\n%s", out)
		}
	})

	t.Run("--help fits 80 columns", func(t *testing.T) {
		t.Parallel()
		res := cliRun{args: []string{"--help"}}.exec(t, bin)
		for _, line := range strings.Split(res.stdout, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("--help line of %d columns: %q", n, line)
			}
		}
		if res.code != 0 || res.stderr != "" {
			t.Errorf("exit %d, stderr %q", res.code, res.stderr)
		}
	})
}
