//go:build unix

package main

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
)

// TestSignals runs the program as a process and cancels it as a cancelled
// workflow does, with SIGTERM or SIGINT, at three moments, two of them
// while a request hangs and one an hour before the next poll. It must
// exit non-zero within the runner's window before its SIGKILL
// (hangGuard; the time is logged): a hanging create is heard out for
// httpclient.HearOut, a hanging edit of the record that names the job
// for report.RecordFor, the next poll not waited for. It keeps the
// outputs it knows, and marks the comment cancelled.
func TestSignals(t *testing.T) {
	t.Parallel()
	// GitHub requests in this run: 1 permission, 2 reaction, 3 create
	// comment, 4 list comments, 5 edit with the job's id.
	const editWithJob = 5
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		for _, phase := range []string{"during create", "during the wait", "during a comment edit"} {
			t.Run(sig.String()+" "+phase, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, fakeapi.Scenario{Runtime: time.Hour, Clock: clock.Real{}})
				arrived := make(chan struct{}, 1)
				signal := func() { arrived <- struct{}{} }
				var script faults.Script
				gh := h.withGitHub(fakegithub.Options{Fault: script.Serve}, "issue_comment", issueComment("writer", "/docs add a page"))
				wantJob := "job_0001"
				switch phase {
				case "during create":
					h.api.FailOn(1, func(w http.ResponseWriter, r *http.Request) bool { signal(); return faults.Hang()(w, r) })
					wantJob = ""
				case "during the wait":
					// The edit that shows the job's id comes after job-id is
					// written; the first poll is seconds away.
					script.On(editWithJob, faults.Notify(func() { time.AfterFunc(50*time.Millisecond, signal) }))
				case "during a comment edit":
					script.On(editWithJob, func(w http.ResponseWriter, r *http.Request) bool { signal(); return faults.Hang()(w, r) })
				}

				cmd, stdout, stderr := h.startMain(t)
				select {
				case <-arrived:
				case <-time.After(20 * time.Second):
					_ = cmd.Process.Kill()
					t.Fatalf("the moment to signal never came\n%s", stdout.String())
				}
				sent := time.Now()
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				err := waitGuarded(t, cmd, sent, sig.String())
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() == 0 {
					t.Errorf("exit: %v, want a non-zero status", err)
				}
				h.stdout.WriteString(stdout.String())
				h.assertNoSecrets()
				h.assertNoToken()
				h.wantOutputs(map[string]string{"job-id": wantJob, "timed-out": "false"})
				if wantJob != "" {
					h.wantOutputs(map[string]string{"status": "active"})
				}
				comments := gh.Comments(12)
				if len(comments) != 1 || !strings.Contains(comments[0].Body, cancelledMark(wantJob)) {
					t.Errorf("comment not marked cancelled: %+v\nlog:\n%s", comments, stdout.String())
				}
				if !strings.Contains(stdout.String(), "::error::") || stderr.Len() != 0 {
					t.Errorf("want an ::error:: line and an empty stderr\nstdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
				}
				h.wantRequests(1, 0)
			})
		}
	}
}

// cancelledMark is what the comment of a run cancelled says: that the job
// goes on, for a later run to report, once it exists; that it may or may
// not exist while it was being created.
func cancelledMark(job string) string {
	if job == "" {
		return "🚫 **Cancelled"
	}
	return "The workflow was cancelled while job `" + job + "` was active. The job goes on on the server"
}

// startMain starts this test binary as the program (runMainEnv) with the
// harness's variables as its whole environment, its streams in stdout and
// stderr.
func (h *harness) startMain(t *testing.T) (cmd *exec.Cmd, stdout, stderr *bytes.Buffer) {
	t.Helper()
	cmd = exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = []string{runMainEnv + "=1"}
	for k, v := range h.vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdout, stderr
}
