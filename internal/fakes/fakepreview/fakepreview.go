// Package fakepreview is an in-process fake of the provider's two
// preview-deployment endpoints: it answers a request for a branch's
// preview with a status id and the preview's address, then reports the
// build queued, in progress and ended, one step a read. It records every
// request and notes as unexpected those no endpoint serves and, when
// Options.Check is set (tests set it with package previewspec's Checker),
// those the API's description does not allow. It is an http.Handler, so
// that it can answer on the fake Agent API's host, as the real preview API
// shares the Agent Job API's; it needs no testing.TB, so the demo can run
// against it too.
package fakepreview

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// Options configure a Server.
type Options struct {
	// Key is the only API key accepted; other requests get 401.
	Key string
	// Project is the only project id served; others get 404.
	Project string
	// NoPreviews answers 403 to every request for a preview, as the API
	// does for a plan without preview deployments.
	NoPreviews bool
	// Reads is how many status reads report the build not yet ended
	// (queued, then in_progress) before it ends; 0 ends it at the first.
	Reads int
	// Fail ends every build in failure instead of success.
	Fail bool
	// Screenshot, when set, is the screenshot an ended build reports.
	Screenshot string
	// Address, when set, is every preview's address in place of URL's.
	Address string
	// Summary, when set, is a failed build's summary in place of the
	// fake's own.
	Summary string
	// Check judges each request (method, escaped path, raw query, body)
	// and returns what makes it invalid; that is noted as unexpected.
	Check func(method, path, rawQuery string, body []byte) []string
}

// Request is one request the fake received.
type Request struct {
	Method string
	Path   string // as sent, escaped
	Header http.Header
	Body   []byte
}

// Branch decodes a trigger's {"branch": ...} body.
func (r Request) Branch() string {
	var b struct {
		Branch string `json:"branch"`
	}
	_ = json.Unmarshal(r.Body, &b)
	return b.Branch
}

// Server is the fake, an http.Handler.
type Server struct {
	opt        Options
	mu         sync.Mutex
	requests   []Request
	unexpected []string
	builds     map[string]*build
}

type build struct {
	branch string
	reads  int
}

// New returns a fake for opt.
func New(opt Options) *Server { return &Server{opt: opt, builds: map[string]*build{}} }

// URL is the address the fake gives the preview of branch.
func URL(branch string) string {
	return "https://acme-" + strings.NewReplacer("/", "-", "_", "-").Replace(branch) + ".mintlify.app"
}

// Requests returns a copy of every request received, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Unexpected lists the requests no endpoint serves or the description
// does not allow, as "METHOD /path" and a reason.
func (s *Server) Unexpected() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.unexpected)
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	path := r.URL.EscapedPath()
	var bad []string
	if s.opt.Check != nil {
		bad = s.opt.Check(r.Method, path, r.URL.RawQuery, body)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: path, Header: r.Header.Clone(), Body: body})
	for _, b := range bad {
		s.unexpected = append(s.unexpected, r.Method+" "+path+": "+b)
	}
	if r.Header.Get("Authorization") != "Bearer "+s.opt.Key {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid API key"})
		return
	}
	trigger := "/v1/project/preview/" + url.PathEscape(s.opt.Project)
	switch {
	case r.Method == http.MethodPost && path == trigger:
		s.trigger(w, body)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/project/update-status/"):
		s.status(w, strings.TrimPrefix(path, "/v1/project/update-status/"))
	default:
		s.unexpected = append(s.unexpected, r.Method+" "+path)
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not found"})
	}
}

func (s *Server) trigger(w http.ResponseWriter, body []byte) {
	var in struct {
		Branch string `json:"branch"`
	}
	if err := json.Unmarshal(body, &in); err != nil || in.Branch == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "branch is required"})
		return
	}
	if s.opt.NoPreviews {
		writeJSON(w, http.StatusForbidden, map[string]string{"error": "Preview deployments are not available on your current plan"})
		return
	}
	id := fmt.Sprintf("st_%04d", len(s.builds)+1)
	s.builds[id] = &build{branch: in.Branch}
	address := URL(in.Branch)
	if s.opt.Address != "" {
		address = s.opt.Address
	}
	writeJSON(w, http.StatusAccepted, map[string]string{"statusId": id, "previewUrl": address})
}

func (s *Server) status(w http.ResponseWriter, id string) {
	b, ok := s.builds[id]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "status not found"})
		return
	}
	b.reads++
	out := map[string]any{"_id": id, "projectId": s.opt.Project, "createdAt": "2026-11-22T09:30:00Z", "subdomain": "acme"}
	switch {
	case b.reads <= s.opt.Reads/2:
		out["status"] = "queued"
	case b.reads <= s.opt.Reads:
		out["status"] = "in_progress"
	case s.opt.Fail:
		out["status"], out["summary"], out["endedAt"] = "failure", cmp.Or(s.opt.Summary, "Build failed: docs.json is not valid"), "2026-11-22T09:32:00Z"
	default:
		out["status"], out["summary"], out["endedAt"] = "success", "Deployed "+b.branch, "2026-11-22T09:32:00Z"
		if s.opt.Screenshot != "" {
			out["screenshot"] = s.opt.Screenshot
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
