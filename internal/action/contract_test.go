package action_test

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	costs "github.com/agentjob/agent-job-action/internal/cost"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/testbed/golden"
	"github.com/agentjob/agent-job-action/internal/testbed/step"
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
			"job": "*", "comment-url": "",
			"creates": "1", "follow-ups": "0", "reads": "*", "github-requests": "0", "waited-seconds": "*", "thread-sends": "", "day-sends": ""},
	},
	{
		name:    "failed",
		sc:      fakeapi.Scenario{Runtime: time.Minute, Outcome: "failed", NoPR: true},
		wantErr: true,
		want: map[string]string{"job-id": "job_0001", "status": "failed", "pr-link": "", "pr-number": "", "model": "sonnet",
			"source-repository": "https://github.com/acme/docs", "source-ref": "docs/agent-job_0001", "created-at": "2026-11-22T09:00:00Z",
			"archived-at": "", "timed-out": "false", "job": "*", "comment-url": "",
			"creates": "1", "follow-ups": "0", "reads": "*", "github-requests": "0", "waited-seconds": "*", "thread-sends": "", "day-sends": ""},
	},
	{
		name:    "timed out",
		sc:      fakeapi.Scenario{Runtime: time.Hour},
		setup:   func(h *harness, _ context.CancelFunc) { h.vars["INPUT_TIMEOUT"] = "10m" },
		wantErr: true,
		want: map[string]string{"job-id": "job_0001", "status": "active", "pr-link": "", "pr-number": "", "model": "sonnet",
			"source-repository": "https://github.com/acme/docs", "source-ref": "", "created-at": "2026-11-22T09:00:00Z",
			"archived-at": "", "timed-out": "true", "job": "*", "comment-url": "",
			"creates": "1", "follow-ups": "0", "reads": "*", "github-requests": "0", "waited-seconds": "*", "thread-sends": "", "day-sends": ""},
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
			"archived-at": "", "timed-out": "false", "job": "*", "comment-url": "",
			"creates": "1", "follow-ups": "0", "reads": "*", "github-requests": "0", "waited-seconds": "*", "thread-sends": "", "day-sends": ""},
	},
	{
		name: "skipped",
		setup: func(h *harness, _ context.CancelFunc) {
			h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "thanks, looks good"))
		},
		want: map[string]string{"job-id": "", "status": "skipped", "pr-link": "", "pr-number": "", "model": "",
			"source-repository": "", "source-ref": "", "created-at": "", "archived-at": "", "timed-out": "false",
			"job": "", "comment-url": "",
			"creates": "0", "follow-ups": "0", "reads": "0", "github-requests": "*", "waited-seconds": "0", "thread-sends": "", "day-sends": ""},
	},
	{
		name:  "dry run",
		setup: func(h *harness, _ context.CancelFunc) { h.vars["INPUT_DRY-RUN"] = "true" },
		want: map[string]string{"job-id": "", "status": "dry-run", "pr-link": "", "pr-number": "", "model": "",
			"source-repository": "", "source-ref": "", "created-at": "", "archived-at": "", "timed-out": "false",
			"job": "", "comment-url": "",
			"creates": "0", "follow-ups": "0", "reads": "0", "github-requests": "0", "waited-seconds": "0", "thread-sends": "", "day-sends": ""},
	},
	{
		name:  "wait false",
		sc:    fakeapi.Scenario{Runtime: time.Hour},
		setup: func(h *harness, _ context.CancelFunc) { h.vars["INPUT_WAIT"] = "false" },
		want: map[string]string{"job-id": "job_0001", "status": "active", "pr-link": "", "pr-number": "", "model": "sonnet",
			"source-repository": "https://github.com/acme/docs", "source-ref": "", "created-at": "2026-11-22T09:00:00Z",
			"archived-at": "", "timed-out": "false", "job": "*", "comment-url": "",
			"creates": "1", "follow-ups": "0", "reads": "0", "github-requests": "0", "waited-seconds": "0", "thread-sends": "", "day-sends": ""},
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
			"created-at": "*", "archived-at": "", "timed-out": "false", "job": "*", "comment-url": "",
			"creates": "0", "follow-ups": "1", "reads": "*", "github-requests": "0", "waited-seconds": "*", "thread-sends": "", "day-sends": ""},
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

// TestCostOutputsAreTheSummarysLine: the cost outputs are the figures of
// the summary's cost line, on every main path, and with caps set the
// thread's and the day's send counts as the caps read them (empty
// otherwise), in the outputs and in that line alike.
func TestCostOutputsAreTheSummarysLine(t *testing.T) {
	t.Parallel()
	check := func(t *testing.T, h *harness) {
		t.Helper()
		got := h.outputs()
		n := func(name string) int {
			v, err := strconv.Atoi(got[name])
			if err != nil {
				t.Fatalf("output %s = %q, not a count", name, got[name])
			}
			return v
		}
		c := costs.Cost{Creates: n("creates"), FollowUps: n("follow-ups"), Reads: n("reads"), GitHub: n("github-requests"), Waited: time.Duration(n("waited-seconds")) * time.Second}
		for name, to := range map[string]**int{"thread-sends": &c.ThreadSends, "day-sends": &c.DaySends} {
			if got[name] != "" {
				v := n(name)
				*to = &v
			}
		}
		if sum := h.file("GITHUB_STEP_SUMMARY"); !strings.Contains(sum, c.Line()+"\n") {
			t.Errorf("the summary does not read the outputs' cost line %q:\n%s", c.Line(), sum)
		}
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
			_ = h.run(ctx)
			check(t, h)
		})
	}
	t.Run("caps", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
		gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs also mention the Retry-After header"))
		h.api.AddJob("job_0777", "completed")
		gh.SeedComment(12, fakegithub.BotLogin, true, ownSent("job_0777", 2, step.Start.Format("2006-01-02"), 2))
		h.vars["INPUT_MAX-SENDS-PER-THREAD"] = "5"
		h.vars["INPUT_MAX-SENDS-PER-DAY"] = "40"
		if err := h.run(context.Background()); err != nil {
			t.Fatalf("run: %v\n%s", err, h.stdout.String())
		}
		got := h.outputs()
		if got["thread-sends"] != "2" || got["day-sends"] != "2" || got["follow-ups"] != "1" {
			t.Errorf("outputs thread-sends %q, day-sends %q, follow-ups %q; want 2, 2 and 1", got["thread-sends"], got["day-sends"], got["follow-ups"])
		}
		if sum := h.file("GITHUB_STEP_SUMMARY"); !strings.Contains(sum, "the caps counted 2 sends from this thread and 2 sends in the repository today before this run.") {
			t.Errorf("summary:\n%s", sum)
		}
		check(t, h)
	})
}
