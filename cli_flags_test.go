package main

import (
	"bufio"
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// TestCLISpeaksFlags runs the built binary for issue 26, items 4 and 5: on
// a command line every message names flags and the key's environment
// variable, never an input; a typo gets the nearest flag; each message says
// each thing once, and a 404 on a job says which and where jobs are listed.
// Each case checks both streams, the exit status and the requests sent.
func TestCLISpeaksFlags(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)
	const help = "Run agent-job-action --help for every flag.\n"

	// serve answers every request with status, body and Retry-After, and
	// records what it received.
	serve := func(t *testing.T, status int, body, retryAfter string) (*httptest.Server, func() []string) {
		var (
			mu   sync.Mutex
			seen []string
		)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, r.Method+" "+r.URL.Path)
			mu.Unlock()
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
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
	key := map[string]string{"MINTLIFY_API_KEY": testKey}

	// Mistakes on the command line: exit 2, one error and the pointer to
	// --help on standard error, nothing on standard output, nothing sent.
	usage := []struct {
		name   string
		args   []string
		vars   map[string]string
		stderr string // all of it
	}{
		{"a typo gets the nearest flag", []string{"--timout", "5m"}, key,
			"error: unknown flag --timout: did you mean --timeout?\n" + help},
		{"--wait no", []string{"--project-id", "proj-1", "--prompt", "p", "--wait", "no"}, key,
			"error: --wait takes true or false, after =: write --wait=false\n" + help},
		{"no prompt names the flags", []string{"--project-id", "proj-1"}, key,
			"error: --prompt is empty: give the agent an instruction in --prompt or --prompt-file\n" + help},
		{"prompt and prompt file", []string{"--project-id", "proj-1", "--prompt", "p", "--prompt-file", "p.md"}, key,
			"error: --prompt-file is set together with --prompt: set only one of them\n" + help},
		{"poll interval points to the limits", []string{"--project-id", "proj-1", "--prompt", "p", "--poll-interval", "10ms"}, key,
			"error: --poll-interval must be at least 1s: checks are not counted against the API's documented limit, but more than one a second only loads it (" + agentapi.LimitsURL + ")\n" + help},
		{"comment with nowhere to comment", []string{"--project-id", "proj-1", "--prompt", "p", "--comment", "true"}, key,
			"error: --comment is true but this event has no issue or pull request: set --issue-number\n" + help},
	}
	for _, tt := range usage {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, seen := serve(t, http.StatusCreated, `{}`, "")
			res := cliRun{args: append(tt.args, "--base-url", srv.URL), vars: tt.vars}.exec(t, bin)
			if res.code != cli.ExitUsage || res.stderr != tt.stderr || res.stdout != "" && !strings.HasPrefix(res.stdout, "output ") {
				t.Errorf("exit %d\nstderr:\n%s\nwant:\n%s\nstdout:\n%s", res.code, res.stderr, tt.stderr, res.stdout)
			}
			wantResultsOnly(t, res.stdout)
			if got := seen(); len(got) != 0 {
				t.Errorf("requests %v, want none", got)
			}
		})
	}

	// The API's refusals, in flag terms, each thing once.
	api := []struct {
		name       string
		args       []string
		status     int
		body       string
		retryAfter string
		code       int
		says       []string // on standard error, each once
		notSaid    []string
		requests   []string
	}{
		{name: "a refused key names where the key comes from", status: http.StatusUnauthorized, body: `{"error":"invalid API key"}`,
			code:     cli.ExitError,
			says:     []string{"error: create job: HTTP 401 Unauthorized: invalid API key (check that the key in MINTLIFY_API_KEY or --api-key-stdin is an admin API key for the project in --project-id)\n"},
			notSaid:  []string{"api-key is", " project-id", "input "},
			requests: []string{"POST /v2/agent/proj-1/job"}},
		{name: "an unknown job says which and where jobs are listed", args: []string{"--job-id", "job_9", "--wait=false"}, status: http.StatusNotFound,
			body: `{"error":"Job not found"}`, code: cli.ExitError,
			says:     []string{"error: send follow-up job_9: HTTP 404 Not Found: Job not found (this project has no such job: check --job-id and --project-id; the project's agent jobs are listed in the Mintlify dashboard)\n", "job_9"},
			notSaid:  []string{"(job job_9)", " job-id"},
			requests: []string{"POST /v2/agent/proj-1/job/job_9/message"}},
		{name: "an unknown job to wait for", args: []string{"--job-id", "job_9", "--prompt=", "--wait=false"}, status: http.StatusNotFound,
			body: `{"error":"Job not found"}`, code: cli.ExitError,
			says:     []string{"error: get job job_9: HTTP 404 Not Found: Job not found (this project has no such job: check --job-id and --project-id; the project's agent jobs are listed in the Mintlify dashboard)\n", "job_9"},
			requests: []string{"GET /v2/agent/proj-1/job/job_9"}},
		{name: "a 429 past the timeout says rate limited once", status: http.StatusTooManyRequests, body: `{"error":"rate limited"}`, retryAfter: "86400",
			code:     cli.ExitError,
			says:     []string{"error: create job: HTTP 429 Too Many Requests: rate limited; the server asks to wait 24h0m0s before trying again, but only 30m0s is left of the timeout; try again later, or raise --timeout (the API allows 100 creates and follow-ups per project per hour: " + agentapi.LimitsURL + ")\n", "rate limited"},
			requests: []string{"POST /v2/agent/proj-1/job"}},
		{name: "a reply that is not a job record says so once", status: http.StatusCreated, body: `<html>maintenance</html>`, code: cli.ExitError,
			says:     []string{"the reply is not a job record: jsontext: invalid character '<' at start of value; check --base-url;", "not a job record"},
			notSaid:  []string{" base-url"},
			requests: []string{"POST /v2/agent/proj-1/job"}},
	}
	for _, tt := range api {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, seen := serve(t, tt.status, tt.body, tt.retryAfter)
			args := append([]string{"--project-id", "proj-1", "--prompt", "p", "--base-url", srv.URL}, tt.args...)
			res := cliRun{args: args, vars: key}.exec(t, bin)
			if res.code != tt.code {
				t.Errorf("exit %d, want %d\nstderr:\n%s", res.code, tt.code, res.stderr)
			}
			for _, s := range tt.says {
				if n := strings.Count(res.stderr, s); n != 1 {
					t.Errorf("stderr says %q %d times, want once:\n%s", s, n, res.stderr)
				}
			}
			for _, s := range tt.notSaid {
				if strings.Contains(res.stderr, s) {
					t.Errorf("stderr says %q:\n%s", s, res.stderr)
				}
			}
			wantHumanLog(t, "stderr", res.stderr)
			wantResultsOnly(t, res.stdout)
			if !strings.Contains(res.stdout, "output status=error\n") {
				t.Errorf("stdout:\n%s", res.stdout)
			}
			if got := seen(); !slices.Equal(got, tt.requests) {
				t.Errorf("requests %v, want %v", got, tt.requests)
			}
		})
	}

	t.Run("a key that is not an admin key, and not waiting", func(t *testing.T) {
		t.Parallel()
		fake := newCLIFake(t, fakeapi.Scenario{Runtime: time.Hour})
		res := cliRun{args: []string{"--project-id", "proj-1", "--prompt", "p", "--wait=false", "--base-url", fake.URL},
			vars: map[string]string{"MINTLIFY_API_KEY": "sk_" + testKey}}.exec(t, bin)
		if res.code != cli.ExitError || !strings.Contains(res.stderr, "warning: the API key does not start with mint_") ||
			strings.Contains(res.stderr, "input api-key") {
			t.Errorf("exit %d\nstderr:\n%s", res.code, res.stderr)
		}
		res = cliRun{args: []string{"--project-id", "proj-1", "--prompt", "p", "--wait=false", "--base-url", fake.URL}, vars: key}.exec(t, bin)
		if res.code != cli.ExitOK || !strings.Contains(res.stderr, "; not waiting (--wait=false)\n") || strings.Contains(res.stderr, "wait: false") {
			t.Errorf("exit %d\nstderr:\n%s", res.code, res.stderr)
		}
		wantResultsOnly(t, res.stdout)
	})
}

// TestCLIVersion runs built binaries for --version: the
// version given at build time wins; without it the binary names what Go
// recorded, the module version and the commit, as `go version -m` reads
// them from the same file; "dev" only when Go recorded neither.
func TestCLIVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	build := func(name string, ldflags ...string) string {
		bin := filepath.Join(dir, name)
		if runtime.GOOS == "windows" {
			bin += ".exe"
		}
		cmd := exec.Command("go", append([]string{"build", "-tags", "nodemo", "-o", bin}, append(ldflags, ".")...)...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		return bin
	}
	released := build("released", "-ldflags", "-X main.version=v1.2.3")
	plain := build("plain")

	// What Go recorded, read by go itself.
	out, err := exec.Command("go", "version", "-m", plain).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	var version, commit, modified string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 3 && f[0] == "mod" && f[2] != "(devel)":
			version = f[2]
		case len(f) == 2 && f[0] == "build" && strings.HasPrefix(f[1], "vcs.revision="):
			commit = strings.TrimPrefix(f[1], "vcs.revision=")
		case len(f) == 2 && f[0] == "build" && f[1] == "vcs.modified=true":
			modified = ", modified"
		}
	}
	// Both binaries come from the same tree: the same commit, if any.
	vcs := ""
	if commit != "" {
		vcs = " (commit " + commit + modified + ")"
	}
	if version == "" {
		version = "dev"
	}
	for _, tt := range []struct {
		bin, want string
	}{
		{released, "v1.2.3" + vcs},
		{plain, version + vcs},
	} {
		res := cliRun{args: []string{"--version"}}.exec(t, tt.bin)
		if res.code != 0 || res.stderr != "" || res.stdout != "agent-job-action "+tt.want+"\n" {
			t.Errorf("%s --version: exit %d, stdout %q, stderr %q; want %q", filepath.Base(tt.bin), res.code, res.stdout, res.stderr, tt.want)
		}
	}
}
