//go:build unix

package main

import (
	"bufio"
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
			err := waitGuarded(t, cmd, sent, sig.String())
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != cli.ExitCancelled {
				t.Errorf("exit: %v, want status %d", err, cli.ExitCancelled)
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

// TestCLIKeyFromStdinInterruptible: while
// --api-key-stdin waits for the key on a pipe nobody writes to, it says so
// on standard error, once, and Ctrl+C, SIGTERM and --timeout end the run
// like any other wait (130, or 3), and nothing is sent. The binary says so
// after 10 ms here (cli.KeyHintAfter otherwise): the signal is sent once
// it has, when the program is surely reading, its handlers in place.
func TestCLIKeyFromStdinInterruptible(t *testing.T) {
	t.Parallel()
	bin := buildCLIWith(t, "-X main.keyHint=10ms")
	const hint = "waiting for the API key on standard input (--api-key-stdin): pipe it in"
	for _, tt := range []struct {
		name string
		sig  syscall.Signal // 0: the timeout ends it
		args []string
		code int
		line string
	}{
		{"SIGINT", syscall.SIGINT, nil, cli.ExitCancelled, "(interrupted): nothing was sent"},
		{"SIGTERM", syscall.SIGTERM, nil, cli.ExitCancelled, "(interrupted): nothing was sent"},
		{"timeout", 0, []string{"--timeout", "2s"}, cli.ExitTimedOut, "(timeout reached): nothing was sent"},
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
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			errPipe, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pr.Close()
			// Standard error, line by line; the hint's line signalled.
			var stderr strings.Builder
			hinted, read := make(chan struct{}), make(chan struct{})
			go func() {
				defer close(read)
				sc := bufio.NewScanner(errPipe)
				for seen := false; sc.Scan(); {
					stderr.WriteString(sc.Text() + "\n")
					if !seen && strings.HasPrefix(sc.Text(), hint) {
						seen = true
						close(hinted)
					}
				}
			}()
			if tt.sig != 0 {
				select {
				case <-hinted:
				case <-read:
					t.Fatalf("the program ended before it said it waits for the key:\n%s", stderr.String())
				case <-time.After(hangGuard):
					_ = cmd.Process.Kill()
					<-read
					t.Fatalf("the program never said it waits for the key:\n%s", stderr.String())
				}
				if err := cmd.Process.Signal(tt.sig); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case <-read:
			case <-time.After(hangGuard):
				_ = cmd.Process.Kill()
				<-read
				t.Fatalf("still waiting for the key %s later: hung\nstderr:\n%s", hangGuard, stderr.String())
			}
			err = cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tt.code {
				t.Errorf("exit: %v, want status %d\nstderr:\n%s", err, tt.code, stderr.String())
			}
			if n := strings.Count(stderr.String(), hint); n != 1 {
				t.Errorf("%d lines say the run waits for the key, want one\nstderr:\n%s", n, stderr.String())
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
