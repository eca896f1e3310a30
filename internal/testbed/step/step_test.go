package step

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// recorder is a testing.TB that records the failures a check reports
// instead of failing the test that runs the check, so that a test can
// assert that the check fails. What it does not override (TempDir,
// Cleanup, Logf...) is the real test's.
type recorder struct {
	testing.TB
	mu       sync.Mutex
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Error(args ...any) { r.fail(fmt.Sprint(args...)) }

func (r *recorder) Errorf(format string, args ...any) { r.fail(fmt.Sprintf(format, args...)) }

// Fatal and Fatalf end the check's goroutine, as the real ones do, so
// that a check that relies on them stopping it behaves as in a test.
func (r *recorder) Fatal(args ...any) {
	r.fail(fmt.Sprint(args...))
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fail(fmt.Sprintf(format, args...))
	runtime.Goexit()
}

func (r *recorder) fail(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = append(r.failures, msg)
}

// failures runs check against a recorder, in a goroutine of its own for
// a Fatal to end, and says what the check reported.
func failures(t *testing.T, check func(testing.TB)) []string {
	t.Helper()
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failures
}

// wantFailures checks that got is exactly one failure that says want, or
// none when want is "".
func wantFailures(t *testing.T, got []string, want string) {
	t.Helper()
	switch {
	case want == "" && len(got) != 0:
		t.Errorf("the check failed on a clean run: %q", got)
	case want != "" && (len(got) != 1 || !strings.Contains(got[0], want)):
		t.Errorf("the check reported %q, want one failure that says %q", got, want)
	}
}

// writeFiles writes the runner's outputs and summary files of vars.
func writeFiles(t *testing.T, vars map[string]string, outputs, summary string) {
	t.Helper()
	for name, text := range map[string]string{"GITHUB_OUTPUT": outputs, "GITHUB_STEP_SUMMARY": summary} {
		if err := os.WriteFile(vars[name], []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAssertNoTokenFails: AssertNoToken fails when the GitHub token or the
// docs-token is in the log (but in its own mask command), the outputs or
// the summary, when the log does not mask the GitHub token first, and
// when a secret went to GitHub in a request's body; it passes on a run
// that wrote neither anywhere.
func TestAssertNoTokenFails(t *testing.T) {
	t.Parallel()
	const docsToken = "ghp_docs_token_0123456789"
	masks := MaskCommand(Key) + MaskCommand(Token) + MaskCommand(docsToken)
	const outputs = "job-id<<ghadelimiter_1\njob_0001\nghadelimiter_1\n"
	const summary = "## Agent job\n\nThe job job_0001 succeeded.\n"
	for _, tt := range []struct {
		name                  string
		log, outputs, summary string
		comment               string // a comment's body the run sent GitHub
		want                  string // what the one failure says; "" for none
	}{
		{name: "clean", log: masks + "Created job job_0001.\n", outputs: outputs, summary: summary, comment: "The job job_0001 started."},
		{name: "token in the log", log: masks + "Authorization: Bearer " + Token + "\n", outputs: outputs, summary: summary,
			want: "the GitHub token appears in the log"},
		{name: "token in the outputs", log: masks, outputs: outputs + "error<<ghadelimiter_2\nbad credentials " + Token + "\nghadelimiter_2\n", summary: summary,
			want: "the GitHub token appears in the outputs"},
		{name: "token in the summary", log: masks, outputs: outputs, summary: summary + "Token: " + Token + "\n",
			want: "the GitHub token appears in the summary"},
		{name: "docs-token in the log", log: masks + "GET with " + docsToken + "\n", outputs: outputs, summary: summary,
			want: "the docs-token appears in the log"},
		{name: "docs-token in the outputs", log: masks, outputs: outputs + "token<<ghadelimiter_3\n" + docsToken + "\nghadelimiter_3\n", summary: summary,
			want: "the docs-token appears in the outputs"},
		{name: "token not masked first", log: MaskCommand(Key) + "Created job job_0001.\n" + MaskCommand(Token) + MaskCommand(docsToken), outputs: outputs, summary: summary,
			want: "the log does not mask the GitHub token first"},
		{name: "token sent to GitHub", log: masks, outputs: outputs, summary: summary, comment: "bad credentials " + Token,
			want: "the GitHub token (ghs_test…), was sent to GitHub in POST /repos/acme/docs/issues/12/comments"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vars := Vars(t, "http://agent-api.invalid")
			gh := GitHub(t, vars, fakegithub.Options{}, "issue_comment", IssueComment("writer", "/docs add a page"))
			vars["INPUT_DOCS-TOKEN"] = docsToken
			writeFiles(t, vars, tt.outputs, tt.summary)
			if tt.comment != "" {
				comment(t, gh, tt.comment)
			}
			wantFailures(t, failures(t, func(tb testing.TB) { AssertNoToken(tb, vars, tt.log, gh) }), tt.want)
		})
	}
}

// comment posts a comment on issue 12 of acme/docs with body, as the
// action does, so that the fake GitHub records the request.
func comment(t *testing.T, gh *fakegithub.Server, body string) {
	t.Helper()
	data := fmt.Sprintf(`{"body":%q}`, body)
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, gh.APIURL()+"/repos/acme/docs/issues/12/comments", strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+Token)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("the fake GitHub answered the comment with %s", resp.Status)
	}
}

// TestAssertNoSecretsFails: AssertNoSecrets fails when the API key is in
// the log (but in the mask command that starts it), the outputs or the
// summary, and when the log does not start by masking it; it passes on a
// run that wrote it nowhere.
func TestAssertNoSecretsFails(t *testing.T) {
	t.Parallel()
	const outputs = "job-id<<ghadelimiter_1\njob_0001\nghadelimiter_1\n"
	const summary = "## Agent job\n\nThe job job_0001 succeeded.\n"
	for _, tt := range []struct {
		name                  string
		log, outputs, summary string
		want                  string // what the one failure says; "" for none
	}{
		{name: "clean", log: MaskCommand(Key) + "Created job job_0001.\n", outputs: outputs, summary: summary},
		{name: "key in the log", log: MaskCommand(Key) + "Authorization: Bearer " + Key + "\n", outputs: outputs, summary: summary,
			want: "API key appears in the log"},
		{name: "key in the outputs", log: MaskCommand(Key), outputs: outputs + "error<<ghadelimiter_2\nbad key " + Key + "\nghadelimiter_2\n", summary: summary,
			want: "API key appears in the outputs"},
		{name: "key in the summary", log: MaskCommand(Key), outputs: outputs, summary: summary + "Key: " + Key + "\n",
			want: "API key appears in the summary"},
		{name: "key not masked first", log: "Created job job_0001.\n" + MaskCommand(Key), outputs: outputs, summary: summary,
			want: "the log does not start by masking the key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			vars := Vars(t, "http://agent-api.invalid")
			writeFiles(t, vars, tt.outputs, tt.summary)
			wantFailures(t, failures(t, func(tb testing.TB) { AssertNoSecrets(tb, vars, tt.log) }), tt.want)
		})
	}
}
