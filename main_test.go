package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/action"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

const testKey = "mint_test_0123456789abcdef"

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
	clk := clock.NewFake(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	sc.Key = testKey
	if sc.Clock == nil {
		sc.Clock = clk
	}
	api := fakeapi.New("proj-1", sc)
	t.Cleanup(func() {
		api.Close()
		if u := api.Unexpected(); len(u) > 0 {
			t.Errorf("requests no Agent Job API endpoint serves: %v", u)
		}
	})
	dir := t.TempDir()
	h := &harness{t: t, api: api, clk: clk}
	h.vars = map[string]string{
		"INPUT_PROMPT":        "Add a FAQ page about rate limits.\nUse \"quotes\" and ünïcödé 🚀.",
		"INPUT_PROJECT-ID":    "proj-1",
		"INPUT_API-KEY":       testKey,
		"INPUT_BASE-URL":      api.URL,
		"INPUT_WAIT":          "true",
		"INPUT_TIMEOUT":       "30m",
		"INPUT_POLL-INTERVAL": "auto",
		"INPUT_DRY-RUN":       "false",
		// The preview of a job's pull request is asked for only by the
		// tests that serve the preview API (codepr_test.go).
		"INPUT_PREVIEW":       "false",
		"GITHUB_OUTPUT":       filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		"GITHUB_WORKSPACE":    dir,
		"GITHUB_ACTIONS":      "true",
	}
	// The auto schedule with its jitter drawn from a seeded source, so that
	// times in logs and golden comments do not change from run to run.
	auto := poll.DefaultAuto
	auto.Rand = rand.New(rand.NewPCG(1, 2)).Float64
	h.env = Env{Getenv: func(k string) string { return h.vars[k] }, Deps: action.Deps{Clock: clk, Schedule: auto}}
	return h
}

func (h *harness) run(ctx context.Context) error {
	h.t.Helper()
	err := run(ctx, nil, h.env, &h.stdout)
	h.assertNoSecrets()
	return err
}

// outputs parses the GITHUB_OUTPUT file; a name written twice keeps the last
// value, as the runner does.
func (h *harness) outputs() map[string]string {
	h.t.Helper()
	data, err := os.ReadFile(h.vars["GITHUB_OUTPUT"])
	if os.IsNotExist(err) {
		return map[string]string{}
	}
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		name, delim, ok := strings.Cut(sc.Text(), "<<")
		if !ok {
			h.t.Fatalf("GITHUB_OUTPUT: unexpected line %q", sc.Text())
		}
		var lines []string
		for sc.Scan() && sc.Text() != delim {
			lines = append(lines, sc.Text())
		}
		out[name] = strings.Join(lines, "\n")
	}
	return out
}

func (h *harness) file(name string) string {
	data, _ := os.ReadFile(h.vars[name])
	return string(data)
}

// assertNoSecrets checks that the key appears nowhere but in the mask command.
func (h *harness) assertNoSecrets() {
	h.t.Helper()
	key := strings.TrimSpace(h.vars["INPUT_API-KEY"])
	if len(key) < 8 {
		return
	}
	log := strings.ReplaceAll(h.stdout.String(), maskCommand(key), "")
	for where, text := range map[string]string{"log": log, "outputs": h.file("GITHUB_OUTPUT"), "summary": h.file("GITHUB_STEP_SUMMARY")} {
		if strings.Contains(text, key) {
			h.t.Errorf("API key appears in the %s:\n%s", where, text)
		}
	}
	if !strings.HasPrefix(h.stdout.String(), maskCommand(key)) {
		h.t.Errorf("the log does not start by masking the key:\n%s", h.stdout.String())
	}
}

func (h *harness) wantOutputs(want map[string]string) {
	h.t.Helper()
	got := h.outputs()
	for k, v := range want {
		if got[k] != v {
			h.t.Errorf("output %s = %q, want %q\nlog:\n%s", k, got[k], v, h.stdout.String())
		}
	}
}

func (h *harness) wantRequests(creates, messages int) {
	h.t.Helper()
	if c, m := h.api.Creates(), h.api.Messages(); c != creates || m != messages {
		h.t.Errorf("requests: %d creates and %d messages, want %d and %d", c, m, creates, messages)
	}
}

// TestRunOutsideActions (issue 17, item 4): outside Actions standard
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
	for _, want := range []string{"prompt-file", "poll-interval", "auto", "30m", "https://api.mintlify.com", "timed-out"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	// Issue 17, item 8: --help fits 80 columns.
	for _, line := range strings.Split(out.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("--help line of %d columns: %q", n, line)
		}
	}
	out.Reset()
	if err := run(context.Background(), []string{"--version"}, Env{}, &out); err != nil || out.String() != "agent-job-action dev\n" {
		t.Errorf("--version: %q, %v", out.String(), err)
	}
}

// maskCommand is the line that registers secret with the runner: its data
// percent-encoded as the runner decodes it.
func maskCommand(secret string) string {
	return "::add-mask::" + strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(secret) + "\n"
}

const testToken = "ghs_test_token_abcdef123456"

// withGitHub adds a fake GitHub and an event to the harness.
func (h *harness) withGitHub(opt fakegithub.Options, eventName string, payload any) *fakegithub.Server {
	h.t.Helper()
	opt.Token = testToken
	if opt.Repos == nil {
		opt.Repos = []string{"acme/docs"}
	}
	if opt.Permissions == nil {
		opt.Permissions = map[string]string{"writer": "write", "reader": "read", "triager": "triage", "admin": "admin"}
	}
	opt.Check = ghspec.Checker()
	gh := fakegithub.New(opt)
	// The pull request the fake Agent Job API's jobs open.
	gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001"})
	h.gh = gh
	h.t.Cleanup(func() {
		gh.Close()
		if u := gh.Unexpected(); len(u) > 0 {
			h.t.Errorf("unexpected GitHub requests: %v", u)
		}
	})
	data, err := json.Marshal(payload)
	if err != nil {
		h.t.Fatal(err)
	}
	path := filepath.Join(h.vars["GITHUB_WORKSPACE"], "event.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		h.t.Fatal(err)
	}
	delete(h.vars, "INPUT_PROMPT")
	for k, v := range map[string]string{
		"INPUT_GITHUB-TOKEN":        testToken,
		"INPUT_COMMENT":             "auto",
		"INPUT_TRIGGER-PHRASE":      "/docs",
		"INPUT_REQUIRED-PERMISSION": "write",
		"GITHUB_EVENT_NAME":         eventName,
		"GITHUB_EVENT_PATH":         path,
		"GITHUB_REPOSITORY":         "acme/docs",
		"GITHUB_API_URL":            gh.APIURL(),
		"GITHUB_SERVER_URL":         "https://github.com",
		"GITHUB_RUN_ID":             "4242",
	} {
		h.vars[k] = v
	}
	return gh
}

func user(login string) map[string]any {
	typ := "User"
	if strings.HasSuffix(login, "[bot]") {
		typ = "Bot"
	}
	return map[string]any{"login": login, "type": typ}
}

// issueComment is an issue_comment event on issue 12 by login.
func issueComment(login, body string) map[string]any {
	return map[string]any{
		"action": "created",
		"issue": map[string]any{"number": 12, "title": "Rate limits are undocumented",
			"html_url": "https://github.com/acme/docs/issues/12", "body": "We need docs.", "user": user("reporter")},
		"comment":    map[string]any{"id": 9001, "body": body, "user": user(login), "html_url": "https://github.com/acme/docs/issues/12#issuecomment-9001"},
		"repository": map[string]any{"name": "docs", "full_name": "acme/docs", "owner": map[string]any{"login": "acme"}},
		"sender":     user(login),
	}
}

func (h *harness) assertNoToken() {
	h.t.Helper()
	if head := strings.SplitN(h.stdout.String(), "\n", 3); len(head) < 3 || head[1] != "::add-mask::"+testToken {
		h.t.Errorf("the log does not mask the GitHub token first")
	}
	for _, r := range h.gh.Requests() {
		for _, secret := range []string{testToken, testKey, "mint&#95;test&#95;"} {
			if strings.Contains(string(r.Body), secret) {
				h.t.Errorf("a secret (%s…) was sent to GitHub in %s %s: %s", secret[:8], r.Method, r.Path, r.Body)
			}
		}
	}
	log := strings.ReplaceAll(h.stdout.String(), "::add-mask::"+testToken+"\n", "")
	for where, text := range map[string]string{"log": log, "outputs": h.file("GITHUB_OUTPUT"), "summary": h.file("GITHUB_STEP_SUMMARY")} {
		if strings.Contains(text, testToken) {
			h.t.Errorf("GitHub token appears in the %s", where)
		}
	}
}

// runMemoryBound bounds a run's memory (issue 24, item 7), the peak of the
// built binary under attack included (attack_linux_test.go).
const runMemoryBound = 64 << 20
