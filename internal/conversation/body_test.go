package conversation

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func TestRenderGolden(t *testing.T) {
	t.Parallel()
	run := "https://github.com/acme/docs/actions/runs/42"
	tests := []struct {
		file string
		s    State
	}{
		{"acknowledged.md", State{Phase: Working, RunURL: run}},
		{"working.md", State{Phase: Working, JobID: "job_0001", Status: "active", RunURL: run, Elapsed: 3 * time.Second}},
		{"working-follow-up.md", State{Phase: Working, JobID: "job_0001", Status: "active", FollowUp: true, RunURL: run}},
		{"done-pr.md", State{Phase: Done, JobID: "job_0001", Status: "completed", PRLink: "https://github.com/acme/docs/pull/7", PRURL: "https://github.com/acme/docs/pull/7", RunURL: run, Elapsed: 151 * time.Second}},
		{"done-no-changes.md", State{Phase: Done, JobID: "job_0001", Status: "completed", RunURL: run}},
		{"done-unsafe-link.md", State{Phase: Done, JobID: "job_0001", Status: "completed", PRLink: "javascript:alert(1)", RunURL: run}},
		{"failed.md", State{Phase: Failed, JobID: "job_0001", Status: "failed", RunURL: run}},
		{"timed-out.md", State{Phase: TimedOut, JobID: "job_0001", Status: "active", Timeout: 30 * time.Minute, RunURL: run}},
		{"cancelled.md", State{Phase: Cancelled, JobID: "job_0001", Status: "active", RunURL: run}},
		{"cancelled-while-creating.md", State{Phase: Cancelled, RunURL: run}},
		{"timed-out-while-creating.md", State{Phase: TimedOut, Timeout: 30 * time.Minute, RunURL: run}},
		{"not-waiting.md", State{Phase: NotWaiting, JobID: "job_0001", Status: "active", RunURL: run}},
		{"error.md", State{Phase: Error, Error: "create job: HTTP 429: rate limit <b>exceeded</b> @team", RunURL: run}},
		{"hostile-job-id.md", State{Phase: Working, JobID: "x -->\n\n@everyone [click](https://evil)", Status: "act*ive*", RunURL: run}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			goldenFile(t, tt.file, Render(tt.s))
		})
	}
}

func TestMarkerRoundTrip(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"job_0001", "a.b-c", "Z9"} {
		if got := JobFromMarker("text\n" + Render(State{Phase: Done, JobID: id})); got != id {
			t.Errorf("JobFromMarker(Render(%q)) = %q", id, got)
		}
	}
	for _, id := range []string{"", "x -->", "a b", "a\nb"} {
		if m := Marker(id); m != "" {
			t.Errorf("Marker(%q) = %q, want none", id, m)
		}
	}
	if !IsOwn(Render(State{})) || IsOwn("/docs <!-- agent-job-action:job=x -->") {
		t.Error("IsOwn")
	}
}
