package event

import (
	"strings"

	"github.com/agentjob/agent-job-action/internal/visible"
)

// MatchPhrase reports whether body contains phrase as a whole word of the
// text a reader of the rendered page sees (package visible): not in an HTML
// comment, a quote, code, a link's destination or an image's description.
// A whole word is not glued to letters, digits or the characters that
// continue a command, a path or a mention ("_-/@"), so "/docs" is found in
// "please /docs now" but not in "/docsify" or "x/docs". The match is
// case-sensitive, as slash commands are. An empty phrase matches every
// body.
func MatchPhrase(body, phrase string) bool {
	if phrase == "" {
		return true
	}
	_, _, ok := visible.Request(visible.Shown(body)).Find(phrase)
	return ok
}

// StripPhrase returns what the agent receives of body (visible.Shown)
// without the phrase MatchPhrase found, trimmed. Where the phrase sat
// between two words on one line, one space is left.
func StripPhrase(body, phrase string) string {
	v := visible.Shown(body)
	if phrase == "" {
		return strings.TrimSpace(v)
	}
	i, j, ok := visible.Request(v).Find(phrase)
	if !ok {
		return strings.TrimSpace(v)
	}
	before := strings.TrimRight(v[:i], " \t")
	after := strings.TrimLeft(v[j:], " \t")
	if before != "" && after != "" && !strings.HasSuffix(before, "\n") && !strings.HasPrefix(after, "\n") && !strings.HasPrefix(after, "\r") {
		return strings.TrimSpace(before + " " + after)
	}
	return strings.TrimSpace(before + after)
}
