package action_test

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
	"github.com/agentjob/agent-job-action/internal/poll"
)

func TestRunOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		sc      fakeapi.Scenario
		wantErr bool
		want    map[string]string
		notice  string
	}{
		{
			name: "completed with PR",
			sc:   fakeapi.Scenario{Runtime: 3 * time.Minute},
			want: map[string]string{"job-id": "job_0001", "status": "completed", "pr-link": "https://github.com/acme/docs/pull/101",
				"pr-number": "101", "model": "sonnet", "source-repository": "https://github.com/acme/docs",
				"source-ref": "docs/agent-job_0001", "created-at": "2026-11-22T09:00:00Z", "archived-at": "", "timed-out": "false"},
			notice: "::notice::job job_0001 completed: pull request https://github.com/acme/docs/pull/101",
		},
		{
			name:   "completed without PR",
			sc:     fakeapi.Scenario{Runtime: time.Minute, NoPR: true},
			want:   map[string]string{"status": "completed", "pr-link": "", "pr-number": "", "timed-out": "false"},
			notice: "::notice::job job_0001 completed with no pull request (nothing changed)",
		},
		{
			name:    "failed",
			sc:      fakeapi.Scenario{Runtime: time.Minute, Outcome: "failed"},
			wantErr: true,
			want:    map[string]string{"job-id": "job_0001", "status": "failed", "pr-link": "", "timed-out": "false"},
		},
		{
			name:   "archived",
			sc:     fakeapi.Scenario{Runtime: 90 * time.Second, Outcome: "archived"},
			want:   map[string]string{"status": "archived", "timed-out": "false"},
			notice: "::notice::job job_0001 archived with no pull request",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.sc)
			err := h.run(context.Background())
			if (err != nil) != tt.wantErr {
				t.Fatalf("run error = %v, want error %v\n%s", err, tt.wantErr, h.stdout.String())
			}
			h.wantOutputs(tt.want)
			if tt.sc.Outcome == "archived" && !strings.HasPrefix(h.outputs()["archived-at"], "2026-11-22T09:0") {
				t.Errorf("archived-at = %q", h.outputs()["archived-at"])
			}
			h.wantRequests(1, 0)
			if h.api.Gets() < 1 {
				t.Errorf("no polls")
			}
			reqs := h.api.Requests()
			create := reqs[0]
			if create.Path != "/v2/agent/proj-1/job" || create.Method != http.MethodPost {
				t.Errorf("first request %s %s, want POST /v2/agent/proj-1/job", create.Method, create.Path)
			}
			if create.Prompt() != h.vars["INPUT_PROMPT"] {
				t.Errorf("prompt sent %q, want it exactly as given", create.Prompt())
			}
			for _, r := range reqs {
				if r.Header.Get("Authorization") != "Bearer "+testKey {
					t.Errorf("%s %s without the bearer key", r.Method, r.Path)
				}
				if !strings.HasPrefix(r.Header.Get("User-Agent"), "agent-job-action/") {
					t.Errorf("User-Agent %q", r.Header.Get("User-Agent"))
				}
				if r.Method == http.MethodGet && r.Path != "/v2/agent/proj-1/job/job_0001" {
					t.Errorf("poll of %s", r.Path)
				}
			}
			if tt.notice != "" && !strings.Contains(h.stdout.String(), tt.notice) {
				t.Errorf("log lacks %q:\n%s", tt.notice, h.stdout.String())
			}
			if tt.wantErr && !strings.Contains(h.stdout.String(), "::error::job failed: job job_0001 ended with status failed") {
				t.Errorf("log lacks the failure line:\n%s", h.stdout.String())
			}
			if !strings.Contains(h.stdout.String(), "::group::Waiting for job job_0001\n") || !strings.Contains(h.stdout.String(), "::endgroup::\n") {
				t.Errorf("the wait is not grouped:\n%s", h.stdout.String())
			}
		})
	}
}

// TestRunLogsStatusChangesNotPolls: a 10-minute job polled some twenty
// times logs its status changes and a heartbeat a minute, not each poll.
func TestRunLogsStatusChangesNotPolls(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: 10 * time.Minute})
	if err := h.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h.api.Gets() < 20 {
		t.Fatalf("only %d polls for a 10-minute job", h.api.Gets())
	}
	want := []string{"] created job job_0001, status active"}
	for range 10 {
		want = append(want, "] job job_0001: still active")
	}
	want = append(want, "] job job_0001: active -> completed")
	var got []string
	for _, line := range strings.Split(h.stdout.String(), "\n") {
		if strings.HasPrefix(line, "[") {
			got = append(got, line[strings.Index(line, "]"):])
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRunNoWait(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Hour})
	h.vars["INPUT_WAIT"] = "FALSE"
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	h.wantOutputs(map[string]string{"job-id": "job_0001", "status": "active", "timed-out": "false"})
	h.wantRequests(1, 0)
	if g := h.api.Gets(); g != 0 {
		t.Errorf("%d polls with wait: false", g)
	}
}

func TestRunFollowUp(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: 2 * time.Minute})
	h.api.AddJob("job_prev-1", "completed")
	h.vars["INPUT_JOB-ID"] = "job_prev-1"
	h.vars["INPUT_PROMPT"] = "Also add an example."
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	h.wantRequests(0, 1)
	msg := h.api.Requests()[0]
	if msg.Path != "/v2/agent/proj-1/job/job_prev-1/message" || msg.Prompt() != "Also add an example." {
		t.Errorf("follow-up sent as %s %s %q", msg.Method, msg.Path, msg.Body)
	}
	h.wantOutputs(map[string]string{"job-id": "job_prev-1", "status": "completed", "timed-out": "false"})
}

func TestRunFollowUpRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{})
	h.api.AddJob("job_old", "archived")
	h.vars["INPUT_JOB-ID"] = "job_old"
	err := h.run(context.Background())
	if err == nil {
		t.Fatalf("run succeeded for a refused follow-up\n%s", h.stdout.String())
	}
	h.wantRequests(0, 1)
	if h.api.Gets() != 0 {
		t.Errorf("polled a job whose follow-up was refused")
	}
	h.wantOutputs(map[string]string{"job-id": "job_old"})
	want := "::error::send follow-up job_old: HTTP 400 Bad Request: job is archived and cannot take messages"
	if !strings.Contains(h.stdout.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, h.stdout.String())
	}
}

func TestRunPromptFile(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	prompt := "  Rewrite the quick start.\n\n- keep it short\n"
	if err := os.WriteFile(filepath.Join(h.vars["GITHUB_WORKSPACE"], "prompt.md"), []byte(prompt), 0o600); err != nil {
		t.Fatal(err)
	}
	delete(h.vars, "INPUT_PROMPT")
	h.vars["INPUT_PROMPT-FILE"] = "prompt.md"
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	if got := h.api.Requests()[0].Prompt(); got != prompt {
		t.Errorf("prompt %q, want the file's contents %q", got, prompt)
	}
}

func TestRunDryRun(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{})
	h.vars["INPUT_DRY-RUN"] = "True"
	h.vars["INPUT_PROMPT"] = "Line one\n::error::not a command"
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	if n := len(h.api.Requests()); n != 0 {
		t.Errorf("dry run sent %d requests", n)
	}
	h.wantOutputs(map[string]string{"status": "dry-run", "timed-out": "false", "job-id": ""})
	log := h.stdout.String()
	for _, want := range []string{"POST \"" + h.api.URL + "/v2/agent/proj-1/job\"", "Authorization: Bearer ***", `{"prompt":"Line one\n::error::not a command"}`} {
		if !strings.Contains(log, want) {
			t.Errorf("dry run log lacks %q:\n%s", want, log)
		}
	}
	assertNoCommands(t, log, "::error::not a command")
}

func TestRunBadInputs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		set   map[string]string
		input string
	}{
		{"empty prompt", map[string]string{"INPUT_PROMPT": ""}, "prompt"},
		{"blank prompt", map[string]string{"INPUT_PROMPT": " \n\t "}, "prompt"},
		{"prompt and prompt-file", map[string]string{"INPUT_PROMPT-FILE": "p.md"}, "prompt-file"},
		{"unreadable prompt-file", map[string]string{"INPUT_PROMPT": "", "INPUT_PROMPT-FILE": "missing.md"}, "prompt-file"},
		{"missing project-id", map[string]string{"INPUT_PROJECT-ID": " "}, "project-id"},
		{"missing api-key", map[string]string{"INPUT_API-KEY": ""}, "api-key"},
		{"bad timeout", map[string]string{"INPUT_TIMEOUT": "soon"}, "timeout"},
		{"zero timeout", map[string]string{"INPUT_TIMEOUT": "0"}, "timeout"},
		{"negative timeout", map[string]string{"INPUT_TIMEOUT": "-5m"}, "timeout"},
		{"bad poll-interval", map[string]string{"INPUT_POLL-INTERVAL": "often"}, "poll-interval"},
		{"poll-interval below 1s", map[string]string{"INPUT_POLL-INTERVAL": "500ms"}, "poll-interval"},
		{"bad wait", map[string]string{"INPUT_WAIT": "yes"}, "wait"},
		{"bad dry-run", map[string]string{"INPUT_DRY-RUN": "1"}, "dry-run"},
		{"http remote base-url", map[string]string{"INPUT_BASE-URL": "http://api.mintlify.com"}, "base-url"},
		{"ftp base-url", map[string]string{"INPUT_BASE-URL": "ftp://api.mintlify.com"}, "base-url"},
		{"relative base-url", map[string]string{"INPUT_BASE-URL": "api.mintlify.com"}, "base-url"},
		{"base-url with credentials", map[string]string{"INPUT_BASE-URL": "https://user:" + testKey + "@api.mintlify.com"}, "base-url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{})
			for k, v := range tt.set {
				h.vars[k] = v
			}
			if h.vars["INPUT_API-KEY"] == "" {
				h.vars["INPUT_API-KEY"] = ""
			}
			err := run(context.Background(), nil, h.env, &h.stdout)
			if err == nil {
				t.Fatalf("run succeeded\n%s", h.stdout.String())
			}
			if n := len(h.api.Requests()); n != 0 {
				t.Errorf("sent %d requests despite a bad input", n)
			}
			var errors []string
			for _, line := range strings.Split(h.stdout.String(), "\n") {
				if strings.HasPrefix(line, "::error::") {
					errors = append(errors, line)
				}
			}
			if len(errors) != 1 || !strings.HasPrefix(errors[0], "::error::input "+tt.input+" ") {
				t.Errorf("want one ::error:: line naming input %s, got %q", tt.input, errors)
			}
			if strings.Contains(h.stdout.String(), testKey) && !strings.HasPrefix(h.stdout.String(), "::add-mask::"+testKey) {
				t.Errorf("key leaked:\n%s", h.stdout.String())
			}
		})
	}
}

func TestRunAcceptsLoopbackHTTPAndWarnsOnKeyPrefix(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	if !strings.HasPrefix(h.api.URL, "http://127.0.0.1:") {
		t.Fatalf("fake is not on loopback: %s", h.api.URL)
	}
	h.vars["INPUT_API-KEY"] = "sk_other_prefix_key_123"
	h.vars["INPUT_TIMEOUT"] = "600" // plain seconds
	err := run(context.Background(), nil, h.env, &h.stdout)
	if err == nil {
		t.Fatal("the fake accepted a key it does not know")
	}
	if !strings.Contains(h.stdout.String(), "::warning::the API key does not start with mint_") {
		t.Errorf("no warning about the key prefix:\n%s", h.stdout.String())
	}
	if !strings.Contains(h.stdout.String(), "::error::create job: HTTP 401 Unauthorized: invalid API key (check that the key in api-key is an admin API key") {
		t.Errorf("401 not explained:\n%s", h.stdout.String())
	}
	h.wantRequests(1, 0)
}

func TestRunTimeoutOnHangingRequest(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Hour, Clock: clock.Real{}})
	h.env.Clock = clock.Real{}
	h.env.Schedule = poll.Fixed(10 * time.Millisecond)
	h.vars["INPUT_TIMEOUT"] = "300ms"
	h.api.FailOn(2, faults.Hang())
	if err := h.runGuarded(context.Background()); err == nil {
		t.Fatal("run succeeded past its timeout")
	}
	h.wantOutputs(map[string]string{"job-id": "job_0001", "status": "active", "timed-out": "true"})
	h.wantRequests(1, 0)
	for _, want := range []string{"::error::job job_0001 still active after", "job-id: job_0001", "wait: false"} {
		if !strings.Contains(h.stdout.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, h.stdout.String())
		}
	}
}

func TestRunTimeoutOnLongJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: 2 * time.Hour})
	h.vars["INPUT_TIMEOUT"] = "45m"
	if err := h.run(context.Background()); err == nil {
		t.Fatal("run succeeded past its timeout")
	}
	if took := h.clk.Now().Sub(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)); took != 45*time.Minute {
		t.Errorf("gave up after %s of simulated time, want exactly the 45m timeout", took)
	}
	h.wantOutputs(map[string]string{"status": "active", "timed-out": "true"})
	if !strings.Contains(h.file("GITHUB_STEP_SUMMARY"), "| Status | active (timed out) |") {
		t.Errorf("summary:\n%s", h.file("GITHUB_STEP_SUMMARY"))
	}
}

func TestRunCancellation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Hour, Clock: clock.Real{}})
	h.env.Clock = clock.Real{}
	h.env.Schedule = poll.Fixed(20 * time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The second poll cancels the run, as SIGTERM from a cancelled workflow would.
	h.api.FailOn(3, func(http.ResponseWriter, *http.Request) bool { cancel(); return false })
	if err := h.runGuarded(ctx); err == nil {
		t.Fatal("run succeeded after cancellation")
	}
	h.wantOutputs(map[string]string{"job-id": "job_0001", "status": "active", "timed-out": "false"})
	if !strings.Contains(h.stdout.String(), "::error::cancelled while waiting for job job_0001") {
		t.Errorf("log:\n%s", h.stdout.String())
	}
}

func TestRunRetriesPollOn503(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: 20 * time.Second})
	h.api.FailOn(2, faults.Status(http.StatusServiceUnavailable))
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	reqs := h.api.Requests()
	if reqs[1].Method != http.MethodGet || reqs[2].Method != http.MethodGet || reqs[2].Path != reqs[1].Path {
		t.Errorf("the 503 poll was not repeated: %v %v", reqs[1].Method, reqs[2].Method)
	}
	h.wantRequests(1, 0)
	h.wantOutputs(map[string]string{"status": "completed"})
	if !strings.Contains(h.stdout.String(), "HTTP 503; retry 1 in") {
		t.Errorf("retry not logged:\n%s", h.stdout.String())
	}
}

func TestRunHonoursRetryAfterOn429(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	h.api.FailOn(1, faults.RateLimited("7"))
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	h.wantRequests(2, 0) // a 429 means the server did nothing: safe to send again
	if naps := h.clk.Naps(); len(naps) == 0 || naps[0] != 7*time.Second {
		t.Errorf("waited %v before the retry, want the 7s of Retry-After", naps)
	}
	h.wantOutputs(map[string]string{"job-id": "job_0001", "status": "completed"})
}

func TestRunDoesNotRetryCreateAfter500(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	h.api.FailOn(1, faults.Status(http.StatusInternalServerError))
	if err := h.run(context.Background()); err == nil {
		t.Fatal("run succeeded")
	}
	h.wantRequests(1, 0)
	if h.api.Gets() != 0 {
		t.Error("polled without a job")
	}
	h.wantOutputs(map[string]string{"job-id": "", "timed-out": "false"})
	if !strings.Contains(h.stdout.String(), "the job may or may not have been created") {
		t.Errorf("log does not say the outcome is unknown:\n%s", h.stdout.String())
	}
}

// TestRunResumesWithJobIDAlone: the advice after a
// timeout or a cancellation, "run again with job-id", works without a
// prompt: the run sends nothing, reads the job and waits for it (or, with
// wait: false, reports where it stands).
func TestRunResumesWithJobIDAlone(t *testing.T) {
	t.Parallel()
	for _, wait := range []string{"true", "false"} {
		t.Run("wait="+wait, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: 5 * time.Minute})
			// A job started earlier, by another run.
			const created = "job_0042"
			h.api.AddRunningJob(created)
			h.vars["INPUT_PROMPT"] = ""
			h.vars["INPUT_JOB-ID"] = created
			h.vars["INPUT_WAIT"] = wait
			if err := h.run(context.Background()); err != nil {
				t.Fatalf("run: %v\n%s", err, h.stdout.String())
			}
			for _, r := range h.api.Requests() {
				if r.Method != http.MethodGet {
					t.Errorf("sent %s %s: a resume sends nothing", r.Method, r.Path)
				}
			}
			want := map[string]string{"job-id": created, "status": "completed"}
			if wait == "false" {
				want["status"] = "active"
				if h.api.Gets() != 1 {
					t.Errorf("%d reads, want 1", h.api.Gets())
				}
			}
			h.wantOutputs(want)
			if !strings.Contains(h.stdout.String(), "nothing sent: no prompt") {
				t.Errorf("log does not say nothing was sent:\n%s", h.stdout.String())
			}
		})
	}
}

// TestRunReportsToEachReader: one comment-triggered run, as each reader of
// it saw it (harness.got): the step's outputs, summary and log, how it
// ended, and each request the Agent Job API and GitHub received, in order.
func TestRunReportsToEachReader(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: 2 * time.Minute})
	h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs mention the rate limits"))
	got := h.got(context.Background())
	if got.End != -1 || got.Err != nil {
		t.Fatalf("the run ended %v: %v\n%s", got.End, got.Err, got.Log)
	}
	if got.Outputs["job-id"] != "job_0001" || got.Outputs["status"] != "completed" || got.Outputs["pr-number"] != "101" ||
		!strings.HasPrefix(got.Outputs["comment-url"], "https://github.com/acme/docs/issues/12#issuecomment-") {
		t.Errorf("outputs %v", got.Outputs)
	}
	if !strings.Contains(got.Summary, "job_0001") || !strings.Contains(got.Summary, "completed") {
		t.Errorf("summary:\n%s", got.Summary)
	}
	if !strings.Contains(got.Log, "] created job job_0001, status active\n") || !strings.Contains(got.Log, "::notice::job job_0001 completed: pull request https://github.com/acme/docs/pull/101") {
		t.Errorf("log:\n%s", got.Log)
	}
	var api []string
	for _, r := range got.API {
		api = append(api, r.Method+" "+r.Path)
	}
	if len(api) < 2 || api[0] != "POST /v2/agent/proj-1/job" || !strings.HasPrefix(got.API[0].Prompt(), "mention the rate limits") || api[len(api)-1] != "GET /v2/agent/proj-1/job/job_0001" {
		t.Errorf("the Agent Job API got %q", api)
	}
	var gh []string
	for _, r := range got.GitHub {
		gh = append(gh, r.Method+" "+r.Path)
	}
	want := []string{
		"GET /repos/acme/docs/collaborators/writer/permission", // who asked
		"POST /repos/acme/docs/issues/comments/9001/reactions", // 👀, which names the token's login
		"GET /repos/acme/docs/issues/12/comments",              // the thread, once
		"POST /repos/acme/docs/issues/12/comments",             // the record, before anything is sent
		"PATCH /repos/acme/docs/issues/comments/1002",          // the job's id
		"GET /repos/acme/docs/issues/101/comments",             // the backlink, once
		"POST /repos/acme/docs/issues/101/comments",            //
		"GET /repos/acme/docs/pulls/101",                       // the review request
		"POST /repos/acme/docs/pulls/101/requested_reviewers",  //
		"PATCH /repos/acme/docs/issues/comments/1002",          // the job's end
		"GET /repos/acme/docs/pulls/101",                       // the docs pull request's own check, as it is then (its head has none here)
	}
	if !slices.Equal(gh, want) {
		t.Errorf("GitHub got:\n%s\nwant:\n%s", strings.Join(gh, "\n"), strings.Join(want, "\n"))
	} else if first := string(got.GitHub[3].Body); !strings.Contains(first, `\"sent\":[\"c9001\"]`) || strings.Contains(first, "job_0001") {
		t.Errorf("the comment does not record the request it answers before the job is created: %s", first)
	}
	// The same event again: its request is answered, and this run's
	// requests are its own.
	again := h.got(context.Background())
	if len(again.API) != 0 || again.Outputs["status"] != "skipped" || len(again.GitHub) == 0 || again.GitHub[0].Method != "GET" {
		t.Errorf("the second run sent the Agent Job API %d requests and GitHub %d, status %q", len(again.API), len(again.GitHub), again.Outputs["status"])
	}
}

// stepTime is a run's context that ends, as a step's timeout does, when
// the deadline passes on the simulated clock: refusedAtDeadline calls end sets
// the context's error to context.DeadlineExceeded at the start of the
// first request sent at or after the deadline.
type stepTime struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func newStepTime() *stepTime {
	return &stepTime{Context: context.Background(), done: make(chan struct{})}
}

func (s *stepTime) Done() <-chan struct{} { return s.done }

func (s *stepTime) Err() error {
	select {
	case <-s.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// refusedAtDeadline carries every request to base, a transport whose connections
// are refused; an attempt that starts at or after deadline on clk, as
// the last one of a short timeout does on a runner (its wait ends with the
// step's time), starts with the run's context ended.
type refusedAtDeadline struct {
	base     http.RoundTripper
	clk      *clock.Fake
	deadline time.Time
	step     *stepTime
}

func (r refusedAtDeadline) RoundTrip(req *http.Request) (*http.Response, error) {
	if !r.clk.Now().Before(r.deadline) {
		r.step.once.Do(func() { close(r.step.done) })
		<-req.Context().Done() // the run's context follows its parent's end
	}
	return r.base.RoundTrip(req)
}

// TestRefusedConnectionsReachedNothing: a run whose every connection to
// the API is refused says the request did not reach the API, whatever the
// timeout: a long one, whose retries run out, and a short one, whose time
// ends as its last attempt starts. Nothing was sent, so it does not say
// the job may or may not have been created.
func TestRefusedConnectionsReachedNothing(t *testing.T) {
	t.Parallel()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for _, tt := range []struct {
		timeout string
		line    string
	}{
		{"30m", "::error::create job: Post request failed: dial tcp " + closed.Listener.Addr().String() + ": connect: connection refused (the request did not reach the API: check base-url and the network, then run again)\n"},
		{"3s", "::error::create job: Post request failed: context deadline exceeded (the request did not reach the API: check base-url and the network, then run again) (timeout 3s reached)\n"},
	} {
		// refused runs the action against the closed server, in a thread
		// when gh is set; its timeout passes as its last attempt starts.
		refused := func(t *testing.T, thread bool) (Got, *fakegithub.Server) {
			t.Helper()
			h := newHarness(t, fakeapi.Scenario{})
			var gh *fakegithub.Server
			if thread {
				gh = h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs add a page on limits"))
				h.vars["INPUT_TRIGGER-PHRASE"] = "/docs"
			}
			h.vars["INPUT_BASE-URL"] = closed.URL
			h.vars["INPUT_TIMEOUT"] = tt.timeout
			timeout, err := time.ParseDuration(tt.timeout)
			if err != nil {
				t.Fatal(err)
			}
			step := newStepTime()
			h.env.Transport = refusedAtDeadline{base: http.DefaultTransport.(*http.Transport).Clone(), clk: h.clk, deadline: h.clk.Now().Add(timeout), step: step}
			g := h.got(step)
			if g.Err == nil {
				t.Fatalf("the run succeeded:\n%s", g.Log)
			}
			return g, gh
		}
		t.Run(tt.timeout, func(t *testing.T) {
			t.Parallel()
			g, _ := refused(t, false)
			if !strings.Contains(g.Log, tt.line) || strings.Contains(g.Log, "may or may not") {
				t.Errorf("the log lacks the line %q:\n%s", tt.line, g.Log)
			}
		})
		t.Run(tt.timeout+", the comment", func(t *testing.T) {
			t.Parallel()
			_, gh := refused(t, true)
			c := gh.Comments(12)
			if len(c) != 1 || strings.Contains(c[0].Body, "may or may not") || !strings.Contains(c[0].Body, "there is no job") && !strings.Contains(c[0].Body, "did not reach the API") {
				t.Errorf("comments %+v, want one that says no job was made", c)
			}
		})
	}
}

// TestStoppedRunAdvisesWhatCostsNothing: a run that stopped while its job
// worked (its timeout passed, or it was cancelled) gives one piece of
// advice, in its error and its summary: run again with job-id and no
// prompt, to wait for the job. Following it sends the API nothing; the
// same workflow run again with its prompt would pay for that prompt
// again as a follow-up.
func TestStoppedRunAdvisesWhatCostsNothing(t *testing.T) {
	t.Parallel()
	const advice = "run again with job-id: job_0001 and no prompt, which sends the job nothing"
	for _, tt := range []struct {
		name  string
		setup func(h *harness, cancel context.CancelFunc)
		error string // the start of the error line
	}{
		{"timed out", func(h *harness, _ context.CancelFunc) { h.vars["INPUT_TIMEOUT"] = "10m" },
			"::error::job job_0001 still active after 10m0s (timeout: 10m0s): timed out. The job goes on running on the server; to wait for it, "},
		{"cancelled", func(h *harness, cancel context.CancelFunc) {
			h.env.Transport = cancelAfterCreate{base: http.DefaultTransport, cancel: cancel}
		}, "::error::cancelled while waiting for job job_0001, last seen active. The job goes on running on the server; to wait for it, "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Hour})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tt.setup(h, cancel)
			g := h.got(ctx)
			if g.Err == nil {
				t.Fatalf("the run succeeded:\n%s", g.Log)
			}
			if !strings.Contains(g.Log, tt.error+advice) {
				t.Errorf("the error does not give the advice %q:\n%s", tt.error+advice, g.Log)
			}
			for where, text := range map[string]string{"log": g.Log, "summary": g.Summary} {
				// As a reader sees it: escaped characters as themselves.
				text = strings.ReplaceAll(html.UnescapeString(text), "\u2060", "")
				if strings.Contains(text, "as a follow-up") || !strings.Contains(text, advice) {
					t.Errorf("the %s does not advise only %q:\n%s", where, advice, text)
				}
			}

			// As advised.
			h.env.Transport = nil
			h.vars["INPUT_JOB-ID"], h.vars["INPUT_PROMPT"], h.vars["INPUT_TIMEOUT"] = "job_0001", "", "2h"
			g = h.got(context.Background())
			if g.Err != nil {
				t.Fatalf("the run as advised: %v\n%s", g.Err, g.Log)
			}
			for _, r := range g.API {
				if r.Method != http.MethodGet {
					t.Errorf("the run as advised sent %s %s", r.Method, r.Path)
				}
			}
			h.wantOutputs(map[string]string{"job-id": "job_0001", "status": "completed"})
		})
	}
}
