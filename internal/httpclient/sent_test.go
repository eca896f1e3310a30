package httpclient

import (
	"context"
	"io"
	"maps"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-github/v62/github"

	"github.com/agentjob/agent-job-action/internal/clock"
)

// TestSentCountsEveryAttempt: what a client sent is counted by method,
// host and path, each attempt once, through Do and through the client
// go-github is given alike.
func TestSentCountsEveryAttempt(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			w.WriteHeader(http.StatusBadGateway) // the read is repeated once
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/repos/o/r/issues/1/comments" {
			io.WriteString(w, `[]`)
			return
		}
		io.WriteString(w, `{}`)
	})
	c := New(Options{Clock: clock.NewFake(t0), RetryMax: 2})
	if err := do(t, c, http.MethodGet, srv.URL+"/v2/agent/p/job/j", nil); err != nil {
		t.Fatal(err)
	}
	if err := do(t, c, http.MethodPost, srv.URL+"/v2/agent/p/job", nil); err != nil {
		t.Fatal(err)
	}
	gh := github.NewClient(c.HTTPClient(Policy{Kind: Repeatable})).WithAuthToken("ghs_secret")
	gh.BaseURL, _ = url.Parse(srv.URL + "/")
	if _, _, err := gh.Issues.ListComments(context.Background(), "o", "r", 1, nil); err != nil {
		t.Fatal(err)
	}
	host := srv.Listener.Addr().String()
	want := map[Sent]int{
		{Method: "GET", Host: host, Path: "/v2/agent/p/job/j"}:            2,
		{Method: "POST", Host: host, Path: "/v2/agent/p/job"}:             1,
		{Method: "GET", Host: host, Path: "/repos/o/r/issues/1/comments"}: 1,
	}
	if got := c.Sent(); !maps.Equal(got, want) {
		t.Errorf("Sent() = %v, want %v", got, want)
	}
	if n := len(srv.requests()); n != 4 {
		t.Errorf("the server saw %d requests, want 4", n)
	}
}
