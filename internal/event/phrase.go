package event

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MatchPhrase reports whether body contains phrase as a whole word in
// its visible, unquoted text (see RequestText): not inside an HTML
// comment, a quote, code or a link's destination. A whole word is not
// glued to letters, digits or the characters that continue a command, a
// path or a mention ("_-/@"), so "/docs" is found in "please /docs now" but
// not in "/docsify" or "x/docs". The match is case-sensitive, as slash
// commands are. An empty phrase matches every body.
func MatchPhrase(body, phrase string) bool {
	if phrase == "" {
		return true
	}
	v := Visible(body)
	_, ok := findPhrase(v, requestText(v), phrase)
	return ok
}

// StripPhrase returns the visible text of body (see Visible) without the
// phrase that MatchPhrase found, trimmed. Where the phrase sat between two
// words on one line, one space is left.
func StripPhrase(body, phrase string) string {
	v := Visible(body)
	if phrase == "" {
		return strings.TrimSpace(v)
	}
	i, ok := findPhrase(v, requestText(v), phrase)
	if !ok {
		return strings.TrimSpace(v)
	}
	before := strings.TrimRight(v[:i], " \t")
	after := strings.TrimLeft(v[i+len(phrase):], " \t")
	if before != "" && after != "" && !strings.HasSuffix(before, "\n") && !strings.HasPrefix(after, "\n") && !strings.HasPrefix(after, "\r") {
		return strings.TrimSpace(before + " " + after)
	}
	return strings.TrimSpace(before + after)
}

// findPhrase returns the byte offset of the first whole-word phrase in
// text that stands in the same place in request, text's RequestText: a
// phrase that is quoted or code there is blank.
func findPhrase(text, request, phrase string) (int, bool) {
	for from := 0; from <= len(request)-len(phrase); {
		j := strings.Index(request[from:], phrase)
		if j < 0 {
			return 0, false
		}
		i := from + j
		prev, _ := utf8.DecodeLastRuneInString(request[:i])
		next, _ := utf8.DecodeRuneInString(request[i+len(phrase):])
		if text[i:i+len(phrase)] == phrase && (i == 0 || !wordRune(prev)) && (i+len(phrase) == len(request) || !wordRune(next)) {
			return i, true
		}
		_, size := utf8.DecodeRuneInString(request[i:])
		from = i + size
	}
	return 0, false
}

func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune("_-/@", r)
}
