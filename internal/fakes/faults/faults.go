// Package faults holds named misbehaviours of a server (errors, rate limits,
// broken connections, bad bodies, redirects) that the fake services switch on
// per request number, so tests can prove the action survives each one.
package faults

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fault answers a request in place of the fake. It returns false to let the
// fake answer normally after all (a fault that only observes or delays).
type Fault func(w http.ResponseWriter, r *http.Request) bool

// Script switches faults on by request number, counting from 1 over every
// request it sees.
type Script struct {
	mu sync.Mutex
	n  int
	at map[int]Fault
}

// On makes request number n meet f. It returns s for chaining.
func (s *Script) On(n int, f Fault) *Script {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.at == nil {
		s.at = map[int]Fault{}
	}
	s.at[n] = f
	return s
}

// Serve counts r and applies its fault, if any. It has the Fault signature,
// so a Script can be a fake's fault hook.
func (s *Script) Serve(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	s.n++
	f := s.at[s.n]
	s.mu.Unlock()
	return f != nil && f(w, r)
}

// Status answers code with a JSON {"error": ...} body, as the API does.
func Status(code int) Fault {
	return func(w http.ResponseWriter, _ *http.Request) bool {
		JSON(code, map[string]string{"error": http.StatusText(code)})(w, nil)
		return true
	}
}

// HTMLStatus answers code with an HTML page, as a proxy or load balancer does.
func HTMLStatus(code int) Fault {
	return func(w http.ResponseWriter, _ *http.Request) bool {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(code)
		fmt.Fprintf(w, "<html><body><h1>%d %s</h1><p>upstream error</p></body></html>", code, http.StatusText(code))
		return true
	}
}

// HTMLPage answers 200 with an HTML page instead of JSON (a captive portal,
// a misrouted proxy).
func HTMLPage() Fault { return HTMLStatus(http.StatusOK) }

// JSON answers code with v encoded as JSON.
func JSON(code int, v any) Fault {
	return func(w http.ResponseWriter, _ *http.Request) bool {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(v)
		return true
	}
}

// RateLimited answers 429 with Retry-After set to retryAfter.
func RateLimited(retryAfter string) Fault {
	return func(w http.ResponseWriter, _ *http.Request) bool {
		w.Header().Set("Retry-After", retryAfter)
		JSON(http.StatusTooManyRequests, map[string]string{"error": "rate limit exceeded"})(w, nil)
		return true
	}
}

// Seconds formats a Retry-After in seconds.
func Seconds(n int) string { return strconv.Itoa(n) }

// Date formats a Retry-After as an HTTP date.
func Date(t time.Time) string { return t.UTC().Format(http.TimeFormat) }

// ResetBeforeRead drops the connection with a TCP reset before reading the
// request body: the server did not act.
func ResetBeforeRead() Fault {
	return func(w http.ResponseWriter, _ *http.Request) bool {
		reset(w)
		return true
	}
}

// ResetAfterRead reads the whole request, then drops the connection with a
// reset: the server may have acted, the client never hears.
func ResetAfterRead() Fault {
	return func(w http.ResponseWriter, r *http.Request) bool {
		_, _ = io.Copy(io.Discard, r.Body)
		reset(w)
		return true
	}
}

func reset(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(fmt.Sprintf("faults: cannot hijack: %v", err))
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0) // close with RST, not FIN
	}
	conn.Close()
}

// Hang never answers; it returns when the client gives up.
func Hang() Fault {
	return func(w http.ResponseWriter, r *http.Request) bool {
		<-r.Context().Done()
		return true
	}
}

// Notify calls f when the request arrives, then lets the fake answer.
func Notify(f func()) Fault {
	return func(http.ResponseWriter, *http.Request) bool {
		f()
		return false
	}
}

// Truncated answers code with a Content-Length larger than what it sends,
// then closes the connection: the body ends mid-JSON.
func Truncated(code int) Fault {
	return func(w http.ResponseWriter, _ *http.Request) bool {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(fmt.Sprintf("faults: cannot hijack: %v", err))
		}
		defer conn.Close()
		body := `{"id":"job_0001","status":"act`
		fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n%s", code, http.StatusText(code), body)
		_ = buf.Flush()
		return true
	}
}

// Huge answers code with a JSON-looking body of size bytes, streamed so the
// fake itself holds little of it.
func Huge(code int, size int64) Fault {
	return func(w http.ResponseWriter, _ *http.Request) bool {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
		w.WriteHeader(code)
		bw := bufio.NewWriterSize(w, 64<<10)
		chunk := []byte(`{"id":"job_0001","status":"active","pad":"` + strings.Repeat("x", 32<<10))
		for left := size; left > 0; left -= int64(len(chunk)) {
			if _, err := bw.Write(chunk[:min(int64(len(chunk)), left)]); err != nil {
				return true // the client stopped reading: that is the point
			}
		}
		_ = bw.Flush()
		return true
	}
}

// HugeChunked is Huge without a Content-Length, so the client cannot refuse
// it up front and must stop reading on its own.
func HugeChunked(code int, size int64) Fault {
	return func(w http.ResponseWriter, r *http.Request) bool {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		chunk := []byte(strings.Repeat(" ", 64<<10))
		for left := size; left > 0; left -= int64(len(chunk)) {
			if _, err := w.Write(chunk[:min(int64(len(chunk)), left)]); err != nil {
				return true
			}
		}
		return true
	}
}

// Redirect answers 307 to the same path on another base URL.
func Redirect(base string) Fault { return RedirectStatus(http.StatusTemporaryRedirect, base) }

// RedirectStatus answers code (301, 302, 303, 307 or 308) to the same path
// on another base URL, as a hostile or misconfigured server would to lure
// the request, and its credentials, elsewhere.
func RedirectStatus(code int, base string) Fault {
	return func(w http.ResponseWriter, r *http.Request) bool {
		http.Redirect(w, r, strings.TrimRight(base, "/")+r.URL.RequestURI(), code)
		return true
	}
}

// Unavailable answers 503 with Retry-After set to retryAfter and a JSON
// reason, as a service down for maintenance does.
func Unavailable(retryAfter string) Fault {
	return func(w http.ResponseWriter, _ *http.Request) bool {
		w.Header().Set("Retry-After", retryAfter)
		JSON(http.StatusServiceUnavailable, map[string]string{"error": "down for maintenance"})(w, nil)
		return true
	}
}
