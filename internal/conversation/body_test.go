package conversation

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/record"
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
		{"working.md", State{Phase: Working, Record: record.Record{JobID: "job_0001"}, Status: "active", RunURL: run, Elapsed: 3 * time.Second}},
		{"working-follow-up.md", State{Phase: Working, Record: record.Record{JobID: "job_0001"}, Status: "active", FollowUp: true, RunURL: run}},
		{"done-pr.md", State{Phase: Done, Record: record.Record{JobID: "job_0001"}, Status: "completed", PRLink: "https://github.com/acme/docs/pull/7", PRURL: "https://github.com/acme/docs/pull/7", RunURL: run, Elapsed: 151 * time.Second}},
		{"done-no-changes.md", State{Phase: Done, Record: record.Record{JobID: "job_0001"}, Status: "completed", RunURL: run}},
		{"done-unsafe-link.md", State{Phase: Done, Record: record.Record{JobID: "job_0001"}, Status: "completed", PRLink: "javascript:alert(1)", RunURL: run}},
		{"failed.md", State{Phase: Failed, Record: record.Record{JobID: "job_0001"}, Status: "failed", RunURL: run}},
		{"timed-out.md", State{Phase: TimedOut, Record: record.Record{JobID: "job_0001"}, Status: "active", Timeout: 30 * time.Minute, RunURL: run}},
		{"cancelled.md", State{Phase: Cancelled, Record: record.Record{JobID: "job_0001"}, Status: "active", RunURL: run}},
		{"cancelled-while-creating.md", State{Phase: Cancelled, RunURL: run}},
		{"timed-out-while-creating.md", State{Phase: TimedOut, Timeout: 30 * time.Minute, RunURL: run}},
		{"timed-out-before-creating.md", State{Phase: TimedOut, Timeout: 30 * time.Minute, RunURL: run, NoJob: true}},
		{"cancelled-before-creating.md", State{Phase: Cancelled, RunURL: run, NoJob: true}},
		{"not-waiting.md", State{Phase: NotWaiting, Record: record.Record{JobID: "job_0001"}, Status: "active", RunURL: run}},
		{"not-waiting-pr.md", State{Phase: NotWaiting, Record: record.Record{JobID: "job_0001"}, Status: "active", FollowUp: true,
			PRLink: "https://github.com/acme/docs/pull/7", PRURL: "https://github.com/acme/docs/pull/7", RunURL: run}},
		{"working-pr-unsafe.md", State{Phase: Working, Record: record.Record{JobID: "job_0001"}, Status: "active", PRLink: "javascript:alert(1)", RunURL: run}},
		{"error.md", State{Phase: Error, Error: "create job: HTTP 429: rate limit <b>exceeded</b> @team", RunURL: run}},
		{"capped.md", State{Phase: Capped, Record: record.Record{JobID: "job_0001", Sent: record.Sends{Total: 3, Day: "2026-11-28", OnDay: 1}}, Cap: "This thread has had 3 creates and follow-ups; max-sends-per-thread is 3.", RunURL: run}},
		{"hostile-job-id.md", State{Phase: Working, Record: record.Record{JobID: "x -->\n\n@everyone [click](https://evil)"}, Status: "act*ive*", RunURL: run}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			goldenFile(t, tt.file, Render(tt.s))
		})
	}
}

// TestRecordOf: the record Render writes is read back from the comment,
// and only from one of the action's own comments, on the line after its
// mark: a record further down, or in another's text, is none.
func TestRecordOf(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"job_0001", "a.b-c", "Z9"} {
		r, _, ok := recordOf(Render(State{Phase: Done, Record: record.Record{JobID: id, Unsettled: true}}))
		if !ok || r.JobID != id || !r.Unsettled {
			t.Errorf("recordOf(Render(%q)) = %+v, %v", id, r, ok)
		}
	}
	for _, id := range []string{"x -->", "a b", "a\nb"} {
		if r, _, _ := recordOf(Render(State{Phase: Done, Record: record.Record{JobID: id}})); r.JobID != "" {
			t.Errorf("job id %q is written: read back as %q", id, r.JobID)
		}
	}
	line := record.Format(record.Record{JobID: "job_9"})
	for _, body := range []string{
		line,                             // without the action's mark
		"text\n" + ownMark + "\n" + line, // the mark further down
		ownMark + "\ntext\n" + line,      // the record further down
		ownMark + " " + line,             // not on its own line
		"/docs " + ownMark + "\n" + line, // in someone's request
	} {
		if r, _, ok := recordOf(body); ok {
			t.Errorf("recordOf(%q) = %+v, want none", body, r)
		}
	}
	if !IsOwn(Render(State{})) || IsOwn("/docs "+line) {
		t.Error("IsOwn")
	}
	if head(Render(State{Phase: Done, Record: record.Record{JobID: "job_1"}, Status: "completed"})) != ownMark+"\n"+record.Format(record.Record{JobID: "job_1"})+"\n" {
		t.Error("head keeps more than the mark and the record")
	}
}

// TestRenderShowsThePreview: the preview, already Markdown, stands on its
// own line.
func TestRenderShowsThePreview(t *testing.T) {
	t.Parallel()
	if !slices.Contains(strings.Split(Render(State{Phase: Done, Record: record.Record{JobID: "j"}, Preview: "🔎 **Preview:** https://p.example\n"}), "\n"), "🔎 **Preview:** https://p.example") {
		t.Error("the preview is not shown")
	}
}

// FuzzRecordOf: whatever a job id, the record Render writes for it is read
// back as one of the action's own with that id, or with none when the id
// is not plain; text after it changes nothing.
func FuzzRecordOf(f *testing.F) {
	for _, s := range []string{"job_0001", strings.Repeat("a", 256), strings.Repeat("a", 257), "a b", "x -->", "a--b"} {
		f.Add(s, "text after")
	}
	f.Fuzz(func(t *testing.T, id, after string) {
		r, _, ok := recordOf(Render(State{Phase: Working, Record: record.Record{JobID: id}}) + after)
		if want := id; !record.PlainID(id) {
			want = ""
			if r.JobID != want {
				t.Errorf("job id %q read back as %q", id, r.JobID)
			}
			return
		}
		if !ok || r.JobID != id {
			t.Errorf("recordOf(Render(%q)) = %+v, %v", id, r, ok)
		}
	})
}
