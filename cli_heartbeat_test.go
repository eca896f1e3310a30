package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// TestCLIHeartbeat runs the built binary as a step, its
// heartbeat set to 40 ms for the test, against a job that stays active
// for 40 polls, which the binary makes 10 ms apart at the least: the step's log
// says the job is still active, inside the wait's group, standard error
// stays empty and the step exits 0. Outside Actions the same binary's
// standard error has no heartbeat.
func TestCLIHeartbeat(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "agent-job-action")
	cmd := exec.Command("go", "build", "-tags", "nodemo", "-o", bin, "-ldflags", "-X main.pollEvery=10ms -X main.heartbeat=40ms", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, inActions := range []bool{true, false} {
		t.Run(fmt.Sprintf("in Actions: %v", inActions), func(t *testing.T) {
			t.Parallel()
			// Active for 40 polls, 10 ms apart at the least: 10 heartbeats.
			api := newCLIFake(t, fakeapi.Scenario{Reads: 40})
			dir := t.TempDir()
			run := cliRun{dir: dir, vars: map[string]string{"MINTLIFY_API_KEY": testKey}, args: []string{
				"--project-id", "proj-1", "--base-url", api.URL, "--prompt", "Add a FAQ page.", "--preview=false"}}
			if inActions {
				run = cliRun{dir: dir, vars: map[string]string{
					"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": dir,
					"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
					"INPUT_PROMPT": "Add a FAQ page.", "INPUT_PROJECT-ID": "proj-1", "INPUT_API-KEY": testKey,
					"INPUT_BASE-URL": api.URL, "INPUT_PREVIEW": "false",
				}}
			}
			res := run.exec(t, bin)
			if res.code != cli.ExitOK {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
			}
			if !inActions {
				if strings.Contains(res.stderr, "still active") {
					t.Errorf("a heartbeat outside Actions:\n%s", res.stderr)
				}
				return
			}
			if res.stderr != "" {
				t.Errorf("stderr %q", res.stderr)
			}
			group, _, _ := strings.Cut(res.stdout, "::endgroup::")
			_, group, _ = strings.Cut(group, "::group::Waiting for job job_0001")
			if n := strings.Count(group, "] job job_0001: still active\n"); n < 2 {
				t.Errorf("%d heartbeats inside the wait's group, want several:\n%s", n, res.stdout)
			}
			if strings.Count(res.stdout, "still active") != strings.Count(group, "still active") {
				t.Errorf("a heartbeat outside the wait's group:\n%s", res.stdout)
			}
		})
	}
}
