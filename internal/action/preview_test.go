package action

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
)

// TestPreviewWithoutToken: a job that ends with a pull request on a run
// that cannot read the pull request's branch (no GitHub token) gets no
// preview. A command line says so only when the person asked for
// previews; a workflow, whose runner always passes the input, always does.
func TestPreviewWithoutToken(t *testing.T) {
	t.Parallel()
	const line = "no preview: the branch of acme/docs#101 cannot be read without"
	for _, tt := range []struct {
		name        string
		commandLine bool
		preview     string // the input as given; "" for its default
		want        bool
	}{
		{name: "command line, preview left to its default", commandLine: true},
		{name: "command line, --preview=true", commandLine: true, preview: "true", want: true},
		{name: "command line, --preview=false", commandLine: true, preview: "false"},
		{name: "workflow", preview: "true", want: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clk := clock.NewFake(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
			api := fakeapi.New("proj", fakeapi.Scenario{Key: key, Runtime: time.Minute, Clock: clk})
			defer api.Close()
			rc := runner.Context{CommandLine: tt.commandLine, ServerURL: "https://github.com", Workspace: t.TempDir(),
				Inputs: map[string]string{"project-id": "proj", "api-key": key, "base-url": api.URL, "prompt": "Fix typos", "preview": tt.preview}}
			var log bytes.Buffer
			res, err := Run(context.Background(), rc, Deps{Clock: clk, Schedule: poll.Fixed(10 * time.Second)}, Streams{Log: runlog.NewPlain(&log)})
			if err != nil || res.Outputs["pr-number"] != "101" {
				t.Fatalf("Run = %v, %v; want a job that ends with pull request 101\n%s", res.Outputs, err, log.String())
			}
			if got := strings.Contains(log.String(), line); got != tt.want {
				t.Errorf("the log says %q: %v, want %v\n%s", line, got, tt.want, log.String())
			}
			if strings.Contains(log.String(), "warning") {
				t.Errorf("a run without a token warns:\n%s", log.String())
			}
		})
	}
}
