package action_test

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

// cancelAfterCreate cancels the run's context as soon as the create has
// been answered, as a workflow cancelled mid-wait does.
type cancelAfterCreate struct {
	base   http.RoundTripper
	cancel context.CancelFunc
}

func (c cancelAfterCreate) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	if r.Method == http.MethodPost {
		c.cancel()
	}
	return resp, err
}

// outputPaths are the main ways a run ends, each set up on a harness.
var outputPaths = []struct {
	name    string
	sc      fakeapi.Scenario
	setup   func(h *harness, cancel context.CancelFunc)
	wantErr bool
	// want holds every declared output's value; "*" is any non-empty value.
	want map[string]string
}{
	{
		name: "completed",
		sc:   fakeapi.Scenario{Runtime: 3 * time.Minute},
		want: map[string]string{"job-id": "job_0001", "status": "completed", "pr-link": "https://github.com/acme/docs/pull/101",
			"pr-number": "101", "model": "sonnet", "source-repository": "https://github.com/acme/docs",
			"source-ref": "docs/agent-job_0001", "created-at": "2026-11-22T09:00:00Z", "archived-at": "", "timed-out": "false",
			"job": "*", "comment-url": ""},
	},
	{
		name:    "failed",
		sc:      fakeapi.Scenario{Runtime: time.Minute, Outcome: "failed", NoPR: true},
		wantErr: true,
		want: map[string]string{"job-id": "job_0001", "status": "failed", "pr-link": "", "pr-number": "", "model": "sonnet",
			"source-repository": "https://github.com/acme/docs", "source-ref": "docs/agent-job_0001", "created-at": "2026-11-22T09:00:00Z",
			"archived-at": "", "timed-out": "false", "job": "*", "comment-url": ""},
	},
	{
		name:    "timed out",
		sc:      fakeapi.Scenario{Runtime: time.Hour},
		setup:   func(h *harness, _ context.CancelFunc) { h.vars["INPUT_TIMEOUT"] = "10m" },
		wantErr: true,
		want: map[string]string{"job-id": "job_0001", "status": "active", "pr-link": "", "pr-number": "", "model": "sonnet",
			"source-repository": "https://github.com/acme/docs", "source-ref": "", "created-at": "2026-11-22T09:00:00Z",
			"archived-at": "", "timed-out": "true", "job": "*", "comment-url": ""},
	},
	{
		name: "cancelled",
		sc:   fakeapi.Scenario{Runtime: time.Hour},
		setup: func(h *harness, cancel context.CancelFunc) {
			h.env.Transport = cancelAfterCreate{base: http.DefaultTransport, cancel: cancel}
		},
		wantErr: true,
		want: map[string]string{"job-id": "job_0001", "status": "active", "pr-link": "", "pr-number": "", "model": "sonnet",
			"source-repository": "https://github.com/acme/docs", "source-ref": "", "created-at": "2026-11-22T09:00:00Z",
			"archived-at": "", "timed-out": "false", "job": "*", "comment-url": ""},
	},
	{
		name: "skipped",
		setup: func(h *harness, _ context.CancelFunc) {
			h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "thanks, looks good"))
		},
		want: map[string]string{"job-id": "", "status": "skipped", "pr-link": "", "pr-number": "", "model": "",
			"source-repository": "", "source-ref": "", "created-at": "", "archived-at": "", "timed-out": "false",
			"job": "", "comment-url": ""},
	},
	{
		name:  "dry run",
		setup: func(h *harness, _ context.CancelFunc) { h.vars["INPUT_DRY-RUN"] = "true" },
		want: map[string]string{"job-id": "", "status": "dry-run", "pr-link": "", "pr-number": "", "model": "",
			"source-repository": "", "source-ref": "", "created-at": "", "archived-at": "", "timed-out": "false",
			"job": "", "comment-url": ""},
	},
	{
		name:  "wait false",
		sc:    fakeapi.Scenario{Runtime: time.Hour},
		setup: func(h *harness, _ context.CancelFunc) { h.vars["INPUT_WAIT"] = "false" },
		want: map[string]string{"job-id": "job_0001", "status": "active", "pr-link": "", "pr-number": "", "model": "sonnet",
			"source-repository": "https://github.com/acme/docs", "source-ref": "", "created-at": "2026-11-22T09:00:00Z",
			"archived-at": "", "timed-out": "false", "job": "*", "comment-url": ""},
	},
	{
		name: "follow-up",
		sc:   fakeapi.Scenario{Runtime: 2 * time.Minute},
		setup: func(h *harness, _ context.CancelFunc) {
			h.api.AddJob("job_prev", "completed")
			h.vars["INPUT_JOB-ID"] = "job_prev"
			h.vars["INPUT_PROMPT"] = "Also add an example."
		},
		want: map[string]string{"job-id": "job_prev", "status": "completed", "pr-link": "https://github.com/acme/docs/pull/101",
			"pr-number": "101", "model": "sonnet", "source-repository": "https://github.com/acme/docs", "source-ref": "*",
			"created-at": "*", "archived-at": "", "timed-out": "false", "job": "*", "comment-url": ""},
	},
}

// TestOutputContract runs every main path and checks that each output
// action.yml declares is written, with its value, and nothing else is.
func TestOutputContract(t *testing.T) {
	t.Parallel()
	var declared []string
	for _, o := range inputs.Outputs {
		declared = append(declared, o.Name)
	}
	for _, tt := range outputPaths {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.sc)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.setup != nil {
				tt.setup(h, cancel)
			}
			if err := h.run(ctx); (err != nil) != tt.wantErr {
				t.Fatalf("run error = %v, want error %v\n%s", err, tt.wantErr, h.stdout.String())
			}
			got := h.outputs()
			var names []string
			for name := range got {
				names = append(names, name)
			}
			slices.Sort(names)
			want := slices.Clone(declared)
			slices.Sort(want)
			if !slices.Equal(names, want) {
				t.Errorf("outputs written: %v\nwant every declared output: %v", names, want)
			}
			if len(tt.want) != len(declared) {
				t.Fatalf("the test's table names %d outputs, action.yml declares %d", len(tt.want), len(declared))
			}
			for name, v := range tt.want {
				switch {
				case v == "*" && got[name] == "":
					t.Errorf("output %s is empty, want a value", name)
				case v != "*" && got[name] != v:
					t.Errorf("output %s = %q, want %q", name, got[name], v)
				}
			}
		})
	}
}

var (
	stopToken = regexp.MustCompile(`[0-9a-f]{32}`)
	loopback  = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`)
)

// TestStepLogGolden keeps the step log of the main paths, the text users
// read most, in testdata/logs (go test -run StepLog -update rewrites them).
func TestStepLogGolden(t *testing.T) {
	t.Parallel()
	for _, tt := range outputPaths {
		if tt.name == "cancelled" || tt.name == "wait false" {
			continue // their logs are the completed run's, cut short
		}
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.sc)
			if tt.setup != nil {
				tt.setup(h, func() {})
			}
			_ = h.run(context.Background())
			log := stopToken.ReplaceAllString(h.stdout.String(), "TOKEN")
			log = loopback.ReplaceAllString(log, "http://127.0.0.1:PORT")
			golden.Check(t, "testdata/logs/"+strings.ReplaceAll(tt.name, " ", "-")+".log", log)
		})
	}
}
