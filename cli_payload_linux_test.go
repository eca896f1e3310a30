package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/testbed/fakeapi"
)

// TestEventPayloadWithinBounds (issue 19, item 5) runs the built binary as
// a step whose GITHUB_EVENT_PATH is a named pipe, /dev/zero or a 200 MB
// file: each ends at once with a clear error (exit 2), before anything is
// read from it or sent. It logs the time for the closing note; it asserts
// no time. (The payload is refused by its file type or size, so the peak
// memory is the program's own; scripts/measure.sh's launcher measures it.)
func TestEventPayloadWithinBounds(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)
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
	for _, tt := range []struct{ name, path, reason string }{
		{"named pipe", fifo, "is not a regular file"},
		{"/dev/zero", "/dev/zero", "is not a regular file"},
		{"200 MB", big, "is 209715200 bytes, over the 25 MB GitHub allows a webhook payload"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := newCLIFake(t, fakeapi.Scenario{})
			ws := t.TempDir()
			start := time.Now()
			res := cliRun{vars: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws,
				"GITHUB_OUTPUT": filepath.Join(ws, "out"), "GITHUB_STEP_SUMMARY": filepath.Join(ws, "sum"),
				"GITHUB_EVENT_NAME": "issue_comment", "GITHUB_EVENT_PATH": tt.path, "GITHUB_REPOSITORY": "acme/docs",
				"INPUT_PROJECT-ID": "proj-1", "INPUT_API-KEY": testKey, "INPUT_BASE-URL": api.URL, "INPUT_TIMEOUT": "5s"}}.exec(t, bin)
			took := time.Since(start)
			if res.code != cli.ExitUsage || !strings.Contains(res.stdout, "::error::read issue_comment event: event payload") || !strings.Contains(res.stdout, tt.reason) {
				t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
			}
			if n := len(api.Requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
			t.Logf("%s: exit %d in %s", tt.name, res.code, took.Round(time.Millisecond))
		})
	}
}
