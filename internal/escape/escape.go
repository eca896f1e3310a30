// Package escape makes untrusted text (comment bodies, titles, values from
// the API) safe for the two places the action shows it: the workflow log,
// where a line starting with "::" is a command to the runner, and Markdown,
// where it could format, link or mention.
package escape

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Log returns s as it may appear in the workflow log: unchanged when it is a
// plain token (letters, digits and ._-/+=@, as job ids and statuses are),
// otherwise quoted as a Go string literal with "#" written \x23. Either way
// the result is one line with no control characters that never starts with
// "::" and never holds "##[", so the runner can read it neither as a workflow
// command nor as a legacy "##[command]".
func Log(s string) string {
	if s != "" && len(s) <= 256 && !strings.ContainsFunc(s, notToken) {
		return s
	}
	return strings.ReplaceAll(strconv.Quote(s), "#", `\x23`)
}

func notToken(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/+=@", r))
}

// markdown lists the characters that Markdown or HTML give a meaning to, with
// entities that render them literally. "@" is there so that text never
// mentions (and notifies) anyone.
var markdown = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;",
	"\\", "&#92;", "`", "&#96;", "*", "&#42;", "_", "&#95;", "~", "&#126;",
	"[", "&#91;", "]", "&#93;", "(", "&#40;", ")", "&#41;", "!", "&#33;",
	"#", "&#35;", "|", "&#124;", "@", "&#64;", ":", "&#58;",
	"\r\n", " ", "\r", " ", "\n", " ",
)

// Markdown renders s as plain text on one line, fit for a table cell or a
// sentence in a comment. Invalid UTF-8 is replaced.
func Markdown(s string) string {
	s = strings.ToValidUTF8(s, string(utf8.RuneError))
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\r' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	return markdown.Replace(s)
}

// Line makes s one line with no control characters, for values that must
// stay literal (step outputs): newlines become spaces.
func Line(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case r < 0x20 || r >= 0x7f && r <= 0x9f || r == '\u2028' || r == '\u2029':
			return -1
		}
		return r
	}, s)
}

// URL returns s when it is an https URL safe to put in a Markdown link, and
// "" otherwise.
func URL(s string) string {
	if !strings.HasPrefix(s, "https://") || len(s) > 2048 {
		return ""
	}
	for _, r := range s {
		if r <= 0x20 || r >= 0x7f || strings.ContainsRune(`"'<>()[]\`+"`", r) {
			return ""
		}
	}
	return s
}
