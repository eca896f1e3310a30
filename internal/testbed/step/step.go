// Package step is the world a test runs the action's step in, as the
// runner starts it: the INPUT_* variables, the runner's files, the fake
// Agent Job API and the fake GitHub with an event, and the checks every
// run must pass (no secret in anything it wrote). The root package's
// harness (the program's run) and internal/action's (action.Run) are both
// built on it.
package step

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/publish"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
)

// Key is the API key the fake Agent Job API takes; Token the GitHub token
// the fake GitHub takes.
const (
	Key   = "mint_test_0123456789abcdef"
	Token = "ghs_test_token_abcdef123456"
)

// Start is when every step's simulated clock starts.
var Start = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// API is the fake Agent Job API of project proj-1 for sc, on clk unless
// sc names a clock, closed when t ends, which fails on a request it does
// not serve.
func API(t testing.TB, sc fakeapi.Scenario, clk clock.Clock) *fakeapi.Server {
	t.Helper()
	sc.Key = Key
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
	return api
}

// Vars are a step's INPUT_* variables and the runner's, against the API at
// apiURL, its files in a new temporary directory.
func Vars(t testing.TB, apiURL string) map[string]string {
	dir := t.TempDir()
	return map[string]string{
		"INPUT_PROMPT":        "Add a FAQ page about rate limits.\nUse \"quotes\" and ünïcödé 🚀.",
		"INPUT_PROJECT-ID":    "proj-1",
		"INPUT_API-KEY":       Key,
		"INPUT_BASE-URL":      apiURL,
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
}

// Schedule is the auto poll schedule with its jitter drawn from a seeded
// source, so that times in logs and golden comments do not change from
// run to run.
func Schedule() poll.Schedule {
	auto := poll.DefaultAuto
	auto.Rand = rand.New(rand.NewPCG(1, 2)).Float64
	return auto
}

// Outputs parses the GITHUB_OUTPUT file at path; a name written twice
// keeps the last value, as the runner does.
func Outputs(t testing.TB, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]string{}
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		name, delim, ok := strings.Cut(sc.Text(), "<<")
		if !ok {
			t.Fatalf("GITHUB_OUTPUT: unexpected line %q", sc.Text())
		}
		var lines []string
		for sc.Scan() && sc.Text() != delim {
			lines = append(lines, sc.Text())
		}
		out[name] = strings.Join(lines, "\n")
	}
	return out
}

// File is the runner's file the variable name names, "" when there is none.
func File(vars map[string]string, name string) string {
	data, _ := os.ReadFile(vars[name])
	return string(data)
}

// AssertNoSecrets checks that the key of vars appears nowhere a run wrote
// (log, its step log, and the runner's files) but in the mask command
// that starts the log.
func AssertNoSecrets(t testing.TB, vars map[string]string, log string) {
	t.Helper()
	key := strings.TrimSpace(vars["INPUT_API-KEY"])
	if len(key) < 8 {
		return
	}
	rest := strings.ReplaceAll(log, MaskCommand(key), "")
	for where, text := range map[string]string{"log": rest, "outputs": File(vars, "GITHUB_OUTPUT"), "summary": File(vars, "GITHUB_STEP_SUMMARY")} {
		if strings.Contains(text, key) {
			t.Errorf("API key appears in the %s:\n%s", where, text)
		}
	}
	if !strings.HasPrefix(log, MaskCommand(key)) {
		t.Errorf("the log does not start by masking the key:\n%s", log)
	}
}

// AssertNoToken checks that the step log masks the GitHub token first,
// that no secret reached GitHub in any request's body, and that neither
// the GitHub token nor the docs-token of vars (INPUT_DOCS-TOKEN, when set)
// appears in the log but in its own mask command, in the outputs or in
// the summary: the runner masks a secret only in the log it shows, and
// the files and GitHub receive what the action wrote unmasked.
func AssertNoToken(t testing.TB, vars map[string]string, log string, gh *fakegithub.Server) {
	t.Helper()
	if head := strings.SplitN(log, "\n", 3); len(head) < 3 || head[1] != "::add-mask::"+Token {
		t.Errorf("the log does not mask the GitHub token first")
	}
	tokens := []secret{{"GitHub token", Token}}
	if v := strings.TrimSpace(vars["INPUT_GITHUB-TOKEN"]); v != Token && len(v) >= 8 {
		tokens = append(tokens, secret{"GitHub token (INPUT_GITHUB-TOKEN)", v})
	}
	if v := strings.TrimSpace(vars["INPUT_DOCS-TOKEN"]); len(v) >= 8 {
		tokens = append(tokens, secret{"docs-token", v})
	}
	for _, r := range gh.Requests() {
		for _, s := range append([]secret{{"API key", Key}, {"API key, escaped", "mint&#95;test&#95;"}}, tokens...) {
			if strings.Contains(string(r.Body), s.value) {
				t.Errorf("a secret, the %s (%s…), was sent to GitHub in %s %s: %s", s.name, s.value[:8], r.Method, r.Path, r.Body)
			}
		}
	}
	for _, s := range tokens {
		rest := strings.ReplaceAll(log, MaskCommand(s.value), "")
		for _, f := range []struct{ where, text string }{{"log", rest}, {"outputs", File(vars, "GITHUB_OUTPUT")}, {"summary", File(vars, "GITHUB_STEP_SUMMARY")}} {
			if line, ok := lineWith(f.text, s.value); ok {
				t.Errorf("the %s appears in the %s: %q", s.name, f.where, line)
			}
		}
	}
}

// secret is a value no run may write where it is not masked, and what a
// failure calls it.
type secret struct{ name, value string }

// lineWith is the first line of text that holds s, and whether one does.
func lineWith(text, s string) (string, bool) {
	for line := range strings.Lines(text) {
		if strings.Contains(line, s) {
			return strings.TrimSuffix(line, "\n"), true
		}
	}
	return "", false
}

// MaskCommand is the line that registers secret with the runner: its data
// percent-encoded as the runner decodes it.
func MaskCommand(secret string) string {
	return "::add-mask::" + strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(secret) + "\n"
}

// GitHub adds a fake GitHub, held to GitHub's own description, and the
// event eventName with payload to the step's vars: the repository
// acme/docs, whose pull request #101 is the one the fake Agent Job API's
// jobs open, the permissions writer, reader, triager and admin unless opt
// names others, the token, a comment in auto, the phrase /docs and write
// permission required. The workflow's prompt is left out: the request
// is the prompt.
func GitHub(t testing.TB, vars map[string]string, opt fakegithub.Options, eventName string, payload any) *fakegithub.Server {
	t.Helper()
	opt.Token = Token
	if opt.Repos == nil {
		opt.Repos = []string{"acme/docs"}
	}
	if opt.Permissions == nil {
		opt.Permissions = map[string]string{"writer": "write", "reader": "read", "triager": "triage", "admin": "admin"}
	}
	opt.Check = ghspec.Checker()
	gh := fakegithub.New(opt)
	gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001"})
	t.Cleanup(func() {
		gh.Close()
		if u := gh.Unexpected(); len(u) > 0 {
			t.Errorf("unexpected GitHub requests: %v", u)
		}
	})
	Event(t, vars, eventName, payload)
	delete(vars, "INPUT_PROMPT")
	for k, v := range map[string]string{
		"INPUT_GITHUB-TOKEN":        Token,
		"INPUT_COMMENT":             "auto",
		"INPUT_TRIGGER-PHRASE":      "/docs",
		"INPUT_REQUIRED-PERMISSION": "write",
		"GITHUB_REPOSITORY":         "acme/docs",
		"GITHUB_API_URL":            gh.APIURL(),
		"GITHUB_SERVER_URL":         "https://github.com",
		"GITHUB_RUN_ID":             "4242",
	} {
		vars[k] = v
	}
	return gh
}

// Event makes the step's event the event name with payload, written to
// event.json in the step's workspace, as the runner writes it.
func Event(t testing.TB, vars map[string]string, name string, payload any) {
	t.Helper()
	data, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(vars["GITHUB_WORKSPACE"], "event.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	vars["GITHUB_EVENT_NAME"], vars["GITHUB_EVENT_PATH"] = name, path
}

// User is a payload's user: a bot when the login ends in [bot].
func User(login string) map[string]any {
	typ := "User"
	if strings.HasSuffix(login, "[bot]") {
		typ = "Bot"
	}
	return map[string]any{"login": login, "type": typ}
}

// IssueComment is an issue_comment event on issue 12 by login.
func IssueComment(login, body string) map[string]any {
	return map[string]any{
		"action": "created",
		"issue": map[string]any{"number": 12, "title": "Rate limits are undocumented",
			"html_url": "https://github.com/acme/docs/issues/12", "body": "We need docs.", "user": User("reporter")},
		"comment":    map[string]any{"id": 9001, "body": body, "user": User(login), "html_url": "https://github.com/acme/docs/issues/12#issuecomment-9001"},
		"repository": map[string]any{"name": "docs", "full_name": "acme/docs", "owner": map[string]any{"login": "acme"}},
		"sender":     User(login),
	}
}

// WantOutputs checks the step's outputs (GITHUB_OUTPUT of vars) against
// want; log is shown with a mismatch.
func WantOutputs(t testing.TB, vars, want map[string]string, log string) {
	t.Helper()
	got := Outputs(t, vars["GITHUB_OUTPUT"])
	for k, v := range want {
		if got[k] != v {
			t.Errorf("output %s = %q, want %q\nlog:\n%s", k, got[k], v, log)
		}
	}
}

// WantRequests checks how many creates and follow-ups api received.
func WantRequests(t testing.TB, api *fakeapi.Server, creates, messages int) {
	t.Helper()
	if c, m := api.Creates(), api.Messages(); c != creates || m != messages {
		t.Errorf("requests: %d creates and %d messages, want %d and %d", c, m, creates, messages)
	}
}

// Reporter is a run's reporter for the tests of its rooms: the step in
// Actions, its outputs and summary in temporary files, its log plain in
// log, its clock simulated from Start; its checks set no status until a
// test gives them a GitHub.
func Reporter(t testing.TB, log io.Writer) (*publish.Reporter, *clock.Fake) {
	t.Helper()
	dir := t.TempDir()
	clk := clock.NewFake(Start)
	p := runlog.Progress{Log: runlog.NewPlain(log), Clock: clk, Start: Start}
	rc := runner.Context{InActions: true, OutputFile: filepath.Join(dir, "output"), SummaryFile: filepath.Join(dir, "summary"),
		ServerURL: "https://github.com", Repository: "acme/docs", RunID: "4242"}
	return &publish.Reporter{Progress: p, RC: rc, Out: report.NewOutputs(p.Log, rc.OutputFile, nil), Timeout: 30 * time.Minute,
		Checks: &publish.Checks{Progress: p, RunURL: rc.RunURL()}}, clk
}
