package runlog

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// TestPlainLines: the log's lines as a person reads them outside Actions:
// no workflow commands (a line that looks like one is text), each kind of
// message in its words, without what would drive a terminal, and never a
// masked secret.
func TestPlainLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		write func(l Log)
		want  string
	}{
		{"a plain line", func(l Log) { l.Printf("[%6s] created job %s, status active", "0s", "job_0001") }, "[    0s] created job job_0001, status active\n"},
		{"an error of two lines", func(l Log) { l.Error("job failed\nsecond line") }, "error: job failed\n       second line\n"},
		{"a warning", func(l Log) { l.Warning("input api-key does not start with mint_") }, "warning: input api-key does not start with mint_\n"},
		{"a notice", func(l Log) { l.Notice("job job_1 completed") }, "job job_1 completed\n"},
		{"a group is its title", func(l Log) { l.Group("Waiting for job job_1"); l.Printf("inside"); l.EndGroup() }, "Waiting for job job_1\ninside\n"},
		{"text that looks like a command is text", func(l Log) { l.Printf("::error::not a command") }, "::error::not a command\n"},
		{"verbatim text as it is", func(l Log) { l.Verbatim("{\"prompt\":\"x\"}\n::error::not a command\n") }, "{\"prompt\":\"x\"}\n::error::not a command\n"},
		{"terminal controls are dropped", func(l Log) { l.Printf("title \x1b]8;;https://evil\x07link\x1b[2J\r\x08 \u202eabc\u2066") }, "title ]8;;https://evillink[2J abc\n"},
		{"CRLF", func(l Log) { l.Printf("line\r\nnext\r") }, "line\nnext\n"},
		{"no mask line, no secret", func(l Log) {
			l.Mask("mint_s3cr3t_value")
			l.Error("create job: HTTP 401: bad key mint_s3cr3t_value")
		}, "error: create job: HTTP 401: bad key ***\n"},
		{"a secret hidden by a control character", func(l Log) {
			l.Mask("mint_s3cr3t_value")
			l.Printf("key mint_s3cr\x1b3t_value")
		}, "key ***\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			l := NewPlain(&out)
			tt.write(l)
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.want {
				t.Errorf("got:\n%q\nwant:\n%q", out.String(), tt.want)
			}
		})
	}
}

// TestPlainIgnoresWaiting: a pipe gets no status line, and no heartbeat.
func TestPlainIgnoresWaiting(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	l := NewPlain(&out)
	l.Waiting(Wait{JobID: "job_0001", Status: "active", Next: time.Now()})
	l.Waiting(Wait{JobID: "job_0001", Status: "active", Next: time.Now(), Elapsed: time.Minute, Beat: true})
	l.Printf("line")
	l.Close()
	if out.String() != "line\n" {
		t.Errorf("got %q", out.String())
	}
}

// TestTerminalStatusLine follows one wait on a simulated clock: the status
// line appears when the wait starts, is redrawn in place (\r, padded over a
// longer line), steps aside for each log line and comes back under it, and
// leaves the screen at the end of the wait.
func TestTerminalStatusLine(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	clk := clock.NewFake(start)
	var out bytes.Buffer
	w := NewTerminal(&out, clk, 0)
	wait := Wait{JobID: "job_0001", Status: "active"}

	w.Printf("[    0s] created job job_0001, status active")
	w.Group("Waiting for job job_0001")
	wait.Next = start.Add(20 * time.Second)
	w.Waiting(wait)
	first := "job job_0001: active, 0s elapsed, next check in 20s"
	want := "[    0s] created job job_0001, status active\nWaiting for job job_0001\n\r" + first
	if out.String() != want {
		t.Fatalf("after the first wait:\n%q\nwant:\n%q", out.String(), want)
	}

	out.Reset()
	clk.Sleep(t.Context(), 20*time.Second)
	wait.Next, wait.Beat = start.Add(26*time.Second), true // a heartbeat adds nothing to a live line
	w.Waiting(wait)
	second := "job job_0001: active, 20s elapsed, next check in 6s"
	if want := "\r" + second + strings.Repeat(" ", len(first)-len(second)); out.String() != want {
		t.Errorf("redraw:\n%q\nwant:\n%q", out.String(), want)
	}

	// A log line takes the status line's place; it comes back, with what
	// is now true, when the run waits again.
	out.Reset()
	clk.Sleep(t.Context(), 7*time.Second)
	w.Printf("[   27s] job job_0001: active -> review")
	clear := "\r" + strings.Repeat(" ", len(second)) + "\r"
	if want := clear + "[   27s] job job_0001: active -> review\n"; out.String() != want {
		t.Errorf("a log line during the wait:\n%q\nwant:\n%q", out.String(), want)
	}
	out.Reset()
	w.Waiting(Wait{JobID: "job_0001", Status: "review", Next: start.Add(27 * time.Second)})
	checking := "job job_0001: review, 27s elapsed, checking now"
	if want := "\r" + checking; out.String() != want {
		t.Errorf("the next wait:\n%q\nwant:\n%q", out.String(), want)
	}

	// The last status change ends the line for good: no Waiting follows.
	out.Reset()
	w.Printf("[   40s] job job_0001: review -> completed")
	w.Notice("job job_0001 completed")
	w.Close()
	if want := "\r" + strings.Repeat(" ", len(checking)) + "\r" + "[   40s] job job_0001: review -> completed\njob job_0001 completed\n"; out.String() != want {
		t.Errorf("after the wait:\n%q\nwant:\n%q", out.String(), want)
	}
}

// TestTerminalStatusLineIsSafeAndShort: the job's id and status come from
// the API: they cannot drive the terminal, and the line never wraps.
func TestTerminalStatusLineIsSafeAndShort(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	w := NewTerminal(&out, clock.NewFake(start), 0)
	w.Waiting(Wait{JobID: "job\x1b[2J\r" + strings.Repeat("x", 200), Status: "act\x07ive", Next: start.Add(time.Second)})
	w.Close()
	line := strings.TrimPrefix(strings.SplitN(out.String(), "\r", 3)[1], "\r")
	if strings.ContainsAny(line, "\x1b\x07") {
		t.Errorf("control characters reach the terminal: %q", line)
	}
	// Not a terminal: the default width.
	if n := len([]rune(line)); n > defaultWidth-1 {
		t.Errorf("status line of %d runes, want at most %d: %q", n, defaultWidth-1, line)
	}
}

// TestTerminalStatusLineIsRedacted: a masked secret the API echoes in a
// job's status does not reach the status line.
func TestTerminalStatusLineIsRedacted(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	w := NewTerminal(&out, clock.NewFake(start), 0)
	w.Mask("mint_s3cr3t_value")
	w.Waiting(Wait{JobID: "job_0001", Status: "bad key mint_s3cr3t_value", Next: start.Add(time.Second)})
	w.Close()
	if got := out.String(); strings.Contains(got, "s3cr3t") || !strings.Contains(got, `job job_0001: "bad key ***", 0s elapsed`) {
		t.Errorf("status line %q, want the secret as ***", got)
	}
}

// TestTerminalRefreshes: with a refresh period the line is redrawn on its
// own (elapsed moves without any event), and Close stops that.
func TestTerminalRefreshes(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	clk := clock.NewFake(start)
	var out syncBuffer
	w := NewTerminal(&out, clk, time.Millisecond)
	w.Group("Waiting for job job_0001")
	w.Waiting(Wait{JobID: "job_0001", Status: "active", Next: start.Add(time.Minute)})
	clk.Sleep(t.Context(), 5*time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "5s elapsed, next check in 55s") {
		if time.Now().After(deadline) {
			t.Fatalf("no redraw after the clock moved:\n%q", out.String())
		}
		time.Sleep(time.Millisecond)
	}
	w.Close()
	n := len(out.String())
	time.Sleep(5 * time.Millisecond)
	if len(out.String()) != n {
		t.Errorf("drawn after Close:\n%q", out.String())
	}
	if !strings.HasSuffix(out.String(), "\r") {
		t.Errorf("Close did not clear the line:\n%q", out.String())
	}
}

// syncBuffer is a bytes.Buffer for a writer with a goroutine of its own.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
