package httpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/agentjob/agent-job-action/internal/clock"
)

var t0 = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// TestPolicy is the retry policy as a table: which answers are repeated for
// a read (GET) and for a create (POST).
func TestPolicy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		method   string
		answer   func(w http.ResponseWriter)
		badBody  bool // the response handler rejects 2xx bodies once
		attempts int
	}{
		{"GET 503 is repeated", http.MethodGet, status(503), false, 2},
		{"GET 500 is repeated", http.MethodGet, status(500), false, 2},
		{"GET 501 is not", http.MethodGet, status(501), false, 1},
		{"GET 404 is not", http.MethodGet, status(404), false, 1},
		{"GET 429 is repeated", http.MethodGet, status(429), false, 2},
		{"GET bad body is repeated", http.MethodGet, status(200), true, 2},
		{"POST 503 is not repeated", http.MethodPost, status(503), false, 1},
		{"POST 500 is not repeated", http.MethodPost, status(500), false, 1},
		{"POST 400 is not repeated", http.MethodPost, status(400), false, 1},
		{"POST 429 is repeated", http.MethodPost, status(429), false, 2},
		{"POST bad body is not repeated", http.MethodPost, status(201), true, 1},
		{"PATCH 502 is repeated", http.MethodPatch, status(502), false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if n.Add(1) == 1 {
					tt.answer(w)
					return
				}
				w.WriteHeader(http.StatusOK)
				io.WriteString(w, `{}`)
			}))
			defer srv.Close()
			c := New(context.Background(), Options{Clock: clock.NewFake(t0), UserAgent: "test/1"})
			req, _ := retryablehttp.NewRequest(tt.method, srv.URL, strings.NewReader(`{"prompt":"x"}`))
			rejected := false
			req.SetResponseHandler(func(resp *http.Response) error {
				if tt.badBody && !rejected && resp.StatusCode < 300 {
					rejected = true
					return ErrBadBody
				}
				return nil
			})
			resp, _ := c.Do(req)
			if resp != nil {
				resp.Body.Close()
			}
			if got := int(n.Load()); got != tt.attempts {
				t.Errorf("%d attempts, want %d", got, tt.attempts)
			}
		})
	}
}

func status(code int) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) { w.WriteHeader(code) }
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
	c := New(context.Background(), Options{Clock: clock.NewFake(t0), RetryMax: 2, OnRetry: func(r Retry) { retries = append(retries, r) }})
	req, _ := retryablehttp.NewRequest(http.MethodPost, "http://"+addr+"/v2/agent/p/job", strings.NewReader("{}"))
	_, err = c.Do(req)
	if err == nil || !NeverConnected(err) {
		t.Fatalf("err = %v, want a dial error", err)
	}
	if len(retries) != 2 {
		t.Errorf("%d retries of a POST that never connected, want 2", len(retries))
	}
	if strings.Contains(StripURLs(err).Error(), "/v2/agent") {
		t.Errorf("StripURLs kept the URL: %v", StripURLs(err))
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		header   string
		deadline time.Duration
		want     time.Duration // the wait, when retried
		refused  bool          // the wait would pass the deadline
	}{
		{header: "7", deadline: time.Hour, want: 7 * time.Second},
		{header: t0.Add(90 * time.Second).Format(http.TimeFormat), deadline: time.Hour, want: 90 * time.Second},
		{header: "3600", deadline: 10 * time.Minute, refused: true},
		{header: "soon", deadline: time.Hour, want: time.Second}, // unreadable: the backoff's own
		{header: "-5", deadline: time.Hour, want: time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if n.Add(1) == 1 {
					w.Header().Set("Retry-After", tt.header)
					w.WriteHeader(http.StatusTooManyRequests)
				}
			}))
			defer srv.Close()
			clk := clock.NewFake(t0)
			c := New(context.Background(), Options{Clock: clk, Deadline: t0.Add(tt.deadline)})
			req, _ := retryablehttp.NewRequest(http.MethodGet, srv.URL, nil)
			resp, err := c.Do(req)
			if resp != nil {
				resp.Body.Close()
			}
			var ra *RetryAfterError
			if tt.refused {
				if !errors.As(err, &ra) || n.Load() != 1 {
					t.Errorf("err = %v after %d attempts, want a RetryAfterError after 1", err, n.Load())
				}
				return
			}
			if err != nil || n.Load() != 2 {
				t.Fatalf("err = %v after %d attempts", err, n.Load())
			}
			if naps := clk.Naps(); len(naps) != 1 || naps[0] != tt.want {
				t.Errorf("waited %v, want %v", naps, tt.want)
			}
		})
	}
}

func TestRedirects(t *testing.T) {
	t.Parallel()
	var otherHits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { otherHits.Add(1) }))
	defer other.Close()
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, strings.Replace(other.URL, "127.0.0.1", "localhost", 1)+"/x", http.StatusFound)
		case "/here":
			http.Redirect(w, r, "/final", http.StatusFound)
		case "/final":
			auth.Store(r.Header.Get("Authorization"))
		}
	}))
	defer srv.Close()
	c := New(context.Background(), Options{Clock: clock.NewFake(t0)})
	get := func(path string) error {
		req, _ := retryablehttp.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer k")
		resp, err := c.Do(req)
		if resp != nil {
			resp.Body.Close()
		}
		return err
	}
	if err := get("/away"); err == nil || !strings.Contains(err.Error(), "redirect to another host refused") {
		t.Errorf("redirect away: %v", err)
	}
	if otherHits.Load() != 0 {
		t.Error("the other host was contacted")
	}
	if err := get("/here"); err != nil || auth.Load() != "Bearer k" {
		t.Errorf("same-host redirect: %v, auth %v", err, auth.Load())
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
	c := New(context.Background(), Options{Clock: clock.NewFake(t0), MaxBodyBytes: 1000})
	for _, path := range []string{"/length", "/chunked"} {
		req, _ := retryablehttp.NewRequest(http.MethodGet, srv.URL+path, nil)
		resp, err := c.Do(req)
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

func TestBackoffStopsAtDeadline(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "3600") // a 503 is not refused as a 429 is: only the cap holds it
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	clk := clock.NewFake(t0)
	c := New(context.Background(), Options{Clock: clk, Deadline: t0.Add(10 * time.Minute)})
	req, _ := retryablehttp.NewRequest(http.MethodGet, srv.URL, nil)
	if resp, _ := c.Do(req); resp != nil {
		resp.Body.Close()
	}
	if naps := clk.Naps(); len(naps) != 1 || naps[0] != 10*time.Minute {
		t.Errorf("waited %v, want [10m0s]", naps)
	}
}

func TestUserAgentAndCancellation(t *testing.T) {
	t.Parallel()
	var ua atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.Header.Get("User-Agent"))
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	c := New(ctx, Options{Clock: clock.Real{}, UserAgent: "agent-job-action/v9", BackoffMin: time.Hour, BackoffMax: time.Hour,
		OnRetry: func(Retry) { cancel() }})
	req, _ := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	done := make(chan error, 1)
	go func() { _, err := c.Do(req); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("an hour-long backoff did not end on cancellation")
	}
	if ua.Load() != "agent-job-action/v9" {
		t.Errorf("User-Agent %v", ua.Load())
	}
}

func TestTLSFailureMeansNotSent(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	// The client does not trust the test server's certificate.
	c := New(context.Background(), Options{Clock: clock.NewFake(t0), RetryMax: 1})
	req, _ := retryablehttp.NewRequest(http.MethodPost, srv.URL, strings.NewReader("{}"))
	_, err := c.Do(req)
	if err == nil || !NeverConnected(err) {
		t.Errorf("err = %v, want a failure that NeverConnected recognises", err)
	}
	if hits.Load() != 0 {
		t.Errorf("the server saw %d requests", hits.Load())
	}
}
