package runlog

import (
	"bytes"
	"testing"
	"time"
)

type stopped time.Time

func (s stopped) Now() time.Time { return time.Time(s) }

// TestProgressStampsEachLine: a line of progress says the run's time so
// far, rounded to the second, before its text; the text's own verbs are
// the caller's, once.
func TestProgressStampsEachLine(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	p := Progress{Log: NewPlain(&out), Clock: stopped(start.Add(83*time.Second + 600*time.Millisecond)), Start: start}
	p.Logf("job %s is %s (100%%)", "job_1", "active")
	if got, want := out.String(), "[ 1m24s] job job_1 is active (100%)\n"; got != want {
		t.Errorf("Logf wrote %q, want %q", got, want)
	}
	if p.Elapsed() != 84*time.Second {
		t.Errorf("Elapsed() = %s, want 1m24s", p.Elapsed())
	}
}
