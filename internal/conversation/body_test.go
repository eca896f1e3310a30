package conversation

import (
	"path/filepath"
	"regexp"
	"strings"
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
		{"capped.md", State{Phase: Capped, JobID: "job_0001", Cap: "This thread has had 3 creates and follow-ups; max-sends-per-thread is 3.", RunURL: run, Sent: Sends{Total: 3, Day: "2026-11-28", OnDay: 1}}},
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

// markerSpec is what JobFromMarker reads, as a regular expression.
var markerSpec = regexp.MustCompile(`<!-- agent-job-action:job=([A-Za-z0-9._\-+=@/]{1,256}) -->`)

func TestJobFromMarker(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 256)
	tests := []struct{ body, want string }{
		{"", ""},
		{"<!-- agent-job-action:job=job_0001 -->", "job_0001"},
		{"text <!-- agent-job-action:job=a.b-c+d=e@f/g_h -->\nmore", "a.b-c+d=e@f/g_h"},
		{"<!-- agent-job-action:job= -->", ""},
		{"<!-- agent-job-action:job=job_1-->", ""},
		{"<!-- agent-job-action:job=job 1 -->", ""},
		{"<!-- agent-job-action:job=" + long + " -->", long},
		{"<!-- agent-job-action:job=" + long + "a -->", ""},
		{"<!-- agent-job-action:job=bad! --> <!-- agent-job-action:job=good -->", "good"},
		{"<!-- agent-job-action:job=first --> <!-- agent-job-action:job=second -->", "first"},
		{"<!-- agent-job-action:job=<!-- agent-job-action:job=inner -->", "inner"},
		{"<!-- agent-job-action:job=job_1", ""},
	}
	for _, tt := range tests {
		if got := JobFromMarker(tt.body); got != tt.want {
			t.Errorf("JobFromMarker(%q) = %q, want %q", tt.body, got, tt.want)
		}
		if m := markerSpec.FindStringSubmatch(tt.body); (m == nil && tt.want != "") || (m != nil && m[1] != tt.want) {
			t.Errorf("the table disagrees with markerSpec on %q", tt.body)
		}
	}
}

// FuzzJobFromMarker holds JobFromMarker to markerSpec on any body.
func FuzzJobFromMarker(f *testing.F) {
	for _, s := range []string{"<!-- agent-job-action:job=job_0001 -->", "x<!-- agent-job-action:job=a -- <!-- agent-job-action:job=b -->", "<!-- agent-job-action:job=" + strings.Repeat("z", 257) + " -->"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		want := ""
		if m := markerSpec.FindStringSubmatch(body); m != nil {
			want = m[1]
		}
		if got := JobFromMarker(body); got != want {
			t.Errorf("JobFromMarker(%q) = %q, markerSpec finds %q", body, got, want)
		}
	})
}

// FuzzMarkerRoundTrip: every id Marker marks, JobFromMarker reads back,
// whatever surrounds it (Backlink.Write relies on it).
func FuzzMarkerRoundTrip(f *testing.F) {
	for _, s := range []string{"job_0001", strings.Repeat("a", 256), strings.Repeat("a", 257), "a b", "x -->"} {
		f.Add(s, "text before ")
	}
	f.Fuzz(func(t *testing.T, id, before string) {
		m := Marker(id)
		if m == "" {
			return
		}
		if got := JobFromMarker(before + m); got != id && JobFromMarker(before) == "" {
			t.Errorf("JobFromMarker(%q + Marker(%q)) = %q", before, id, got)
		}
	})
}
