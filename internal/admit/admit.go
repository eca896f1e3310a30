// Package admit decides whether a request reaches the agent: one judgment
// for the run's own request and for the earlier requests of its thread
// alike. A bot must be in allowed-bots; a person must have the required
// permission, read before any of their text is parsed, so that nobody
// without it can make a run parse what they wrote; then the trigger phrase
// must be in what a reader of the page sees (package visible), and, when
// the requests are the prompt, an instruction besides it.
//
// Judging a request reads its body once and keeps what the agent receives
// of it with the request (request.Request.Text).
package admit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/visible"
)

// Rules are what a request must pass, from the workflow's inputs.
type Rules struct {
	Phrase      string   // trigger-phrase
	AllowedBots []string // allowed-bots
	Required    string   // required-permission: the least level a person needs
	// Instruction says a request must hold an instruction besides the
	// phrase: its text is the prompt (no workflow prompt).
	Instruction bool
}

// Verdict is what Judge decided.
type Verdict int

// The verdicts.
const (
	// Admitted: the request reaches the agent.
	Admitted Verdict = iota
	// Refused: a bot not in allowed-bots, or a person without the
	// required permission.
	Refused
	// Unseen: the phrase is not in what a reader sees (quoted, in code,
	// hidden): the text is no request at all.
	Unseen
	// Empty: nothing besides the phrase, where an instruction is needed.
	Empty
	// TooComplex: the text is past what can be read safely within a
	// bound (visible.ErrTooComplex): it is refused, never hung on.
	TooComplex
)

// Decision is a verdict and the facts it rests on.
type Decision struct {
	Verdict Verdict
	// Level is the author's permission as judged; "" for a bot.
	Level string
}

// ErrTooComplex is the error of a TooComplex verdict.
var ErrTooComplex = visible.ErrTooComplex

// Judge decides r, whose author has permission level (read by the caller;
// "" for a bot, whose permission is not read). A person's permission and a
// bot's place in allowed-bots are judged before r's text is read.
func (ru Rules) Judge(r *request.Request, level string) Decision {
	d := Decision{Level: level}
	if r.Bot {
		d.Level = ""
	}
	switch {
	case !ru.Permitted(r, level):
		d.Verdict = Refused
	case r.Kind == request.Event:
		// The event is the request; its text is read for the prompt only.
	default:
		d.Verdict = ru.read(r)
	}
	return d
}

// read reads r's text, and its lines', and judges what a reader sees.
func (ru Rules) read(r *request.Request) Verdict {
	asks, err := read(r, ru.Phrase)
	switch {
	case err != nil:
		return TooComplex
	case !asks:
		return Unseen
	case ru.Instruction && !hasInstruction(r):
		return Empty
	}
	return Admitted
}

// Permitted reports whether r's author may ask at all, before any of r's
// text is read: a bot in allowed-bots, or a person with the required
// permission (level).
func (ru Rules) Permitted(r *request.Request, level string) bool {
	return ru.Admits(r.Author, r.Bot, level)
}

// Admits reports whether author, a bot or a person with permission level,
// passes ru (Permitted).
func (ru Rules) Admits(author string, bot bool, level string) bool {
	if bot {
		return ru.AllowedBot(author)
	}
	return request.AtLeast(level, ru.Required)
}

// NeedsPermission reports whether r's author's permission must be read
// before Judge: a person's must, a bot's never.
func (ru Rules) NeedsPermission(r *request.Request) bool { return !r.Bot }

// AllowedBot reports whether login is in allowed-bots (without case, as
// GitHub compares logins).
func (ru Rules) AllowedBot(login string) bool {
	return slices.ContainsFunc(ru.AllowedBots, func(b string) bool { return strings.EqualFold(b, login) })
}

// Reason says why a request of the thread was left out, for the log and
// the run's comment; "" when it was not.
func (d Decision) Reason(ru Rules) string {
	switch d.Verdict {
	case Refused:
		if d.Level == "" {
			return "a bot not in allowed-bots"
		}
		return d.Level + " permission; required-permission is " + ru.Required
	case Empty:
		return "no instruction besides the trigger phrase"
	case TooComplex:
		return "too complex to read safely"
	}
	return ""
}

// Skip says why the run does not act on its own request r, in one line
// for the log; "" when it acts. owner/repo is the repository whose
// permission was read.
func (d Decision) Skip(ru Rules, r *request.Request, owner, repo string) string {
	switch d.Verdict {
	case Refused:
		if d.Level == "" {
			return fmt.Sprintf("%s is a bot and is not in allowed-bots", escape.Log(r.Author))
		}
		return fmt.Sprintf("%s has %s permission on %s/%s; required-permission is %s",
			escape.Log(r.Author), escape.Log(d.Level), escape.Log(owner), escape.Log(repo), ru.Required)
	case Unseen:
		return fmt.Sprintf("the %s does not contain the trigger phrase %s", r.Kind.Noun(), escape.Log(ru.Phrase))
	}
	return ""
}

// read reads r's body once, and its lines': whether a reader sees the
// phrase in it, and what the agent receives of it (r.Text), which it keeps
// with r. A text past the bound of what can be read safely is an error, in
// r or in a line of its review.
func read(r *request.Request, phrase string) (bool, error) {
	asks, err := see(r, phrase)
	for _, l := range r.Lines {
		if _, lerr := see(l, phrase); lerr != nil && err == nil {
			err = lerr
		}
	}
	return asks, err
}

// see parses r's body, once, and keeps its text.
func see(r *request.Request, phrase string) (bool, error) {
	asks, text, err := Read(r.Body, phrase)
	r.Text, r.Seen = text, true
	return asks, err
}

// Read parses body once and reports whether phrase is a whole word of the
// text a reader of the rendered page sees (package visible): not in an
// HTML comment, a quote, code, a link's destination or an image's
// description. A whole word is not glued to letters, digits or the
// characters that continue a command, a path or a mention ("_-/@"), so
// "/docs" is found in "please /docs now" but not in "/docsify" or
// "x/docs". The match is case-sensitive, as slash commands are; an empty
// phrase matches every body.
//
// text is what the agent receives of body (visible.Text's Shown) without
// the phrase found, trimmed; where the phrase sat between two words on one
// line, one space is left. A body past the bound of what can be read
// safely is visible.ErrTooComplex, read no further: it asks nothing and
// gives the agent nothing.
func Read(body, phrase string) (asks bool, text string, err error) {
	read, err := visible.Read(body)
	if err != nil {
		return false, "", err
	}
	shown := read.Shown
	if phrase == "" {
		return true, strings.TrimSpace(shown), nil
	}
	i, j, ok := read.Find(phrase)
	if !ok {
		return false, strings.TrimSpace(shown), nil
	}
	return true, strip(shown, i, j), nil
}

// strip is shown without the phrase at [i, j), trimmed. Where the phrase
// sat between two words on one line, one space is left.
func strip(shown string, i, j int) string {
	before := strings.TrimRight(shown[:i], " \t")
	after := strings.TrimLeft(shown[j:], " \t")
	if before != "" && after != "" && !strings.HasSuffix(before, "\n") && !strings.HasPrefix(after, "\n") && !strings.HasPrefix(after, "\r") {
		return strings.TrimSpace(before + " " + after)
	}
	return strings.TrimSpace(before + after)
}

// hasInstruction reports whether r (or a line comment of its review)
// holds text besides the phrase.
func hasInstruction(r *request.Request) bool {
	return r.Text != "" || slices.ContainsFunc(r.Lines, func(l *request.Request) bool { return l.Text != "" })
}
