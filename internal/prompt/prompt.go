// Package prompt builds what the agent receives from the event when the
// prompt input is empty: what a reader of the thread sees of the comment,
// review or issue (package visible), the place of a line comment, and a
// block that says where the request came from.
package prompt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/visible"
)

// Prompt builds the prompt used when the prompt input is empty, from what
// a reader of the thread sees (HTML comments are dropped, see visible.Shown):
// the comment without its trigger phrase, or the issue or pull request's
// title and body, followed by ContextBlock. A comment on a diff line also
// says where it stands (see ReviewCommentPrompt), and a submitted review is
// ReviewPrompt without its line comments. It returns "" when there is
// nothing to act on, such as a comment that is only the phrase, or an event
// with no issue.
func Prompt(t *event.Trigger, phrase string) string {
	var text string
	switch {
	case t.ReviewID != 0:
		return ReviewPrompt(t, phrase, nil)
	case t.CommentID != 0 && t.CommentKind == ghclient.KindReview:
		return ReviewCommentPrompt(t, phrase)
	case t.CommentID != 0:
		text = event.StripPhrase(t.CommentBody, phrase)
	case t.Number != 0:
		title := strings.TrimSpace(t.Title)
		body := strings.TrimSpace(visible.Shown(t.IssueBody))
		text = strings.TrimSpace(title + "\n\n" + body)
	}
	if text == "" {
		return ""
	}
	return text + ContextBlock(t)
}

// ReviewCommentPrompt builds the prompt for a comment on a line of a pull
// request's diff: the instruction (the comment's visible text without the
// phrase), then the file, the line or range of lines and the diff hunk the
// comment is on, so that "shorten this" means that line, then
// ContextBlock. It returns "" when the comment holds no instruction.
func ReviewCommentPrompt(t *event.Trigger, phrase string) string {
	text := event.StripPhrase(t.CommentBody, phrase)
	if text == "" {
		return ""
	}
	return text + "\n\n---\nThe comment is on " + place(t.Path, t.Line, t.StartLine, t.Side) + withHunk(t.DiffHunk) + ContextBlock(t)
}

// ReviewPrompt builds the prompt for a submitted review: the review's
// visible body without the phrase, then each line comment's visible body
// with its file, line and diff hunk, then ContextBlock. Line comments
// with no visible text are left out. It returns "" when neither the body
// nor any line comment holds an instruction.
func ReviewPrompt(t *event.Trigger, phrase string, comments []*ghclient.ReviewComment) string {
	var parts []string
	if text := event.StripPhrase(t.ReviewBody, phrase); text != "" {
		parts = append(parts, text)
	}
	var lines []string
	for _, c := range comments {
		body := event.StripPhrase(c.Body, phrase)
		if body == "" {
			continue
		}
		lines = append(lines, onLine(place(c.Path, c.Line, c.StartLine, ""), body, c.DiffHunk))
	}
	if len(lines) > 0 {
		parts = append(parts, "---\nThe review's comments on lines of the diff:\n\n"+strings.Join(lines, "\n\n"))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "\n\n") + ContextBlock(t)
}

// place says where in a pull request's diff a comment stands. The path is
// quoted: it is someone's free text and must stay on one line.
func place(path string, line, start int, side string) string {
	s := "file " + strconv.Quote(path)
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

// onLine is a review's line comment in a prompt: where it stands, what it
// says, and the diff hunk it is on.
func onLine(where, text, hunk string) string {
	item := "On " + where + ":\n" + text
	if f := fenced(hunk); f != "" {
		item += "\n" + f
	}
	return item
}

// withHunk ends a sentence that says where a comment stands: with a colon
// and the fenced hunk, or with a full stop when there is none.
func withHunk(hunk string) string {
	if f := fenced(hunk); f != "" {
		return ":\n" + f
	}
	return "."
}

// fenced puts a diff hunk in a code fence longer than any run of backticks
// in it, so the hunk cannot close the fence and pose as instructions. It is
// "" for an empty hunk.
func fenced(hunk string) string {
	hunk = strings.TrimRight(hunk, "\r\n")
	if strings.TrimSpace(hunk) == "" {
		return ""
	}
	longest, n := 0, 0
	for i := 0; i < len(hunk); i++ {
		if hunk[i] == '`' {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + "diff\n" + hunk + "\n" + fence
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

// Batch builds the prompt for several requests answered at once (package
// backlog), oldest first: each numbered, with its author and where it was
// made, its visible text without the phrase, and for a line comment its
// file, lines and diff hunk (a review's line comments likewise); then
// ContextBlock. A batch of one is that request's own prompt.
func Batch(reqs []backlog.Request, t *event.Trigger, phrase string) string {
	parts := []string{fmt.Sprintf("%d requests from this thread, oldest first. Answer each of them.", len(reqs))}
	for i, r := range reqs {
		// A login is a plain name, but the payload is someone's text.
		head := fmt.Sprintf("## %d. From %s, in a comment", i+1, escape.Line(r.Author))
		switch r.Kind {
		case backlog.Line:
			head = fmt.Sprintf("## %d. From %s, on %s", i+1, escape.Line(r.Author), place(r.Path, r.Line, r.StartLine, r.Side))
		case backlog.Review:
			head = fmt.Sprintf("## %d. From %s, in a review", i+1, escape.Line(r.Author))
		}
		if u := escape.URL(r.URL); u != "" {
			head += " (" + u + ")"
		}
		parts = append(parts, head)
		if text := event.StripPhrase(r.Body, phrase); text != "" {
			parts = append(parts, text)
		}
		if f := fenced(r.DiffHunk); r.Kind == backlog.Line && f != "" {
			parts = append(parts, f)
		}
		for _, l := range r.Lines {
			text := event.StripPhrase(l.Body, phrase)
			if text == "" {
				continue
			}
			parts = append(parts, onLine(place(l.Path, l.Line, l.StartLine, l.Side), text, l.DiffHunk))
		}
	}
	return strings.Join(parts, "\n\n") + ContextBlock(t)
}
