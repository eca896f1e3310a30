//go:build unix

package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/testbed/fakeapi"
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
