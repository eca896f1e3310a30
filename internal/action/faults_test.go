package action_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
	"github.com/agentjob/agent-job-action/internal/report"
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
	gets    int           // GETs the fake must have received, when checkGets
	// checkGets makes gets count: a run that ends at once must not poll.
	checkGets bool
	nap       time.Duration // a wait the run must have taken exactly, if set
}

func TestFaultsAgentAPI(t *testing.T) {
	t.Parallel()
	completed := map[string]string{"job-id": "job_0001", "status": "completed", "timed-out": "false", "pr-number": "101"}
	uncertain := map[string]string{"job-id": "", "status": "error", "timed-out": "false"}
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
			wantErr: true, out: uncertain, creates: 1, checkGets: true, virtual: time.Second,
			log: "::error::create job: HTTP 429 Too Many Requests: rate limit exceeded; the server asks to wait 1h0m0s before trying again, but only 30m0s is left of the timeout; try again later, or raise timeout (the API allows 100 creates and follow-ups per project per hour: https://github.com/agentjob/agent-job-action#limits)\n"},
		{name: "429 Retry-After past the timeout on poll", at: reqFirstPoll, fault: faults.RateLimited(faults.Seconds(7200)),
			wantErr: true, out: map[string]string{"job-id": "job_0001", "status": "active", "timed-out": "true"}, creates: 1, gets: 1, checkGets: true,
			log: "to wait for it, run again with job-id: job_0001 and no prompt", virtual: time.Minute},
	}...)
	// Retry-After, one rule for seconds and dates of any size, on 429 and on
	// a read's 503: a wait that fits is waited exactly; one that does not
	// ends the run at once, rate limited, with the service's own reason; a
	// value that is no wait (negative, garbage) leaves the backoff's 1s.
	for _, ra := range []struct {
		header string
		shown  string // the wait as the error shows it on create
		onPoll string // and on the first poll, when a date was given
	}{
		{faults.Seconds(86400), "24h0m0s", "24h0m0s"},
		{faults.Seconds(999999), "277h46m39s", "277h46m39s"},
		{"99999999999999999999999999999", "more than a year", "more than a year"},
		{faults.Date(start.Add(400 * 24 * time.Hour)), "more than a year", "more than a year"},
		{faults.Date(start.Add(2 * time.Hour)), "2h0m0s", "1h"},
	} {
		tests = append(tests,
			faultCase{name: "429 Retry-After " + ra.header + " on create", at: reqCreate, fault: faults.RateLimited(ra.header),
				wantErr: true, out: uncertain, creates: 1, checkGets: true, virtual: time.Second,
				log: "::error::create job: HTTP 429 Too Many Requests: rate limit exceeded; the server asks to wait " + ra.shown + " before trying again"},
			faultCase{name: "503 Retry-After " + ra.header + " on poll", at: reqFirstPoll, fault: faults.Unavailable(ra.header),
				wantErr: true, out: map[string]string{"job-id": "job_0001", "status": "active", "timed-out": "true"}, creates: 1, gets: 1, checkGets: true,
				log: "HTTP 503 Service Unavailable: down for maintenance; the server asks to wait " + ra.onPoll, virtual: time.Minute},
		)
	}
	tests = append(tests, []faultCase{
		{name: "429 Retry-After that fits on create is waited exactly", at: reqCreate, fault: faults.RateLimited(faults.Seconds(600)),
			out: completed, creates: 2, nap: 10 * time.Minute, log: "HTTP 429; retry 1 in 10m0s", virtual: 15 * time.Minute},
		{name: "503 Retry-After date that fits on poll is waited exactly", at: reqFirstPoll, fault: faults.Unavailable(faults.Date(start.Add(5 * time.Minute))),
			out: completed, creates: 1, log: "HTTP 503; retry 1 in", virtual: 8 * time.Minute},
		{name: "429 negative Retry-After takes the backoff", at: reqCreate, fault: faults.RateLimited("-5"),
			out: completed, creates: 2, nap: time.Second, log: "HTTP 429; retry 1 in 1s", virtual: 5 * time.Minute},
		{name: "429 garbage Retry-After takes the backoff", at: reqFirstPoll, fault: faults.RateLimited("soon"),
			out: completed, creates: 1, nap: time.Second, log: "HTTP 429; retry 1 in 1s", virtual: 5 * time.Minute},
		// A 503 that says when to come back did not act: a create is sent
		// again after the wait (repeated only when the server
		// provably did not act, or on 429 and 503 with Retry-After).
		{name: "503 Retry-After on create is repeated after the wait", at: reqCreate, fault: faults.Unavailable(faults.Seconds(5)),
			out: completed, creates: 2, nap: 5 * time.Second, virtual: 5 * time.Minute, log: "HTTP 503; retry 1 in 5s"},
		{name: "bare 503 on create is not repeated", at: reqCreate, fault: faults.Status(http.StatusServiceUnavailable), wantErr: true,
			out: uncertain, creates: 1, checkGets: true, virtual: time.Second,
			log: "the job may or may not have been created"},
		// The service's own reason, on every path.
		{name: "reason of a 500 on create", at: reqCreate, fault: faults.JSON(500, map[string]string{"error": "database unavailable"}), wantErr: true,
			out: uncertain, creates: 1, checkGets: true, virtual: time.Second,
			log: "::error::create job: HTTP 500 Internal Server Error: database unavailable; the job may or may not have been created: look at the project's agent jobs in the Mintlify dashboard before running again"},
		{name: "reason of a 403 on create", at: reqCreate, fault: faults.JSON(403, map[string]string{"error": "key lacks admin scope"}), wantErr: true,
			out: uncertain, creates: 1, checkGets: true, virtual: time.Second,
			log: "::error::create job: HTTP 403 Forbidden: key lacks admin scope (check that the key in api-key is an admin API key for the project in project-id)"},
		{name: "reason of a 404 on create", at: reqCreate, fault: faults.JSON(404, map[string]string{"error": "project not found"}), wantErr: true,
			out: uncertain, creates: 1, checkGets: true, virtual: time.Second,
			log: "::error::create job: HTTP 404 Not Found: project not found (check project-id and base-url)"},
		{name: "reason of a 409 on create", at: reqCreate, fault: faults.JSON(409, map[string]string{"error": "too many active jobs: 5 at most"}), wantErr: true,
			out: uncertain, creates: 1, checkGets: true, virtual: time.Second,
			log: "::error::create job: HTTP 409 Conflict: too many active jobs: 5 at most"},
		{name: "reason of a 429 on every try", at: reqCreate, fault: faults.RateLimited("1"),
			tweak: func(h *harness) {
				for n := 2; n <= 5; n++ {
					h.api.FailOn(n, faults.RateLimited("1"))
				}
			},
			wantErr: true, out: uncertain, creates: 5, checkGets: true, virtual: time.Minute,
			log: "::error::create job: HTTP 429 Too Many Requests: rate limit exceeded (the API allows 100 creates and follow-ups per project per hour: https://github.com/agentjob/agent-job-action#limits; try again later)"},
		{name: "reason that is a workflow command", at: reqCreate, fault: faults.JSON(400, map[string]string{"error": "bad\n::add-mask::x"}), wantErr: true,
			out: uncertain, creates: 1, checkGets: true, virtual: time.Second,
			log: "::error::create job: HTTP 400 Bad Request: bad%0A::add-mask::x"},
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
			out:   completed, creates: 1, log: "no response: no answer within 100ms; retry 1 in", virtual: 5 * time.Minute},
		{name: "truncated body on create", at: reqCreate, fault: faults.Truncated(http.StatusCreated), wantErr: true,
			out: uncertain, creates: 1, log: "the job may or may not have been created", virtual: time.Second},
		{name: "truncated body on poll", at: reqFirstPoll, fault: faults.Truncated(http.StatusOK),
			out: completed, creates: 1, log: "HTTP 200, but the reply is not a job record; retry 1 in", virtual: 5 * time.Minute},
		{name: "HTML page with 200 on poll", at: reqFirstPoll, fault: faults.HTMLPage(),
			out: completed, creates: 1, log: "HTTP 200, but the reply is not a job record; retry 1 in", virtual: 5 * time.Minute},
		{name: "HTML page with 201 on create", at: reqCreate, fault: faults.HTMLStatus(http.StatusCreated), wantErr: true,
			out: uncertain, creates: 1, log: "malformed response body: the reply is not a job record: jsontext: invalid character '<' at start of value; check base-url; the job may or may not have been created", virtual: time.Second},
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
			log: "::error::wait for the job: get job job_0001: HTTP 404 Not Found", virtual: 5 * time.Minute},
		{name: "unknown status values", at: reqFirstPoll, fault: faults.JSON(http.StatusOK, map[string]any{"id": "job_0001", "status": "queued", "futureField": []int{1}}),
			out: completed, creates: 1, log: "job job_0001 has status queued, which this action does not know; still waiting", virtual: 5 * time.Minute},
		{name: "unknown status that is a legacy workflow command", at: reqFirstPoll, fault: faults.JSON(http.StatusOK, map[string]any{"id": "job_0001", "status": "##[add-mask]writer"}),
			out: completed, creates: 1, log: `has status "#\x23[add-mask]writer"`, virtual: 5 * time.Minute},
		{name: "follow-up refused because the job is closed", wantErr: true,
			tweak: func(h *harness) { h.api.AddJob("job_old", "archived"); h.vars["INPUT_JOB-ID"] = "job_old" },
			out:   map[string]string{"job-id": "job_old", "timed-out": "false"}, msgs: 1,
			log: "::error::send follow-up job_old: HTTP 400 Bad Request: job is archived and cannot take messages", virtual: time.Second},
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
			if tt.checkGets && h.api.Gets() != tt.gets {
				t.Errorf("%d polls, want %d", h.api.Gets(), tt.gets)
			}
			if tt.nap != 0 && !slices.Contains(h.clk.Naps(), tt.nap) {
				t.Errorf("waits %v, want one of exactly %s", h.clk.Naps(), tt.nap)
			}
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

// redirectCodes are every redirect a server can answer with.
var redirectCodes = []int{301, 302, 303, 307, 308}

// otherHost is a second server that records whatever reaches it, under
// another host name than the fakes' 127.0.0.1.
type otherHost struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // "METHOD path Authorization"
}

func newOtherHost(t *testing.T) *otherHost {
	o := &otherHost{}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		o.seen = append(o.seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		o.mu.Unlock()
		w.WriteHeader(http.StatusTeapot)
	}))
	t.Cleanup(func() {
		o.Close()
		o.mu.Lock()
		defer o.mu.Unlock()
		if len(o.seen) > 0 {
			t.Errorf("the other host received %d requests: %q", len(o.seen), o.seen)
		}
	})
	return o
}

func (o *otherHost) base() string { return strings.Replace(o.URL, "127.0.0.1", "localhost", 1) }

// TestFaultRedirectToAnotherHost: the Agent Job API answers the create, a
// poll or a follow-up with every redirect code to another host. Nothing, and
// so no API key, reaches that host; a write is never followed nor repeated.
func TestFaultRedirectToAnotherHost(t *testing.T) {
	t.Parallel()
	other := newOtherHost(t)
	for _, code := range redirectCodes {
		for _, at := range []string{"create", "poll", "follow-up"} {
			t.Run(fmt.Sprint(at, " ", code), func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
				n := reqCreate
				switch at {
				case "poll":
					n = reqFirstPoll
				case "follow-up":
					h.api.AddJob("job_old", "active")
					h.vars["INPUT_JOB-ID"] = "job_old"
				}
				h.api.FailOn(n, faults.RedirectStatus(code, other.base()))
				err := h.run(context.Background())
				switch at {
				case "create":
					if err == nil || !strings.Contains(h.stdout.String(), "::error::create job: HTTP "+fmt.Sprint(code)) ||
						!strings.Contains(h.stdout.String(), "(unexpected redirect; check base-url)") {
						t.Errorf("redirected create: %v\n%s", err, h.stdout.String())
					}
					h.wantRequests(1, 0)
				case "follow-up":
					if err == nil || !strings.Contains(h.stdout.String(), "(unexpected redirect; check base-url)") {
						t.Errorf("redirected follow-up: %v\n%s", err, h.stdout.String())
					}
					h.wantRequests(0, 1)
				default:
					if err != nil {
						t.Errorf("a redirected poll must be survived: %v\n%s", err, h.stdout.String())
					}
					h.wantRequests(1, 0)
				}
				if at != "poll" && h.api.Gets() != 0 {
					t.Errorf("%d polls after a failed %s", h.api.Gets(), at)
				}
			})
		}
	}
}

// TestFaultJobIDRefusedBeforeAnyRequest: a job-id that would change the
// request's path is an input error; the API hears nothing.
func TestFaultJobIDRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"..", "../../v1/admin", "job_1/message", "job 1", "job\u00851", `job_1\..`} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
			h.vars["INPUT_JOB-ID"] = id
			err := h.run(context.Background())
			if err == nil || !strings.Contains(h.stdout.String(), "::error::input job-id is not a job id (") {
				t.Errorf("run error %v\n%s", err, h.stdout.String())
			}
			if got := h.api.Requests(); len(got) != 0 {
				t.Errorf("the API received %d requests", len(got))
			}
		})
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
			// An answer over the cap is a permanent
			// error, reported once with the size and the cap; a poll is not
			// repeated until the timeout.
			if err == nil || strings.Count(h.stdout.String(), "response body too large") != 1 {
				t.Errorf("huge answer: %v\n%s", err, h.stdout.String())
			}
			if !strings.Contains(h.stdout.String(), "4194304") && !strings.Contains(h.stdout.String(), "1024 KiB cap") {
				t.Errorf("the error does not give the cap:\n%s", h.stdout.String())
			}
			h.wantRequests(1, 0)
			if want := map[bool]int{true: 0, false: 1}[tc.at == reqCreate]; h.api.Gets() != want {
				t.Errorf("%d polls, want %d", h.api.Gets(), want)
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

// botComments counts the comments the run wrote in the thread.
func botComments(gh *fakegithub.Server, number int) int {
	n := 0
	for _, c := range gh.Comments(number) {
		if c.Author == fakegithub.BotLogin {
			n++
		}
	}
	return n
}

func TestFaultsGitHub(t *testing.T) {
	t.Parallel()
	// GitHub request numbers in a comment-triggered run: 1 permission,
	// 2 reaction, 3 create comment, 4 list comments, 5 first edit, ...
	type ghCase struct {
		name    string
		at      int
		fault   faults.Fault
		wantErr bool
		created int  // comments the run wrote in the thread
		again   bool // the faulted request is sent again at once
		warn    string
	}
	tests := []ghCase{
		{name: "500 on permission check is retried", at: 1, fault: faults.Status(500), created: 1, again: true},
		{name: "403 on permission check refuses to act", at: 1, fault: faults.Status(403), wantErr: true},
		// Adding a reaction sets it (GitHub answers 200 when it exists):
		// safe to send again.
		{name: "502 HTML on reaction is retried", at: 2, fault: faults.HTMLStatus(502), created: 1, again: true},
		{name: "500 on comment create is not repeated", at: 4, fault: faults.Status(500), created: 0, warn: "could not write the comment"},
		{name: "reset on comment create is not repeated", at: 4, fault: faults.ResetAfterRead(), created: 0, warn: "could not write the comment"},
		{name: "503 on comment edit is retried", at: 5, fault: faults.Status(503), created: 1, again: true},
		{name: "429 on comment edit is retried", at: 5, fault: faults.RateLimited("2"), created: 1, again: true},
		{name: "redirect on list comments", at: 3, fault: faults.Redirect("http://localhost:1"), created: 1,
			warn: "could not read the thread's comments: list comments on #12: Get request failed: redirect to another host refused; answering this request alone"},
	}
	// Every request the run sends GitHub, with the token, redirected by
	// every code to another host: nothing reaches it, nothing is repeated.
	other := newOtherHost(t)
	for _, code := range redirectCodes {
		for _, at := range []struct {
			n    int
			what string
		}{{1, "GET permission"}, {2, "POST reaction"}, {3, "GET comments"}, {4, "POST comment"}, {5, "PATCH comment"}} {
			c := ghCase{name: fmt.Sprintf("%d on %s", code, at.what), at: at.n, fault: faults.RedirectStatus(code, other.base()), created: 1}
			switch at.n {
			case 1:
				c.wantErr = true
			case 4:
				c.created, c.warn = 0, "could not write the comment"
			}
			tests = append(tests, c)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
			var script faults.Script
			gh := h.withGitHub(fakegithub.Options{Fault: script.On(tt.at, tt.fault).Serve}, "issue_comment", issueComment("writer", "/docs add a page"))
			err := h.run(context.Background())
			h.assertNoToken()
			reqs := gh.Requests()
			if len(reqs) < tt.at {
				t.Fatalf("GitHub received %d requests, fewer than the faulted number %d", len(reqs), tt.at)
			}
			faulted := reqs[tt.at-1]
			again := len(reqs) > tt.at && reqs[tt.at].Method == faulted.Method && reqs[tt.at].Path == faulted.Path
			if again != tt.again {
				t.Errorf("request %d (%s %s) sent again at once: %v, want %v", tt.at, faulted.Method, faulted.Path, again, tt.again)
			}
			if (err != nil) != tt.wantErr {
				t.Fatalf("run error %v, want error %v\n%s", err, tt.wantErr, h.stdout.String())
			}
			if tt.wantErr {
				h.wantRequests(0, 0)
				return
			}
			h.wantRequests(1, 0)
			h.wantOutputs(map[string]string{"status": "completed"})
			if got := botComments(gh, 12); got != tt.created {
				t.Errorf("%d comments written in the thread, want %d", got, tt.created)
			}
			if tt.warn != "" && !strings.Contains(h.stdout.String(), "::warning::"+tt.warn) {
				t.Errorf("log lacks warning %q:\n%s", tt.warn, h.stdout.String())
			}
		})
	}
}

// TestRetryLineNamesTheCause: the first retry line says
// why the attempt failed (no such host), not only that there was no
// response, through the run with a transport whose every dial fails as a
// lookup of an unknown host does; time is simulated.
func TestRetryLineNamesTheCause(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{})
	h.vars["INPUT_BASE-URL"] = "https://api.example.invalid"
	h.env.Transport = &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "api.example.invalid", IsNotFound: true}}
	}}
	err := h.run(context.Background())
	if runErr := (*report.Error)(nil); !errors.As(err, &runErr) || runErr.End != report.Errored {
		t.Fatalf("run ended %v, want report.Errored (exit %d)\n%s", err, cli.ExitError, h.stdout.String())
	}
	log := h.stdout.String()
	if !strings.Contains(log, "] no response: dial tcp: lookup api.example.invalid: no such host; retry 1 in 1s\n") {
		t.Errorf("the first retry line does not name the cause:\n%s", log)
	}
	if strings.Count(log, "no such host") != 5 || !strings.Contains(log, "::error::create job: ") {
		t.Errorf("want four retry lines and the error, each naming the cause:\n%s", log)
	}
	if n := len(h.api.Requests()); n != 0 {
		t.Errorf("%d requests reached the fake", n)
	}
}
