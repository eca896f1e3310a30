package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"

	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func job(t *testing.T, raw string) *agentapi.Job {
	t.Helper()
	j, err := agentapi.DecodeJob([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestSummaryGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		r    func(t *testing.T) Result
	}{
		{"summary-completed.md", func(t *testing.T) Result {
			return Result{JobID: "job_0001", Status: "completed", Elapsed: 161 * time.Second, Polls: 7,
				Job: job(t, `{"id":"job_0001","status":"completed","model":"sonnet","source":{"repository":"https://github.com/acme/docs","ref":"docs/faq"},"prLink":"https://github.com/acme/docs/pull/7"}`)}
		}},
		{"summary-timed-out.md", func(t *testing.T) Result {
			return Result{JobID: "job_0001", Status: "active", TimedOut: true, Elapsed: 30 * time.Minute, Polls: 66,
				Job: job(t, `{"id":"job_0001","status":"active","model":"opus","source":{"repository":"https://github.com/acme/docs","ref":null},"prLink":null}`)}
		}},
		{"summary-dry-run.md", func(*testing.T) Result { return Result{Status: "dry-run"} }},
		{"summary-hostile.md", func(t *testing.T) Result {
			return Result{JobID: "x|y", Status: "weird<script>", Elapsed: time.Second, Polls: 1,
				Job: job(t, `{"id":"x|y","status":"weird<script>","model":"m | [x](javascript:alert(1))\n# title","source":{"repository":"@everyone"},"prLink":"javascript:alert(1)"}`)}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			goldenFile(t, tt.file, Summary(tt.r(t)))
		})
	}
}

func TestOutputsSingleLineAndRedacted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{"GITHUB_OUTPUT": filepath.Join(dir, "out")}
	var stdout bytes.Buffer
	log := NewLog(&stdout, func(k string) string { return env[k] })
	log.Mask("s3cr3t-value")
	out := NewOutputs(log, func(k string) string { return env[k] })
	// A value that tries to close the delimiter and forge another output.
	if err := out.Set("model", "m\n_GitHubActionsFileCommandDelimeter_\nstatus=completed s3cr3t-value"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(env["GITHUB_OUTPUT"])
	want := "model<<_GitHubActionsFileCommandDelimeter_\nm _GitHubActionsFileCommandDelimeter_ status=completed ***\n_GitHubActionsFileCommandDelimeter_\n"
	if string(data) != want {
		t.Errorf("GITHUB_OUTPUT:\n%q\nwant\n%q", data, want)
	}
}

func TestOutputsFallBackToStdout(t *testing.T) {
	t.Parallel()
	var stdout bytes.Buffer
	none := func(string) string { return "" }
	out := NewOutputs(NewLog(&stdout, none), none)
	if err := out.Set("status", "completed\n::error::x"); err != nil {
		t.Fatal(err)
	}
	if got := stdout.String(); got != "output status=completed ::error::x\n" {
		t.Errorf("stdout %q", got)
	}
}

func TestUnwritableOutputIsAnError(t *testing.T) {
	t.Parallel()
	env := map[string]string{"GITHUB_OUTPUT": filepath.Join(t.TempDir(), "missing-dir", "out"), "GITHUB_STEP_SUMMARY": "/nonexistent/dir/summary"}
	var stdout bytes.Buffer
	log := NewLog(&stdout, func(k string) string { return env[k] })
	if err := NewOutputs(log, func(k string) string { return env[k] }).Set("status", "x"); err == nil {
		t.Error("no error for an output file that cannot be written")
	}
	if err := log.WriteSummary(func(k string) string { return env[k] }, "x"); err == nil {
		t.Error("no error for a summary that cannot be written")
	}
}

func TestLogRedactsAndMasksFirst(t *testing.T) {
	t.Parallel()
	var stdout bytes.Buffer
	log := NewLog(&stdout, func(string) string { return "" })
	log.Mask("line-one\nline-two")
	log.Printf("value line-one and line-two")
	log.Error("failed with line-two")
	want := "::add-mask::line-one\n::add-mask::line-two\nvalue *** and ***\n::error::failed with ***\n"
	if stdout.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", stdout.String(), want)
	}
}

func TestStopCommands(t *testing.T) {
	t.Parallel()
	var stdout bytes.Buffer
	NewLog(&stdout, func(string) string { return "" }).StopCommands("tok", "a\n::error::b\n::tok::")
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	want := []string{"::stop-commands::tok", "a", "::error::b", " ::tok::", "::tok::"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", lines, want)
	}
}

func TestPRNumber(t *testing.T) {
	t.Parallel()
	for link, want := range map[string]string{
		"https://github.com/o/r/pull/123":    "123",
		"https://github.com/o/r/pull/123/":   "123",
		"https://ghe.example/o/r/pull/9":     "9",
		"https://github.com/o/r/issues/123":  "",
		"http://github.com/o/r/pull/123":     "",
		"https://github.com/o/r/pull/0":      "",
		"https://github.com/o/r/pull/-1":     "",
		"https://github.com/o/r/pull/12a":    "",
		"":                                   "",
		"https://github.com/o/r/pull/999999": "999999",
	} {
		if got := PRNumber(link); got != want {
			t.Errorf("PRNumber(%q) = %q, want %q", link, got, want)
		}
	}
}
