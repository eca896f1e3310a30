// Package console shows a run's log to a person outside GitHub Actions:
// the plain lines the log writes there (package report), with every
// character that would drive a terminal removed, and on a terminal one
// live status line under them while the run waits for the job: its
// status, the time elapsed and when the next check comes.
package console

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/invisible"
)

// Writer is an io.Writer for the run's log. It is safe for concurrent use.
type Writer struct {
	mu   sync.Mutex
	w    io.Writer
	part []byte // a line not yet ended

	// The live status line; live is false for NewPlain.
	live    bool
	clk     clock.Clock
	start   time.Time
	waiting bool   // between the first Waiting and the end of the wait
	job     string // the id and status shown
	status  string
	next    time.Time
	shown   int // the runes of the status line on the screen; 0 when none
	// maxStatus keeps the status line on one row of the terminal (its
	// width less one): a line that wraps cannot be redrawn with \r.
	maxStatus int
	done      chan struct{}
	stopped   sync.WaitGroup
}

// NewPlain returns a writer of readable lines on w, for a pipe or a file.
func NewPlain(w io.Writer) *Writer {
	return &Writer{w: w}
}

// NewTerminal returns a writer for a terminal: readable lines, and under
// them, while the run waits, one status line redrawn on every event and
// every refresh (0: on events only). Elapsed time is measured on clk from
// now. Close stops the refresh and clears the line.
func NewTerminal(w io.Writer, clk clock.Clock, refresh time.Duration) *Writer {
	c := &Writer{w: w, live: true, clk: clk, start: clk.Now(), done: make(chan struct{}), maxStatus: width(w) - 1}
	if refresh > 0 {
		c.stopped.Add(1)
		go c.tick(refresh)
	}
	return c
}

func (c *Writer) tick(every time.Duration) {
	defer c.stopped.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			c.mu.Lock()
			c.draw()
			c.mu.Unlock()
		}
	}
}

// Write takes log text, whole lines or parts of them.
func (c *Writer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.part = append(c.part, p...)
	for {
		i := bytes.IndexByte(c.part, '\n')
		if i < 0 {
			break
		}
		line := string(c.part[:i])
		c.part = c.part[i+1:]
		if err := c.show([]string{clean(strings.TrimSuffix(line, "\r"))}); err != nil {
			return len(p), err
		}
	}
	return len(p), nil
}

// Waiting is action.Deps.Waiting: the run is about to wait for job until
// next (on the clock given to NewTerminal).
func (c *Writer) Waiting(job *agentapi.Job, next time.Time) {
	if !c.live {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waiting = true
	c.job, c.status, c.next = job.ID, job.Status, next
	c.draw()
}

// Close writes a line left without its newline, stops the refresh and
// clears the status line.
func (c *Writer) Close() error {
	if c.done != nil {
		select {
		case <-c.done:
		default:
			close(c.done)
		}
		c.stopped.Wait()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waiting = false
	if len(c.part) > 0 {
		line := string(c.part)
		c.part = nil
		return c.show([]string{clean(line)})
	}
	return c.clear()
}

// show writes lines where the status line was. The status line stays away
// until the next Waiting: a log line during the wait says the job's status
// changed or a check failed, and until the run waits again the line would
// show what is no longer true.
func (c *Writer) show(lines []string) error {
	if len(lines) == 0 {
		return c.draw()
	}
	c.waiting = false
	if err := c.clear(); err != nil {
		return err
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(c.w, b.String())
	return err
}

// clean drops the characters that a terminal acts on (escape sequences,
// carriage returns, bells) and the invisible ones (package invisible),
// among them those that reorder text on screen, so that text from the API
// or an issue shows as written and nothing else.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return r
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f,
			r == '\u2028', r == '\u2029', invisible.Is(r):
			return -1
		}
		return r
	}, s)
}

// statusLine is the text of the status line at now.
func (c *Writer) statusLine(now time.Time) string {
	s := "job " + clean(escape.Log(c.job)) + ": " + clean(escape.Log(c.status)) +
		", " + now.Sub(c.start).Round(time.Second).String() + " elapsed, "
	if left := c.next.Sub(now); left > 0 {
		// Rounded up: "in 0s" would say the check is now.
		s += "next check in " + (left + time.Second - 1).Truncate(time.Second).String()
	} else {
		s += "checking now"
	}
	if r := []rune(s); len(r) > c.maxStatus {
		s = string(r[:max(c.maxStatus-1, 0)]) + "…"
	}
	return s
}

// draw shows the status line, over the last one. Padding with spaces,
// rather than an escape sequence, clears what a longer line left: every
// console understands it, Windows' without virtual terminal mode too.
func (c *Writer) draw() error {
	if !c.live || !c.waiting {
		return c.clear()
	}
	s := c.statusLine(c.clk.Now())
	n := utf8.RuneCountInString(s)
	pad := ""
	if c.shown > n {
		pad = strings.Repeat(" ", c.shown-n)
	}
	c.shown = n
	_, err := io.WriteString(c.w, "\r"+s+pad)
	return err
}

// clear removes the status line, leaving the cursor at the start of its row.
func (c *Writer) clear() error {
	if c.shown == 0 {
		return nil
	}
	_, err := io.WriteString(c.w, "\r"+strings.Repeat(" ", c.shown)+"\r")
	c.shown = 0
	return err
}
