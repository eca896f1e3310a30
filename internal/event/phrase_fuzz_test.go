package event_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/event"
)

// phraseSeeds are body, phrase pairs around word boundaries, case, marks,
// line ends and invalid UTF-8.
var phraseSeeds = [][2]string{
	{"/docs add a page", "/docs"}, {"please /docs now", "/docs"}, {"/docsify", "/docs"}, {"x/docs", "/docs"},
	{"/docsify and then /docs", "/docs"}, {"é/docs", "/docs"}, {"/docs\u0301", "/docs"}, {"/DOCS", "/docs"},
	{"intro\n/docs write it\nend", "/docs"}, {"first\r\n/docs do it", "/docs"}, {"a\r/docs\rb", "/docs"},
	{"@docs-bot2 @docs-bot", "@docs-bot"}, {"#docs", "docs"}, {"/docs /docs", "/docs /docs"}, {"aaa", "aa"},
	{"  keep  ", ""}, {"", ""}, {"", "/docs"}, {"/doc", "/docs"}, {"a /docs", " /docs"}, {"x\xff/docs", "/docs"},
	{"\xe6\x97\xa5/docs", "\xa5/docs"}, {"日本 語", "本"}, {"a.\t/docs\t.b", "/docs"}, {"/docs\u00a0x", "/docs"},
}

// wordRune is the documented rule: letters, digits, marks and "_-/@" glue
// a phrase to its neighbours.
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune("_-/@", r)
}

// naiveMatch tries every byte offset.
func naiveMatch(body, phrase string) bool {
	for i := 0; i+len(phrase) <= len(body); i++ {
		if !strings.HasPrefix(body[i:], phrase) {
			continue
		}
		prev, _ := utf8.DecodeLastRuneInString(body[:i])
		next, _ := utf8.DecodeRuneInString(body[i+len(phrase):])
		if (i == 0 || !wordRune(prev)) && (i+len(phrase) == len(body) || !wordRune(next)) {
			return true
		}
	}
	return false
}

// FuzzMatchPhrase checks MatchPhrase against a naive search for text (the
// body and phrase of a real event are valid UTF-8) and StripPhrase against
// MatchPhrase.
func FuzzMatchPhrase(f *testing.F) {
	for _, s := range phraseSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, body, phrase string) {
		match := event.MatchPhrase(body, phrase)
		stripped := event.StripPhrase(body, phrase)
		if phrase == "" {
			if !match || stripped != strings.TrimSpace(body) {
				t.Fatalf("empty phrase: MatchPhrase = %v, StripPhrase = %q", match, stripped)
			}
			return
		}
		if match && !strings.Contains(body, phrase) {
			t.Fatalf("MatchPhrase(%q, %q) is true, but the body does not contain the phrase", body, phrase)
		}
		if utf8.ValidString(body) && utf8.ValidString(phrase) {
			if want := naiveMatch(body, phrase); match != want {
				t.Fatalf("MatchPhrase(%q, %q) = %v, want %v", body, phrase, match, want)
			}
		}
		if match && !event.MatchPhrase(" "+body+"\n", phrase) {
			t.Fatalf("MatchPhrase(%q, %q) is true, but false once the body is padded with spaces", body, phrase)
		}
		if stripped != strings.TrimSpace(stripped) {
			t.Fatalf("StripPhrase(%q, %q) = %q is not trimmed", body, phrase, stripped)
		}
		if !match {
			if stripped != strings.TrimSpace(body) {
				t.Fatalf("StripPhrase(%q, %q) = %q without a match, want the trimmed body", body, phrase, stripped)
			}
			return
		}
		// The phrase goes; at most one space comes in its place.
		if len(stripped) > len(body)-len(phrase)+1 {
			t.Fatalf("StripPhrase(%q, %q) = %q removed less than the phrase", body, phrase, stripped)
		}
	})
}

// FuzzStripPhrase puts phrase between spaces in a body where it occurs
// nowhere else, so it must match, and checks that StripPhrase keeps the
// text on both sides.
func FuzzStripPhrase(f *testing.F) {
	f.Add("please", "/docs", "now")
	f.Add("", "/docs", "add a page")
	f.Add("intro\n", "/docs", "\nend")
	f.Add("first\r\n", "/docs", "do it\r\n")
	f.Add("  \t", "@bot", "\t  ")
	f.Add("a.", "/docs", ".b")
	f.Add("x", " y ", "z")
	f.Add("日本", "語", "\u0301")
	f.Fuzz(func(t *testing.T, before, phrase, after string) {
		if phrase == "" {
			return
		}
		body := before + " " + phrase + " " + after
		if !event.MatchPhrase(body, phrase) {
			t.Fatalf("MatchPhrase(%q, %q) = false for the phrase between spaces", body, phrase)
		}
		if strings.Index(body, phrase) != len(before)+1 {
			return // an earlier occurrence may be the one stripped
		}
		got := event.StripPhrase(body, phrase)
		for _, side := range []string{strings.TrimSpace(before), strings.TrimSpace(after)} {
			if !strings.Contains(got, side) {
				t.Fatalf("StripPhrase(%q, %q) = %q lost %q", body, phrase, got, side)
			}
		}
		if b, a := strings.TrimSpace(before), strings.TrimSpace(after); b != "" && a != "" && !strings.HasPrefix(got, b) {
			t.Fatalf("StripPhrase(%q, %q) = %q does not start with %q", body, phrase, got, b)
		}
		if len(got) > len(body)-len(phrase)+1 {
			t.Fatalf("StripPhrase(%q, %q) = %q removed less than the phrase", body, phrase, got)
		}
	})
}
