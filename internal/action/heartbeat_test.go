package action_test

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

// stamped is a line of progress: the run's time so far, then the text.
var stamped = regexp.MustCompile(`^\[ *([0-9hms.]+)\] (.*)$`)

// TestHeartbeat: a job that stays active for minutes
// between polls four minutes apart. In the Actions log the wait says so at
// least every minute (status and time so far), inside its one group, and
// each poll is a request of its own, none added for the heartbeat. Outside
// Actions the log has no heartbeat: a terminal's status line is live, and
// a pipe's log stays as it was.
func TestHeartbeat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		inActions bool
	}{
		{"in Actions", true},
		{"outside Actions", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: 9 * time.Minute})
			h.vars["INPUT_POLL-INTERVAL"] = "4m"
			var (
				stderr bytes.Buffer
				err    error
			)
			if tt.inActions {
				err = h.run(context.Background())
			} else {
				for _, name := range []string{"GITHUB_ACTIONS", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"} {
					delete(h.vars, name)
				}
				h.env.Stderr = &stderr
				err = run(context.Background(), nil, h.env, &h.stdout)
			}
			if err != nil {
				t.Fatalf("run: %v\n%s%s", err, h.stdout.String(), stderr.String())
			}

			var polls []string
			for _, r := range h.api.Requests() {
				if r.Method == http.MethodGet {
					polls = append(polls, r.Path)
				}
			}
			if len(polls) != 3 || h.api.Creates() != 1 || len(h.api.Requests()) != 4 {
				t.Errorf("requests %v; want one create and three polls, at 4, 8 and 12 minutes", h.api.Requests())
			}
			for _, p := range polls {
				if p != "/v2/agent/proj-1/job/job_0001" {
					t.Errorf("poll of %s", p)
				}
			}

			if !tt.inActions {
				if strings.Contains(stderr.String(), "still active") || !strings.Contains(stderr.String(), "] job job_0001: active -> completed\n") {
					t.Errorf("log outside Actions, want no heartbeat:\n%s", stderr.String())
				}
				return
			}
			log := h.stdout.String()
			golden.Check(t, "testdata/logs/heartbeat.log", log)
			checkHeartbeats(t, log, time.Minute)
		})
	}
}

// checkHeartbeats holds the step log to the heartbeat's promise: inside the
// wait's group, no two lines of progress (the wait's start among them) are
// more than every apart, and every heartbeat is there.
func checkHeartbeats(t *testing.T, log string, every time.Duration) {
	t.Helper()
	inGroup, beats := false, 0
	var last time.Duration
	for _, line := range strings.Split(log, "\n") {
		switch {
		case strings.HasPrefix(line, "::group::Waiting for job "):
			inGroup = true
			continue
		case line == "::endgroup::":
			inGroup = false
			continue
		}
		m := stamped.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		at, err := time.ParseDuration(m[1])
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if strings.HasSuffix(m[2], ": still active") {
			beats++
			if !inGroup {
				t.Errorf("heartbeat outside the wait's group: %q", line)
			}
		}
		if inGroup && at-last > every {
			t.Errorf("%s without a line before %q", at-last, line)
		}
		last = at
	}
	if beats == 0 {
		t.Errorf("no heartbeat in:\n%s", log)
	}
}
