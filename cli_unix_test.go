//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// TestCLICancelled: the built binary interrupted during the wait, as Ctrl+C
// or a CI's SIGTERM does, exits with the cancelled status at once and says
// that the job goes on.
func TestCLICancelled(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			api := newCLIFake(t, fakeapi.Scenario{Runtime: time.Hour})
			cmd := exec.Command(bin, "--prompt", "Fix typos", "--base-url", api.URL)
			cmd.Env = cliEnv(map[string]string{"MINTLIFY_API_KEY": testKey, "MINTLIFY_PROJECT_ID": "proj-1"})
			cmd.Dir = t.TempDir()
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Signalled once the wait has begun: the first poll has come.
			for deadline := time.Now().Add(10 * time.Second); api.Gets() == 0; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					_ = cmd.Process.Kill()
					t.Fatalf("no poll came\n%s", stdout.String())
				}
			}
			sent := time.Now()
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != cli.ExitCancelled {
				t.Errorf("exit: %v, want status %d", err, cli.ExitCancelled)
			}
			if took := time.Since(sent); took > 2*time.Second {
				t.Errorf("took %s to exit", took)
			}
			for _, want := range []string{"error: cancelled while waiting for job job_0001", "The job goes on running", "run again with --job-id job_0001"} {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
			if !strings.Contains(stdout.String(), "output job-id=job_0001\n") {
				t.Errorf("stdout lacks the job's id:\n%s", stdout.String())
			}
			wantResultsOnly(t, stdout.String())
			wantHumanLog(t, "stderr", stderr.String())
			if api.Creates() != 1 {
				t.Errorf("%d creates", api.Creates())
			}
		})
	}
}

// TestCLIKeyFromStdinInterruptible (issue 17, item 8): while
// --api-key-stdin waits for the key on a pipe nobody writes to, Ctrl+C,
// SIGTERM and --timeout end the run like any other wait (130, or 3), and
// nothing is sent.
func TestCLIKeyFromStdinInterruptible(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)
	for _, tt := range []struct {
		name string
		sig  syscall.Signal // 0: the timeout ends it
		args []string
		code int
		line string
	}{
		{"SIGINT", syscall.SIGINT, nil, cli.ExitCancelled, "(interrupted): nothing was sent"},
		{"SIGTERM", syscall.SIGTERM, nil, cli.ExitCancelled, "(interrupted): nothing was sent"},
		{"timeout", 0, []string{"--timeout", "300ms"}, cli.ExitTimedOut, "(timeout reached): nothing was sent"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := newCLIFake(t, fakeapi.Scenario{})
			cmd := exec.Command(bin, append([]string{"--api-key-stdin", "--prompt", "p", "--project-id", "proj-1", "--base-url", api.URL}, tt.args...)...)
			cmd.Env = cliEnv(nil)
			cmd.Dir = t.TempDir()
			// A pipe kept open and never written: the read blocks.
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer pw.Close()
			cmd.Stdin = pr
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pr.Close()
			if tt.sig != 0 {
				// Long enough for the program to have installed its signal
				// handlers (the first thing main does) and to be reading, on
				// a loaded machine too: 500 ms was not, under a load of 20
				// on two CPUs. Go's runtime catches every signal from the
				// start, so nothing outside the program tells when main's
				// own handler is in place.
				time.Sleep(2 * time.Second)
				if err := cmd.Process.Signal(tt.sig); err != nil {
					t.Fatal(err)
				}
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("still waiting for the key 10s later\nstderr:\n%s", stderr.String())
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tt.code {
				t.Errorf("exit: %v, want status %d\nstderr:\n%s", err, tt.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.line) || stdout.Len() != 0 {
				t.Errorf("stderr lacks %q, or stdout is not empty\nstdout:\n%s\nstderr:\n%s", tt.line, stdout.String(), stderr.String())
			}
			if n := len(api.Requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}
