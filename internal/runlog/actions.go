package runlog

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/redact"
)

// Actions is the log's face for GitHub Actions: the step's log, which the
// runner reads for workflow commands.
type Actions struct {
	gha *githubactions.Action
	red *redact.Writer
}

var _ Log = (*Actions)(nil)

// NewActions returns the step's log, written to w.
func NewActions(w io.Writer) *Actions {
	red := redact.NewWriter(w)
	return &Actions{red: red, gha: githubactions.New(githubactions.WithWriter(red))}
}

// Mask tells the runner to hide secret, with an ::add-mask:: line per line
// of it, and registers it with the redactor.
func (l *Actions) Mask(secret string) {
	for _, line := range secretLines(secret) {
		// The runner decodes the command's data before it registers it:
		// encoded, the value it masks is the secret itself.
		_ = l.red.AddAnnounced(line, "::add-mask::"+redact.CommandData(line)+"\n")
	}
}

// Redact returns s with every masked secret replaced by ***.
func (l *Actions) Redact(s string) string { return l.red.Redact(s) }

// RedactJSON returns the JSON record raw, redacted in its decoded strings.
func (l *Actions) RedactJSON(raw []byte) string { return l.red.RedactJSON(raw) }

// Printf writes one line. As a second guard after escape.Log, the runner's
// legacy "##[command]" syntax, which it finds anywhere in a line, is
// broken up.
func (l *Actions) Printf(format string, args ...any) {
	l.gha.Infof("%s", strings.ReplaceAll(l.Redact(fmt.Sprintf(format, args...)), "##[", "#\u200b#["))
}

// Notice, Warning and Error write annotations: the runner unescapes their
// text, and go-githubactions' escaping keeps it on one command line; the
// text is redacted before it is encoded, and again after.
func (l *Actions) Notice(msg string) { l.gha.Noticef("%s", l.Redact(msg)) }

// Warning writes a ::warning:: annotation.
func (l *Actions) Warning(msg string) { l.gha.Warningf("%s", l.Redact(msg)) }

// Error writes an ::error:: annotation.
func (l *Actions) Error(msg string) { l.gha.Errorf("%s", l.Redact(msg)) }

// Group starts a collapsible group.
func (l *Actions) Group(title string) { l.gha.Group(l.Redact(title)) }

// EndGroup ends the group Group started.
func (l *Actions) EndGroup() { l.gha.EndGroup() }

// Verbatim writes text between ::stop-commands:: markers whose token is
// 128 random bits, so that no line of the text can end the block early.
func (l *Actions) Verbatim(text string) { l.verbatim(stopToken(), text) }

func (l *Actions) verbatim(token, text string) {
	l.Printf("::stop-commands::%s", token)
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if strings.TrimSpace(line) == "::"+token+"::" {
			line = " " + line
		}
		l.Printf("%s", line)
	}
	l.Printf("::%s::", token)
}

func stopToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// Waiting writes a line on each heartbeat, inside the wait's group: the
// job's status, and the run's time so far in the column the other lines of
// progress have. Between heartbeats it writes nothing: the step's log has
// no line to redraw.
func (l *Actions) Waiting(w Wait) {
	if w.Beat {
		l.Printf("%s job %s: still %s", Stamp(w.Elapsed), escape.Log(w.JobID), escape.Log(w.Status))
	}
}
