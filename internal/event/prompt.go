package event

import (
	"fmt"
	"strings"

	"github.com/agentjob/agent-job-action/internal/escape"
)

// Prompt builds the prompt used when the prompt input is empty: the comment
// without its trigger phrase, or the issue or pull request's title and body,
// followed by ContextBlock. It returns "" when there is nothing to act on,
// such as a comment that is only the phrase, or an event with no issue.
func Prompt(t *Trigger, phrase string) string {
	var text string
	switch {
	case t.CommentID != 0:
		text = StripPhrase(t.CommentBody, phrase)
	case t.Number != 0:
		title := strings.TrimSpace(t.Title)
		body := strings.TrimSpace(t.IssueBody)
		text = strings.TrimSpace(title + "\n\n" + body)
	}
	if text == "" {
		return ""
	}
	return text + ContextBlock(t)
}

// ContextBlock tells the agent where the request came from, so it can find
// the issue or pull request the text refers to. It starts with a blank line
// and a rule, to be appended to a prompt, and is "" when the repository is
// unknown.
func ContextBlock(t *Trigger) string {
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
