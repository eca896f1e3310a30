package event

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MatchPhrase reports whether body contains phrase as a whole word: not
// glued to letters, digits or the characters that continue a command, a
// path or a mention ("_-/@"), so "/docs" is found in "please /docs now" but
// not in "/docsify" or "x/docs". The match is case-sensitive, as slash
// commands are. An empty phrase matches every body.
func MatchPhrase(body, phrase string) bool {
	if phrase == "" {
		return true
	}
	_, ok := findPhrase(body, phrase)
	return ok
}

// StripPhrase returns body without its first whole-word phrase, trimmed.
// Where the phrase sat between two words on one line, one space is left.
func StripPhrase(body, phrase string) string {
	if phrase == "" {
		return strings.TrimSpace(body)
	}
	i, ok := findPhrase(body, phrase)
	if !ok {
		return strings.TrimSpace(body)
	}
	before := strings.TrimRight(body[:i], " \t")
	after := strings.TrimLeft(body[i+len(phrase):], " \t")
	if before != "" && after != "" && !strings.HasSuffix(before, "\n") && !strings.HasPrefix(after, "\n") && !strings.HasPrefix(after, "\r") {
		return strings.TrimSpace(before + " " + after)
	}
	return strings.TrimSpace(before + after)
}

// findPhrase returns the byte offset of the first whole-word phrase in body.
func findPhrase(body, phrase string) (int, bool) {
	for from := 0; from <= len(body)-len(phrase); {
		j := strings.Index(body[from:], phrase)
		if j < 0 {
			return 0, false
		}
		i := from + j
		prev, _ := utf8.DecodeLastRuneInString(body[:i])
		next, _ := utf8.DecodeRuneInString(body[i+len(phrase):])
		if (i == 0 || !wordRune(prev)) && (i+len(phrase) == len(body) || !wordRune(next)) {
			return i, true
		}
		_, size := utf8.DecodeRuneInString(body[i:])
		from = i + size
	}
	return 0, false
}

func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune("_-/@", r)
}
