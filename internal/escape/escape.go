// Package escape makes untrusted text (comment bodies, titles, values from
// the API) safe for the two places the action shows it: the workflow log,
// where a line starting with "::" is a command to the runner, and Markdown,
// where it could format, link or mention.
package escape

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/invisible"
)

// Log returns s as it may appear in the workflow log: unchanged when it is a
// plain token (letters, digits and ._-/+=@, as job ids and statuses are),
// otherwise quoted as a Go string literal, with the "#" that would complete
// a "##[" written \x23. Either way the result is one line with no control
// characters (the runner splits its input at \n and \r) that never starts
// with "::", even after leading white space (the runner trims it), and
// never holds "##[", which the runner looks for anywhere in a line as a
// legacy "##[command]". Those are the only two ways a line becomes a
// workflow command; nothing else is escaped, so a URL keeps its "#".
func Log(s string) string {
	if s != "" && len(s) <= 256 && !strings.ContainsFunc(s, notToken) {
		return s
	}
	return strings.ReplaceAll(strconv.Quote(s), "##[", `#\x23[`)
}

func notToken(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/+=@", r))
}

// markdown lists the characters that Markdown or HTML give a meaning to, with
// entities that render them literally. "@" is there so that text never
// mentions (and notifies) anyone; "|" so that a table cell stays one cell.
var markdown = map[rune]string{
	'&': "&amp;", '<': "&lt;", '>': "&gt;", '"': "&quot;", '\'': "&#39;",
	'\\': "&#92;", '`': "&#96;", '*': "&#42;", '_': "&#95;", '~': "&#126;",
	'[': "&#91;", ']': "&#93;", '(': "&#40;", ')': "&#41;", '!': "&#33;",
	'#': "&#35;", '|': "&#124;", '@': "&#64;", ':': "&#58;",
}

// WordJoiner is the invisible character Markdown puts where GitHub would
// otherwise make a link (see Markdown), U+2060 written as an entity so that
// it can be seen in the Markdown source; GitHub decodes it before it looks
// for links, and finds the character there.
const WordJoiner = "&#8288;"

// Markdown renders s as plain text on one line, fit for a table cell or a
// sentence in a comment: it formats nothing, links nothing, mentions nobody
// and keeps a table row's cells. Invalid UTF-8 is replaced; control and
// invisible characters (package invisible) are dropped, so none can hide
// or reorder text, and only the word joiners Markdown adds itself remain.
//
// Entities alone do not stop GitHub's links: the autolink extension of GFM,
// mentions and references work on the text after entities are decoded, so
// "www&#46;x.com" is still a link. What stops them is a character between
// the parts they look for. Markdown puts a word joiner (U+2060: invisible,
// no line break, neither white space nor punctuation nor a word character)
//   - after every ":", so "http://" and "ftp://" never read as a scheme and
//     "//" (GFM needs them right after the colon);
//   - after every "@", so no e-mail address (GFM needs an alphanumeric
//     right after "@", also in mailto: and xmpp: forms) and no @mention;
//   - between "www" and ".", so "www." never appears (GFM's www autolink);
//   - after every "#" and after "GH-", so "#12", "o/r#12" and "GH-12" never
//     reference an issue;
//   - after every sixth hex digit in a row, so no run of seven or more
//     reads as a commit SHA;
//   - at the end, after a final "www" or "GH", so that the text the caller
//     writes next ("." or "-") cannot complete one.
func Markdown(s string) string {
	s = strings.ToValidUTF8(s, string(utf8.RuneError))
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	var prev [3]rune // the last three runes written, newest last
	hex := 0         // hex digits in a row
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '\r' && strings.HasPrefix(s[i:], "\n"):
			i++
			r = ' '
		case r == '\r' || r == '\n':
			r = ' '
		case r < 0x20 || r == 0x7f || invisible.Is(r):
			continue
		}
		if isHex(r) {
			if hex == 6 {
				b.WriteString(WordJoiner)
				hex = 0
			}
			hex++
		} else {
			hex = 0
		}
		if r == '.' && lower(prev[0]) == 'w' && lower(prev[1]) == 'w' && lower(prev[2]) == 'w' {
			b.WriteString(WordJoiner)
		}
		if e, ok := markdown[r]; ok {
			b.WriteString(e)
		} else {
			b.WriteRune(r)
		}
		if r == ':' || r == '@' || r == '#' || r == '-' && lower(prev[1]) == 'g' && lower(prev[2]) == 'h' {
			b.WriteString(WordJoiner)
		}
		prev = [3]rune{prev[1], prev[2], r}
	}
	if lower(prev[0]) == 'w' && lower(prev[1]) == 'w' && lower(prev[2]) == 'w' || lower(prev[1]) == 'g' && lower(prev[2]) == 'h' {
		b.WriteString(WordJoiner)
	}
	return b.String()
}

func isHex(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
}

func lower(r rune) rune {
	if r >= 'A' && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// Line makes s one line with no control or invisible characters (package
// invisible), for values that must stay literal (step outputs): newlines
// become spaces.
func Line(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case r < 0x20 || r >= 0x7f && r <= 0x9f || r == '\u2028' || r == '\u2029' || invisible.Is(r):
			return -1
		}
		return r
	}, s)
}

// Cut returns the first n characters of s, and "…" after them when s is
// longer: a text from a service kept within what a page takes. It cuts
// between characters, never inside one.
func Cut(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}

// URL returns s when it is an https URL safe to put in a Markdown link, and
// "" otherwise. A "|" is written %7C, the same URL to a server, so that a
// link in a table cell does not split the cell.
func URL(s string) string {
	if !strings.HasPrefix(s, "https://") {
		return ""
	}
	for _, r := range s {
		if r <= 0x20 || r >= 0x7f || strings.ContainsRune(`"'<>()[]\`+"`", r) {
			return ""
		}
	}
	s = strings.ReplaceAll(s, "|", "%7C")
	if len(s) > 2048 {
		return ""
	}
	return s
}

// Link is an explicit Markdown link to u whose text is u itself, so
// that what a reader copies, the text or the address, is the address
// whole; "" when URL does not accept u. The text needs no word joiner:
// GitHub links, mentions and references nothing inside a link. Only the
// characters Markdown gives a meaning to are written as entities.
func Link(u string) string {
	if u = URL(u); u == "" {
		return ""
	}
	var text strings.Builder
	for _, r := range u {
		if e, ok := markdown[r]; ok {
			text.WriteString(e)
		} else {
			text.WriteRune(r)
		}
	}
	return "[" + text.String() + "](" + u + ")"
}

// Code shows s in a Markdown code span when it is a plain token (see Log),
// which cannot close the span and in which GitHub links nothing, and as
// Markdown-escaped text otherwise.
func Code(s string) string {
	if s != "" && Log(s) == s {
		return "`" + s + "`"
	}
	return Markdown(s)
}

// Address shows a URL the action does not link (a pull request on another
// forge) so that a reader can copy it whole: in a code span when URL
// accepts it, where GitHub links, mentions and references nothing and no
// invisible character is needed, and as Markdown-escaped text otherwise.
func Address(s string) string {
	if u := URL(s); u != "" && !strings.Contains(u, "`") {
		return "`" + u + "`"
	}
	return Markdown(s)
}
