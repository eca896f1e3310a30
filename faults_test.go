package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/testbed/fakeapi"
	"github.com/agentjob/agent-job-action/internal/testbed/fakegithub"
	"github.com/agentjob/agent-job-action/internal/testbed/faults"
)

// Request numbers on the fake Agent Job API in a plain run: the create is
// request 1, polls follow.
const (
	reqCreate    = 1
	reqFirstPoll = 2
)

var start = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

type faultCase struct {
	name  string
	at    int
	fault faults.Fault
	// tweak adjusts the harness: inputs, timeouts.
	tweak   func(h *harness)
	wantErr bool
	out     map[string]string // outputs that must have these values
	creates int
	msgs    int
	log     string        // a line the log must contain
	virtual time.Duration // the most simulated time the run may take
}

func TestFaultsAgentAPI(t *testing.T) {
	t.Parallel()
	completed := map[string]string{"job-id": "job_0001", "status": "completed", "timed-out": "false", "pr-number": "101"}
	uncertain := map[string]string{"job-id": "", "status": "", "timed-out": "false"}
	tests := []faultCase{}
	for _, code := range []int{500, 502, 503, 504} {
		tests = append(tests,
			faultCase{name: http.StatusText(code) + " JSON on create", at: reqCreate, fault: faults.Status(code), wantErr: true,
				out: uncertain, creates: 1, log: "the job may or may not have been created", virtual: time.Second},
			faultCase{name: http.StatusText(code) + " HTML on create", at: reqCreate, fault: faults.HTMLStatus(code), wantErr: true,
				out: uncertain, creates: 1, log: "the job may or may not have been created", virtual: time.Second},
			faultCase{name: http.StatusText(code) + " JSON on poll", at: reqFirstPoll, fault: faults.Status(code),
				out: completed, creates: 1, log: "retry 1 in", virtual: 5 * time.Minute},
			faultCase{name: http.StatusText(code) + " HTML on poll", at: reqFirstPoll, fault: faults.HTMLStatus(code),
				out: completed, creates: 1, log: "retry 1 in", virtual: 5 * time.Minute},
		)
	}
	tests = append(tests, []faultCase{
		{name: "429 Retry-After seconds on create", at: reqCreate, fault: faults.RateLimited(faults.Seconds(30)),
			out: completed, creates: 2, log: "HTTP 429; retry 1 in 30s", virtual: 5 * time.Minute},
		{name: "429 Retry-After date on poll", at: reqFirstPoll, fault: faults.RateLimited(faults.Date(start.Add(3 * time.Minute))),
			out: completed, creates: 1, log: "HTTP 429; retry 1 in", virtual: 6 * time.Minute},
		{name: "429 Retry-After past the timeout on create", at: reqCreate, fault: faults.RateLimited(faults.Seconds(3600)),
			wantErr: true, out: uncertain, creates: 1, log: "asks to wait 1h0m0s before trying again, but only 30m0s is left of the timeout\n", virtual: time.Second},
		{name: "429 Retry-After past the timeout on poll", at: reqFirstPoll, fault: faults.RateLimited(faults.Seconds(7200)),
			wantErr: true, out: map[string]string{"job-id": "job_0001", "status": "active", "timed-out": "true"}, creates: 1,
			log: "to continue it later, run again with job-id: job_0001", virtual: time.Minute},
		{name: "reset before read on create", at: reqCreate, fault: faults.ResetBeforeRead(), wantErr: true,
			out: uncertain, creates: 1, log: "the job may or may not have been created", virtual: time.Second},
		{name: "reset after read on create", at: reqCreate, fault: faults.ResetAfterRead(), wantErr: true,
			out: uncertain, creates: 1, log: "the job may or may not have been created", virtual: time.Second},
		{name: "reset on poll", at: reqFirstPoll, fault: faults.ResetAfterRead(),
			out: completed, creates: 1, virtual: 5 * time.Minute},
		{name: "no response to create", at: reqCreate, fault: faults.Hang(), wantErr: true,
			tweak: func(h *harness) { h.env.RequestTimeout = 100 * time.Millisecond },
			out:   uncertain, creates: 1, log: "the job may or may not have been created", virtual: time.Second},
		{name: "no response to a poll", at: reqFirstPoll, fault: faults.Hang(),
			tweak: func(h *harness) { h.env.RequestTimeout = 100 * time.Millisecond },
			out:   completed, creates: 1, log: "no response; retry 1 in", virtual: 5 * time.Minute},
		{name: "truncated body on create", at: reqCreate, fault: faults.Truncated(http.StatusCreated), wantErr: true,
			out: uncertain, creates: 1, log: "the job may or may not have been created", virtual: time.Second},
		{name: "truncated body on poll", at: reqFirstPoll, fault: faults.Truncated(http.StatusOK),
			out: completed, creates: 1, log: "HTTP 200; retry 1 in", virtual: 5 * time.Minute},
		{name: "HTML page with 200 on poll", at: reqFirstPoll, fault: faults.HTMLPage(),
			out: completed, creates: 1, log: "HTTP 200; retry 1 in", virtual: 5 * time.Minute},
		{name: "HTML page with 201 on create", at: reqCreate, fault: faults.HTMLStatus(http.StatusCreated), wantErr: true,
			out: uncertain, creates: 1, log: "malformed response body: not a job record: invalid character '<' looking for beginning of value; the job may or may not have been created", virtual: time.Second},
		{name: "502 on follow-up", at: 1, fault: faults.Status(http.StatusBadGateway), wantErr: true,
			tweak: func(h *harness) { h.api.AddJob("job_old", "active"); h.vars["INPUT_JOB-ID"] = "job_old" },
			out:   map[string]string{"job-id": "job_old", "timed-out": "false"}, msgs: 1,
			log: "the follow-up may or may not have been delivered", virtual: time.Second},
		{name: "reset after read on follow-up", at: 1, fault: faults.ResetAfterRead(), wantErr: true,
			tweak: func(h *harness) { h.api.AddJob("job_old", "active"); h.vars["INPUT_JOB-ID"] = "job_old" },
			out:   map[string]string{"job-id": "job_old", "timed-out": "false"}, msgs: 1,
			log: "the follow-up may or may not have been delivered", virtual: time.Second},
		{name: "job disappears mid-wait", at: reqFirstPoll + 1, fault: faults.Status(http.StatusNotFound), wantErr: true,
			out: map[string]string{"job-id": "job_0001", "status": "active", "timed-out": "false"}, creates: 1,
			log: "::error::wait for job job_0001: get job: HTTP 404 Not Found", virtual: 5 * time.Minute},
		{name: "unknown status values", at: reqFirstPoll, fault: faults.JSON(http.StatusOK, map[string]any{"id": "job_0001", "status": "queued", "futureField": []int{1}}),
			out: completed, creates: 1, log: "job job_0001 has status queued, which this action does not know; still waiting", virtual: 5 * time.Minute},
		{name: "unknown status that is a legacy workflow command", at: reqFirstPoll, fault: faults.JSON(http.StatusOK, map[string]any{"id": "job_0001", "status": "##[add-mask]writer"}),
			out: completed, creates: 1, log: `has status "\x23\x23[add-mask]writer"`, virtual: 5 * time.Minute},
		{name: "follow-up refused because the job is closed", wantErr: true,
			tweak: func(h *harness) { h.api.AddJob("job_old", "archived"); h.vars["INPUT_JOB-ID"] = "job_old" },
			out:   map[string]string{"job-id": "job_old", "timed-out": "false"}, msgs: 1,
			log: "::error::send follow-up: HTTP 400 Bad Request: job is archived and cannot take messages (job job_old)", virtual: time.Second},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: 3 * time.Minute})
			if tt.fault != nil {
				h.api.FailOn(tt.at, tt.fault)
			}
			if tt.tweak != nil {
				tt.tweak(h)
			}
			err := h.run(context.Background())
			if (err != nil) != tt.wantErr {
				t.Fatalf("run error %v, want error %v\n%s", err, tt.wantErr, h.stdout.String())
			}
			h.wantOutputs(tt.out)
			h.wantRequests(tt.creates, tt.msgs)
			if !strings.Contains(h.stdout.String(), tt.log) {
				t.Errorf("log lacks %q:\n%s", tt.log, h.stdout.String())
			}
			if strings.Contains(h.stdout.String(), "##[") {
				t.Errorf("a legacy ##[command] reached the log:\n%s", h.stdout.String())
			}
			took := h.clk.Now().Sub(start)
			if took > tt.virtual {
				t.Errorf("took %s of simulated time, want at most %s", took, tt.virtual)
			}
			t.Logf("exit error %v; %d create, %d message, %d get; %s simulated", err != nil,
				h.api.Creates(), h.api.Messages(), h.api.Gets(), took)
		})
	}
}

func TestFaultRedirectToAnotherHost(t *testing.T) {
	t.Parallel()
	var leaked, seen atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Add(1)
		if r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
		w.WriteHeader(http.StatusTeapot)
	}))
	defer other.Close()
	for _, at := range []int{reqCreate, reqFirstPoll} {
		h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
		h.api.FailOn(at, faults.Redirect(strings.Replace(other.URL, "127.0.0.1", "localhost", 1)))
		err := h.run(context.Background())
		if at == reqCreate {
			if err == nil || !strings.Contains(h.stdout.String(), "unexpected redirect; check base-url") {
				t.Errorf("redirected create: %v\n%s", err, h.stdout.String())
			}
			h.wantRequests(1, 0)
		} else if err != nil {
			t.Errorf("a redirected poll must be survived: %v\n%s", err, h.stdout.String())
		}
	}
	if seen.Load() != 0 || leaked.Load() != 0 {
		t.Errorf("the other host got %d requests, %d with Authorization", seen.Load(), leaked.Load())
	}
}

// TestFaultHugeBody runs alone (no t.Parallel) so that the allocation count
// is the run's own.
func TestFaultHugeBody(t *testing.T) {
	const size = 50 << 20
	for _, tc := range []struct {
		name  string
		fault faults.Fault
		at    int
	}{
		{"50 MiB poll with length", faults.Huge(http.StatusOK, size), reqFirstPoll},
		{"50 MiB poll chunked", faults.HugeChunked(http.StatusOK, size), reqFirstPoll},
		{"50 MiB create chunked", faults.HugeChunked(http.StatusCreated, size), reqCreate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
			h.api.FailOn(tc.at, tc.fault)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			err := h.run(context.Background())
			runtime.ReadMemStats(&after)
			if tc.at == reqCreate {
				if err == nil || !strings.Contains(h.stdout.String(), "response body too large") {
					t.Errorf("huge create answer: %v\n%s", err, h.stdout.String())
				}
				h.wantRequests(1, 0)
			} else if err != nil {
				t.Errorf("run: %v\n%s", err, h.stdout.String())
			}
			// The client and the fake's streaming together allocate a few MiB;
			// reading the body whole would allocate over 50.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
				t.Errorf("allocated %d MiB for a %d MiB body", alloc>>20, size>>20)
			}
			t.Logf("allocated %.1f MiB, heap peak sys %.1f MiB", float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), float64(after.HeapSys)/(1<<20))
		})
	}
}

func TestFaultsGitHub(t *testing.T) {
	t.Parallel()
	// GitHub request numbers in a comment-triggered run: 1 permission,
	// 2 reaction, 3 create comment, 4 list comments, 5 first edit, ...
	tests := []struct {
		name    string
		at      int
		fault   faults.Fault
		wantErr bool
		created int
		warn    string
	}{
		{name: "500 on permission check is retried", at: 1, fault: faults.Status(500), created: 1},
		{name: "403 on permission check refuses to act", at: 1, fault: faults.Status(403), wantErr: true},
		{name: "502 HTML on reaction", at: 2, fault: faults.HTMLStatus(502), created: 1},
		{name: "500 on comment create is not repeated", at: 3, fault: faults.Status(500), created: 0, warn: "could not write the comment"},
		{name: "reset on comment create is not repeated", at: 3, fault: faults.ResetAfterRead(), created: 0, warn: "could not write the comment"},
		{name: "503 on comment edit is retried", at: 5, fault: faults.Status(503), created: 1},
		{name: "429 on comment edit is retried", at: 5, fault: faults.RateLimited("2"), created: 1},
		{name: "redirect on list comments", at: 4, fault: faults.Redirect("http://localhost:1"), created: 1,
			warn: "could not read the thread's comments to find an earlier job: list comments on #12: Get request failed: redirect to another host refused; the job is not affected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
			var script faults.Script
			gh := h.withGitHub(fakegithub.Options{Fault: script.On(tt.at, tt.fault).Serve}, "issue_comment", issueComment("writer", "/docs add a page"))
			err := h.run(context.Background())
			h.assertNoToken()
			if (err != nil) != tt.wantErr {
				t.Fatalf("run error %v, want error %v\n%s", err, tt.wantErr, h.stdout.String())
			}
			if tt.wantErr {
				h.wantRequests(0, 0)
				return
			}
			h.wantRequests(1, 0)
			h.wantOutputs(map[string]string{"status": "completed"})
			if gh.CommentsCreated() != tt.created {
				t.Errorf("%d comments created, want %d", gh.CommentsCreated(), tt.created)
			}
			if tt.warn != "" && !strings.Contains(h.stdout.String(), "::warning::"+tt.warn) {
				t.Errorf("log lacks warning %q:\n%s", tt.warn, h.stdout.String())
			}
		})
	}
}
