package agentapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/terms"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

var t0 = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// fakeAPI answers every request with answer and records what it received.
type fakeAPI struct {
	*httptest.Server
	mu  sync.Mutex
	got []string // "METHOD escaped-path"
}

func newFakeAPI(t *testing.T, answer http.HandlerFunc) *fakeAPI {
	t.Helper()
	f := &fakeAPI{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.got = append(f.got, r.Method+" "+r.URL.EscapedPath())
		f.mu.Unlock()
		answer(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeAPI) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.got...)
}

func newClient(t *testing.T, srv *fakeAPI, left time.Duration) *Client {
	t.Helper()
	base, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	hc := httpclient.New(httpclient.Options{Clock: clock.NewFake(t0), Deadline: t0.Add(left), RetryMax: 1})
	return New(hc, base, "proj-1", "mint_key")
}

func TestCheckJobID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id, problem string // problem "" means accepted
	}{
		{"job_0001", ""},
		{"8f14e45f-ceea-467f-a0e6-1c2b3d4e5f60", ""},
		{"job.v2", ""},
		{"", "it is empty"},
		{"..", `".."`},
		{".", `".."`},
		{"job/../../other", "slash"},
		{"a/b", "slash"},
		{`a\b`, "slash"},
		{"a..b", `".."`},
		{"job 1", "whitespace"},
		{"job\t1", "whitespace"},
		{"job\u00a01", "whitespace"},
		{"job\n1", "whitespace"},
		{"job\x00", "control"},
		{"job\x7f", "control"},
		{"job\u200e1", ""}, // a format character is not a control character; PathEscape escapes it
	}
	for _, tt := range tests {
		err := CheckJobID(tt.id)
		switch {
		case tt.problem == "" && err != nil:
			t.Errorf("CheckJobID(%q) = %v, want accepted", tt.id, err)
		case tt.problem != "" && (err == nil || !strings.Contains(err.Error(), tt.problem)):
			t.Errorf("CheckJobID(%q) = %v, want a refusal mentioning %q", tt.id, err, tt.problem)
		case err != nil && len(tt.id) > 2 && strings.Contains(err.Error(), tt.id):
			t.Errorf("CheckJobID(%q) repeats the id: %v", tt.id, err)
		}
	}
}

// TestBadJobIDNotSent: Get and Message refuse an id that would change the
// path, and nothing reaches the server.
func TestBadJobIDNotSent(t *testing.T) {
	t.Parallel()
	srv := newFakeAPI(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	c := newClient(t, srv, time.Hour)
	for _, id := range []string{"", "..", "../../v1/admin", "a b", "x\r\ny"} {
		if _, err := c.Get(context.Background(), id); err == nil || !strings.HasPrefix(err.Error(), "get job: not a job id") {
			t.Errorf("Get(%q) = %v", id, err)
		}
		if _, err := c.Message(context.Background(), id, "more"); err == nil || !strings.HasPrefix(err.Error(), "send follow-up: not a job id") {
			t.Errorf("Message(%q) = %v", id, err)
		}
	}
	if got := srv.requests(); len(got) != 0 {
		t.Errorf("the server received %v", got)
	}
}

// TestErrors: every failure shows the operation, the job it was about, the
// service's own reason and what to do, each once, naming the settings as
// the run's person gives them; and it keeps the
// classification for errors.As.
func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		op     string
		answer http.HandlerFunc
		kind   httpclient.FailureKind
		want   string
		cli    bool // on a command line
	}{
		{"bad key", OpCreate, answer(401, `{"error":"invalid API key"}`, ""), httpclient.Refused,
			"create job: HTTP 401 Unauthorized: invalid API key (check that the key in api-key is an admin API key for the project in project-id)", false},
		{"bad key on a command line", OpCreate, answer(401, `{"error":"invalid API key"}`, ""), httpclient.Refused,
			"create job: HTTP 401 Unauthorized: invalid API key (check that the key in MINTLIFY_API_KEY or --api-key-stdin is an admin API key for the project in --project-id)", true},
		{"unknown job", OpGet, answer(404, `{"error":"Job not found"}`, ""), httpclient.Refused,
			"get job job_0001: HTTP 404 Not Found: Job not found (this project has no such job: check job-id and project-id; the project's agent jobs are listed in the Mintlify dashboard)", false},
		{"unknown job on a command line", OpMessage, answer(404, `{"error":"Job not found"}`, ""), httpclient.Refused,
			"send follow-up job_0001: HTTP 404 Not Found: Job not found (this project has no such job: check --job-id and --project-id; the project's agent jobs are listed in the Mintlify dashboard)", true},
		{"closed job", OpMessage, answer(400, `{"error":"job is archived and cannot take messages"}`, ""), httpclient.Refused,
			"send follow-up job_0001: HTTP 400 Bad Request: job is archived and cannot take messages", false},
		{"unknown project", OpCreate, answer(404, `{"error":"project not found"}`, ""), httpclient.Refused,
			"create job: HTTP 404 Not Found: project not found (check project-id and base-url)", false},
		{"server error on create", OpCreate, answer(500, `{"error":"database unavailable"}`, ""), httpclient.MayHaveActed,
			"create job: HTTP 500 Internal Server Error: database unavailable; the job may or may not have been created: look at the project's agent jobs in the Mintlify dashboard before running again", false},
		{"server error on follow-up", OpMessage, answer(502, `<html>bad gateway</html>`, ""), httpclient.MayHaveActed,
			"send follow-up job_0001: HTTP 502 Bad Gateway; the follow-up may or may not have been delivered", false},
		{"rate limited past the timeout on create", OpCreate, answer(429, `{"error":"rate limit exceeded: 100 per hour"}`, "86400"), httpclient.RateLimited,
			"create job: HTTP 429 Too Many Requests: rate limit exceeded: 100 per hour; the server asks to wait 24h0m0s before trying again, but only 30m0s is left of the timeout; try again later, or raise timeout (the API allows 100 creates and follow-ups per project per hour: " + LimitsURL + ")", false},
		{"rate limited past the timeout on a command line", OpCreate, answer(429, `{"error":"rate limit exceeded"}`, "86400"), httpclient.RateLimited,
			"create job: HTTP 429 Too Many Requests: rate limit exceeded; the server asks to wait 24h0m0s before trying again, but only 30m0s is left of the timeout; try again later, or raise --timeout", true},
		{"rate limited past the timeout on a read", OpGet, answer(503, `{"error":"maintenance"}`, "999999"), httpclient.RateLimited,
			"get job job_0001: HTTP 503 Service Unavailable: maintenance; the server asks to wait 277h46m39s before trying again, but only 30m0s is left of the timeout; try again later, or raise timeout", false},
		{"rate limited on every try", OpCreate, answer(429, `{"error":"slow down"}`, "1"), httpclient.Transient,
			"create job: HTTP 429 Too Many Requests: slow down (the API allows 100 creates and follow-ups per project per hour: " + LimitsURL + "; try again later)", false},
		{"redirect on create", OpCreate, answer(307, ``, ""), httpclient.Refused,
			"create job: HTTP 307 Temporary Redirect (unexpected redirect; check base-url)", false},
		{"a job record that is not one", OpCreate, answer(201, `{"id":""}`, ""), httpclient.MayHaveActed,
			"create job: malformed response body: the reply is not a job record: id or status missing; check base-url; the job may or may not have been created", false},
		{"a reply that is not JSON, on a command line", OpGet, answer(200, `<html>maintenance</html>`, ""), httpclient.Transient,
			"get job job_0001: malformed response body: the reply is not a job record: jsontext: invalid character '<' at start of value; check --base-url", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newFakeAPI(t, tt.answer)
			c := newClient(t, srv, 30*time.Minute)
			c.Terms = terms.Terms{CommandLine: tt.cli}
			var err error
			switch tt.op {
			case OpCreate:
				_, err = c.Create(context.Background(), "write docs")
			case OpMessage:
				_, err = c.Message(context.Background(), "job_0001", "more")
			case OpGet:
				_, err = c.Get(context.Background(), "job_0001")
			}
			var f *httpclient.Failure
			if !errors.As(err, &f) || f.Kind != tt.kind {
				t.Fatalf("err = %v, want a %v failure", err, tt.kind)
			}
			if !strings.HasPrefix(err.Error(), tt.want) || strings.Count(err.Error(), "not a job record") > 1 || strings.Contains(err.Error(), "rate limited") {
				t.Errorf("error\n %s\nwant it to start with\n %s", err, tt.want)
			}
			if strings.Contains(err.Error(), srv.URL) || strings.Contains(err.Error(), "/v2/agent") {
				t.Errorf("the error shows the URL: %s", err)
			}
		})
	}
}

func answer(code int, body, retryAfter string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

func TestCreateSendsOneRequest(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var auth, ctype, body string
	srv := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		auth, ctype, body = r.Header.Get("Authorization"), r.Header.Get("Content-Type"), string(data)
		mu.Unlock()
		answer(201, `{"id":"job_0001","status":"active"}`, "")(w, r)
	})
	c := newClient(t, srv, time.Hour)
	job, err := c.Create(context.Background(), "write docs")
	if err != nil || job.ID != "job_0001" || job.Status != StatusActive {
		t.Fatalf("Create() = %+v, %v", job, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := srv.requests(); len(got) != 1 || got[0] != "POST /v2/agent/proj-1/job" {
		t.Errorf("requests %v", got)
	}
	if auth != "Bearer mint_key" || ctype != "application/json" || body != `{"prompt":"write docs"}` {
		t.Errorf("sent Authorization %q, Content-Type %q, body %s", auth, ctype, body)
	}
}

// TestRequestsCarryOnlyWhatAReaderSees: every request that carries a
// prompt, the one a dry run shows included, has it cleaned of invisible
// characters but for the emoji they join.
func TestRequestsCarryOnlyWhatAReaderSees(t *testing.T) {
	t.Parallel()
	c := New(nil, &url.URL{Scheme: "https", Host: "api.example"}, "proj-1", "mint_key")
	const prompt = "fix\ufe01\U000E0131 the\u200b typo\u202e 👩\u200d💻 ❤\ufe0f"
	for name, r := range map[string]Request{"create": c.CreateRequest(prompt), "follow-up": c.MessageRequest("job_1", prompt)} {
		var got struct{ Prompt string }
		if err := json.Unmarshal(r.Body, &got); err != nil {
			t.Fatal(err)
		}
		if w := "fix the typo 👩\u200d💻 ❤\ufe0f"; got.Prompt != w {
			t.Errorf("%s: prompt %+q, want %+q", name, got.Prompt, w)
		}
	}
}

// TestDecodeJobLookAlikes: the record the action keeps (the job output,
// --json) holds no member a case-insensitive reader would take for one the
// action read otherwise; other members, new ones included, stay as
// received, escapes and all.
func TestDecodeJobLookAlikes(t *testing.T) {
	t.Parallel()
	j, err := DecodeJob([]byte(`{"id":"job_1", "status":"failed","ſtatus":"completed","prLink":"https://github.com/acme/docs/pull/101",` +
		`"PRLINK":"https://github.com/acme/other/pull/7","source":{"repository":"https://github.com/acme/docs","REF":"x","ref":null},` +
		`"createdAt":"2026-11-22T09:00:00Z","archivedAt":null,"note":"\u202eabc","Source":{"ref":"y"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"job_1","status":"failed","prLink":"https://github.com/acme/docs/pull/101","source":{"repository":"https://github.com/acme/docs","ref":null},` +
		`"createdAt":"2026-11-22T09:00:00Z","archivedAt":null,"note":"\u202eabc"}`
	if string(j.Raw) != want {
		t.Errorf("Raw =\n%s\nwant\n%s", j.Raw, want)
	}
}
