package httpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/agentjob/agent-job-action/internal/clock"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

var t0 = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// recorder is an httptest server that records every request it receives
// and answers each one with the next of its answers (the last one repeats).
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	got  []recorded
	next func(n int, w http.ResponseWriter, r *http.Request)
}

type recorded struct {
	Method, Path, Auth, Body string
}

func newRecorder(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) *recorder {
	t.Helper()
	rec := &recorder{next: answer}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.got = append(rec.got, recorded{r.Method, r.URL.Path, r.Header.Get("Authorization"), string(body)})
		n := len(rec.got)
		rec.mu.Unlock()
		if rec.next != nil {
			rec.next(n, w, r)
		}
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) requests() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.got...)
}

// once answers the first request with first, and every later one 200 {}.
func once(first func(w http.ResponseWriter)) func(int, http.ResponseWriter, *http.Request) {
	return func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 1 {
			first(w)
			return
		}
		io.WriteString(w, `{}`)
	}
}

func status(code int) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) { w.WriteHeader(code) }
}

func jsonError(code int, msg string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"error":%q}`, msg)
	}
}

// policyOf is the policy the action's clients give a call of method: a
// POST creates (a job, a follow-up, a comment), everything else may be
// repeated.
func policyOf(method string) Policy {
	if method == http.MethodPost {
		return Policy{Kind: Once}
	}
	return Policy{Kind: Repeatable}
}

func do(t *testing.T, c *Client, method, u string, handler func(*http.Response) error) error {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(`{"prompt":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer k")
	resp, err := c.Do(req, policyOf(method), handler)
	if err == nil {
		resp.Body.Close()
	}
	return err
}

func kindOf(err error) FailureKind {
	var f *Failure
	if errors.As(err, &f) {
		return f.Kind
	}
	return 0
}

// TestClassification is the one failure classification as a table: for a
// read (GET) and a create (POST), how many attempts each answer gets and
// what the failure means when it is the last.
func TestClassification(t *testing.T) {
	t.Parallel()
	const fail = 99 // every attempt meets the answer
	tests := []struct {
		name     string
		method   string
		answer   func(w http.ResponseWriter)
		badBody  bool // the response handler rejects 2xx bodies
		failing  int  // how many attempts meet the answer: 1, or fail
		attempts int
		kind     FailureKind // 0: success in the end
		message  string
	}{
		{"GET 503 once is repeated", http.MethodGet, status(503), false, 1, 2, 0, ""},
		{"GET 500 always is transient", http.MethodGet, jsonError(500, "db down"), false, fail, 3, Transient, "db down"},
		{"GET 501 is refused", http.MethodGet, status(501), false, 1, 1, Refused, ""},
		{"GET 404 is refused", http.MethodGet, jsonError(404, "job not found"), false, 1, 1, Refused, "job not found"},
		{"GET 408 once is repeated", http.MethodGet, status(408), false, 1, 2, 0, ""},
		{"GET 429 once is repeated", http.MethodGet, status(429), false, 1, 2, 0, ""},
		{"GET bad body once is repeated", http.MethodGet, status(200), true, 1, 2, 0, ""},
		{"GET bad body always is transient", http.MethodGet, status(200), true, fail, 3, Transient, ""},
		{"POST 503 may have acted", http.MethodPost, jsonError(503, "overloaded"), false, 1, 1, MayHaveActed, "overloaded"},
		{"POST 500 may have acted", http.MethodPost, status(500), false, 1, 1, MayHaveActed, ""},
		{"POST 400 is refused", http.MethodPost, jsonError(400, "prompt is required"), false, 1, 1, Refused, "prompt is required"},
		{"POST 401 is refused", http.MethodPost, jsonError(401, "invalid API key"), false, 1, 1, Refused, "invalid API key"},
		{"POST 429 once is repeated", http.MethodPost, status(429), false, 1, 2, 0, ""},
		{"POST 429 always is transient", http.MethodPost, jsonError(429, "slow down"), false, fail, 3, Transient, "slow down"},
		{"POST 408 once is repeated", http.MethodPost, status(408), false, 1, 2, 0, ""},
		{"POST bad body may have acted", http.MethodPost, status(201), true, 1, 1, MayHaveActed, ""},
		{"POST 307 is refused", http.MethodPost, status(307), false, 1, 1, Refused, ""},
		{"PATCH 502 once is repeated", http.MethodPatch, status(502), false, 1, 2, 0, ""},
		{"DELETE 500 always is transient", http.MethodDelete, status(500), false, fail, 3, Transient, ""},
		{"GitHub's message field is the reason", http.MethodGet, func(w http.ResponseWriter) {
			w.WriteHeader(403)
			io.WriteString(w, `{"message":"Resource not accessible by integration"}`)
		}, false, 1, 1, Refused, "Resource not accessible by integration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, func(n int, w http.ResponseWriter, _ *http.Request) {
				if n <= tt.failing {
					tt.answer(w)
					return
				}
				io.WriteString(w, `{}`)
			})
			c := New(Options{Clock: clock.NewFake(t0), RetryMax: 2, UserAgent: "test/1"})
			err := do(t, c, tt.method, srv.URL, func(resp *http.Response) error {
				if tt.badBody && resp.StatusCode < 300 && len(srv.requests()) <= tt.failing {
					return ErrBadBody
				}
				return nil
			})
			if got := len(srv.requests()); got != tt.attempts {
				t.Errorf("%d attempts, want %d", got, tt.attempts)
			}
			if got := kindOf(err); got != tt.kind {
				t.Fatalf("kind %v (err %v), want %v", got, err, tt.kind)
			}
			var f *Failure
			if tt.kind != 0 && errors.As(err, &f) {
				if f.Message != tt.message {
					t.Errorf("message %q, want %q", f.Message, tt.message)
				}
				if tt.message != "" && !strings.Contains(err.Error(), tt.message) {
					t.Errorf("the error %q does not show the service's reason", err)
				}
			}
		})
	}
}

func TestPOSTRepeatedOnlyWhenNeverConnected(t *testing.T) {
	t.Parallel()
	// A port nobody listens on: the dial fails, the server never saw a thing.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	var retries []Retry
	c := New(Options{Clock: clock.NewFake(t0), RetryMax: 2, OnRetry: func(r Retry) { retries = append(retries, r) }})
	err = do(t, c, http.MethodPost, "http://"+addr+"/v2/agent/p/job", nil)
	if kindOf(err) != Transient || !neverConnected(err) {
		t.Fatalf("err = %v (%v), want a transient dial error", err, kindOf(err))
	}
	if len(retries) != 2 {
		t.Errorf("%d retries of a POST that never connected, want 2", len(retries))
	}
	// Each retry says why, from the first, without the URL.
	for _, r := range retries {
		if r.Err == nil || !strings.Contains(r.Err.Error(), "connection refused") || strings.Contains(r.Err.Error(), "/v2/agent") {
			t.Errorf("retry %d: cause %v, want the refused connection without the URL", r.Attempt, r.Err)
		}
	}
	if strings.Contains(err.Error(), "/v2/agent") {
		t.Errorf("the error shows the URL: %v", err)
	}
}

// TestRetryAfter is the one rule for Retry-After, on 429 and on a read's
// 503: a wait that fits in the time left is waited exactly, on the clock; one
// that does not ends the call at once, rate limited, with the service's
// reason; a value that is no wait (negative, garbage) leaves the backoff's own.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	const left = 30 * time.Minute
	tests := []struct {
		header  string
		want    time.Duration // the wait, when retried
		limited bool          // the wait does not fit
	}{
		{header: "7", want: 7 * time.Second},
		{header: "0", want: 0},
		{header: "1800", want: left},
		{header: t0.Add(90 * time.Second).Format(http.TimeFormat), want: 90 * time.Second},
		{header: t0.Add(-time.Hour).Format(http.TimeFormat), want: 0},
		{header: "1801", limited: true},
		{header: "3600", limited: true},
		{header: "86400", limited: true},
		{header: "999999", limited: true},
		{header: "99999999999999999999999999", limited: true},
		{header: t0.Add(2 * time.Hour).Format(http.TimeFormat), limited: true},
		{header: "Fri, 31 Dec 9999 23:59:59 GMT", limited: true},
		{header: "-5", want: time.Second},
		{header: "soon", want: time.Second},
		{header: "1.5", want: time.Second},
	}
	for _, code := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%d %s", code, tt.header), func(t *testing.T) {
				t.Parallel()
				srv := newRecorder(t, once(func(w http.ResponseWriter) {
					w.Header().Set("Retry-After", tt.header)
					jsonError(code, "slow down, <b>please</b>")(w)
				}))
				clk := clock.NewFake(t0)
				c := New(Options{Clock: clk, Deadline: t0.Add(left)})
				err := do(t, c, http.MethodGet, srv.URL, nil)
				n := len(srv.requests())
				if tt.limited {
					var f *Failure
					if !errors.As(err, &f) || f.Kind != RateLimited || n != 1 {
						t.Fatalf("err = %v after %d attempts, want rate limited after 1", err, n)
					}
					if f.Status != code || f.Message != "slow down, <b>please</b>" || f.Left != left || f.RetryAfter <= left {
						t.Errorf("failure %+v", f)
					}
					for _, part := range []string{"HTTP " + strconv.Itoa(code), "slow down, <b>please</b>", "but only 30m0s is left"} {
						if !strings.Contains(err.Error(), part) {
							t.Errorf("error %q lacks %q", err, part)
						}
					}
					if naps := clk.Naps(); len(naps) != 0 {
						t.Errorf("waited %v before giving up", naps)
					}
					return
				}
				if err != nil || n != 2 {
					t.Fatalf("err = %v after %d attempts", err, n)
				}
				if naps := clk.Naps(); len(naps) != 1 || naps[0] != tt.want {
					t.Errorf("waited %v, want %v", naps, tt.want)
				}
			})
		}
	}
}

// TestRetryAfterOnCreate: a call that creates (Once) is repeated on a 429,
// and on a 503 only when it says when to come back (a bare 503 may come
// from a proxy after the service took the request), by the same rule as a
// read; a wait that does not fit is rate limited.
func TestRetryAfterOnCreate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code   int
		header string
		kind   FailureKind
		n      int
	}{
		{429, "86400", RateLimited, 1},
		{429, "5", 0, 2},
		{503, "5", 0, 2},
		{503, "86400", RateLimited, 1},
		{503, "", MayHaveActed, 1},
	} {
		t.Run(fmt.Sprint(tc.code, " ", tc.header), func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, once(func(w http.ResponseWriter) {
				if tc.header != "" {
					w.Header().Set("Retry-After", tc.header)
				}
				w.WriteHeader(tc.code)
			}))
			c := New(Options{Clock: clock.NewFake(t0), Deadline: t0.Add(time.Hour)})
			err := do(t, c, http.MethodPost, srv.URL, nil)
			if kindOf(err) != tc.kind || len(srv.requests()) != tc.n {
				t.Errorf("err %v (%v) after %d requests, want %v after %d", err, kindOf(err), len(srv.requests()), tc.kind, tc.n)
			}
		})
	}
}

func TestBackoffCappedAtDeadline(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, once(status(http.StatusBadGateway)))
	clk := clock.NewFake(t0)
	c := New(Options{Clock: clk, Deadline: t0.Add(10 * time.Minute), BackoffMin: time.Hour, BackoffMax: 2 * time.Hour})
	if err := do(t, c, http.MethodGet, srv.URL, nil); err != nil {
		t.Fatal(err)
	}
	if naps := clk.Naps(); len(naps) != 1 || naps[0] != 10*time.Minute {
		t.Errorf("waited %v, want [10m0s]", naps)
	}
}

func TestNoRetryPastDeadline(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) })
	clk := clock.NewFake(t0)
	c := New(Options{Clock: clk, Deadline: t0.Add(3 * time.Second), RetryMax: 10})
	err := do(t, c, http.MethodGet, srv.URL, nil)
	// Waits of 1s and 2s use up the 3s; then no more attempts.
	if kindOf(err) != Transient || len(srv.requests()) != 3 {
		t.Errorf("err %v after %d requests, want transient after 3", err, len(srv.requests()))
	}
}

// redirectCodes and credentialMethods are the product tested for redirects.
var (
	redirectCodes     = []int{301, 302, 303, 307, 308}
	credentialMethods = []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete}
)

// TestRedirectsNeverLeaveTheHost sends every method, answered by every
// redirect code pointing at a second server, through both clients: Do with
// the API key on the request, and go-github itself over HTTPClient, which
// adds the token inside its transport. The second server must see nothing.
func TestRedirectsNeverLeaveTheHost(t *testing.T) {
	t.Parallel()
	other := newRecorder(t, nil)
	// Another host by name: same address, another Host.
	away := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	for _, code := range redirectCodes {
		for _, method := range credentialMethods {
			for _, via := range []string{"Do", "go-github"} {
				t.Run(fmt.Sprintf("%s %s %d", via, method, code), func(t *testing.T) {
					t.Parallel()
					srv := newRecorder(t, func(_ int, w http.ResponseWriter, r *http.Request) {
						http.Redirect(w, r, away+r.URL.Path, code)
					})
					c := New(Options{Clock: clock.NewFake(t0)})
					var err error
					if via == "Do" {
						err = do(t, c, method, srv.URL+"/v2/agent/p/job", nil)
					} else {
						gh := github.NewClient(c.HTTPClient(policyOf(method))).WithAuthToken("ghs_secret")
						gh.BaseURL, _ = url.Parse(srv.URL + "/")
						req, rerr := gh.NewRequest(method, "repos/o/r/issues/1/comments", map[string]string{"body": "hi"})
						if rerr != nil {
							t.Fatal(rerr)
						}
						_, err = gh.Do(context.Background(), req, nil)
					}
					if err == nil {
						t.Error("a redirect to another host ended in success")
					}
					got := srv.requests()
					if len(got) != 1 || got[0].Method != method || got[0].Auth == "" {
						t.Errorf("the first host got %+v, want one %s with credentials", got, method)
					}
				})
			}
		}
	}
	t.Cleanup(func() {
		if got := other.requests(); len(got) != 0 {
			t.Errorf("the other host received %d requests: %+v", len(got), got)
		}
	})
}

// TestSameHostRedirect: a read follows a redirect on its own host with its
// credentials; a write is never followed, even there.
func TestSameHostRedirect(t *testing.T) {
	t.Parallel()
	for _, method := range credentialMethods {
		t.Run(method, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, func(_ int, w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/here" {
					http.Redirect(w, r, "/final", http.StatusTemporaryRedirect)
				}
			})
			c := New(Options{Clock: clock.NewFake(t0)})
			err := do(t, c, method, srv.URL+"/here", nil)
			got := srv.requests()
			if method == http.MethodGet {
				if err != nil || len(got) != 2 || got[1].Path != "/final" || got[1].Auth != "Bearer k" {
					t.Errorf("err %v, requests %+v", err, got)
				}
				return
			}
			if kindOf(err) != Refused || len(got) != 1 {
				t.Errorf("err %v (%v), requests %+v: a %s must not be followed", err, kindOf(err), got, method)
			}
		})
	}
}

func TestCheckRedirect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method, from, to string
		want             error
	}{
		{"GET", "https://api.example.com/a", "https://api.example.com/b", nil},
		{"HEAD", "https://api.example.com/a", "https://api.example.com/b", nil},
		{"GET", "https://api.example.com/a", "http://api.example.com/b", errRedirect},
		{"GET", "https://api.example.com/a", "https://api.example.com:8443/b", errRedirect},
		{"GET", "https://api.example.com/a", "https://evil.example/b", errRedirect},
		{"GET", "https://api.example.com/a", "https://api.example.com.evil.example/b", errRedirect},
		{"POST", "https://api.example.com/a", "https://api.example.com/b", http.ErrUseLastResponse},
		{"PATCH", "https://api.example.com/a", "https://evil.example/b", http.ErrUseLastResponse},
		{"DELETE", "https://api.example.com/a", "https://api.example.com/b", http.ErrUseLastResponse},
		{"PUT", "https://api.example.com/a", "https://api.example.com/b", http.ErrUseLastResponse},
	}
	for _, tt := range tests {
		from, _ := http.NewRequest(tt.method, tt.from, nil)
		to, _ := http.NewRequest(http.MethodGet, tt.to, nil)
		if got := checkRedirect(to, []*http.Request{from}); !errors.Is(got, tt.want) {
			t.Errorf("%s %s -> %s: %v, want %v", tt.method, tt.from, tt.to, got, tt.want)
		}
	}
	from, _ := http.NewRequest(http.MethodGet, "https://api.example.com/a", nil)
	via := []*http.Request{from, from, from, from, from}
	if checkRedirect(from, via) == nil {
		t.Error("a sixth redirect was followed")
	}
}

// TestGitHubReadsTheAnswer: through HTTPClient, go-github gets the server's
// answer whole, success or failure, with its status and message, after the
// retries.
func TestGitHubReadsTheAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code     int
		body     string
		requests int
	}{
		{200, `[{"id":7,"body":"hello"}]`, 1},
		{500, `{"message":"boom"}`, 2},
		{404, `{"message":"Not Found"}`, 1},
	} {
		t.Run(fmt.Sprint(tc.code), func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.code)
				io.WriteString(w, tc.body)
			})
			c := New(Options{Clock: clock.NewFake(t0), RetryMax: 1})
			gh := github.NewClient(c.HTTPClient(Policy{Kind: Repeatable})).WithAuthToken("ghs_secret")
			gh.BaseURL, _ = url.Parse(srv.URL + "/")
			comments, _, err := gh.Issues.ListComments(context.Background(), "o", "r", 1, nil)
			var er *github.ErrorResponse
			switch {
			case tc.code == 200 && (err != nil || len(comments) != 1 || comments[0].GetBody() != "hello"):
				t.Errorf("ListComments() = %v, %v", comments, err)
			case tc.code != 200 && (!errors.As(err, &er) || er.Response.StatusCode != tc.code || !strings.Contains(tc.body, er.Message)):
				t.Errorf("err = %v, want go-github's %d with the message of %s", err, tc.code, tc.body)
			}
			if got := srv.requests(); len(got) != tc.requests || got[0].Auth != "Bearer ghs_secret" {
				t.Errorf("requests %+v, want %d with the token", got, tc.requests)
			}
		})
	}
}

func TestBodyCap(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/length" {
			w.Header().Set("Content-Length", fmt.Sprint(2000))
		} else {
			w.(http.Flusher).Flush() // chunked: no length to refuse up front
		}
		w.Write(make([]byte, 2000))
	}))
	defer srv.Close()
	c := New(Options{Clock: clock.NewFake(t0), MaxBodyBytes: 1000})
	for _, path := range []string{"/length", "/chunked"} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		resp, err := c.Do(req, policyOf(req.Method), nil)
		if path == "/length" && err == nil {
			t.Errorf("an announced length over the cap must be refused before reading")
		}
		if err == nil {
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		if !errors.Is(err, ErrBodyTooLarge) {
			t.Errorf("%s: err = %v, want ErrBodyTooLarge", path, err)
		}
	}
	if hits.Load() != 2 {
		t.Errorf("%d requests: a body too large must not be fetched again", hits.Load())
	}
}

// TestCancellation: a wait between attempts ends when the request's context
// does, on the real clock, and the failure says what the last attempt meant.
func TestCancellation(t *testing.T) {
	t.Parallel()
	var ua atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.Header.Get("User-Agent"))
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		ctx, cancel := context.WithCancel(context.Background())
		c := New(Options{Clock: clock.Real{}, UserAgent: "agent-job-action/v9", BackoffMin: time.Hour, BackoffMax: time.Hour,
			OnRetry: func(Retry) { cancel() }})
		req, _ := http.NewRequestWithContext(ctx, method, srv.URL, nil)
		done := make(chan error, 1)
		go func() { _, err := c.Do(req, policyOf(req.Method), nil); done <- err }()
		select {
		case err := <-done:
			// A 429 said the server did nothing: so did the cancelled call.
			if !errors.Is(err, context.Canceled) || kindOf(err) != Transient {
				t.Errorf("%s: err = %v (%v), want a transient context.Canceled", method, err, kindOf(err))
			}
		case <-time.After(10 * time.Second):
			t.Fatal("an hour-long backoff did not end on cancellation")
		}
		cancel()
	}
	if ua.Load() != "agent-job-action/v9" {
		t.Errorf("User-Agent %v", ua.Load())
	}
}

// TestCancelledInFlight: a POST cancelled while the server holds it is
// heard out for HearOut, then cut: it may have been carried out.
func TestCancelledInFlight(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // the server has the request; it notices the close only after reading
		cancel()
		<-r.Context().Done()
	}))
	defer srv.Close()
	// Heard out for a moment, not HearOut: the test waits for nothing.
	c := New(Options{Clock: clock.NewFake(t0), HearOut: time.Millisecond})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("{}"))
	_, err := c.Do(req, policyOf(req.Method), nil)
	if !errors.Is(err, context.Canceled) || kindOf(err) != MayHaveActed {
		t.Errorf("err = %v (%v), want MayHaveActed wrapping context.Canceled", err, kindOf(err))
	}
}

// TestCreateHeardOutWhenCancelled: a POST whose context ends once the
// server has it, before the answer, still gets the answer, through Do and
// through HTTPClient (go-github reads the body after the transport
// returns): the caller knows what it created. No attempt starts after
// the end: a 429, which a live call would try again, is then the
// failure, with no second request.
func TestCreateHeardOutWhenCancelled(t *testing.T) {
	t.Parallel()
	for _, via := range []string{"Do", "HTTPClient"} {
		for _, code := range []int{http.StatusCreated, http.StatusTooManyRequests} {
			t.Run(fmt.Sprintf("%s %d", via, code), func(t *testing.T) {
				t.Parallel()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
					cancel()
					w.WriteHeader(code)
					io.WriteString(w, `{"id":"job_0001"}`)
				})
				c := New(Options{Clock: clock.NewFake(t0)})
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("{}"))
				var (
					body []byte
					err  error
				)
				if via == "Do" {
					_, err = c.Do(req, Policy{Kind: Once}, func(resp *http.Response) error {
						body, err = io.ReadAll(resp.Body)
						return err
					})
				} else {
					var resp *http.Response
					if resp, err = c.HTTPClient(Policy{Kind: Once}).Do(req); err == nil {
						body, err = io.ReadAll(resp.Body)
						resp.Body.Close()
					}
				}
				if code == http.StatusCreated && (err != nil || string(body) != `{"id":"job_0001"}`) {
					t.Errorf("err %v, body %q: want the answer read whole", err, body)
				}
				if code != http.StatusCreated && via == "Do" && kindOf(err) != Transient {
					t.Errorf("err %v (%v), want the 429, transient", err, kindOf(err))
				}
				if n := len(srv.requests()); n != 1 {
					t.Errorf("%d requests, want 1", n)
				}
			})
		}
	}
}

// cancelsAnswered is a transport that ends the call's context once base
// has the answer's headers, and keeps whether the request's context
// ended with it.
type cancelsAnswered struct {
	base   http.RoundTripper
	cancel context.CancelFunc
	ended  *atomic.Bool
}

func (c cancelsAnswered) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := c.base.RoundTrip(r)
	c.cancel()
	c.ended.Store(r.Context().Err() != nil)
	return res, err
}

// TestOnlyCreatesAreHeardOut: a call's context that ends while its
// answer is read ends a read's request with it, as always, and leaves a
// create's request to be heard out.
func TestOnlyCreatesAreHeardOut(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, nil)
	for _, p := range []Policy{{Kind: Repeatable}, {Kind: Once}} {
		ctx, cancel := context.WithCancel(context.Background())
		var ended atomic.Bool
		c := New(Options{Clock: clock.NewFake(t0), Transport: cancelsAnswered{base: http.DefaultTransport.(*http.Transport).Clone(), cancel: cancel, ended: &ended}})
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("{}"))
		if resp, err := c.Do(req, p, nil); err == nil {
			resp.Body.Close()
		}
		if ended.Load() != (p.Kind == Repeatable) {
			t.Errorf("policy %d: the request's context ended with the call's: %v, want %v", p.Kind, ended.Load(), p.Kind == Repeatable)
		}
	}
}

// TestOutlive: a call whose policy outlives the run is retried until
// Outlive after it starts, past the client's Deadline, which is over; the
// waits are cut to the time it leaves.
func TestOutlive(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) })
	clk := clock.NewFake(t0.Add(time.Hour))
	c := New(Options{Clock: clk, Deadline: t0, RetryMax: 10})
	req, _ := http.NewRequest(http.MethodPatch, srv.URL, nil)
	_, err := c.Do(req, Policy{Kind: Repeatable, Outlive: 2500 * time.Millisecond}, nil)
	// Waits of 1s and 1.5s (cut from 2s) use up the 2.5s; then no more
	// attempts.
	if kindOf(err) != Transient || len(srv.requests()) != 3 {
		t.Errorf("err %v after %d requests, want transient after 3", err, len(srv.requests()))
	}
	if naps := clk.Naps(); len(naps) != 2 || naps[1] != 1500*time.Millisecond {
		t.Errorf("waited %v, want [1s 1.5s]", naps)
	}

	// Without it, the client's Deadline, over, allows one attempt.
	req, _ = http.NewRequest(http.MethodPatch, srv.URL, nil)
	_, _ = c.Do(req, Policy{Kind: Repeatable}, nil)
	if n := len(srv.requests()); n != 4 {
		t.Errorf("%d requests in all, want 3 and 1", n)
	}

	// Before the client's Deadline, a call that outlives the run is
	// retried until the later of the two: the Deadline, 3.5s on.
	later := New(Options{Clock: clk, Deadline: clk.Now().Add(3500 * time.Millisecond), RetryMax: 10})
	req, _ = http.NewRequest(http.MethodPatch, srv.URL, nil)
	_, _ = later.Do(req, Policy{Kind: Repeatable, Outlive: time.Second}, nil)
	if n := len(srv.requests()); n != 8 {
		t.Errorf("%d requests in all, want 4 and 4 (waits of 1s, 2s and the 0.5s left)", n)
	}
}

// endsFirst is a transport that ends the call's time as an attempt
// starts, before base writes anything: an attempt that starts as a
// short timeout ends, its wait having used what was left. It hands the
// request on once the end has reached the attempt's own context, which
// a call that creates derives from the caller's in a goroutine of its
// own (hearOut): handed on before, base could write the request first,
// and the call would rightly say it may have acted.
type endsFirst struct {
	base   http.RoundTripper
	cancel context.CancelFunc
}

func (e endsFirst) RoundTrip(r *http.Request) (*http.Response, error) {
	e.cancel()
	<-r.Context().Done()
	return e.base.RoundTrip(r)
}

// TestEndedBeforeWrittenMeansNotSent: a POST whose time ends before its
// request is written reached nothing, so it is a transient failure, not
// one that may have acted (TestCancelledInFlight is the other side).
func TestEndedBeforeWrittenMeansNotSent(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := New(Options{Clock: clock.NewFake(t0), Transport: endsFirst{base: http.DefaultTransport.(*http.Transport).Clone(), cancel: cancel}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("{}"))
	_, err := c.Do(req, policyOf(req.Method), nil)
	if !errors.Is(err, context.Canceled) || kindOf(err) != Transient {
		t.Errorf("err = %v (%v), want a transient context.Canceled", err, kindOf(err))
	}
	if hits.Load() != 0 {
		t.Errorf("the server saw %d requests", hits.Load())
	}
}

func TestTLSFailureMeansNotSent(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	// The client does not trust the test server's certificate.
	c := New(Options{Clock: clock.NewFake(t0), RetryMax: 1})
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("{}"))
	_, err := c.Do(req, policyOf(req.Method), nil)
	if kindOf(err) != Transient || !neverConnected(err) {
		t.Errorf("err = %v (%v), want a transient failure that never connected", err, kindOf(err))
	}
	if hits.Load() != 0 {
		t.Errorf("the server saw %d requests", hits.Load())
	}
}

func TestLongReasonIsCut(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, once(jsonError(400, strings.Repeat("é", 2000))))
	c := New(Options{Clock: clock.NewFake(t0)})
	var f *Failure
	if err := do(t, c, http.MethodPost, srv.URL, nil); !errors.As(err, &f) {
		t.Fatalf("err = %v", err)
	}
	if len(f.Message) > maxMessageBytes+len("…") || !strings.HasSuffix(f.Message, "…") || !strings.HasPrefix(f.Message, "éé") {
		t.Errorf("message of %d bytes: %q…", len(f.Message), f.Message[:10])
	}
}

// TestReasonIsRedactedBeforeTheCut: a secret that straddles the cut is
// redacted whole, so no piece of it is left at the end of the reason.
func TestReasonIsRedactedBeforeTheCut(t *testing.T) {
	t.Parallel()
	const secret = "mint_0123456789abcdef"
	for _, at := range []int{0, maxMessageBytes - 20, maxMessageBytes - 8, maxMessageBytes - 1, maxMessageBytes + 5} {
		srv := newRecorder(t, once(jsonError(400, strings.Repeat("x", at)+secret+strings.Repeat("y", 100))))
		c := New(Options{Clock: clock.NewFake(t0), Redact: func(s string) string { return strings.ReplaceAll(s, secret, "***") }})
		var f *Failure
		if err := do(t, c, http.MethodPost, srv.URL, nil); !errors.As(err, &f) {
			t.Fatalf("err = %v", err)
		}
		if strings.Contains(f.Message, "mint_") || len(f.Message) > maxMessageBytes+len("…") {
			t.Errorf("secret at byte %d: message of %d bytes ends %q", at, len(f.Message), f.Message[max(len(f.Message)-40, 0):])
		}
		if at < maxMessageBytes-len("***") && !strings.Contains(f.Message, strings.Repeat("x", at)+"***y") {
			t.Errorf("secret at byte %d: not redacted in place: %q", at, f.Message[max(at-5, 0):])
		}
	}
}

// TestNewJSONRequest: the key as a bearer token, JSON asked for, a body
// sent as JSON only when there is one, and nothing built once ctx ended.
func TestNewJSONRequest(t *testing.T) {
	t.Parallel()
	req, err := NewJSONRequest(context.Background(), http.MethodPost, "https://api.example/v2/x", "mint_k", []byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(req.Body)
	if req.Header.Get("Authorization") != "Bearer mint_k" || req.Header.Get("Accept") != "application/json" ||
		req.Header.Get("Content-Type") != "application/json" || string(body) != `{"a":1}` {
		t.Errorf("POST request: %v, body %q", req.Header, body)
	}
	req, err = NewJSONRequest(context.Background(), http.MethodGet, "https://api.example/v2/x", "mint_k", nil)
	if err != nil || req.Body != nil || req.Header.Get("Content-Type") != "" {
		t.Errorf("GET request: %v, %v", req, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewJSONRequest(ctx, http.MethodGet, "https://api.example/v2/x", "mint_k", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("after cancellation: %v", err)
	}
}

// TestOutliveBoundsEachAttempt: a write whose policy outlives the run,
// inside a context that ends, gives each attempt a third of the time left,
// so that one the server never answers leaves time for another, which
// writes; a call without one keeps the client's request timeout for each
// attempt.
func TestOutliveBoundsEachAttempt(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	t.Cleanup(func() { close(release) })
	c := New(Options{BackoffMin: time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPatch, srv.URL, nil)
	resp, err := c.Do(req, Policy{Kind: Repeatable, Outlive: time.Hour}, nil)
	if err != nil {
		t.Fatalf("the write after a hung attempt: %v", err)
	}
	_ = resp.Body.Close()
	if n := len(srv.requests()); n != 2 {
		t.Errorf("%d requests, want the hung one and the one that wrote", n)
	}
	if ctx.Err() != nil {
		t.Errorf("the write took its whole deadline: %v", ctx.Err())
	}
}
