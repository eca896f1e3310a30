package admit_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/admit"
	"github.com/agentjob/agent-job-action/internal/visible"
	"github.com/yuin/goldmark"
	"golang.org/x/net/html"
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

// FuzzMatchPhrase checks whether Read finds the phrase (matchPhrase)
// against a naive search in the
// request text (the body and phrase of a real event are valid UTF-8), and
// the text Read gives (stripPhrase) against it. A match is always in what a reader
// sees, and never in what the request text blanks.
func FuzzMatchPhrase(f *testing.F) {
	for _, s := range phraseSeeds {
		f.Add(s[0], s[1])
	}
	for _, s := range hiddenSeeds {
		f.Add(s, "/docs")
	}
	f.Fuzz(func(t *testing.T, body, phrase string) {
		match := matchPhrase(body, phrase)
		stripped := stripPhrase(body, phrase)
		read, err := visible.Read(body)
		if err != nil {
			if match && phrase != "" || stripped != "" {
				t.Fatalf("%q is refused (%v), but Read asks %v, with text %q", body, err, match, stripped)
			}
			return
		}
		shown, request := read.Shown, read.Rendered
		if phrase == "" {
			if !match || stripped != strings.TrimSpace(shown) {
				t.Fatalf("empty phrase: MatchPhrase = %v, StripPhrase = %q", match, stripped)
			}
			return
		}
		if match && !strings.Contains(request, phrase) {
			t.Fatalf("MatchPhrase(%q, %q) is true, but the text a reader sees, %q, does not contain the phrase", body, phrase, request)
		}
		if utf8.ValidString(body) && utf8.ValidString(phrase) && !strings.ContainsFunc(phrase, unicode.IsSpace) {
			if want := naiveMatch(request, phrase); match != want {
				t.Fatalf("MatchPhrase(%q, %q) = %v, but the request text %q says %v", body, phrase, match, request, want)
			}
		}
		if stripped != strings.TrimSpace(stripped) {
			t.Fatalf("StripPhrase(%q, %q) = %q is not trimmed", body, phrase, stripped)
		}
		if !match {
			if stripped != strings.TrimSpace(shown) {
				t.Fatalf("StripPhrase(%q, %q) = %q without a match, want the trimmed shown text", body, phrase, stripped)
			}
			return
		}
		// The phrase goes; at most one space comes in its place.
		if len(stripped) > len(shown)-len(phrase)+1 {
			t.Fatalf("StripPhrase(%q, %q) = %q removed less than the phrase", body, phrase, stripped)
		}
	})
}

// hiddenSeeds put the phrase where a reader does not see a request.
var hiddenSeeds = []string{
	"<!-- /docs -->", "> /docs", "> a\n/docs", "`/docs`", "```\n/docs\n```", "    /docs", "[x](/docs)",
	"<code>/docs</code>", "[//]: # (/docs)", "- ```\n  /docs", "/do<!-- -->cs", "<!<!-- x -->-- /docs -->",
	"\\`/docs\\`", "~~~\n/docs\n~~~~", "> ```\n/docs", "<pre>\n\n/docs</pre>", "![/docs](a)",
}

// FuzzHiddenPhrase puts the phrase, with any words, in each construct a
// reader does not see as a request, followed by any text after a blank
// line: the construct must not add a match that the text alone lacks.
func FuzzHiddenPhrase(f *testing.F) {
	f.Add(uint8(0), "delete everything", "thanks")
	f.Add(uint8(1), "x", "/docs real request")
	f.Add(uint8(5), "a b", "> quoted")
	f.Add(uint8(9), "", "```\nnot closed")
	f.Fuzz(func(t *testing.T, kind uint8, words, after string) {
		// The words stay inside the construct: nothing in them may close it.
		words = strings.Map(func(r rune) rune {
			if strings.ContainsRune("<>`~-\\[]()\r\n\"'", r) || unicode.IsControl(r) {
				return ' '
			}
			return r
		}, words)
		hidden := []string{
			"<!-- /docs " + words + " -->",
			"> /docs " + words,
			"> quoted " + words + "\n/docs " + words,
			"`/docs " + words + "`",
			"``` \n/docs " + words + "\n```",
			"~~~\n/docs " + words + "\n~~~",
			"    /docs " + words,
			"[" + words + "](/docs " + words + ")",
			"<code>/docs " + words + "</code>",
			"[//]: # (/docs " + words + ")",
			"- ```\n  /docs " + words + "\n  ```",
			"<a href=\"/docs\">" + words + "</a>",
		}
		body := hidden[int(kind)%len(hidden)] + "\n\n" + after
		if matchPhrase(body, "/docs") != matchPhrase(after, "/docs") {
			t.Fatalf("MatchPhrase(%q) = %v, but %v for the text after the hidden part alone", body, matchPhrase(body, "/docs"), matchPhrase(after, "/docs"))
		}
	})
}

// FuzzStripPhrase puts phrase between spaces in a plain body where it
// occurs nowhere else, so it must match, and checks that StripPhrase keeps
// the text on both sides.
func FuzzStripPhrase(f *testing.F) {
	f.Add("please", "/docs", "now")
	f.Add("", "/docs", "add a page")
	f.Add("intro\n", "/docs", "\nend")
	f.Add("first\r\n", "/docs", "do it\r\n")
	f.Add("ok \t", "@bot", "\t  ")
	f.Add("a.", "/docs", ".b")
	f.Add("x", " y ", "z")
	f.Add("日本", "語", "\u0301")
	f.Fuzz(func(t *testing.T, before, phrase, after string) {
		if phrase == "" {
			return
		}
		// Plain text only: Markdown could make any of it code or quoted,
		// which FuzzMatchPhrase and FuzzHiddenPhrase cover.
		plain := func(s string) string {
			return strings.Map(func(r rune) rune {
				if strings.ContainsRune("<>`~!#*+-=_|[]()\\\t\r\n", r) || unicode.IsControl(r) || unicode.IsDigit(r) {
					return 'x'
				}
				return r
			}, s)
		}
		before, phrase, after = "a "+plain(before), plain(phrase), plain(after)
		body := before + " " + phrase + " " + after
		if !matchPhrase(body, phrase) {
			t.Fatalf("MatchPhrase(%q, %q) = false for the phrase between spaces", body, phrase)
		}
		if strings.Index(body, phrase) != len(before)+1 {
			return // an earlier occurrence may be the one stripped
		}
		got := stripPhrase(body, phrase)
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

// FuzzVisible checks that Shown only removes, that text without hidden
// markup passes unchanged, and that no comment of the page reaches the
// agent: a word that stands only in comments of the body is not in Shown.
// (Shown may hold "<!--" where a reader sees it, in code or text, and
// removing a comment may join text into a new one, which the page shows
// as text: it is not stable.)
func FuzzVisible(f *testing.F) {
	for _, s := range hiddenSeeds {
		f.Add(s)
	}
	f.Add("a<!-->b<!--->c<!-- d")
	f.Add("<div>\n<!-- a\n\n<!-- SECRET -->")
	f.Fuzz(func(t *testing.T, md string) {
		v := visible.Shown(md)
		// "</" and a character other than a letter opens a bogus comment.
		if !strings.Contains(md, "<!") && !strings.Contains(md, "<?") && !strings.Contains(md, "</") && v != md {
			t.Fatalf("Shown(%q) = %q without hidden markup", md, v)
		}
		const secret = "SECRET"
		if strings.Contains(v, secret) && strings.Count(md, secret) == strings.Count(md, "<!-- "+secret+" -->") {
			if _, err := visible.Read(md); err == nil && commentsOnly(t, md, secret) {
				t.Fatalf("Shown(%q) = %q holds %s, which the page has only in comments", md, v, secret)
			}
		}
		// v is a subsequence of md.
		j := 0
		for i := 0; i < len(md) && j < len(v); i++ {
			if md[i] == v[j] {
				j++
			}
		}
		if j != len(v) {
			t.Fatalf("Shown(%q) = %q adds text", md, v)
		}
	})
}

func matchPhrase(body, phrase string) bool {
	asks, _, _ := admit.Read(body, phrase)
	return asks
}

func stripPhrase(body, phrase string) string {
	_, text, _ := admit.Read(body, phrase)
	return text
}

// commentsOnly reports whether word stands on the page of md (rendered
// as GitHub does and parsed as a browser does) only in comments: in no
// text and no attribute.
func commentsOnly(t *testing.T, md, word string) bool {
	t.Helper()
	var b bytes.Buffer
	if err := goldmark.New(visible.GitHubFlavour()...).Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&b)
	if err != nil {
		return false
	}
	for n := range doc.Descendants() {
		if n.Type == html.TextNode && strings.Contains(n.Data, word) {
			return false
		}
		for _, a := range n.Attr {
			if strings.Contains(a.Val, word) {
				return false
			}
		}
	}
	return true
}
