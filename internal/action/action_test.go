package action

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

const key = "mint_action_test_0123456789"

// TestRun drives Run with a runner context and a recording fake of the
// Agent Job API: for each plan, the requests the fake received, the
// outputs Run reports, how it ended and what its log says.
func TestRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		inputs   map[string]string
		seed     func(api *fakeapi.Server)
		requests []string // method and path, in order, polls folded into one "GET job"
		outputs  map[string]string
		end      report.End // -1 for a run that succeeds
		log      string
	}{
		{
			name:     "create and wait",
			inputs:   map[string]string{"prompt": "Fix typos"},
			requests: []string{"POST /v2/agent/proj/job", "GET /v2/agent/proj/job/job_0001"},
			outputs:  map[string]string{"job-id": "job_0001", "status": "completed", "pr-number": "101", "timed-out": "false"},
			end:      -1,
			log:      "created job job_0001, status active",
		},
		{
			name:     "create without waiting",
			inputs:   map[string]string{"prompt": "Fix typos", "wait": "false"},
			requests: []string{"POST /v2/agent/proj/job"},
			outputs:  map[string]string{"job-id": "job_0001", "status": "active"},
			end:      -1,
			log:      "not waiting",
		},
		{
			name:     "follow-up to a job",
			inputs:   map[string]string{"prompt": "One more thing", "job-id": "job_0042"},
			seed:     func(api *fakeapi.Server) { api.AddJob("job_0042", "completed") },
			requests: []string{"POST /v2/agent/proj/job/job_0042/message", "GET /v2/agent/proj/job/job_0042"},
			outputs:  map[string]string{"job-id": "job_0042", "status": "completed"},
			end:      -1,
			log:      "sent follow-up to job job_0042",
		},
		{
			name:     "resume: job-id without a prompt sends nothing",
			inputs:   map[string]string{"prompt": "", "job-id": "job_0042"},
			seed:     func(api *fakeapi.Server) { api.AddRunningJob("job_0042") },
			requests: []string{"GET /v2/agent/proj/job/job_0042"},
			outputs:  map[string]string{"job-id": "job_0042", "status": "completed"},
			end:      -1,
			log:      "nothing sent: no prompt",
		},
		{
			name:    "dry run",
			inputs:  map[string]string{"prompt": "Fix typos", "dry-run": "true"},
			outputs: map[string]string{"status": "dry-run"},
			end:     -1,
			log:     "dry run: nothing is sent",
		},
		{
			name:    "invalid input",
			inputs:  map[string]string{"prompt": "Fix typos", "timeout": "soon"},
			outputs: map[string]string{"status": report.StatusError},
			end:     report.Invalid,
			log:     "input timeout must be a duration",
		},
		{
			name:     "a refused key",
			inputs:   map[string]string{"prompt": "Fix typos", "api-key": "mint_wrong_key_0123456789"},
			requests: []string{"POST /v2/agent/proj/job"},
			outputs:  map[string]string{"status": report.StatusError, "job-id": ""},
			end:      report.Errored,
			log:      "HTTP 401",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clk := clock.NewFake(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
			api := fakeapi.New("proj", fakeapi.Scenario{Key: key, Runtime: time.Minute, Clock: clk})
			defer api.Close()
			if tt.seed != nil {
				tt.seed(api)
			}
			in := map[string]string{"project-id": "proj", "api-key": key, "base-url": api.URL}
			for k, v := range tt.inputs {
				in[k] = v
			}
			dir := t.TempDir()
			rc := runner.Context{InActions: true, Workspace: dir, Inputs: in,
				OutputFile: filepath.Join(dir, "output"), SummaryFile: filepath.Join(dir, "summary")}
			var log bytes.Buffer
			res, err := Run(context.Background(), rc, Deps{Clock: clk, Schedule: poll.Fixed(10 * time.Second)}, Streams{Log: runlog.NewActions(&log)})

			var runErr *report.Error
			switch {
			case tt.end < 0 && err != nil:
				t.Fatalf("Run: %v\n%s", err, log.String())
			case tt.end >= 0 && (!errors.As(err, &runErr) || runErr.End != tt.end):
				t.Fatalf("Run error %v, want one that ends %v\n%s", err, tt.end, log.String())
			}
			var got []string
			for _, r := range api.Requests() {
				req := r.Method + " " + r.Path
				if r.Method == http.MethodGet && len(got) > 0 && got[len(got)-1] == req {
					continue
				}
				got = append(got, req)
			}
			if strings.Join(got, "\n") != strings.Join(tt.requests, "\n") {
				t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.requests, "\n"))
			}
			for name, want := range tt.outputs {
				if res.Outputs[name] != want {
					t.Errorf("output %s = %q, want %q (all: %v)", name, res.Outputs[name], want, res.Outputs)
				}
			}
			if !strings.Contains(log.String(), tt.log) {
				t.Errorf("log lacks %q:\n%s", tt.log, log.String())
			}
			// The key is in the log once: the mask that registers it with
			// the runner, first.
			if !strings.HasPrefix(log.String(), "::add-mask::"+in["api-key"]+"\n") || strings.Count(log.String(), in["api-key"]) != 1 {
				t.Errorf("the key is in the log other than in its mask:\n%s", log.String())
			}
		})
	}
}
