package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/action"
	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
	"github.com/agentjob/agent-job-action/internal/testbed/step"
)

const testKey = step.Key

// hangGuard is how long a test lets a run take that must end on its own
// (at its timeout, on a signal, past a request that never answers) before
// it calls the run hung. It guards that the run ends, not how fast: the
// time taken is logged, and no test asserts speed on the wall clock, which
// a loaded machine stretches (benchmarks measure speed). It is well below
// the HTTP client's own bound on a request (30 s), so that a run that sat
// that out, instead of ending, is caught.
const hangGuard = 10 * time.Second

// waitGuarded is cmd.Wait held to hangGuard: a process that has not
// exited by then is killed and the test fails; otherwise how long it took
// after since is logged.
func waitGuarded(t *testing.T, cmd *exec.Cmd, since time.Time, what string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Logf("exited %s after %s", time.Since(since).Round(time.Millisecond), what)
		return err
	case <-time.After(hangGuard):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("still running %s after %s: hung", hangGuard, what)
		return nil
	}
}

// runMainEnv makes the test binary run main() instead of the tests, so
// signal tests can run the program as the runner does: a process.
const runMainEnv = "AGENT_JOB_ACTION_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Args = os.Args[:1] // the test flags are not the program's
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// harness runs the binary's run function as the runner would: INPUT_*
// variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, against the fake.
type harness struct {
	t      *testing.T
	api    *fakeapi.Server
	gh     *fakegithub.Server // nil until withGitHub
	clk    *clock.Fake
	vars   map[string]string
	env    Env
	stdout bytes.Buffer
}

func newHarness(t *testing.T, sc fakeapi.Scenario) *harness {
	t.Helper()
	clk := clock.NewFake(step.Start)
	api := step.API(t, sc, clk)
	h := &harness{t: t, api: api, clk: clk, vars: step.Vars(t, api.URL)}
	h.env = Env{Getenv: func(k string) string { return h.vars[k] }, Deps: action.Deps{Clock: clk, Schedule: step.Schedule()}}
	return h
}

func (h *harness) run(ctx context.Context) error {
	h.t.Helper()
	err := run(ctx, nil, h.env, &h.stdout)
	h.assertNoSecrets()
	return err
}

// outputs parses the GITHUB_OUTPUT file (step.Outputs).
func (h *harness) outputs() map[string]string {
	h.t.Helper()
	return step.Outputs(h.t, h.vars["GITHUB_OUTPUT"])
}

// assertNoSecrets checks that the key appears nowhere but in the mask command.
func (h *harness) assertNoSecrets() {
	h.t.Helper()
	step.AssertNoSecrets(h.t, h.vars, h.stdout.String())
}

func (h *harness) wantOutputs(want map[string]string) {
	h.t.Helper()
	step.WantOutputs(h.t, h.vars, want, h.stdout.String())
}

func (h *harness) wantRequests(creates, messages int) {
	h.t.Helper()
	step.WantRequests(h.t, h.api, creates, messages)
}

// TestRunOutsideActions: outside Actions standard
// output carries the results only, each output once; the log goes to
// standard error.
func TestRunOutsideActions(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	delete(h.vars, "GITHUB_OUTPUT")
	delete(h.vars, "GITHUB_STEP_SUMMARY")
	delete(h.vars, "GITHUB_ACTIONS")
	var stderr bytes.Buffer
	h.env.Stderr = &stderr
	if err := run(context.Background(), nil, h.env, &h.stdout); err != nil {
		t.Fatalf("run: %v\n%s%s", err, h.stdout.String(), stderr.String())
	}
	if strings.Contains(h.stdout.String()+stderr.String(), testKey) {
		t.Errorf("the key was printed")
	}
	for _, line := range strings.Split(strings.TrimSuffix(h.stdout.String(), "\n"), "\n") {
		if !strings.HasPrefix(line, "output ") {
			t.Errorf("stdout holds %q, not a result", line)
		}
	}
	for _, want := range []string{"output job-id=job_0001\n", "output status=completed\n", "output pr-number=101\n"} {
		if strings.Count(h.stdout.String(), want) != 1 {
			t.Errorf("stdout holds %q %d times, want once:\n%s", want, strings.Count(h.stdout.String(), want), h.stdout.String())
		}
	}
	if !strings.Contains(stderr.String(), "created job job_0001") || strings.Contains(stderr.String(), "output ") {
		t.Errorf("stderr is not the log:\n%s", stderr.String())
	}
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"--help"}, Env{Getenv: func(string) string { return "" }}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"prompt-file", "poll-interval", "auto", "30m", "https://api.mintlify.com", "timed-out", "agent-job-action init ", "agent-job-action doctor "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	// --help fits 80 columns.
	for _, line := range strings.Split(out.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("--help line of %d columns: %q", n, line)
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"init", "--help"}, Env{Getenv: func(string) string { return "" }}, &out); err != nil || !strings.Contains(out.String(), "--docs-repo owner/name") {
		t.Errorf("init --help: %v\n%s", err, out.String())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("init --help line of %d columns: %q", n, line)
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"--version"}, Env{}, &out); err != nil || out.String() != "agent-job-action dev\n" {
		t.Errorf("--version: %q, %v", out.String(), err)
	}
}

// TestDemoHelp: demo --help (or -h, -help, help) says what the demo does
// and how to run it, on standard output, and exits 0 without running it;
// any other argument after demo is a usage error that says how to ask.
func TestDemoHelp(t *testing.T) {
	t.Parallel()
	for _, h := range []string{"--help", "-h", "-help", "help"} {
		t.Run(h, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), []string{"demo", h}, Env{Stderr: &stderr}, &stdout)
			if code := exitCode(err); code != cli.ExitOK || stderr.Len() != 0 {
				t.Errorf("demo %s: exit %d, stderr %q", h, code, stderr.String())
			}
			got := stdout.String()
			for _, want := range []string{"agent-job-action demo: ", "\nUsage:\n  agent-job-action demo ", "go run . demo", "fakes", "no key"} {
				if !strings.Contains(got, want) {
					t.Errorf("demo %s lacks %q:\n%s", h, want, got)
				}
			}
			if strings.Contains(got, "# 1.") || strings.Contains(got, "--project-id") {
				t.Errorf("demo %s ran the demo, or printed the help of a run:\n%s", h, got)
			}
			for _, line := range strings.Split(got, "\n") {
				if n := utf8.RuneCountInString(line); n > 80 {
					t.Errorf("demo %s: a line of %d columns: %q", h, n, line)
				}
			}
		})
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"demo", "--json"}, Env{Stderr: &stderr}, &stdout)
	const want = "error: demo takes no arguments: run agent-job-action demo, or demo --help for what it does\nRun agent-job-action --help for every flag.\n"
	if code := exitCode(err); code != cli.ExitUsage || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("demo --json: exit %d, stdout %q, stderr %q; want exit %d and only %q", code, stdout.String(), stderr.String(), cli.ExitUsage, want)
	}
}

const testToken = step.Token

// withGitHub adds a fake GitHub and an event to the harness (step.GitHub).
func (h *harness) withGitHub(opt fakegithub.Options, eventName string, payload any) *fakegithub.Server {
	h.t.Helper()
	h.gh = step.GitHub(h.t, h.vars, opt, eventName, payload)
	return h.gh
}

// issueComment is an issue_comment event on issue 12 (step.IssueComment).
var issueComment = step.IssueComment

func (h *harness) assertNoToken() {
	h.t.Helper()
	step.AssertNoToken(h.t, h.vars, h.stdout.String(), h.gh)
}

// runMemoryBound bounds a run's memory, the peak of the
// built binary under attack included (attack_linux_test.go).
const runMemoryBound = 64 << 20
