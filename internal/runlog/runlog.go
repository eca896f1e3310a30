// Package runlog is the run's log: one object, chosen once by main, with a
// face for each reader. In GitHub Actions (Actions) it is the step's log,
// with workflow commands: annotations, groups, masks. Elsewhere (Console)
// it is readable lines for a person or a script ("error: ...",
// "warning: ..."), and on a terminal one live status line under them while
// the run waits. Whatever the face, every line passes through one redactor
// (package redact), so a registered secret cannot reach the log even by
// mistake. Nothing is written to be read back: each face writes lines,
// whole, as the run reports them.
package runlog

import (
	"fmt"
	"strings"
	"time"
)

// Log is what a run tells the person or the runner that reads its log.
// Text passed to it is redacted; untrusted values must still be passed
// through escape.Log first. Both faces are safe for concurrent use.
type Log interface {
	// Mask registers secret: from now on it is replaced by *** in
	// everything the log writes and Redact returns, and in Actions the
	// runner is told to hide it too.
	Mask(secret string)
	// Redact returns s with every masked secret replaced by ***, for what
	// the run writes elsewhere (outputs, summary, comments).
	Redact(s string) string
	// RedactJSON returns a JSON record with every masked secret replaced
	// in its decoded strings (redact.Writer.RedactJSON).
	RedactJSON(raw []byte) string
	// Printf writes one line.
	Printf(format string, args ...any)
	// Notice, Warning and Error write a message of their kind: an
	// annotation in Actions, a line that says its kind elsewhere.
	Notice(msg string)
	// Warning writes a warning.
	Warning(msg string)
	// Error writes an error.
	Error(msg string)
	// Group starts a collapsible group of lines in Actions, a line with its
	// title elsewhere; EndGroup ends it.
	Group(title string)
	// EndGroup ends the group Group started.
	EndGroup()
	// Verbatim writes untrusted text of several lines as it is: no line of
	// it is taken for a workflow command.
	Verbatim(text string)
	// Waiting says where a wait stands, before each pause of it: a
	// terminal redraws its status line; the Actions log, which has no line
	// to redraw, writes one on each heartbeat (Wait.Beat).
	Waiting(w Wait)
}

// Heartbeat is how often the run says, in a log with no live status line,
// that the job it waits for has not changed: a log that is silent for
// minutes looks hung.
const Heartbeat = time.Minute

// Wait is where a wait for a job stands.
type Wait struct {
	JobID  string
	Status string    // the job's status, as last seen
	Next   time.Time // when the next check is due, on the run's clock
	// Elapsed is the run's time so far, as its other lines stamp it.
	Elapsed time.Duration
	// Beat is set when the status has not changed for another Heartbeat.
	Beat bool
}

// Stamp is how a line of progress shows the run's time so far: wide enough
// for "59m59s", so that the texts after it line up.
func Stamp(elapsed time.Duration) string {
	return fmt.Sprintf("[%6s]", elapsed.Round(time.Second))
}

// secretLines are the lines of secret that are masked, one by one: the
// runner masks line by line, and splits at \r as well as \n.
func secretLines(secret string) []string {
	var lines []string
	for _, line := range strings.FieldsFunc(secret, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}
