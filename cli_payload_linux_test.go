package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// TestEventPayloadWithinBounds runs the built binary as
// a step whose GITHUB_EVENT_PATH is a named pipe, /dev/zero, a 200 MB file
// or a payload under the cap whose comment is far over GitHub's: each ends
// with a clear error (exit 2), before anything is sent, within a bound on
// peak memory. It logs the time for the closing note; it asserts no time.
func TestEventPayloadWithinBounds(t *testing.T) {
	t.Parallel()
	bin, launcher := buildCLI(t), buildLauncher(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: 200 MB that take no disk.
	if err := f.Truncate(200 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// Under the payload's cap, a comment far over GitHub's: Markdown whose
	// parse would take gigabytes and a minute, whatever the timeout.
	huge := filepath.Join(dir, "huge.json")
	payload, err := json.Marshal(issueComment("writer", "/docs "+strings.Repeat("- item\n  - nested /docs\n", 900_000)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(huge, payload, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, path, reason string }{
		{"named pipe", fifo, "is not a regular file"},
		{"/dev/zero", "/dev/zero", "is not a regular file"},
		{"200 MB", big, "is 209715200 bytes, over the 25 MB GitHub allows a webhook payload"},
		{"a comment of 24 MB", huge, "the comment is 21600006 characters, over the 65536 GitHub allows"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := newCLIFake(t, fakeapi.Scenario{})
			ws := t.TempDir()
			report := filepath.Join(ws, "peak")
			start := time.Now()
			res := cliRun{args: []string{report, bin}, vars: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws,
				"GITHUB_OUTPUT": filepath.Join(ws, "out"), "GITHUB_STEP_SUMMARY": filepath.Join(ws, "sum"),
				"GITHUB_EVENT_NAME": "issue_comment", "GITHUB_EVENT_PATH": tt.path, "GITHUB_REPOSITORY": "acme/docs",
				"INPUT_PROJECT-ID": "proj-1", "INPUT_API-KEY": testKey, "INPUT_BASE-URL": api.URL, "INPUT_TIMEOUT": "5s"}}.exec(t, launcher)
			took := time.Since(start)
			if res.code != cli.ExitUsage || !strings.Contains(res.stdout, "::error::read issue_comment event: ") || !strings.Contains(res.stdout, tt.reason) {
				t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
			}
			if n := len(api.Requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
			// Peak memory: the program's own and, for a payload read, the
			// payload and its decoded copy; never a parse of the comment.
			peakKiB, _ := launched(t, report)
			// About 9 MiB for a refusal by file type or size, 100 MiB for
			// the 24 MB payload read and decoded.
			if peakKiB > 160<<10 {
				t.Errorf("peak memory %d MiB, want at most 160", peakKiB>>10)
			}
			t.Logf("%s: exit %d in %s, peak memory %.1f MiB", tt.name, res.code, took.Round(time.Millisecond), float64(peakKiB)/(1<<10))
		})
	}
}
