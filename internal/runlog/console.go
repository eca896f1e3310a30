package runlog

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/invisible"
	"github.com/agentjob/agent-job-action/internal/redact"
)

// Console is the log's face for a person or a script outside GitHub
// Actions: readable lines with no workflow command (a line that looks like
// one is text) and no character that would drive a terminal, and on a
// terminal one live status line under them while the run waits for the
// job: its status, the time elapsed and when the next check comes.
type Console struct {
	red *redact.Writer // the screen, through the redactor

	mu sync.Mutex
	// The live status line; live is false for NewPlain.
	live    bool
	clk     clock.Clock
	start   time.Time
	waiting bool // between a Waiting and the next line
	wait    Wait // what the status line shows
	shown   int  // the runes of the status line on the screen; 0 when none
	// maxStatus keeps the status line on one row of the terminal (its
	// width less one): a line that wraps cannot be redrawn with \r.
	maxStatus int
	done      chan struct{}
	stopped   sync.WaitGroup
}

var _ Log = (*Console)(nil)

// NewPlain returns the log as readable lines on w, for a pipe or a file.
func NewPlain(w io.Writer) *Console {
	return &Console{red: redact.NewWriter(w)}
}

// NewTerminal returns the log for a terminal: readable lines, and under
// them, while the run waits, one status line redrawn on every Waiting and
// every refresh (0: on Waiting only). Elapsed time is measured on clk from
// now. Close stops the refresh and clears the line.
func NewTerminal(w io.Writer, clk clock.Clock, refresh time.Duration) *Console {
	c := &Console{red: redact.NewWriter(w), live: true, clk: clk, start: clk.Now(), done: make(chan struct{}), maxStatus: width(w) - 1}
	if refresh > 0 {
		c.stopped.Add(1)
		go c.tick(refresh)
	}
	return c
}

func (c *Console) tick(every time.Duration) {
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

// Close stops the refresh and clears the status line.
func (c *Console) Close() error {
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
	return c.clear()
}

// Mask registers secret with the redactor. Nothing is announced: no
// runner reads this log, and an ::add-mask:: line would show the secret.
func (c *Console) Mask(secret string) {
	for _, line := range secretLines(secret) {
		c.red.Add(line)
	}
}

// Redact returns s with every masked secret replaced by ***.
func (c *Console) Redact(s string) string { return c.red.Redact(s) }

// RedactJSON returns the JSON record raw, redacted in its decoded strings.
func (c *Console) RedactJSON(raw []byte) string { return c.red.RedactJSON(raw) }

// Printf writes one line.
func (c *Console) Printf(format string, args ...any) { c.lines("", fmt.Sprintf(format, args...)) }

// Notice writes the message as it is.
func (c *Console) Notice(msg string) { c.lines("", msg) }

// Warning writes the message after "warning: ".
func (c *Console) Warning(msg string) { c.lines("warning: ", msg) }

// Error writes the message after "error: ".
func (c *Console) Error(msg string) { c.lines("error: ", msg) }

// Group writes the title as a line: a person's log has no groups.
func (c *Console) Group(title string) { c.lines("", title) }

// EndGroup writes nothing.
func (c *Console) EndGroup() {}

// Verbatim writes the text as it is: nothing here reads commands.
func (c *Console) Verbatim(text string) { c.lines("", strings.TrimRight(text, "\n")) }

// Waiting shows the status line on a terminal, which is live: a
// heartbeat adds nothing to it. Elsewhere it writes nothing.
func (c *Console) Waiting(w Wait) {
	if !c.live {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waiting, c.wait = true, w
	c.draw()
}

// lines writes text where the status line was: its first line after
// prefix, the others under it, each cleaned (see clean) and then redacted,
// so that what reaches the screen is what the redactor saw. The status line
// stays away until the next Waiting: a line during the wait says the job's
// status changed or a check failed, and until the run waits again the
// status line would show what is no longer true.
func (c *Console) lines(prefix, text string) {
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			prefix = strings.Repeat(" ", len(prefix))
		}
		b.WriteString(prefix + clean(line) + "\n")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waiting = false
	if c.clear() == nil {
		_, _ = io.WriteString(c.red, b.String())
	}
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

// statusLine is the text of the status line at now, redacted before it is
// cut to the terminal's width (a cut secret would no longer be found).
func (c *Console) statusLine(now time.Time) string {
	s := "job " + clean(escape.Log(c.wait.JobID)) + ": " + clean(escape.Log(c.wait.Status)) +
		", " + now.Sub(c.start).Round(time.Second).String() + " elapsed, "
	if left := c.wait.Next.Sub(now); left > 0 {
		// Rounded up: "in 0s" would say the check is now.
		s += "next check in " + (left + time.Second - 1).Truncate(time.Second).String()
	} else {
		s += "checking now"
	}
	s = c.red.Redact(s)
	if r := []rune(s); len(r) > c.maxStatus {
		s = string(r[:max(c.maxStatus-1, 0)]) + "…"
	}
	return s
}

// draw shows the status line, over the last one. Padding with spaces,
// rather than an escape sequence, clears what a longer line left: every
// console understands it, Windows' without virtual terminal mode too.
func (c *Console) draw() error {
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
	_, err := io.WriteString(c.red, "\r"+s+pad)
	return err
}

// clear removes the status line, leaving the cursor at the start of its row.
func (c *Console) clear() error {
	if c.shown == 0 {
		return nil
	}
	_, err := io.WriteString(c.red, "\r"+strings.Repeat(" ", c.shown)+"\r")
	c.shown = 0
	return err
}
