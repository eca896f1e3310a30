package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/action"
	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/report"
)

// buildCLI builds the program as a release does (-tags nodemo), into the calling test's
// temporary directory, with pollEvery set so that a wait for a fake job
// takes milliseconds of real time (the built binary has no simulated clock).
func buildCLI(t *testing.T) string {
	t.Helper()
	return buildCLIWith(t, "")
}

// buildCLIWith is buildCLI with more -ldflags, such as -X main.keyHint=10ms.
func buildCLIWith(t *testing.T, ldflags string) string {
	t.Helper()
	return buildTagged(t, "nodemo", ldflags)
}

// buildDevCLI builds the program as go run and go install do, without
// the release's tag: with the demo and doctor.
func buildDevCLI(t *testing.T) string {
	t.Helper()
	return buildTagged(t, "", "")
}

// buildTagged builds the program with the build tags tags ("" for none)
// and more -ldflags.
func buildTagged(t *testing.T, tags, ldflags string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agent-job-action")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command("go", "build", "-tags", tags, "-o", bin, "-ldflags", strings.TrimSpace("-X main.version=v0.0.0-test -X main.pollEvery=10ms "+ldflags), ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// cliEnv is the environment of a person's shell: the test's own, without
// anything that would make the program think it runs in Actions (CI runs
// these tests inside Actions) or give it inputs, plus vars.
func cliEnv(vars map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if strings.HasPrefix(upper, "GITHUB_") || strings.HasPrefix(upper, "INPUT_") || strings.HasPrefix(upper, "MINTLIFY_") ||
			strings.HasPrefix(upper, "RUNNER_") || strings.HasPrefix(upper, "ACTIONS_") {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// cliRun is one run of the built binary.
type cliRun struct {
	args  []string
	vars  map[string]string
	stdin string
	dir   string // the working directory; "" for a new one
}

type cliResult struct {
	stdout, stderr string
	code           int
}

func (r cliRun) exec(t *testing.T, bin string) cliResult {
	t.Helper()
	cmd := exec.Command(bin, r.args...)
	cmd.Env = cliEnv(r.vars)
	cmd.Dir = r.dir
	if cmd.Dir == "" {
		cmd.Dir = t.TempDir()
	}
	cmd.Stdin = strings.NewReader(r.stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := cliResult{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("run %s: %v", bin, err)
	}
	return res
}

// newCLIFake starts the fake API on the real clock, as the built binary
// runs, and fails the test on any request it does not serve.
func newCLIFake(t *testing.T, sc fakeapi.Scenario) *fakeapi.Server {
	t.Helper()
	sc.Key, sc.Clock = testKey, clock.Real{}
	api := fakeapi.New("proj-1", sc)
	t.Cleanup(func() {
		api.Close()
		if u := api.Unexpected(); len(u) > 0 {
			t.Errorf("requests no Agent Job API endpoint serves: %v", u)
		}
	})
	return api
}

// commandLine matches a line that a runner would take for a workflow command.
var commandLine = regexp.MustCompile(`(?m)^\s*::[a-z-]+`)

// wantHumanLog checks a log meant for a person: no workflow command syntax,
// no key.
func wantHumanLog(t *testing.T, where, log string) {
	t.Helper()
	if m := commandLine.FindString(log); m != "" {
		t.Errorf("%s holds workflow command syntax %q:\n%s", where, m, log)
	}
	if strings.Contains(log, testKey) {
		t.Errorf("%s holds the API key:\n%s", where, log)
	}
}

// wantResultsOnly checks standard output outside Actions: the results
// alone, "output name=value" lines, each output once, so that
// sed -n 's/^output job-id=//p' gives one line.
func wantResultsOnly(t *testing.T, stdout string) {
	t.Helper()
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		if line == "" && stdout == "" {
			continue
		}
		name, _, ok := strings.Cut(strings.TrimPrefix(line, "output "), "=")
		if !strings.HasPrefix(line, "output ") || !ok {
			t.Errorf("stdout holds %q, which is not a result:\n%s", line, stdout)
			continue
		}
		if seen[name] {
			t.Errorf("stdout holds output %s more than once:\n%s", name, stdout)
		}
		seen[name] = true
	}
}

// TestCLI runs the built binary as a person or another CI would: inputs from
// flags, INPUT_* and the environment, the key from the environment or stdin.
func TestCLI(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)

	t.Run("flags only, key from stdin", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{Runtime: 50 * time.Millisecond})
		res := cliRun{
			args:  []string{"--prompt", "Fix typos in the quickstart", "--project-id", "proj-1", "--base-url", api.URL, "--timeout=1m", "--api-key-stdin"},
			stdin: testKey + "\n",
		}.exec(t, bin)
		if res.code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
		}
		reqs := api.Requests()
		if api.Creates() != 1 || reqs[0].Path != "/v2/agent/proj-1/job" || reqs[0].Prompt() != "Fix typos in the quickstart" {
			t.Errorf("first request %s %s %q, want one create in proj-1 with the flag's prompt", reqs[0].Method, reqs[0].Path, reqs[0].Prompt())
		}
		for _, r := range reqs {
			if r.Header.Get("Authorization") != "Bearer "+testKey {
				t.Errorf("%s %s without the key read from stdin", r.Method, r.Path)
			}
		}
		for _, want := range []string{"] created job job_0001, status active\n", "Waiting for job job_0001\n", "] job job_0001: active -> completed\n",
			"job job_0001 completed: pull request https://github.com/acme/docs/pull/101\n"} {
			if !strings.Contains(res.stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, res.stderr)
			}
		}
		for _, want := range []string{"output job-id=job_0001\n", "output status=completed\n", "output pr-number=101\n"} {
			if !strings.Contains(res.stdout, want) {
				t.Errorf("stdout lacks %q:\n%s", want, res.stdout)
			}
		}
		wantResultsOnly(t, res.stdout)
		wantHumanLog(t, "stderr", res.stderr)
	})

	t.Run("a release build has no demo and says where it is", func(t *testing.T) {
		t.Parallel()
		res := cliRun{args: []string{"demo"}}.exec(t, bin)
		want := "error: this build has no demo (release builds leave out its fakes); run it from a clone of the repository: go run . demo\n"
		if res.code != cli.ExitUsage || res.stderr != want || res.stdout != "" {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and only %q", res.code, res.stdout, res.stderr, cli.ExitUsage, want)
		}
	})

	t.Run("a release build says what the demo is", func(t *testing.T) {
		t.Parallel()
		res := cliRun{args: []string{"demo", "--help"}}.exec(t, bin)
		if res.code != cli.ExitOK || res.stderr != "" || !strings.HasPrefix(res.stdout, "agent-job-action demo: ") || !strings.Contains(res.stdout, "go run . demo") {
			t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit 0 and the demo's usage", res.code, res.stderr, res.stdout)
		}
	})

	t.Run("not a terminal: lines only", func(t *testing.T) {
		t.Parallel()
		// Active for three polls: a terminal would have shown a status line.
		api := newCLIFake(t, fakeapi.Scenario{Reads: 4})
		res := cliRun{args: []string{"--prompt", "Fix typos", "--base-url", api.URL},
			vars: map[string]string{"MINTLIFY_API_KEY": testKey, "MINTLIFY_PROJECT_ID": "proj-1"}}.exec(t, bin)
		if res.code != 0 {
			t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
		}
		if strings.Contains(res.stderr, "\r") || strings.Contains(res.stderr, "next check") {
			t.Errorf("a status line in a pipe:\n%q", res.stderr)
		}
		wantResultsOnly(t, res.stdout)
		wantHumanLog(t, "stderr", res.stderr)
	})

	t.Run("environment fallbacks only", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{Runtime: 20 * time.Millisecond})
		res := cliRun{vars: map[string]string{
			"MINTLIFY_API_KEY": testKey, "MINTLIFY_PROJECT_ID": "proj-1",
			"INPUT_PROMPT": "Document the rate limits", "INPUT_BASE-URL": api.URL,
		}}.exec(t, bin)
		if res.code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
		}
		if reqs := api.Requests(); api.Creates() != 1 || reqs[0].Path != "/v2/agent/proj-1/job" || reqs[0].Header.Get("Authorization") != "Bearer "+testKey ||
			reqs[0].Prompt() != "Document the rate limits" {
			t.Errorf("create %s with %q, want proj-1 and the key from MINTLIFY_API_KEY", reqs[0].Path, reqs[0].Prompt())
		}
		wantResultsOnly(t, res.stdout)
		wantHumanLog(t, "stderr", res.stderr)
	})

	precedence := []struct {
		name  string
		args  []string
		vars  map[string]string
		stdin string
	}{
		{
			name: "flag over INPUT_ over the environment",
			args: []string{"--project-id", "proj-1", "--prompt", "from the flag"},
			vars: map[string]string{"INPUT_PROJECT-ID": "proj-input", "MINTLIFY_PROJECT_ID": "proj-env", "INPUT_PROMPT": "from INPUT_PROMPT",
				"INPUT_API-KEY": testKey, "MINTLIFY_API_KEY": "mint_from_the_environment"},
		},
		{
			name:  "stdin over INPUT_API-KEY, INPUT_ over the environment",
			args:  []string{"--api-key-stdin", "--prompt", "from the flag"},
			vars:  map[string]string{"INPUT_PROJECT-ID": "proj-1", "MINTLIFY_PROJECT_ID": "proj-env", "INPUT_API-KEY": "mint_from_input", "MINTLIFY_API_KEY": "mint_from_env"},
			stdin: testKey,
		},
	}
	for _, tt := range precedence {
		t.Run("mixed: "+tt.name, func(t *testing.T) {
			t.Parallel()
			api := newCLIFake(t, fakeapi.Scenario{Runtime: 20 * time.Millisecond})
			tt.vars["INPUT_BASE-URL"] = api.URL
			res := cliRun{args: tt.args, vars: tt.vars, stdin: tt.stdin}.exec(t, bin)
			if res.code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
			}
			reqs := api.Requests()
			if api.Creates() != 1 || reqs[0].Path != "/v2/agent/proj-1/job" || reqs[0].Prompt() != "from the flag" || reqs[0].Header.Get("Authorization") != "Bearer "+testKey {
				t.Errorf("create %s %q with %q; want proj-1, the flag's prompt and the winning key", reqs[0].Path, reqs[0].Prompt(), reqs[0].Header.Get("Authorization"))
			}
		})
	}

	t.Run("--json", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{Runtime: 20 * time.Millisecond})
		res := cliRun{args: []string{"--json", "--prompt", "p", "--base-url", api.URL},
			vars: map[string]string{"MINTLIFY_API_KEY": testKey, "MINTLIFY_PROJECT_ID": "proj-1"}}.exec(t, bin)
		if res.code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
		}
		if strings.Count(res.stdout, "\n") != 1 {
			t.Errorf("stdout is not one line of JSON:\n%s", res.stdout)
		}
		var record struct {
			Job struct {
				ID     string  `json:"id"`
				Status string  `json:"status"`
				PRLink *string `json:"prLink"`
				Source struct {
					Repository string `json:"repository"`
				} `json:"source"`
			} `json:"job"`
			Cost map[string]int `json:"cost"`
		}
		if err := json.Unmarshal([]byte(res.stdout), &record); err != nil {
			t.Fatalf("stdout is not JSON: %v\n%s", err, res.stdout)
		}
		// The fake job ends at its first read.
		if c := record.Cost; c["creates"] != 1 || c["followUps"] != 0 || c["reads"] < 1 || c["githubRequests"] != 0 {
			t.Errorf("cost %v, want 1 create, no follow-up, a read at least, and nothing sent to GitHub", c)
		}
		job := record.Job
		if job.ID != "job_0001" || job.Status != "completed" || job.PRLink == nil || *job.PRLink != "https://github.com/acme/docs/pull/101" ||
			job.Source.Repository != "https://github.com/acme/docs" {
			t.Errorf("record %+v", job)
		}
		if !strings.Contains(res.stderr, "] created job job_0001, status active") || strings.Contains(res.stderr, "output ") {
			t.Errorf("stderr is not the log (without output lines):\n%s", res.stderr)
		}
		wantHumanLog(t, "stderr", res.stderr)
	})

	t.Run("--json without a job prints a null job", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{})
		res := cliRun{args: []string{"--json", "--dry-run", "--prompt", "p", "--base-url", api.URL, "--project-id", "proj-1"},
			vars: map[string]string{"MINTLIFY_API_KEY": testKey}}.exec(t, bin)
		want := `{"job":null,"cost":{"creates":0,"followUps":0,"reads":0,"githubRequests":0,"waitedSeconds":0}}` + "\n"
		if res.code != 0 || res.stdout != want {
			t.Errorf("exit %d, stdout %q; want 0 and %q\nstderr:\n%s", res.code, res.stdout, want, res.stderr)
		}
		if !strings.Contains(res.stderr, "Authorization: Bearer ***") || len(api.Requests()) != 0 {
			t.Errorf("the dry run's request is not on stderr, or something was sent:\n%s", res.stderr)
		}
	})

	t.Run("--dry-run checks the project id", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{})
		res := cliRun{args: []string{"--dry-run", "--prompt", "p", "--base-url", api.URL, "--project-id", "https://dashboard.mintlify.com/acme/docs"},
			vars: map[string]string{"MINTLIFY_API_KEY": testKey}}.exec(t, bin)
		if res.code != cli.ExitUsage {
			t.Errorf("exit %d, want %d\nstderr:\n%s", res.code, cli.ExitUsage, res.stderr)
		}
		if want := "error: --project-id is a URL: give the project id alone"; !strings.Contains(res.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, res.stderr)
		}
		// A dry run that went ahead would print the request it would send.
		if strings.Contains(res.stderr, "/v2/agent/") || len(api.Requests()) != 0 {
			t.Errorf("a request was built or sent:\n%s", res.stderr)
		}
	})

	t.Run("--api-key is refused", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{})
		for _, args := range [][]string{{"--api-key", testKey}, {"--prompt", "p", "--api-key=" + testKey}, {"-api-key", testKey}} {
			res := cliRun{args: append(args, "--base-url", api.URL), vars: map[string]string{"MINTLIFY_PROJECT_ID": "proj-1"}}.exec(t, bin)
			if res.code != cli.ExitUsage {
				t.Errorf("%q: exit %d, want %d", args, res.code, cli.ExitUsage)
			}
			for _, want := range []string{"--api-key is not accepted", "shell history", "MINTLIFY_API_KEY", "--api-key-stdin"} {
				if !strings.Contains(res.stderr, want) {
					t.Errorf("%q: stderr lacks %q:\n%s", args, want, res.stderr)
				}
			}
			if strings.Contains(res.stdout+res.stderr, testKey) {
				t.Errorf("%q: the refusal repeats the key:\n%s%s", args, res.stdout, res.stderr)
			}
		}
		if n := len(api.Requests()); n != 0 {
			t.Errorf("%d requests sent", n)
		}
	})

	t.Run("--help and --version", func(t *testing.T) {
		t.Parallel()
		res := cliRun{args: []string{"--help"}}.exec(t, bin)
		if res.code != 0 || !strings.Contains(res.stdout, "--prompt-file value") || !strings.Contains(res.stdout, "--wait=false") ||
			!strings.Contains(res.stdout, "MINTLIFY_PROJECT_ID") || !strings.Contains(res.stdout, "130") {
			t.Errorf("--help: exit %d\n%s", res.code, res.stdout)
		}
		if res := (cliRun{args: []string{"--version"}}).exec(t, bin); res.code != 0 || res.stdout != "agent-job-action v0.0.0-test\n" {
			t.Errorf("--version: exit %d, %q", res.code, res.stdout)
		}
	})

	// Each documented exit status, with the line that explains it.
	exits := []struct {
		name  string
		sc    fakeapi.Scenario
		args  []string
		key   string // "" for testKey
		code  int
		line  string // in stdout, or stderr for usage errors
		sends bool   // whether a create reaches the fake
	}{
		{name: "completed", sc: fakeapi.Scenario{Runtime: 20 * time.Millisecond}, code: cli.ExitOK,
			line: "job job_0001 completed: pull request https://github.com/acme/docs/pull/101", sends: true},
		{name: "archived", sc: fakeapi.Scenario{Runtime: 20 * time.Millisecond, Outcome: "archived"}, code: cli.ExitOK,
			line: "job job_0001 archived with no pull request", sends: true},
		{name: "started without waiting", sc: fakeapi.Scenario{Runtime: time.Hour}, args: []string{"--wait=false"}, code: cli.ExitOK,
			line: "job job_0001 is active; not waiting", sends: true},
		{name: "dry run", args: []string{"--dry-run"}, code: cli.ExitOK, line: "dry run: nothing is sent"},
		{name: "failed", sc: fakeapi.Scenario{Runtime: 20 * time.Millisecond, Outcome: "failed"}, code: cli.ExitJobFailed,
			line: "error: job failed: job job_0001 ended with status failed", sends: true},
		// Long enough for the create to be answered on a loaded machine
		// (with 400ms, -race and parallel tests, the create itself timed out).
		{name: "timed out", sc: fakeapi.Scenario{Runtime: time.Hour}, args: []string{"--timeout", "2s"}, code: cli.ExitTimedOut,
			line: "error: job job_0001 still active after", sends: true},
		{name: "API error", sc: fakeapi.Scenario{Runtime: time.Minute}, key: "mint_not_the_right_key", code: cli.ExitError,
			line: "error: create job: HTTP 401 Unauthorized", sends: true},
		{name: "unknown flag", args: []string{"--promt", "typo"}, code: cli.ExitUsage, line: "unknown flag --promt"},
		{name: "stray argument", args: []string{"now"}, code: cli.ExitUsage, line: `argument 5, "now", is not a flag`},
		{name: "timeout of 0", args: []string{"--timeout", "0"}, code: cli.ExitUsage, line: "must be more than 0 and at most 168h0m0s (604800 seconds)"},
		{name: "negative timeout", args: []string{"--timeout", "-5s"}, code: cli.ExitUsage, line: "must be more than 0 and at most 168h0m0s (604800 seconds)"},
		{name: "invalid input", args: []string{"--timeout", "soon"}, code: cli.ExitUsage,
			line: "error: --timeout must be a duration such as \"90s\" or \"45m\", or a number of seconds\nRun agent-job-action --help for every flag.\n"},
		{name: "no key", key: "-", code: cli.ExitUsage, line: "no API key: set MINTLIFY_API_KEY"},
	}
	for _, tt := range exits {
		t.Run("exit "+tt.name, func(t *testing.T) {
			t.Parallel()
			api := newCLIFake(t, tt.sc)
			vars := map[string]string{"MINTLIFY_API_KEY": testKey, "MINTLIFY_PROJECT_ID": "proj-1"}
			switch tt.key {
			case "-":
				delete(vars, "MINTLIFY_API_KEY")
			case "":
			default:
				vars["MINTLIFY_API_KEY"] = tt.key
			}
			args := append([]string{"--prompt", "Fix typos", "--base-url", api.URL}, tt.args...)
			res := cliRun{args: args, vars: vars}.exec(t, bin)
			if res.code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", res.code, tt.code, res.stdout, res.stderr)
			}
			// The log, warnings and errors, usage errors included, go to
			// standard error; standard output holds the results only.
			if !strings.Contains(res.stderr, tt.line) {
				t.Errorf("stderr lacks %q\nstdout:\n%s\nstderr:\n%s", tt.line, res.stdout, res.stderr)
			}
			wantResultsOnly(t, res.stdout)
			if (api.Creates() == 1) != tt.sends || api.Creates() > 1 {
				t.Errorf("%d creates, want one: %v", api.Creates(), tt.sends)
			}
			wantHumanLog(t, "stdout", res.stdout)
			wantHumanLog(t, "stderr", res.stderr)
		})
	}

	t.Run("skipped", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{})
		dir := t.TempDir()
		event, err := json.Marshal(issueComment("writer", "thanks, looks good"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "event.json"), event, 0o600); err != nil {
			t.Fatal(err)
		}
		res := cliRun{dir: dir, args: []string{"--trigger-phrase", "/docs", "--base-url", api.URL, "--comment=false"},
			vars: map[string]string{"MINTLIFY_API_KEY": testKey, "MINTLIFY_PROJECT_ID": "proj-1",
				"GITHUB_EVENT_NAME": "issue_comment", "GITHUB_EVENT_PATH": filepath.Join(dir, "event.json"), "GITHUB_REPOSITORY": "acme/docs"}}.exec(t, bin)
		if res.code != cli.ExitOK || !strings.Contains(res.stderr, "skipped: ") || !strings.Contains(res.stdout, "output status=skipped") {
			t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
		}
		if n := len(api.Requests()); n != 0 {
			t.Errorf("%d requests for a skipped run", n)
		}
	})

	t.Run("prompt-file relative to the working directory", func(t *testing.T) {
		t.Parallel()
		api := newCLIFake(t, fakeapi.Scenario{Runtime: 20 * time.Millisecond})
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "prompt.md"), []byte("Rewrite the quick start.\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		res := cliRun{dir: dir, args: []string{"--prompt-file", "prompt.md", "--base-url", api.URL},
			vars: map[string]string{"MINTLIFY_API_KEY": testKey, "MINTLIFY_PROJECT_ID": "proj-1"}}.exec(t, bin)
		if res.code != 0 || api.Creates() != 1 || api.Requests()[0].Prompt() != "Rewrite the quick start.\n" {
			t.Errorf("exit %d, %d creates\n%s%s", res.code, api.Creates(), res.stdout, res.stderr)
		}
	})
}

// elapsed is the time column of progress lines, which differs between the
// golden logs (a simulated clock) and the built binary (the real one).
var elapsed = regexp.MustCompile(`(?m)^\[[ 0-9hms.]+\] `)

// heartbeats are the lines a wait writes every simulated minute: the built
// binary's jobs end in milliseconds, before the first.
var heartbeats = regexp.MustCompile(`(?m)^\[[ 0-9hms.]+\] job \S+: still \S+\n`)

// TestCLIInActionsKeepsTheStepLog runs the built binary as the runner does
// (GITHUB_ACTIONS=true, INPUT_* variables, the runner's files, no
// arguments): its log is the golden step log of internal/action/testdata/logs, elapsed
// times aside (and the heartbeats, which come with the minutes), its
// outputs go to GITHUB_OUTPUT, and stderr stays empty.
func TestCLIInActionsKeepsTheStepLog(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)
	tests := []struct {
		golden string
		sc     fakeapi.Scenario
		code   int
		status string
	}{
		{"completed.log", fakeapi.Scenario{Runtime: 20 * time.Millisecond}, cli.ExitOK, "completed"},
		{"failed.log", fakeapi.Scenario{Runtime: 20 * time.Millisecond, Outcome: "failed", NoPR: true}, cli.ExitJobFailed, "failed"},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			t.Parallel()
			api := newCLIFake(t, tt.sc)
			dir := t.TempDir()
			res := cliRun{dir: dir, vars: map[string]string{
				"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": dir,
				"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
				"INPUT_PROMPT":     "Add a FAQ page about rate limits.\nUse \"quotes\" and ünïcödé 🚀.",
				"INPUT_PROJECT-ID": "proj-1", "INPUT_API-KEY": testKey, "INPUT_BASE-URL": api.URL,
				"INPUT_WAIT": "true", "INPUT_TIMEOUT": "30m", "INPUT_POLL-INTERVAL": "auto", "INPUT_DRY-RUN": "false",
				"INPUT_PREVIEW": "false",
			}}.exec(t, bin)
			golden, err := os.ReadFile(filepath.Join("internal", "action", "testdata", "logs", tt.golden))
			if err != nil {
				t.Fatal(err)
			}
			// A Windows checkout may turn the golden file's line ends to CRLF.
			want := elapsed.ReplaceAllString(heartbeats.ReplaceAllString(strings.ReplaceAll(string(golden), "\r\n", "\n"), ""), "[T] ")
			if got := elapsed.ReplaceAllString(res.stdout, "[T] "); got != want {
				t.Errorf("step log:\n%s\nwant internal/action/testdata/logs/%s:\n%s", got, tt.golden, want)
			}
			if res.code != tt.code || res.stderr != "" {
				t.Errorf("exit %d, want %d; stderr %q", res.code, tt.code, res.stderr)
			}
			out, err := os.ReadFile(filepath.Join(dir, "output"))
			if err != nil || !strings.Contains(string(out), "\n"+tt.status+"\n") || !strings.HasPrefix(string(out), "job-id<<ghadelimiter_") {
				t.Errorf("GITHUB_OUTPUT (%v):\n%s", err, out)
			}
		})
	}
}

// TestExitCodes: how each run ends maps to one documented status.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	cause := errors.New("cause")
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"success", nil, cli.ExitOK},
		{"job failed", &report.Error{End: report.JobFailed, Err: cause}, cli.ExitJobFailed},
		{"invalid inputs", &report.Error{End: report.Invalid, Err: cause}, cli.ExitUsage},
		{"usage", &cli.UsageError{Err: cause}, cli.ExitUsage},
		{"timed out", &report.Error{End: report.TimedOut, Err: cause}, cli.ExitTimedOut},
		{"cancelled", &report.Error{End: report.Cancelled, Err: cause}, cli.ExitCancelled},
		{"errored", &report.Error{End: report.Errored, Err: cause}, cli.ExitError},
		{"any other error", cause, cli.ExitError},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err); got != tt.want {
			t.Errorf("%s: exitCode = %d, want %d", tt.name, got, tt.want)
		}
	}
	// Every status the table documents is one exitCode returns, and the
	// README's table lists each.
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range cli.ExitStatuses {
		if !regexp.MustCompile(`(?m)^\| ` + strconv.Itoa(s.Code) + ` \|`).Match(readme) {
			t.Errorf("README's Exit status table lacks a row for %d", s.Code)
		}
	}
}

// TestRunUsageErrorsPrintOnce: in process, every usage error (exit
// status 2), whether the flags, the environment or the inputs they give
// are wrong, is printed once on stderr and nothing on stdout, which
// carries results only (like gh: a script reads nothing from a run that
// never started), with --json too; and nothing is sent.
func TestRunUsageErrorsPrintOnce(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"MINTLIFY_API_KEY": testKey, "MINTLIFY_PROJECT_ID": "proj-1"}
	for _, tt := range []struct {
		name  string
		args  []string
		unset string // a variable of vars left unset
		says  string
	}{
		{"an unknown flag", []string{"--promt", "typo"}, "", "unknown flag --promt"},
		{"a flag without its value", []string{"--prompt"}, "", "--prompt needs a value"},
		{"a stray argument", []string{"--prompt", "p", "now"}, "", `"now", is not a flag`},
		{"the key as a flag", []string{"--api-key", testKey}, "", "is not accepted"},
		{"no project", []string{"--prompt", "p"}, "MINTLIFY_PROJECT_ID", "no project"},
		{"no key", []string{"--prompt", "p"}, "MINTLIFY_API_KEY", "no API key"},
		{"an empty key on stdin", []string{"--prompt", "p", "--api-key-stdin"}, "MINTLIFY_API_KEY", "standard input is empty"},
		{"no prompt", nil, "", "--prompt is empty"},
		{"a timeout that is not one", []string{"--prompt", "p", "--timeout", "soon"}, "", "--timeout must be a duration"},
		{"a timeout of 0", []string{"--prompt", "p", "--timeout", "0"}, "", "--timeout must be more than 0"},
		{"wait neither true nor false", []string{"--prompt", "p", "--wait=maybe"}, "", "--wait must be true or false"},
		{"a prompt file that is not there", []string{"--prompt-file", "no-such-file.md"}, "", "--prompt-file no-such-file.md does not exist"},
		{"settle with a prompt", []string{"--prompt", "p", "--settle"}, "", "--settle is true"},
		{"no prompt, with --json", []string{"--json"}, "", "--prompt is empty"},
		{"an unknown flag, with --json", []string{"--json", "--promt", "typo"}, "", "unknown flag --promt"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			calls := 0
			env := Env{Getenv: func(k string) string {
				if k == tt.unset {
					return ""
				}
				return vars[k]
			}, Stdin: strings.NewReader(""), Stderr: &stderr,
				Deps: action.Deps{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) { calls++; return nil, errors.New("no") })}}
			err := run(context.Background(), tt.args, env, &stdout)
			if code := exitCode(err); code != cli.ExitUsage {
				t.Errorf("exit %d, want %d: %v\n%s", code, cli.ExitUsage, err, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
			if n := strings.Count(stderr.String(), tt.says); n != 1 || strings.Count(stderr.String(), "error: ") != 1 {
				t.Errorf("stderr says %q %d times, want one error that says it once:\n%s", tt.says, n, stderr.String())
			}
			if calls != 0 {
				t.Errorf("%d requests sent", calls)
			}
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestReleaseBuildsLinkNoStandIn holds the release build (-tags nodemo) to
// the product alone: none of internal/testbed, internal/fakes or
// internal/demo, nor net/http/httptest, is in what it links, and every
// place that builds a release asks for it. The build with the demo links
// the fakes, and still nothing of internal/testbed, which tests alone use.
func TestReleaseBuildsLinkNoStandIn(t *testing.T) {
	t.Parallel()
	for _, build := range []struct {
		tags   string
		barred []string
	}{
		{"nodemo", []string{"/internal/testbed", "/internal/fakes", "/internal/demo"}},
		{"", []string{"/internal/testbed"}},
	} {
		out, err := exec.Command("go", "list", "-tags", build.tags, "-deps", ".").CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, "github.com/agentjob/agent-job-action/internal/action") {
			t.Fatalf("go list -deps lists no internal/action, so it cannot tell what is linked:\n%s", out)
		}
		for _, dep := range deps {
			if slices.ContainsFunc(build.barred, func(b string) bool { return strings.Contains(dep, b) }) || build.tags == "nodemo" && dep == "net/http/httptest" {
				t.Errorf("the build with -tags %q links %s", build.tags, dep)
			}
		}
	}
	// A command that builds the main package ("."), its continued lines
	// joined.
	buildsMain := regexp.MustCompile(`\bgo build\b.*\s\.(\s|$)`)
	for _, file := range []string{"Dockerfile", ".github/workflows/release.yml", ".github/workflows/ci.yml", "scripts/lagcheck.sh"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		builds := 0
		for _, line := range strings.Split(strings.ReplaceAll(string(data), "\\\n", " "), "\n") {
			if !buildsMain.MatchString(line) {
				continue
			}
			builds++
			if !strings.Contains(line, "-tags nodemo") {
				t.Errorf("%s builds without -tags nodemo: %s", file, strings.TrimSpace(line))
			}
		}
		if builds == 0 {
			t.Errorf("%s builds the action nowhere this test can see", file)
		}
	}
}
