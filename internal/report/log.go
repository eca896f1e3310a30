// Package report is everything the action tells the outside: the log, the
// step outputs and the job summary. The log has two faces: in GitHub
// Actions, a step's log with workflow commands (annotations, groups,
// masks); elsewhere, plain lines for a person or a script ("error: ...",
// "warning: ..."). Neither is written to be read back.
package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/agentjob/agent-job-action/internal/redact"
)

// Log writes the run's log, as a step's log in Actions and as plain lines
// elsewhere. Every line passes through a redactor that replaces registered
// secrets with ***, in any form they take, so a secret cannot reach the log
// even by mistake. It is safe for concurrent use.
type Log struct {
	gha       *githubactions.Action
	red       *redact.Writer
	inActions bool
}

// NewLog returns a log on w. inActions says whether a runner reads w: only
// then does Mask tell it about secrets, since elsewhere nobody masks and the
// ::add-mask:: line would show the secret.
func NewLog(w io.Writer, inActions bool) *Log {
	red := redact.NewWriter(w)
	return &Log{
		red:       red,
		inActions: inActions,
		gha:       githubactions.New(githubactions.WithWriter(red)),
	}
}

// Mask tells the runner to hide secret and removes it from everything this
// log, the outputs and the summary write from now on.
func (l *Log) Mask(secret string) {
	// The runner masks line by line, and splits at \r as well as \n.
	for _, line := range strings.FieldsFunc(secret, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if l.inActions {
			// The runner decodes the command's data before it registers
			// it: encoded, the value it masks is the secret itself.
			_ = l.red.AddAnnounced(line, "::add-mask::"+redact.CommandData(line)+"\n")
			continue
		}
		l.red.Add(line)
	}
}

// Redact returns s with every masked secret replaced by ***.
func (l *Log) Redact(s string) string { return l.red.Redact(s) }

// Printf writes one line. Untrusted values must be passed through
// escape.Log first. As a second guard, the runner's legacy "##[command]"
// syntax, which it finds anywhere in a line, is broken up.
func (l *Log) Printf(format string, args ...any) {
	line := l.Redact(fmt.Sprintf(format, args...))
	if !l.inActions {
		l.plain("", line)
		return
	}
	l.gha.Infof("%s", strings.ReplaceAll(line, "##[", "#\u200b#["))
}

// Notice, Warning and Error write annotations in Actions (the runner
// unescapes their text, and the escaping keeps it on one command line; the
// text is redacted before it is encoded, and again after), and lines with
// their kind elsewhere.
func (l *Log) Notice(msg string) { l.annotate("", l.gha.Noticef, msg) }

// Warning writes a warning.
func (l *Log) Warning(msg string) { l.annotate("warning: ", l.gha.Warningf, msg) }

// Error writes an error.
func (l *Log) Error(msg string) { l.annotate("error: ", l.gha.Errorf, msg) }

// annotate writes msg, redacted, as an annotation in Actions, and as lines
// after prefix elsewhere.
func (l *Log) annotate(prefix string, command func(string, ...any), msg string) {
	if !l.inActions {
		l.plain(prefix, l.Redact(msg))
		return
	}
	command("%s", l.Redact(msg))
}

// Group starts a collapsible group in Actions, a line with its title
// elsewhere; EndGroup ends it.
func (l *Log) Group(title string) {
	if !l.inActions {
		l.plain("", l.Redact(title))
		return
	}
	l.gha.Group(l.Redact(title))
}

// EndGroup ends the group Group started.
func (l *Log) EndGroup() {
	if l.inActions {
		l.gha.EndGroup()
	}
}

// plain writes text as lines for a person, the first after prefix and the
// others under it.
func (l *Log) plain(prefix, text string) {
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			prefix = strings.Repeat(" ", len(prefix))
		}
		b.WriteString(prefix + strings.TrimSuffix(line, "\r") + "\n")
	}
	_, _ = io.WriteString(l.red, b.String())
}

// StopCommands writes text that the runner must not interpret (untrusted,
// multi-line) between ::stop-commands:: markers with an unguessable token;
// elsewhere, where nothing interprets it, it writes the text as it is.
func (l *Log) StopCommands(token, text string) {
	if !l.inActions {
		l.plain("", strings.TrimRight(l.Redact(text), "\n"))
		return
	}
	l.Printf("::stop-commands::%s", token)
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if strings.TrimSpace(line) == "::"+token+"::" {
			line = " " + line
		}
		l.Printf("%s", line)
	}
	l.Printf("::%s::", token)
}
