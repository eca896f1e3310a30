// Package report is everything the action tells the outside: log lines and
// workflow commands on stdout, step outputs, and the job summary.
package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/sethvargo/go-githubactions"

	"github.com/agentjob/agent-job-action/internal/escape"
)

// Log writes the step's log. Every line passes through a redactor that
// replaces registered secrets with ***, so a secret cannot reach the log even
// by mistake. It is safe for concurrent use.
type Log struct {
	raw io.Writer // only for ::add-mask::, which must carry the secret itself
	gha *githubactions.Action
	red *redactor
}

// NewLog returns a log on w. getenv gives the runner's environment.
func NewLog(w io.Writer, getenv func(string) string) *Log {
	red := &redactor{w: w}
	return &Log{
		raw: w,
		red: red,
		gha: githubactions.New(githubactions.WithWriter(red), githubactions.WithGetenv(getenv)),
	}
}

// Mask tells the runner to hide secret and removes it from everything this
// log, the outputs and the summary write from now on.
func (l *Log) Mask(secret string) {
	if strings.TrimSpace(secret) == "" {
		return
	}
	l.red.mu.Lock()
	defer l.red.mu.Unlock()
	// The runner masks line by line: register each line of a multi-line value.
	for _, line := range strings.Split(secret, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			fmt.Fprintf(l.raw, "::add-mask::%s\n", line)
			// Also the forms escaping gives it, in case a secret reaches
			// text that is escaped before it is redacted.
			quoted := strconv.Quote(line)
			l.red.secrets = append(l.red.secrets, line, escape.Markdown(line), quoted[1:len(quoted)-1])
		}
	}
}

// Redact returns s with every masked secret replaced by ***.
func (l *Log) Redact(s string) string { return l.red.redact(s) }

// Printf writes one line. Untrusted values must be passed through
// escape.Log first. As a second guard, the runner's legacy "##[command]"
// syntax, which it finds anywhere in a line, is broken up.
func (l *Log) Printf(format string, args ...any) {
	l.gha.Infof("%s", strings.ReplaceAll(fmt.Sprintf(format, args...), "##[", "#\u200b#["))
}

// Notice, Warning and Error write annotations; the runner unescapes their
// text, and the escaping keeps it on one command line.
func (l *Log) Notice(msg string)  { l.gha.Noticef("%s", msg) }
func (l *Log) Warning(msg string) { l.gha.Warningf("%s", msg) }
func (l *Log) Error(msg string)   { l.gha.Errorf("%s", msg) }

// Group starts a collapsible group; EndGroup ends it.
func (l *Log) Group(title string) { l.gha.Group(title) }
func (l *Log) EndGroup()          { l.gha.EndGroup() }

// StopCommands writes text that the runner must not interpret (untrusted,
// multi-line) between ::stop-commands:: markers with an unguessable token.
func (l *Log) StopCommands(token, text string) {
	l.Printf("::stop-commands::%s", token)
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if strings.TrimSpace(line) == "::"+token+"::" {
			line = " " + line
		}
		l.Printf("%s", line)
	}
	l.Printf("::%s::", token)
}

type redactor struct {
	mu      sync.Mutex
	w       io.Writer
	secrets []string
}

func (r *redactor) redact(s string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.redactLocked(s)
}

func (r *redactor) redactLocked(s string) string {
	for _, sec := range r.secrets {
		s = strings.ReplaceAll(s, sec, "***")
	}
	return s
}

func (r *redactor) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := io.WriteString(r.w, r.redactLocked(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
