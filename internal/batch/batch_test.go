package batch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/admit"
	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/request"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
	"github.com/agentjob/agent-job-action/internal/testbed/step"
)

// fakeThread is the thread: what Read returns (or err), and which
// comments the token had reacted to already; it records every claim.
type fakeThread struct {
	read    backlog.Thread
	err     error
	taken   map[int64]bool
	self    string
	url     string
	claimed []int64
}

func (f *fakeThread) React(context.Context, int64, request.Kind, string) {}
func (f *fakeThread) Read(context.Context, bool) (backlog.Thread, error) { return f.read, f.err }
func (f *fakeThread) Claim(_ context.Context, id int64, _ request.Kind) (bool, error) {
	f.claimed = append(f.claimed, id)
	return !f.taken[id], nil
}
func (f *fakeThread) Self() string { return f.self }
func (f *fakeThread) URL() string  { return f.url }

// permissions are the logins' levels; a login not in it cannot be read.
type permissions map[string]string

func (p permissions) Permission(_ context.Context, _, _, login string) (string, error) {
	if l, ok := p[login]; ok {
		return l, nil
	}
	return "", errors.New("HTTP 502")
}

var t0 = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

func ask(id int64, who, body string, at time.Duration) *request.Request {
	return &request.Request{Key: request.Key{Kind: request.Comment, ID: id}, Author: who, Body: body, At: t0.Add(at),
		URL: fmt.Sprintf("https://github.com/acme/docs/issues/12#issuecomment-%d", id)}
}

func newRoom(t *testing.T, th *fakeThread, out *bytes.Buffer) *Room {
	t.Helper()
	rep, _ := step.Reporter(t, out)
	return &Room{Thread: th, Permissions: permissions{"writer": "write", "admin": "admin", "reader": "read"}, Owner: "acme", Repo: "docs", Number: 12,
		Rules: admit.Rules{Phrase: "/docs", Required: "write", Instruction: true}, Progress: rep.Progress}
}

func keys(rs []*request.Request) []int64 {
	var out []int64
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

// TestGather: what a run answers in its thread, and which earlier comments
// it claims (the order of the comment's record, before the claims and the
// send, is the hall's: TestRunReportsToEachReader).
func TestGather(t *testing.T) {
	t.Parallel()
	own := ask(30, "writer", "/docs add the limits page", 30*time.Minute)
	tests := []struct {
		name    string
		th      *fakeThread
		send    []int64
		left    []int64
		claimed []int64
		skipped string
		log     string
	}{
		{name: "the thread cannot be read: its own alone", th: &fakeThread{err: errors.New("HTTP 502"), self: "bot", url: "u"},
			send: []int64{30}, log: "warning: could not HTTP 502; answering this request alone"},
		{name: "an earlier request, and one its author may not make", th: &fakeThread{self: "bot", url: "u", read: backlog.Thread{Items: []*request.Request{
			ask(10, "admin", "/docs mention the SLA", 10*time.Minute), ask(20, "reader", "/docs delete the security page", 20*time.Minute), own}}},
			send: []int64{10, 30}, left: []int64{20}, claimed: []int64{10}, log: "left out: the comment by reader"},
		{name: "an earlier request another run took up", th: &fakeThread{self: "bot", url: "u", taken: map[int64]bool{10: true}, read: backlog.Thread{Items: []*request.Request{
			ask(10, "admin", "/docs mention the SLA", 10*time.Minute), own}}},
			send: []int64{30}, left: []int64{10}, claimed: []int64{10}, log: "already taken up by another run (its 👀)"},
		{name: "answered by an earlier run", th: &fakeThread{self: "bot", url: "u", read: backlog.Thread{Items: []*request.Request{own},
			Own: []backlog.Owned{{ID: 40, URL: "https://github.com/acme/docs/issues/12#issuecomment-40", At: t0.Add(40 * time.Minute),
				Record: &backlog.Record{Sent: []request.Key{own.Key}, Upto: t0.Add(35 * time.Minute)}}}}},
			skipped: "https://github.com/acme/docs/issues/12#issuecomment-40"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			b := newRoom(t, tt.th, &out)
			mine := *own
			a := b.Gather(context.Background(), &mine, "write")
			if _, by := a.AnsweredBy(); by != tt.skipped {
				t.Fatalf("Gather() answered by %q, want %q", by, tt.skipped)
			}
			if tt.skipped != "" {
				return
			}
			b.Claim(context.Background(), a)
			rec := a.Record()
			var left []int64
			for _, k := range rec.Left {
				left = append(left, k.ID)
			}
			if !slices.Equal(keys(a.Send), tt.send) || !slices.Equal(left, tt.left) || !slices.Equal(tt.th.claimed, tt.claimed) {
				t.Errorf("sent %v, left %v, claimed %v; want %v, %v, %v\n%s", keys(a.Send), left, tt.th.claimed, tt.send, tt.left, tt.claimed, out.String())
			}
			if !strings.Contains(out.String(), tt.log) {
				t.Errorf("log lacks %q:\n%s", tt.log, out.String())
			}
		})
	}
}

// TestRelease: what the API provably did not act on, or what the run sent
// nothing for because others' comments hide the thread's job, is recorded
// as not sent, for the next run; what it may have acted on, or refused for
// what it is, stays answered.
func TestRelease(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		err      error
		released bool
	}{
		{"no answer", &httpclient.Failure{Kind: httpclient.Transient}, true},
		{"rate-limited", &httpclient.Failure{Kind: httpclient.RateLimited, Status: http.StatusTooManyRequests}, true},
		{"the key refused", &httpclient.Failure{Kind: httpclient.Refused, Status: http.StatusUnauthorized}, true},
		{"the prompt refused", &httpclient.Failure{Kind: httpclient.Refused, Status: http.StatusBadRequest}, false},
		{"another error", errors.New("the answer was lost"), false},
		{"the thread's job hidden by others' comments", fmt.Errorf("find the job: %w", conversation.ErrSearchCut), true},
	}
	for _, tt := range tests {
		a := Alone(ask(30, "writer", "/docs x", 0))
		note := a.Release(tt.err)
		rec := a.Record()
		if got := len(rec.Unsent) == 1 && len(rec.Sent) == 0; got != tt.released || (note != "") != tt.released {
			t.Errorf("%s: released %v (note %q, record %+v), want %v", tt.name, got, note, rec, tt.released)
		}
	}
}
