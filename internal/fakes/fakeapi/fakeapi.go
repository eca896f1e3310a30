// Package fakeapi is an in-process fake of the Agent Job API's three v2
// endpoints, on a host that can also serve the preview API
// (Scenario.Preview). It simulates a job's life (active for a while, then
// an outcome) on an injectable clock and records every request it
// receives. Tests and `go run . demo` use it.
package fakeapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
)

// Scenario says how jobs behave.
type Scenario struct {
	// Key is the API key the fake accepts; requests with another get 401.
	Key string
	// Runtime is how long a job stays active after a create or follow-up.
	Runtime time.Duration
	// Outcome is the status a job ends with: completed (the default),
	// failed, archived, or any other string.
	Outcome string
	// NoPR leaves prLink null at the end, as when nothing changed.
	NoPR bool
	// PRAhead is how long before a completed job's end its pull request
	// exists: prLink is set while the job is still active, as when the
	// agent pushes its pull request a moment before the API reports the
	// job ended. 0: prLink appears with the end.
	PRAhead time.Duration
	// Repository is the job's source.repository.
	Repository string
	// PRRepository is the repository of the pull request a job opens;
	// "" means Repository.
	PRRepository string
	// Clock decides when a job ends; nil is the real clock.
	Clock clock.Clock
	// Reads, when set, ends a job at its Reads-th read after a create or
	// follow-up instead of after Runtime: a test of a binary on the real
	// clock then sees that many polls however slowly its machine runs.
	Reads int
	// IDFormat is the fmt format of the ids created jobs get, from the
	// job's number; "" is job_%04d. A format such as job:%04d makes the
	// fake answer with an id the action cannot record.
	IDFormat string
	// Preview, when set, answers the requests under /v1/project/ (the
	// preview deployments, which the real API serves on the same host);
	// it records them itself, and they are not this fake's requests.
	Preview http.Handler
}

// Request is one request the fake received.
type Request struct {
	Method string
	Path   string // as sent, escaped
	Header http.Header
	Body   []byte
}

// Prompt decodes the request's {"prompt": ...} body.
func (r Request) Prompt() string {
	var b struct {
		Prompt string `json:"prompt"`
	}
	_ = json.Unmarshal(r.Body, &b)
	return b.Prompt
}

// Server is the running fake.
type Server struct {
	*httptest.Server
	Project string

	sc       Scenario
	mu       sync.Mutex
	requests []Request
	jobs     map[string]*job
	nextID   int
	faults   faults.Script
	ends     []time.Time // of each create and follow-up taken, in order
	// unexpected lists requests no endpoint serves: a client bug, not a
	// missing job.
	unexpected []string
}

type job struct {
	ID        string
	Status    string
	PRLink    *string
	Ref       *string
	Created   time.Time
	EndsAt    time.Time
	Archived  *string
	Followups int
	Reads     int // since the create or the last follow-up
}

// New starts a fake serving project.
func New(project string, sc Scenario) *Server {
	if sc.Clock == nil {
		sc.Clock = clock.Real{}
	}
	if sc.Outcome == "" {
		sc.Outcome = "completed"
	}
	if sc.Repository == "" {
		sc.Repository = "https://github.com/acme/docs"
	}
	if sc.PRRepository == "" {
		sc.PRRepository = sc.Repository
	}
	if sc.IDFormat == "" {
		sc.IDFormat = "job_%04d"
	}
	s := &Server{Project: project, sc: sc, jobs: map[string]*job{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Scenario is the scenario the fake plays, its defaults filled in.
func (s *Server) Scenario() Scenario { return s.sc }

// Ends are when the job of each create and follow-up the fake took ends
// (its Runtime after it), in the order it took them.
func (s *Server) Ends() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ends)
}

// Requests returns a copy of every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Creates, Messages and Gets count the requests to each endpoint.
func (s *Server) Creates() int  { return s.count(isCreate) }
func (s *Server) Messages() int { return s.count(isMessage) }
func (s *Server) Gets() int {
	return s.count(func(r Request) bool { return r.Method == http.MethodGet })
}

func (s *Server) count(f func(Request) bool) int {
	n := 0
	for _, r := range s.Requests() {
		if f(r) {
			n++
		}
	}
	return n
}

func isCreate(r Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/job")
}

func isMessage(r Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/message")
}

// FailOn makes request number n (counting from 1, over all endpoints) meet
// fault f instead of the normal answer.
func (s *Server) FailOn(n int, f faults.Fault) { s.faults.On(n, f) }

// AddJob registers a job that already exists, for follow-up tests.
func (s *Server) AddJob(id, status string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.jobs[id] = &job{ID: id, Status: status, Created: s.sc.Clock.Now(), EndsAt: s.sc.Clock.Now()}
}

// AddRunningJob registers a job another run started, active for the
// scenario's Runtime from now, for resume tests.
func (s *Server) AddRunningJob(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.jobs[id] = &job{ID: id, Status: "active", Created: s.sc.Clock.Now(), EndsAt: s.sc.Clock.Now().Add(s.sc.Runtime)}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if s.sc.Preview != nil && strings.HasPrefix(r.URL.EscapedPath(), "/v1/project/") {
		s.sc.Preview.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.EscapedPath(), Header: r.Header.Clone(), Body: body})
	s.mu.Unlock()
	if s.faults.Serve(w, r) {
		return
	}

	if r.Header.Get("Authorization") != "Bearer "+s.sc.Key {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid API key"})
		return
	}
	prefix := "/v2/agent/" + url.PathEscape(s.Project) + "/job"
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), prefix)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok {
		s.unexpected = append(s.unexpected, r.Method+" "+r.URL.EscapedPath())
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not found"})
		return
	}
	switch {
	case rest == "" && r.Method == http.MethodPost:
		s.create(w, body)
	case strings.Count(rest, "/") == 1 && r.Method == http.MethodGet:
		s.get(w, unescape(rest[1:]))
	case strings.HasSuffix(rest, "/message") && strings.Count(rest, "/") == 2 && r.Method == http.MethodPost:
		s.message(w, unescape(strings.TrimSuffix(rest[1:], "/message")), body)
	default:
		s.unexpected = append(s.unexpected, r.Method+" "+r.URL.EscapedPath())
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not found"})
	}
}

// Unexpected returns the requests that no endpoint serves, as "METHOD path".
func (s *Server) Unexpected() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.unexpected...)
}

func unescape(segment string) string {
	s, err := url.PathUnescape(segment)
	if err != nil {
		return segment
	}
	return s
}

func prompt(w http.ResponseWriter, body []byte) (string, bool) {
	var b struct {
		Prompt *string `json:"prompt"`
	}
	if err := json.Unmarshal(body, &b); err != nil || b.Prompt == nil || *b.Prompt == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "prompt is required"})
		return "", false
	}
	return *b.Prompt, true
}

func (s *Server) create(w http.ResponseWriter, body []byte) {
	if _, ok := prompt(w, body); !ok {
		return
	}
	s.nextID++
	now := s.sc.Clock.Now()
	j := &job{ID: fmt.Sprintf(s.sc.IDFormat, s.nextID), Status: "active", Created: now, EndsAt: now.Add(s.sc.Runtime)}
	s.jobs[j.ID] = j
	s.ends = append(s.ends, j.EndsAt)
	writeJSON(w, http.StatusCreated, s.render(j))
}

func (s *Server) get(w http.ResponseWriter, id string) {
	j, ok := s.jobs[id]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "job not found"})
		return
	}
	j.Reads++
	writeJSON(w, http.StatusOK, s.render(j))
}

func (s *Server) message(w http.ResponseWriter, id string, body []byte) {
	j, ok := s.jobs[id]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "job not found"})
		return
	}
	if _, ok := prompt(w, body); !ok {
		return
	}
	s.advance(j)
	if j.Status == "archived" || j.Status == "failed" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "job is " + j.Status + " and cannot take messages"})
		return
	}
	j.Followups++
	j.Reads = 0
	j.Status = "active"
	j.EndsAt = s.sc.Clock.Now().Add(s.sc.Runtime)
	s.ends = append(s.ends, j.EndsAt)
	writeJSON(w, http.StatusOK, s.render(j))
}

// advance moves a job to its outcome once its runtime has passed, or
// once it has been read as often as the scenario says.
func (s *Server) advance(j *job) {
	if j.Status == "active" && s.sc.Reads == 0 && s.sc.PRAhead > 0 && !s.sc.Clock.Now().Before(j.EndsAt.Add(-s.sc.PRAhead)) {
		s.openPR(j)
	}
	switch {
	case j.Status != "active":
		return
	case s.sc.Reads > 0 && j.Reads < s.sc.Reads:
		return
	case s.sc.Reads == 0 && s.sc.Clock.Now().Before(j.EndsAt):
		return
	}
	j.Status = s.sc.Outcome
	ref := fmt.Sprintf("docs/agent-%s", j.ID)
	j.Ref = &ref
	if j.Status == "completed" {
		s.openPR(j)
	}
	if j.Status == "archived" {
		at := s.sc.Clock.Now().UTC().Format(time.RFC3339)
		j.Archived = &at
	}
}

// openPR gives j its pull request, unless the scenario has none or j has
// one already.
func (s *Server) openPR(j *job) {
	if s.sc.NoPR || s.sc.Outcome != "completed" || j.PRLink != nil {
		return
	}
	link := fmt.Sprintf("%s/pull/%d", s.sc.PRRepository, 100+len(s.jobs))
	j.PRLink = &link
}

func (s *Server) render(j *job) map[string]any {
	s.advance(j)
	return map[string]any{
		"id":         j.ID,
		"status":     j.Status,
		"source":     map[string]any{"repository": s.sc.Repository, "ref": j.Ref},
		"model":      "sonnet",
		"prLink":     j.PRLink,
		"createdAt":  j.Created.UTC().Format(time.RFC3339),
		"archivedAt": j.Archived,
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
