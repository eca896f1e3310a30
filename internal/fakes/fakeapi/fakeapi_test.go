package fakeapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

const testKey = "mint_fake_test"

var start = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// record is a job record as the fake renders it.
type record struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Source struct {
		Repository string  `json:"repository"`
		Ref        *string `json:"ref"`
	} `json:"source"`
	Model      string  `json:"model"`
	PRLink     *string `json:"prLink"`
	CreatedAt  string  `json:"createdAt"`
	ArchivedAt *string `json:"archivedAt"`
	Error      string  `json:"error"`
}

// call sends one request to the fake with the key (key "" for none) and
// decodes its answer.
func call(t *testing.T, s *Server, method, path, key, body string) (int, record, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var rec record
	if len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, &rec); err != nil {
			t.Fatalf("%s %s: answer %q is not JSON: %v", method, path, data, err)
		}
	}
	return resp.StatusCode, rec, resp.Header
}

func newFake(t *testing.T, sc Scenario) (*Server, *clock.Fake) {
	t.Helper()
	clk := clock.NewFake(start)
	sc.Key, sc.Clock = testKey, clk
	s := New("proj-1", sc)
	t.Cleanup(s.Close)
	return s, clk
}

const (
	jobs = "/v2/agent/proj-1/job"
	job1 = jobs + "/job_0001"
)

// TestJobLife: a created job is active for the scenario's Runtime on its
// clock, then completed with a pull request on its branch; every request
// is recorded as sent.
func TestJobLife(t *testing.T) {
	t.Parallel()
	s, clk := newFake(t, Scenario{Runtime: time.Minute})
	code, rec, _ := call(t, s, http.MethodPost, jobs, testKey, `{"prompt":"Fix typos"}`)
	if code != http.StatusCreated || rec.ID != "job_0001" || rec.Status != "active" || rec.PRLink != nil ||
		rec.CreatedAt != "2026-11-22T09:00:00Z" || rec.Source.Repository != "https://github.com/acme/docs" || rec.Model == "" {
		t.Fatalf("create = %d %+v", code, rec)
	}
	clk.Advance(59 * time.Second)
	if _, rec, _ := call(t, s, http.MethodGet, job1, testKey, ""); rec.Status != "active" || rec.PRLink != nil || rec.Source.Ref != nil {
		t.Errorf("before Runtime: %+v, want active without a pull request", rec)
	}
	clk.Advance(time.Second)
	code, rec, _ = call(t, s, http.MethodGet, job1, testKey, "")
	if code != http.StatusOK || rec.Status != "completed" || rec.PRLink == nil || *rec.PRLink != "https://github.com/acme/docs/pull/101" ||
		rec.Source.Ref == nil || *rec.Source.Ref != "docs/agent-job_0001" || rec.ArchivedAt != nil {
		t.Errorf("after Runtime: %d %+v, want completed with pull request 101 on docs/agent-job_0001", code, rec)
	}

	reqs := s.Requests()
	var got []string
	for _, r := range reqs {
		got = append(got, r.Method+" "+r.Path)
	}
	if want := []string{"POST " + jobs, "GET " + job1, "GET " + job1}; !slices.Equal(got, want) {
		t.Errorf("requests = %q, want %q", got, want)
	}
	if reqs[0].Prompt() != "Fix typos" || reqs[0].Header.Get("Authorization") != "Bearer "+testKey || reqs[1].Prompt() != "" {
		t.Errorf("the create's recorded prompt %q, header %v", reqs[0].Prompt(), reqs[0].Header)
	}
	if s.Creates() != 1 || s.Gets() != 2 || s.Messages() != 0 || len(s.Unexpected()) != 0 {
		t.Errorf("counts: %d creates, %d gets, %d messages, unexpected %q", s.Creates(), s.Gets(), s.Messages(), s.Unexpected())
	}
	// Requests is a copy: a caller's change does not reach the record.
	reqs[0].Method = "PATCH"
	if s.Requests()[0].Method != http.MethodPost {
		t.Error("Requests returned the fake's own slice")
	}
}

// TestOutcomes: how a job ends is the scenario's.
func TestOutcomes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		sc       Scenario
		status   string
		pr       string // "" for none
		archived bool
	}{
		{name: "completed", sc: Scenario{}, status: "completed", pr: "https://github.com/acme/docs/pull/101"},
		{name: "another repository", sc: Scenario{Repository: "https://github.com/acme/handbook"}, status: "completed", pr: "https://github.com/acme/handbook/pull/101"},
		{name: "completed without a change", sc: Scenario{NoPR: true}, status: "completed"},
		{name: "failed", sc: Scenario{Outcome: "failed"}, status: "failed"},
		{name: "archived", sc: Scenario{Outcome: "archived"}, status: "archived", archived: true},
		{name: "a status the client does not know", sc: Scenario{Outcome: "paused"}, status: "paused"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.sc.Runtime = time.Minute
			s, clk := newFake(t, tt.sc)
			call(t, s, http.MethodPost, jobs, testKey, `{"prompt":"p"}`)
			clk.Advance(time.Minute)
			_, rec, _ := call(t, s, http.MethodGet, job1, testKey, "")
			pr := ""
			if rec.PRLink != nil {
				pr = *rec.PRLink
			}
			if rec.Status != tt.status || pr != tt.pr || (rec.ArchivedAt != nil) != tt.archived {
				t.Errorf("record %+v (prLink %q), want status %s, prLink %q, archivedAt set %v", rec, pr, tt.status, tt.pr, tt.archived)
			}
			if tt.archived && *rec.ArchivedAt != "2026-11-22T09:01:00Z" {
				t.Errorf("archivedAt = %s, want the time the job ended", *rec.ArchivedAt)
			}
		})
	}
}

// TestReadsToComplete: with Reads, a job ends at its Reads-th read after
// a create or a follow-up, whatever the clock says.
func TestReadsToComplete(t *testing.T) {
	t.Parallel()
	s, _ := newFake(t, Scenario{Runtime: time.Hour, Reads: 3})
	call(t, s, http.MethodPost, jobs, testKey, `{"prompt":"p"}`)
	var seen []string
	for range 4 {
		_, rec, _ := call(t, s, http.MethodGet, job1, testKey, "")
		seen = append(seen, rec.Status)
	}
	if want := []string{"active", "active", "completed", "completed"}; !slices.Equal(seen, want) {
		t.Errorf("statuses read = %q, want %q", seen, want)
	}
	// A follow-up starts the count again.
	if code, rec, _ := call(t, s, http.MethodPost, job1+"/message", testKey, `{"prompt":"more"}`); code != http.StatusOK || rec.Status != "active" {
		t.Fatalf("follow-up = %d %+v", code, rec)
	}
	seen = nil
	for range 3 {
		_, rec, _ := call(t, s, http.MethodGet, job1, testKey, "")
		seen = append(seen, rec.Status)
	}
	if want := []string{"active", "active", "completed"}; !slices.Equal(seen, want) {
		t.Errorf("after the follow-up, statuses read = %q, want %q", seen, want)
	}
}

// TestFollowUp: a follow-up makes a job active for another Runtime; a job
// that ended failed or archived takes none, as the real API answers.
func TestFollowUp(t *testing.T) {
	t.Parallel()
	s, clk := newFake(t, Scenario{Runtime: time.Minute})
	s.AddJob("job_0042", "completed")
	s.AddJob("job_0043", "archived")
	s.AddJob("job_0044", "failed")
	s.AddRunningJob("job_0045")

	code, rec, _ := call(t, s, http.MethodPost, jobs+"/job_0042/message", testKey, `{"prompt":"one more"}`)
	if code != http.StatusOK || rec.ID != "job_0042" || rec.Status != "active" {
		t.Errorf("follow-up to a completed job = %d %+v, want 200 and active", code, rec)
	}
	clk.Advance(time.Minute)
	if _, rec, _ := call(t, s, http.MethodGet, jobs+"/job_0042", testKey, ""); rec.Status != "completed" {
		t.Errorf("after another Runtime: %+v, want completed", rec)
	}
	for _, id := range []string{"job_0043", "job_0044"} {
		code, rec, _ := call(t, s, http.MethodPost, jobs+"/"+id+"/message", testKey, `{"prompt":"more"}`)
		if code != http.StatusBadRequest || !strings.Contains(rec.Error, "cannot take messages") {
			t.Errorf("follow-up to %s = %d %+v, want 400 cannot take messages", id, code, rec)
		}
	}
	if _, rec, _ := call(t, s, http.MethodGet, jobs+"/job_0045", testKey, ""); rec.Status != "completed" {
		t.Errorf("a running job added a Runtime ago: %+v, want completed", rec)
	}
	if code, rec, _ := call(t, s, http.MethodPost, jobs+"/job_0099/message", testKey, `{"prompt":"more"}`); code != http.StatusNotFound || rec.Error != "job not found" {
		t.Errorf("follow-up to an unknown job = %d %+v, want 404", code, rec)
	}
	if s.Messages() != 4 {
		t.Errorf("%d follow-ups counted, want 4", s.Messages())
	}
}

// TestRefusals: what the fake refuses, and which refusals are a client's
// bug (Unexpected) rather than an answer the real API gives.
func TestRefusals(t *testing.T) {
	t.Parallel()
	s, _ := newFake(t, Scenario{Runtime: time.Minute})
	for _, tt := range []struct {
		name, method, path, key, body string
		code                          int
		error                         string
		unexpected                    bool
	}{
		{"no key", http.MethodPost, jobs, "", `{"prompt":"p"}`, http.StatusUnauthorized, "invalid API key", false},
		{"another key", http.MethodGet, job1, "mint_other", "", http.StatusUnauthorized, "invalid API key", false},
		{"no prompt", http.MethodPost, jobs, testKey, `{}`, http.StatusBadRequest, "prompt is required", false},
		{"an empty prompt", http.MethodPost, jobs, testKey, `{"prompt":""}`, http.StatusBadRequest, "prompt is required", false},
		{"not JSON", http.MethodPost, jobs, testKey, `prompt=p`, http.StatusBadRequest, "prompt is required", false},
		{"an unknown job", http.MethodGet, jobs + "/job_0099", testKey, "", http.StatusNotFound, "job not found", false},
		{"another project", http.MethodPost, "/v2/agent/proj-2/job", testKey, `{"prompt":"p"}`, http.StatusNotFound, "not found", true},
		{"the v1 endpoint", http.MethodPost, "/v1/agent/proj-1/job", testKey, `{"prompt":"p"}`, http.StatusNotFound, "not found", true},
		{"a method no endpoint takes", http.MethodDelete, job1, testKey, "", http.StatusNotFound, "not found", true},
	} {
		before := len(s.Unexpected())
		code, rec, _ := call(t, s, tt.method, tt.path, tt.key, tt.body)
		if code != tt.code || rec.Error != tt.error {
			t.Errorf("%s: %d %q, want %d %q", tt.name, code, rec.Error, tt.code, tt.error)
		}
		u := s.Unexpected()
		if got := len(u) > before; got != tt.unexpected {
			t.Errorf("%s: in Unexpected %v, want %v (%q)", tt.name, got, tt.unexpected, u)
		}
		if tt.unexpected && len(u) > 0 && u[len(u)-1] != tt.method+" "+tt.path {
			t.Errorf("%s: Unexpected lists %q, want %q", tt.name, u[len(u)-1], tt.method+" "+tt.path)
		}
	}
	if n := len(s.Requests()); n != 9 {
		t.Errorf("%d requests recorded, want every one of the 9, refused or not", n)
	}
}

// TestFailOn: a fault replaces the answer to the request of that number,
// over every endpoint; the request is still recorded, and the next is
// answered as usual.
func TestFailOn(t *testing.T) {
	t.Parallel()
	s, _ := newFake(t, Scenario{Runtime: time.Minute})
	s.FailOn(1, faults.RateLimited("2"))
	s.FailOn(3, faults.Status(http.StatusBadGateway))
	code, _, h := call(t, s, http.MethodPost, jobs, testKey, `{"prompt":"p"}`)
	if code != http.StatusTooManyRequests || h.Get("Retry-After") != "2" {
		t.Errorf("request 1 = %d, Retry-After %q; want 429 with 2", code, h.Get("Retry-After"))
	}
	if code, rec, _ := call(t, s, http.MethodPost, jobs, testKey, `{"prompt":"p"}`); code != http.StatusCreated || rec.ID != "job_0001" {
		t.Errorf("request 2 = %d %+v, want the first job created", code, rec)
	}
	if code, _, _ := call(t, s, http.MethodGet, job1, testKey, ""); code != http.StatusBadGateway {
		t.Errorf("request 3 = %d, want 502", code)
	}
	if code, _, _ := call(t, s, http.MethodGet, job1, testKey, ""); code != http.StatusOK {
		t.Errorf("request 4 = %d, want 200", code)
	}
	if s.Creates() != 2 || s.Gets() != 2 {
		t.Errorf("%d creates and %d gets recorded, want 2 and 2: a fault's request is recorded too", s.Creates(), s.Gets())
	}
}

// TestPreviewRequests: with Preview, the preview API's paths go to its
// handler, which records them itself; the fake neither records nor
// refuses them.
func TestPreviewRequests(t *testing.T) {
	t.Parallel()
	var (
		mu   sync.Mutex
		seen []string
	)
	s, _ := newFake(t, Scenario{Preview: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	})})
	if code, _, _ := call(t, s, http.MethodPost, "/v1/project/preview/proj-1", testKey, `{"branch":"docs"}`); code != http.StatusAccepted {
		t.Errorf("preview request = %d, want the handler's 202", code)
	}
	mu.Lock()
	if want := []string{"POST /v1/project/preview/proj-1"}; !slices.Equal(seen, want) {
		t.Errorf("the handler saw %q, want %q", seen, want)
	}
	mu.Unlock()
	if n := len(s.Requests()); n != 0 || len(s.Unexpected()) != 0 {
		t.Errorf("the fake recorded %d requests, unexpected %q; want none", n, s.Unexpected())
	}

	// Without Preview, the same path is a request no endpoint serves.
	plain, _ := newFake(t, Scenario{})
	if code, _, _ := call(t, plain, http.MethodPost, "/v1/project/preview/proj-1", testKey, `{"branch":"docs"}`); code != http.StatusNotFound || len(plain.Unexpected()) != 1 {
		t.Errorf("without Preview: %d, unexpected %q; want 404 and one", code, plain.Unexpected())
	}
}
