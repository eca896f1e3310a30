package preview

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/terms"
	"github.com/agentjob/agent-job-action/internal/testbed/previewspec"
)

var t0 = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

const key = "mint_key"

// setup serves h and returns a client of it on a simulated clock, with
// the deadline left from t0.
func setup(t *testing.T, h http.Handler, left time.Duration) (*Client, *clock.Fake) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	base, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(t0)
	hc := httpclient.New(httpclient.Options{Clock: clk, Deadline: t0.Add(left), RetryMax: 2})
	return New(hc, base, "proj 1", key), clk
}

func fake(opt fakepreview.Options) *fakepreview.Server {
	opt.Key, opt.Project, opt.Check = key, "proj 1", previewspec.Checker()
	return fakepreview.New(opt)
}

// TestTriggerAndWait asks for a branch's preview and waits for its build,
// against the fake held to the API's description: what was sent, in what
// order, and what came back.
func TestTriggerAndWait(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		opt       fakepreview.Options
		wantState string
		wantImage string
		wantReads int
	}{
		{name: "success at once", wantState: Success, wantReads: 1},
		{name: "queued, in progress, success with a screenshot", opt: fakepreview.Options{Reads: 3, Screenshot: "https://shots.example/st_0001.png"}, wantState: Success, wantImage: "https://shots.example/st_0001.png", wantReads: 4},
		{name: "failure", opt: fakepreview.Options{Reads: 1, Fail: true}, wantState: Failure, wantReads: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := fake(tt.opt)
			c, clk := setup(t, f, time.Hour)
			d, err := c.Trigger(context.Background(), "docs/agent-job_0001")
			if err != nil {
				t.Fatalf("Trigger() error = %v", err)
			}
			if d.StatusID != "st_0001" || d.URL != fakepreview.URL("docs/agent-job_0001") {
				t.Errorf("Trigger() = %+v", d)
			}
			w := &Waiter{Previews: c, Clock: clk, Interval: 5 * time.Second, Deadline: t0.Add(time.Hour)}
			s, err := w.Wait(context.Background(), d.StatusID)
			if err != nil {
				t.Fatalf("Wait() error = %v", err)
			}
			if s.State != tt.wantState || s.Image() != tt.wantImage {
				t.Errorf("Wait() = %+v, want state %s and image %q", s, tt.wantState, tt.wantImage)
			}
			reqs := f.Requests()
			if len(reqs) != 1+tt.wantReads {
				t.Fatalf("%d requests, want a trigger and %d reads", len(reqs), tt.wantReads)
			}
			if r := reqs[0]; r.Method != "POST" || r.Path != "/v1/project/preview/proj%201" || r.Branch() != "docs/agent-job_0001" ||
				r.Header.Get("Authorization") != "Bearer "+key || r.Header.Get("Content-Type") != "application/json" {
				t.Errorf("trigger request = %s %s %s", r.Method, r.Path, r.Body)
			}
			for _, r := range reqs[1:] {
				if r.Method != "GET" || r.Path != "/v1/project/update-status/st_0001" || len(r.Body) != 0 {
					t.Errorf("status request = %s %s", r.Method, r.Path)
				}
			}
			if got := clk.Now().Sub(t0); got != time.Duration(tt.wantReads)*5*time.Second {
				t.Errorf("waited %s on the clock, want one interval before each read", got)
			}
			if u := f.Unexpected(); len(u) > 0 {
				t.Errorf("unexpected requests: %q", u)
			}
		})
	}
}

// TestNotInPlan: the API's 403 to a preview is told apart, sent once, and
// says what to do.
func TestNotInPlan(t *testing.T) {
	t.Parallel()
	f := fake(fakepreview.Options{NoPreviews: true})
	c, _ := setup(t, f, time.Hour)
	_, err := c.Trigger(context.Background(), "docs/x")
	if !NotInPlan(err) {
		t.Fatalf("Trigger() error = %v, want NotInPlan", err)
	}
	if want := "request preview: HTTP 403 Forbidden: Preview deployments are not available on your current plan (the project's plan has no preview deployments; set preview: false to stop asking)"; err.Error() != want {
		t.Errorf("error = %q\nwant    %q", err, want)
	}
	if n := len(f.Requests()); n != 1 {
		t.Errorf("%d requests, want 1: a refusal is not repeated", n)
	}
	if NotInPlan(&Error{Op: OpStatus, Failure: &httpclient.Failure{Kind: httpclient.Refused, Status: 403}}) {
		t.Error("a 403 to a status read is not the plan's answer")
	}
}

// TestErrors covers the answers the client cannot use, and what each costs.
func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		answer   func(w http.ResponseWriter, r *http.Request, n int32)
		call     func(c *Client) error
		want     string
		requests int32
	}{
		{
			name: "bad key",
			answer: func(w http.ResponseWriter, _ *http.Request, _ int32) {
				http.Error(w, `{"error":"invalid API key"}`, http.StatusUnauthorized)
			},
			call:     func(c *Client) error { _, err := c.Trigger(context.Background(), "b"); return err },
			want:     "request preview: HTTP 401 Unauthorized: invalid API key (check that api-key is an admin API key for this project-id)",
			requests: 1,
		},
		{
			name: "a 502 then the answer: the trigger is repeated",
			answer: func(w http.ResponseWriter, _ *http.Request, n int32) {
				if n == 1 {
					w.WriteHeader(http.StatusBadGateway)
					return
				}
				w.WriteHeader(http.StatusAccepted)
				_, _ = w.Write([]byte(`{"statusId":"st_1","previewUrl":"https://p.example"}`))
			},
			call:     func(c *Client) error { _, err := c.Trigger(context.Background(), "b"); return err },
			requests: 2,
		},
		{
			name: "no statusId",
			answer: func(w http.ResponseWriter, _ *http.Request, _ int32) {
				w.WriteHeader(http.StatusAccepted)
				_, _ = w.Write([]byte(`{"previewUrl":"https://p.example"}`))
			},
			call:     func(c *Client) error { _, err := c.Trigger(context.Background(), "b"); return err },
			want:     "request preview: malformed response body: the answer has no statusId; check base-url",
			requests: 1,
		},
		{
			name: "an HTML page",
			answer: func(w http.ResponseWriter, _ *http.Request, _ int32) {
				_, _ = w.Write([]byte(`<html>`))
			},
			call:     func(c *Client) error { _, err := c.Status(context.Background(), "st_1"); return err },
			want:     "read preview status: malformed response body: the answer is not JSON",
			requests: 3,
		},
		{
			name: "too large",
			answer: func(w http.ResponseWriter, _ *http.Request, _ int32) {
				_, _ = w.Write([]byte(`{"status":"success","summary":"` + strings.Repeat("x", maxAnswerBytes) + `"}`))
			},
			call:     func(c *Client) error { _, err := c.Status(context.Background(), "st_1"); return err },
			want:     "response body too large",
			requests: 1,
		},
		{
			name:     "a status id that is a path's own",
			call:     func(c *Client) error { _, err := c.Status(context.Background(), ".."); return err },
			want:     `read preview status: ".." is not a status id`,
			requests: 0,
		},
		{
			name:     "no branch",
			call:     func(c *Client) error { _, err := c.Trigger(context.Background(), ""); return err },
			want:     "request preview: no branch",
			requests: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int32
			c, _ := setup(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				tt.answer(w, r, n.Add(1))
			}), time.Hour)
			err := tt.call(c)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error = %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
			if got := n.Load(); got != tt.requests {
				t.Errorf("%d requests, want %d", got, tt.requests)
			}
		})
	}
}

// TestWaitEnds covers the ways a wait ends without a finished build: the
// deadline (on the simulated clock: no test sleeps), cancellation, a
// refusal, and a transient failure read through.
func TestWaitEnds(t *testing.T) {
	t.Parallel()
	t.Run("deadline", func(t *testing.T) {
		t.Parallel()
		f := fake(fakepreview.Options{Reads: 1000})
		c, clk := setup(t, f, time.Hour)
		d, err := c.Trigger(context.Background(), "b")
		if err != nil {
			t.Fatal(err)
		}
		w := &Waiter{Previews: c, Clock: clk, Deadline: t0.Add(95 * time.Second)}
		s, err := w.Wait(context.Background(), d.StatusID)
		if !errors.Is(err, ErrTimedOut) || s == nil || s.State != Queued {
			t.Fatalf("Wait() = %+v, %v; want the last status and ErrTimedOut", s, err)
		}
		// Reads at 10s, 20s, ... 90s; the last wait is cut to the 5s left.
		if got := len(f.Requests()) - 1; got != 9 {
			t.Errorf("%d reads, want 9 (one each DefaultInterval)", got)
		}
		if got := clk.Now(); !got.Equal(t0.Add(95 * time.Second)) {
			t.Errorf("clock at %s, want the deadline", got.Sub(t0))
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		t.Parallel()
		f := fake(fakepreview.Options{})
		c, clk := setup(t, f, time.Hour)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		w := &Waiter{Previews: c, Clock: clk, Deadline: t0.Add(time.Hour)}
		if _, err := w.Wait(ctx, "st_0001"); !errors.Is(err, context.Canceled) {
			t.Errorf("Wait() error = %v, want context.Canceled", err)
		}
		if n := len(f.Requests()); n != 0 {
			t.Errorf("%d requests after cancellation, want none", n)
		}
	})
	t.Run("unknown status id", func(t *testing.T) {
		t.Parallel()
		f := fake(fakepreview.Options{})
		c, clk := setup(t, f, time.Hour)
		w := &Waiter{Previews: c, Clock: clk, Deadline: t0.Add(time.Hour)}
		if _, err := w.Wait(context.Background(), "st_9999"); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
			t.Errorf("Wait() error = %v, want the 404", err)
		}
		if n := len(f.Requests()); n != 1 {
			t.Errorf("%d requests, want 1: a refusal ends the wait", n)
		}
	})
	t.Run("transient failures are read through", func(t *testing.T) {
		t.Parallel()
		var n atomic.Int32
		c, clk := setup(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			if n.Add(1) <= 3 { // the first read and both its retries
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			_, _ = w.Write([]byte(`{"_id":"st_1","status":"success"}`))
		}), time.Hour)
		w := &Waiter{Previews: c, Clock: clk, Deadline: t0.Add(time.Hour)}
		s, err := w.Wait(context.Background(), "st_1")
		if err != nil || s.State != Success {
			t.Errorf("Wait() = %+v, %v; want success", s, err)
		}
		if got := n.Load(); got != 4 {
			t.Errorf("%d requests, want 4", got)
		}
	})
}

// TestKeyStaysOnItsHost: a redirect to another host is not followed, for
// either call, so the key never reaches it.
func TestKeyStaysOnItsHost(t *testing.T) {
	t.Parallel()
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	t.Cleanup(other.Close)
	c, _ := setup(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}), time.Hour)
	if _, err := c.Trigger(context.Background(), "b"); err == nil {
		t.Error("Trigger() followed a redirect to another host")
	}
	if _, err := c.Status(context.Background(), "st_1"); err == nil {
		t.Error("Status() followed a redirect to another host")
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other host got %d requests, want none", n)
	}
}

// TestErrorAdviceInTerms: the advice names the settings as the run's mode
// does: inputs in a workflow, flags on a command line.
func TestErrorAdviceInTerms(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status      int
		cli         bool
		want, never string
	}{
		{http.StatusForbidden, false, "set preview: false to stop asking", "--preview"},
		{http.StatusForbidden, true, "set --preview=false to stop asking", "preview: false"},
		{http.StatusUnauthorized, true, "check that MINTLIFY_API_KEY or --api-key-stdin is an admin API key for this --project-id", "api-key is"},
		{http.StatusNotFound, true, "check --project-id and --base-url", "check project-id"},
	} {
		e := &Error{Op: OpTrigger, Failure: &httpclient.Failure{Kind: httpclient.Refused, Status: tt.status}, Terms: terms.Terms{CommandLine: tt.cli}}
		if got := e.Error(); !strings.Contains(got, tt.want) || strings.Contains(got, tt.never) {
			t.Errorf("%d, command line %v: %q, want %q", tt.status, tt.cli, got, tt.want)
		}
	}
}
