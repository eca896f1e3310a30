package action_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
)

// TestSettleRecordsASendThatWentWhenCancelled: a settle run cancelled as
// the runner cancels it, at any moment, here the moment the Agent API has
// received the follow-up with the change that waited and before it
// answers, still hears the answer and writes in the record that the job
// heard the new head, and the send counts for the caps. The next settle
// run sends the same change no second time. (The process, cancelled with
// the runner's signals, is TestSettleCancelledByTheRunnerKeepsWhatItSent.)
func TestSettleRecordsASendThatWentWhenCancelled(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	pushWhileWorking(t, w)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The settle run's requests to the API: 1 read of the job, 2 the
	// follow-up.
	w.api.FailOn(len(w.api.Requests())+2, func(_ http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/message") {
			t.Errorf("cancelled on %s %s, want the follow-up", r.Method, r.URL.Path)
		}
		cancel()
		return false
	})
	_ = w.runGuarded(ctx)
	w.wantRequests(1, 1)
	c := w.gh.Comments(7)
	if r := recordIn(c[0].Body); len(c) != 1 || r.Head != head2 || r.Waiting != "" || r.Sent.Total != 2 || !r.Unsettled {
		t.Fatalf("the record after a settle run cancelled once its follow-up went: %+v, want the job to have heard %s, the send counted:\n%s", r, head2, w.stdout.String())
	}

	// The job ends; the next settle run reports it, and sends nothing.
	w.clk.Advance(10 * time.Minute)
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("second settle: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Unsettled || r.Head != head2 {
		t.Errorf("the record after the second settle run: %+v, want the job's end reported", r)
	}
}

// TestSettleRecordsASendThatWentAtItsTimeout: a settle run whose time is
// up the moment the Agent API takes the follow-up still writes the record,
// and retries it: GitHub's first answer to the record's read is a 502.
// The record's write has a deadline of its own, past the run's.
func TestSettleRecordsASendThatWentAtItsTimeout(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	pushWhileWorking(t, w)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	var sent, failed atomic.Bool
	// The settle run's requests to the API: 1 read of the job, 2 the
	// follow-up, which takes the rest of the run's 30 minutes.
	w.api.FailOn(len(w.api.Requests())+2, func(http.ResponseWriter, *http.Request) bool {
		w.clk.Advance(time.Hour)
		sent.Store(true)
		return false
	})
	w.gh.SetFault(func(rw http.ResponseWriter, r *http.Request) bool {
		if sent.Load() && r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/issues/comments/") && !failed.Swap(true) {
			rw.WriteHeader(http.StatusBadGateway)
			return true
		}
		return false
	})
	_ = w.runGuarded(context.Background())
	w.wantRequests(1, 1)
	if !failed.Load() {
		t.Fatalf("the record's read was never answered 502:\n%s", w.stdout.String())
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Head != head2 || r.Waiting != "" || r.Sent.Total != 2 {
		t.Errorf("the record after a settle run that reached its timeout once its follow-up went: %+v, want the job to have heard %s, the send counted:\n%s", r, head2, w.stdout.String())
	}
}

// TestPushRecordsAFollowUpThatWentWhenCancelled: a push's run cancelled
// the moment the Agent API has received its follow-up, before the answer,
// hears the answer and records that the job heard the push's head, at
// once: also when its last words are lost (GitHub holds the commit
// status, which goes first, past LastWords). Once the job ends, a settle
// run sends the change no second time.
func TestPushRecordsAFollowUpThatWentWhenCancelled(t *testing.T) {
	t.Parallel()
	for _, lastWordsLost := range []bool{false, true} {
		t.Run(fmt.Sprintf("last words lost: %v", lastWordsLost), func(t *testing.T) {
			t.Parallel()
			w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
			w.clk.Advance(10 * time.Minute)
			f := fakegithub.File{Name: "src/push.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
			w.moveHead(head1, head2, []fakegithub.File{f}, append(slices.Clone(codeFiles), f))
			w.setEvent("pull_request", push(head1, head2))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var sent atomic.Bool
			// The push's requests to the API: 1 read of the job, 2 the
			// follow-up.
			w.api.FailOn(len(w.api.Requests())+2, func(_ http.ResponseWriter, r *http.Request) bool {
				if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/message") {
					t.Errorf("cancelled on %s %s, want the follow-up", r.Method, r.URL.Path)
				}
				sent.Store(true)
				cancel()
				return false
			})
			if lastWordsLost {
				w.gh.SetFault(func(rw http.ResponseWriter, r *http.Request) bool {
					if sent.Load() && r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/statuses/") {
						return faults.Hang()(rw, r)
					}
					return false
				})
			}
			_ = w.runGuarded(ctx)
			w.wantRequests(1, 1)
			if r := recordIn(w.gh.Comments(7)[0].Body); r.Head != head2 || r.Waiting != "" || r.Sent.Total != 2 || !r.Unsettled {
				t.Fatalf("the record after a push's run cancelled once its follow-up went: %+v, want the job to have heard %s, the send counted:\n%s", r, head2, w.stdout.String())
			}

			w.gh.SetFault(nil)
			w.clk.Advance(10 * time.Minute)
			w.settleRun()
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("settle: %v\n%s", err, w.stdout.String())
			}
			w.wantRequests(1, 1)
		})
	}
}

// TestThreadRecordsACreateThatWentWhenCancelled: a request's run
// cancelled the moment the Agent API has received its create, before the
// answer, hears the job's id: the job-id output and the comment's record
// name it, so that the next request in the thread continues that job.
// The record is written at once: also when the last words are lost
// (GitHub holds the comment's last edit past LastWords).
func TestThreadRecordsACreateThatWentWhenCancelled(t *testing.T) {
	t.Parallel()
	for _, lastWordsLost := range []bool{false, true} {
		t.Run(fmt.Sprintf("last words lost: %v", lastWordsLost), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Hour})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var opt fakegithub.Options
			if lastWordsLost {
				opt.Fault = func(w http.ResponseWriter, r *http.Request) bool {
					if r.Method != http.MethodPatch {
						return false
					}
					body, _ := io.ReadAll(r.Body)
					r.Body = io.NopCloser(bytes.NewReader(body))
					if strings.Contains(string(body), "cancelled") {
						return faults.Hang()(w, r)
					}
					return false
				}
			}
			gh := h.withGitHub(opt, "issue_comment", issueComment("writer", "/docs add a page"))
			h.api.FailOn(1, func(_ http.ResponseWriter, r *http.Request) bool {
				if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/job") {
					t.Errorf("cancelled on %s %s, want the create", r.Method, r.URL.Path)
				}
				cancel()
				return false
			})
			if err := h.runGuarded(ctx); err == nil {
				t.Fatalf("a cancelled run succeeded\n%s", h.stdout.String())
			}
			h.wantRequests(1, 0)
			h.wantOutputs(map[string]string{"job-id": "job_0001"})
			if c := gh.Comments(12); len(c) != 1 || recordIn(c[0].Body).JobID != "job_0001" {
				t.Errorf("the comment's record does not name the job created: %+v\n%s", c, h.stdout.String())
			}
		})
	}
}
