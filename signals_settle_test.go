//go:build unix

package main

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/runner"
	"github.com/agentjob/agent-job-action/internal/testbed/step"
)

// runnerCancel is how the Actions runner cancels a step's process
// (GitHub's "Workflow cancellation reference"): SIGINT, then SIGTERM
// when the process still runs Interrupt later, then SIGKILL when it
// still runs Term after that.
type runnerCancel struct {
	Interrupt, Term time.Duration
}

// githubCancel is the runner's own grace periods. A test injects a
// shorter Interrupt, so that it does not wait 7.5 s for the SIGTERM.
var githubCancel = runnerCancel{Interrupt: runner.InterruptGrace, Term: runner.TermGrace}

// cancel cancels cmd, started, as the runner would, and returns how it
// ended: killed says SIGKILL ended it. onTerm is called once the runner
// has sent SIGTERM, or once the process ended before it had to.
func (c runnerCancel) cancel(t *testing.T, cmd *exec.Cmd, onTerm func()) (err error, killed bool) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err = <-done:
		onTerm()
		return err, false
	case <-time.After(c.Interrupt):
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatal(err)
	}
	onTerm()
	select {
	case err = <-done:
		return err, false
	case <-time.After(c.Term):
		_ = cmd.Process.Kill()
		return <-done, true
	}
}

// The code pull request #7 of the settle test's world: its heads, push
// after push, the base the events name and the commit both share.
const (
	sigHead1     = "1111111111111111111111111111111111111111"
	sigHead2     = "2222222222222222222222222222222222222222"
	sigBase      = "c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc"
	sigMergeBase = "5555555555555555555555555555555555555555"
)

// sigCodePR is a pull_request event of #7 in acme/docs at head.
func sigCodePR(action, head string) map[string]any {
	return map[string]any{
		"action": action, "number": 7,
		"pull_request": map[string]any{
			"number": 7, "title": "Send rate-limit headers", "body": "Adds a header.",
			"html_url": "https://github.com/acme/docs/pull/7", "draft": false, "user": step.User("writer"), "state": "open", "comments": 0,
			"head": map[string]any{"ref": "rate-headers", "sha": head, "repo": map[string]any{"full_name": "acme/docs"}},
			"base": map[string]any{"ref": "main", "sha": sigBase, "repo": map[string]any{"full_name": "acme/docs"}},
		},
		"repository": map[string]any{"name": "docs", "full_name": "acme/docs", "owner": map[string]any{"login": "acme"}},
		"sender":     step.User("writer"),
	}
}

// setEvent makes the harness's next run one of event name with payload.
func (h *harness) setEvent(name string, payload any) {
	h.t.Helper()
	step.Event(h.t, h.vars, name, payload)
	h.stdout.Reset()
}

// changeWaits is #7 opened with wait: false, then pushed to (head1 to
// head2) while its job worked, then the job's end: the record holds the
// change of head2, which waits for a settle run to send.
func changeWaits(t *testing.T) (*harness, *fakegithub.Server) {
	t.Helper()
	h := newHarness(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	files := []fakegithub.File{{Name: "src/limits.go", Additions: 1, Patch: "@@ -1 +1,2 @@\n+\tw.WriteHeader(429)"}}
	gh := h.withGitHub(fakegithub.Options{}, "pull_request", sigCodePR("opened", sigHead1))
	gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: sigHead1, Files: files})
	gh.SeedComparison("acme/docs", sigBase, sigHead1, fakegithub.Comparison{MergeBase: sigMergeBase, Files: files})
	h.vars["INPUT_PATHS"] = "src/**"
	h.vars["INPUT_WAIT"] = "false"
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, h.stdout.String())
	}

	h.clk.Advance(time.Minute)
	pushed := fakegithub.File{Name: "src/push.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
	all := append(slices.Clone(files), pushed)
	gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: sigHead2, Files: all})
	gh.SeedComparison("acme/docs", sigHead1, sigHead2, fakegithub.Comparison{Files: []fakegithub.File{pushed}})
	gh.SeedComparison("acme/docs", sigBase, sigHead2, fakegithub.Comparison{MergeBase: sigMergeBase, Files: all})
	push := sigCodePR("synchronize", sigHead2)
	push["before"], push["after"] = sigHead1, sigHead2
	h.setEvent("pull_request", push)
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, h.stdout.String())
	}
	if r := sigRecord(t, gh); r.Waiting != sigHead2 {
		t.Fatalf("after the push the record does not hold head2's change: %+v\n%s", r, h.stdout.String())
	}

	h.clk.Advance(10 * time.Minute)
	h.setEvent("schedule", map[string]any{"schedule": "*/15 * * * *"})
	h.vars["INPUT_SETTLE"] = "true"
	return h, gh
}

// sigRecord is the record of #7's one comment.
func sigRecord(t *testing.T, gh *fakegithub.Server) record.Record {
	t.Helper()
	c := gh.Comments(7)
	if len(c) != 1 {
		t.Fatalf("%d comments on #7, want the record's one", len(c))
	}
	return conversation.EarlierOf(&ghclient.Comment{Body: c[0].Body}).Record
}

// TestSettleCancelledByTheRunnerKeepsWhatItSent runs a settle run as a
// process and cancels it as the runner cancels a step, the moment the
// Agent Job API has received the follow-up with the change that waited:
// SIGINT, then SIGTERM (its grace period injected short), and the API's
// answer only after both, as a slow API gives it. The run hears the
// answer, and the record says the job heard head2 and counts the send,
// written after both signals and before the SIGKILL. Once the job ends
// again, the next settle run reports its end and sends nothing: the API
// received one follow-up in all.
func TestSettleCancelledByTheRunnerKeepsWhatItSent(t *testing.T) {
	t.Parallel()
	h, gh := changeWaits(t)
	received := make(chan struct{}, 1)
	answer := make(chan struct{})
	// The settle run's requests to the API: 1 read of the job, 2 the
	// follow-up.
	h.api.FailOn(len(h.api.Requests())+2, func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/message") {
			t.Errorf("held %s %s, want the follow-up", r.Method, r.URL.Path)
		}
		received <- struct{}{}
		<-answer
		return false
	})

	cmd, stdout, stderr := h.startMain(t)
	select {
	case <-received:
	case <-time.After(hangGuard):
		close(answer)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the follow-up never came\n%s", stdout.String())
	}
	runner := githubCancel
	runner.Interrupt = 50 * time.Millisecond
	sent := time.Now()
	err, killed := runner.cancel(t, cmd, func() { close(answer) })
	t.Logf("exited %s after the SIGINT: %v", time.Since(sent).Round(time.Millisecond), err)
	if killed {
		t.Errorf("still running %s after the SIGTERM: killed\n%s", runner.Term, stdout.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
	if r := sigRecord(t, gh); r.Head != sigHead2 || r.Waiting != "" || r.Sent.Total != 2 || !r.Unsettled {
		t.Errorf("the record after a settle run cancelled once its follow-up went: %+v, want the job to have heard head2 and the send counted\nlog:\n%s", r, stdout.String())
	}

	nextSettleSendsNothing(t, h)
	if r := sigRecord(t, gh); r.Unsettled || r.Head != sigHead2 || r.Sent.Total != 2 {
		t.Errorf("the record after the second settle run: %+v, want the job's end reported, head2 heard, two sends\nlog:\n%s", r, h.stdout.String())
	}
}

// TestSettleCancelledWhileGitHubHangsKeepsWhatItSent: the same settle
// run, cancelled as the runner cancels a step the moment its follow-up has
// gone, while GitHub holds the first request after it (a read of the
// record's comment, on a connection that never answers): the record's
// write has seconds of its own, and a hung attempt takes only part of
// them, so another attempt writes the record before the runner's SIGKILL.
// The next settle run then sends nothing again.
func TestSettleCancelledWhileGitHubHangsKeepsWhatItSent(t *testing.T) {
	t.Parallel()
	h, gh := changeWaits(t)
	var sent atomic.Bool
	h.api.FailOn(len(h.api.Requests())+2, func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/message") {
			t.Errorf("watched %s %s, want the follow-up", r.Method, r.URL.Path)
		}
		sent.Store(true)
		return false
	})
	held, release := make(chan string, 1), make(chan struct{})
	t.Cleanup(func() { close(release) })
	var once sync.Once
	gh.SetFault(func(w http.ResponseWriter, r *http.Request) bool {
		hold := false
		if sent.Load() {
			once.Do(func() { hold = true })
		}
		if !hold {
			return false
		}
		held <- r.Method + " " + r.URL.Path
		<-release
		return true
	})

	cmd, stdout, stderr := h.startMain(t)
	select {
	case req := <-held:
		t.Logf("GitHub holds %s", req)
	case <-time.After(hangGuard):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("no GitHub request came after the follow-up\n%s", stdout.String())
	}
	// The runner's grace after the SIGINT is 7.5 s; 1.5 s here still
	// ends the process, with the SIGKILL, before the record's write has
	// had its 4 s (publish.RecordFor).
	runner := githubCancel
	runner.Interrupt = 1500 * time.Millisecond
	err, killed := runner.cancel(t, cmd, func() {})
	t.Logf("exited after the SIGINT: %v, killed %v", err, killed)
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
	if r := sigRecord(t, gh); r.Head != sigHead2 || r.Waiting != "" || r.Sent.Total != 2 || !r.Unsettled {
		t.Errorf("the record after a settle run cancelled while GitHub hung: %+v, want the job to have heard head2 and the send counted\nlog:\n%s", r, stdout.String())
	}
	nextSettleSendsNothing(t, h)
}

// nextSettleSendsNothing waits until the API has taken the follow-up it
// received, whether or not the cancelled run still listened (the job works
// on head2 from then), ends the job again, and runs the next settle run:
// it reports the job's end and sends nothing, the job having heard head2.
func nextSettleSendsNothing(t *testing.T, h *harness) {
	t.Helper()
	for deadline := time.Now().Add(hangGuard); len(h.api.Ends()) < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the API never took the follow-up it received")
		}
	}
	h.clk.Advance(10 * time.Minute)
	h.stdout.Reset()
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("second settle run: %v\n%s", err, h.stdout.String())
	}
	h.wantRequests(1, 1)
}
