package fakeapi

import (
	"net/http"
	"strconv"
)

// Fault replaces the fake's answer to one request. It returns false to let
// the normal handler answer after all (a fault that only delays, say).
type Fault func(w http.ResponseWriter, r *http.Request) bool

// FailOn makes the fake answer request number n (counting from 1, over all
// endpoints) with f instead of its normal answer.
func (s *Server) FailOn(n int, f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[n] = f
}

// Status answers with code and a JSON error body.
func Status(code int) Fault {
	return func(w http.ResponseWriter, _ *http.Request) bool {
		writeJSON(w, code, map[string]string{"error": http.StatusText(code)})
		return true
	}
}

// RateLimited answers 429 with a Retry-After header (seconds or HTTP date).
func RateLimited(retryAfter string) Fault {
	return func(w http.ResponseWriter, _ *http.Request) bool {
		w.Header().Set("Retry-After", retryAfter)
		writeJSON(w, http.StatusTooManyRequests, map[string]string{"error": "rate limit exceeded"})
		return true
	}
}

// Hang never answers: it waits until the client goes away.
func Hang() Fault {
	return func(w http.ResponseWriter, r *http.Request) bool {
		<-r.Context().Done()
		return true
	}
}

// RetryAfterSeconds formats n seconds for RateLimited.
func RetryAfterSeconds(n int) string { return strconv.Itoa(n) }
