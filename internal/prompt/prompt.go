// Package prompt builds what the agent receives from the requests a run
// answers, once, when everything it depends on is known: what a reader of
// the thread sees of each request (judged by package admit), the place of
// a line comment, a review's line comments, and a block that says where
// the requests came from.
package prompt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/invisible"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/visible"
)

// Build returns the prompt for reqs, the requests a run answers, oldest
// first, each admitted (package admit: Text is what the agent receives of
// it), made in the thread of t. It is the one renderer of requests: one
// request reads as itself (its text; where a line comment stands; a
// review's line comments; an issue's title and body), several are
// numbered, each with its author and link. ContextBlock ends it. It is ""
// when there is nothing to act on: no request, or one that holds no
// instruction.
func Build(reqs []*request.Request, t *event.Trigger) string {
	switch len(reqs) {
	case 0:
		return ""
	case 1:
		if text := alone(reqs[0]); text != "" {
			return text + ContextBlock(t)
		}
		return ""
	}
	parts := []string{fmt.Sprintf("%d requests from this thread, oldest first. Answer each of them.", len(reqs))}
	for i, r := range reqs {
		parts = append(parts, numbered(i+1, r)...)
	}
	return strings.Join(parts, "\n\n") + ContextBlock(t)
}

// MaxBatchBytes and MaxBatch bound the prompt of several requests
// answered together, in bytes and in requests besides the run's own: what
// does not fit waits for a later run (Fit). The run's own request is
// always sent, whatever its size (GitHub bounds it). Each request of a
// batch costs a GitHub write too (its 👀), so neither bound is generous.
const (
	MaxBatchBytes = 256 << 10
	MaxBatch      = 50
)

// Fit splits reqs, oldest first, into those a prompt of MaxBatchBytes
// holds and the rest: own (the run's own request) always fits; the others
// fit oldest first while there is room (MaxBatchBytes, MaxBatch), and
// wait from the first that does not.
func Fit(reqs []*request.Request, own request.Key) (fit, rest []*request.Request) {
	size := func(r *request.Request) int {
		n := 0
		for _, p := range numbered(0, r) {
			n += len(p) + 2
		}
		return n
	}
	room, others := MaxBatchBytes, 0
	for _, r := range reqs {
		if r.Key == own {
			room -= size(r)
		}
	}
	for _, r := range reqs {
		switch {
		case r.Key == own:
		case len(rest) == 0 && size(r) <= room && others < MaxBatch:
			room -= size(r)
			others++
		default:
			// In order: once one waits, so do those made after it.
			rest = append(rest, r)
			continue
		}
		fit = append(fit, r)
	}
	return fit, rest
}

// alone is a request's text when it is the only one.
func alone(r *request.Request) string {
	switch r.Kind {
	case request.Event:
		title := strings.TrimSpace(r.Title)
		body := strings.TrimSpace(visible.Shown(r.Body))
		return strings.TrimSpace(title + "\n\n" + body)
	case request.Line:
		if r.Text == "" {
			return ""
		}
		return r.Text + "\n\n---\nThe comment is on " + place(r.Path, r.Line, r.StartLine, r.Side) + withHunk(r.DiffHunk)
	case request.Review:
		var parts []string
		if r.Text != "" {
			parts = append(parts, r.Text)
		}
		var lines []string
		for _, l := range r.Lines {
			if l.Text != "" {
				lines = append(lines, onLine(place(l.Path, l.Line, l.StartLine, ""), l.Text, l.DiffHunk))
			}
		}
		if len(lines) > 0 {
			parts = append(parts, "---\nThe review's comments on lines of the diff:\n\n"+strings.Join(lines, "\n\n"))
		}
		return strings.Join(parts, "\n\n")
	}
	return r.Text
}

// numbered is the n-th request of several: a heading with its author and
// where it was made, its text, and for a line comment (and a review's
// lines) the file, lines and diff hunk.
func numbered(n int, r *request.Request) []string {
	// A login is a plain name, but the payload is someone's text.
	head := fmt.Sprintf("## %d. From %s, in a comment", n, escape.Line(r.Author))
	switch r.Kind {
	case request.Line:
		head = fmt.Sprintf("## %d. From %s, on %s", n, escape.Line(r.Author), place(r.Path, r.Line, r.StartLine, r.Side))
	case request.Review:
		head = fmt.Sprintf("## %d. From %s, in a review", n, escape.Line(r.Author))
	}
	if u := escape.URL(r.URL); u != "" {
		head += " (" + u + ")"
	}
	parts := []string{head}
	if r.Text != "" {
		parts = append(parts, r.Text)
	}
	if f := fence("diff", r.DiffHunk); r.Kind == request.Line && f != "" {
		parts = append(parts, f)
	}
	for _, l := range r.Lines {
		if l.Text != "" {
			parts = append(parts, onLine(place(l.Path, l.Line, l.StartLine, l.Side), l.Text, l.DiffHunk))
		}
	}
	return parts
}

// Target is a pull request a new job must update rather than open one of
// its own.
type Target struct {
	Owner, Repo string
	Number      int
	URL         string
	Branch      string // "" when unknown
}

// Update is text sent to a new job that stands in for one that takes no
// more messages (a request made on that job's pull request): it names the
// pull request and its branch first, so the new job updates them rather
// than starting over.
func Update(t Target, text string) string {
	where := fmt.Sprintf("pull request #%d in %s/%s", t.Number, t.Owner, t.Repo)
	if t.URL != "" {
		where += " (" + t.URL + ")"
	}
	if t.Branch != "" {
		where += ", branch " + t.Branch
	}
	return fmt.Sprintf("Update %s: push your changes to that branch rather than opening a new pull request.\n\n%s", where, text)
}

// place says where in a pull request's diff a comment stands. The path is
// quoted: it is someone's free text and must stay on one line. It is
// cleaned first (invisible.Clean), as the whole prompt is when it is sent:
// quoting writes an invisible character as an escape the agent reads
// ("\u200b"), past the reach of the cleaning at the end.
func place(path string, line, start int, side string) string {
	s := "file " + quoted(path)
	switch {
	case start != 0 && line != 0 && start != line:
		s += fmt.Sprintf(", lines %d to %d", start, line)
	case line != 0:
		s += fmt.Sprintf(", line %d", line)
	default:
		return s + " (a line no longer in the diff)"
	}
	switch side {
	case "RIGHT":
		s += " of the new version"
	case "LEFT":
		s += " of the old version"
	}
	return s
}

// quoted is a path as a prompt names it: cleaned of what a reader does not
// see (invisible.Clean) before it is quoted, since quoting writes an
// invisible character as an escape out of the final cleaning's reach. The
// quotes keep someone's free text on one line.
func quoted(path string) string { return strconv.Quote(invisible.Clean(path)) }

// onLine is a review's line comment in a prompt: where it stands, what it
// says, and the diff hunk it is on.
func onLine(where, text, hunk string) string {
	item := "On " + where + ":\n" + text
	if f := fence("diff", hunk); f != "" {
		item += "\n" + f
	}
	return item
}

// withHunk ends a sentence that says where a comment stands: with a colon
// and the fenced hunk, or with a full stop when there is none.
func withHunk(hunk string) string {
	if f := fence("diff", hunk); f != "" {
		return ":\n" + f
	}
	return "."
}

// fence puts text in a code fence of the given info string, longer than
// any run of backticks in the text, so that the text cannot close the
// fence and pose as instructions. It is "" for an empty text.
func fence(info, text string) string {
	text = strings.TrimRight(text, "\r\n")
	if strings.TrimSpace(text) == "" {
		return ""
	}
	longest, n := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + info + "\n" + text + "\n" + f
}

// ContextBlock tells the agent where the request came from, so it can find
// the issue or pull request the text refers to. It starts with a blank line
// and a rule, to be appended to a prompt, and is "" when the repository is
// unknown.
func ContextBlock(t *event.Trigger) string {
	if t.Owner == "" || t.Repo == "" {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n\n---\nContext: repository %s/%s", t.Owner, t.Repo)
	if t.Number != 0 {
		kind := "issue"
		if t.IsPR {
			kind = "PR"
		}
		fmt.Fprintf(&b, ", %s #%d", kind, t.Number)
		// The title is someone's free text: one line keeps it from posing
		// as further instructions after the context.
		if title := strings.TrimSpace(escape.Line(t.Title)); title != "" {
			fmt.Fprintf(&b, " %q", title)
		}
		if u := escape.URL(t.URL); u != "" {
			fmt.Fprintf(&b, " (%s)", u)
		}
	}
	b.WriteString(".")
	return b.String()
}
