package visible

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	gtext "github.com/yuin/goldmark/text"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// pageRenderer renders a body as GitHub does, raw HTML included (GitHub
// sanitizes it; the elements that matter here survive sanitizing).
var pageRenderer = goldmark.New(GitHubFlavour()...)

// rendered is the oracle: the text a reader sees of body, computed from
// the rendered page (goldmark's HTML, parsed into a DOM by x/net/html, as a
// browser does) rather than from the parse Read walks.
func rendered(t testing.TB, body string) string {
	t.Helper()
	var b bytes.Buffer
	if err := pageRenderer.Convert([]byte(body), &b); err != nil {
		t.Fatal(err)
	}
	doc, err := xhtml.Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	return pageText(doc)
}

// pageText is the text a reader sees of a page: its text outside hidden
// elements and footnote marks, with separators where elements break it.
func pageText(doc *xhtml.Node) string {
	var out strings.Builder
	sep := func(s string) {
		cur := out.String()
		if s == "" || cur == "" || strings.HasSuffix(cur, "\n") || strings.HasSuffix(cur, s) {
			return
		}
		out.WriteString(s)
	}
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		switch n.Type {
		case xhtml.TextNode:
			out.WriteString(n.Data)
			return
		case xhtml.ElementNode:
			if HiddenElements[n.DataAtom] || isFootnoteMark(n) {
				sep(" ")
				return
			}
			sep(Separator(n.DataAtom))
			defer sep(Separator(n.DataAtom))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out.String()
}

// isFootnoteMark is a footnote's number in the text or its way back: the
// renderer's, not the author's, text.
func isFootnoteMark(n *xhtml.Node) bool {
	if n.DataAtom != atom.A {
		return false
	}
	for _, a := range n.Attr {
		if a.Key == "class" && (a.Val == "footnote-ref" || a.Val == "footnote-backref") {
			return true
		}
	}
	return false
}

// actsInRendered reports whether phrase stands as a whole word in the
// oracle's text.
func actsInRendered(text, phrase string) bool {
	for start := 0; start <= len(text)-len(phrase); {
		j := strings.Index(text[start:], phrase)
		if j < 0 {
			return false
		}
		i := start + j
		prev, _ := utf8.DecodeLastRuneInString(text[:i])
		next, _ := utf8.DecodeRuneInString(text[i+len(phrase):])
		if (i == 0 || !WordRune(prev)) && (i+len(phrase) == len(text) || !WordRune(next)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		start = i + size
	}
	return false
}

// agree checks the fast path against the oracle for one body.
func agree(t testing.TB, body string) (fast, oracle bool) {
	t.Helper()
	read, err := Read(body)
	if err != nil {
		t.Fatalf("Read(%q): %v", body, err)
	}
	_, _, fast = read.Find(phrase)
	oracle = actsInRendered(rendered(t, body), phrase)
	samePage(t, body)
	return fast, oracle
}

// samePage checks that the page Read tokenizes is goldmark's own.
func samePage(t testing.TB, body string) {
	t.Helper()
	var want bytes.Buffer
	if err := pageRenderer.Convert([]byte(body), &want); err != nil {
		t.Fatal(err)
	}
	gm := markdown()
	src := []byte(body)
	got := &pageWriter{}
	if err := gm.plain.Render(got, src, gm.parser.Parse(gtext.NewReader(src))); err != nil {
		t.Fatal(err)
	}
	if string(got.page) != want.String() {
		t.Errorf("%q: the page Read reads is\n%q\ngoldmark's is\n%q", body, got.page, want.String())
	}
}

const phrase = "/docs"

// TestAgreesWithRenderer holds the decision to the rendered page for the
// cases issue 18 names, both ways, and for the kinds of text around them.
func TestAgreesWithRenderer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		body string
		acts bool
	}{
		// Code that the hand-written scanner took for a request.
		{"    + /docs go", false},
		{"-\t\t/docs go", false},
		{"\t- /docs go", false}, // a tab is four columns: indented code
		{"Title\n===\n    /docs go", false},
		// Requests a reader sees that the scanner missed.
		{"1. item\n\n    /docs go", true},
		{"- item\n\n    /docs go", true},
		{"> a\n- /docs go", true},
		{"- ```\n  code\n/docs go", true},
		{"<div>\n> /docs go\n</div>", true},
		{"text[^1]\n\n[^1]: /docs go", true},
		// A closing tag of pre, script or style alone on a line starts an
		// HTML block, as in cmark and commonmark.js: what follows is raw
		// HTML up to a blank line.
		{"</pre>\n<span title=\"\n/docs go", false},
		{"</pre>\n> /docs go", true},
		{"</SCRIPT >\n> /docs go", true},
		{"   </style>\n> /docs go\n\n> /docs quoted", true},
		{"</style>\n\n> /docs go", false},
		{"text\n</pre>\n> /docs go", false}, // it cannot interrupt a paragraph
		{"    </pre>\n> /docs go", false},   // indented code, then a quote
		// A line that is only a tag ends a quote or list item whose
		// paragraph it would lazily continue, as in cmark-gfm.
		{"> a\n</pre>\n/docs go", true},
		{"> a\n</span>\n/docs go", true},
		{"* a\n</span>\n/docs go", true},
		{"> > a\n> </span>\n/docs go", true},
		{"> a\n<q>\n/docs go", false},
		{"> a\n<q> x\n/docs go", false}, // not only a tag: lazy, quoted
		{"a\n<q>\n/docs go", false},     // a paragraph it continues: quoted inline
		// A table ends where another block starts, as in cmark-gfm: a line
		// indented as code or holding only an HTML tag is not one more row.
		{"| a |\n|---|\n| x |\n    /docs go", false},
		{"| a |\n|---|\n| x |\n\t/docs go\n| y /docs z |", true},
		{"| a |\n|---|\n| x |\n<span title=\"\n/docs go", true}, // not a whole tag: rows
		{"| a |\n|---|\n| x |\n<kbd>\n/docs go", false},
		{"| a |\n|---|\n| x |\n<b>\n/docs go", true},
		// And the plain cases.
		{"/docs go", true},
		{"please /docs now", true},
		{"/docsify", false},
		{"x/docs", false},
		{"> /docs go", false},
		{"> quoted\n/docs lazy continuation", false},
		{"```\n/docs go\n```", false},
		{"`/docs go`", false},
		{"<!-- /docs go -->", false},
		{"<details><summary>More</summary>\n\n/docs go\n\n</details>", true},
		{"<blockquote>\n\n/docs go\n\n</blockquote>", false},
		{"<q>/docs go</q>", false},
		{"<kbd>/docs</kbd> go", false},
		{"![/docs go](x.png)", false},
		{"[see](https://x.y/docs \"/docs go\")", false},
		{"[/docs go](https://x.y)", true},
		{"[ref]: https://x.y '/docs go'", false},
		{"&#47;docs go", true},
		{"\\/docs go", true},
		{"| a | b |\n|---|---|\n| /docs go | x |", true},
		{"~~/docs go~~", true},
		{"**/docs** go", true},
		{"- [ ] /docs go", true},
		{"# /docs go", true},
		{"<pre>\n/docs go\n</pre>", false},
		{"<div>/docs go</div>", true},
		// Comments, processing instructions, declarations and CDATA hide
		// where the parser finds raw HTML, and end where HTML ends them
		//: after a comment the unfinished tag hides the rest,
		// an unclosed opener in a paragraph is text, "<?" and CDATA end at
		// the first ">".
		{"<!-- note --><q title=\"/docs delete the changelog", false},
		{"<span> --- <!-- /docs update the limits page x > </span>", true},
		{"`<!--` /docs go `-->`", true},
		{"[a](x \"<!--\") /docs go [b](y \"-->\")", true},
		{"```\n<!--\n```\n/docs go\n```\n-->\n```", true},
		{"a <![CDATA[ x > /docs go ]]>", true},
		{"a <? x > /docs go ?>", true},
		{"a <!X /docs go>", false},
		{"<div>\n<!-- a\n\n/docs go\n\n-->\n", false},
		{"<div>\n<!-- a\n\n/docs go\n\n<div>-->/docs x</div>", true},
		// "<?>" does not close itself: an instruction runs to the next "?>".
		// (goldmark took "<?>" for one, hidden, which glued "/docs" to "x").
		{"/docs<?>x", true},
		{"/docs<?>\nx", true},
		{"/docs<?>x ?>", false}, // the page hides "<?>" alone: "/docsx"
		{"a <?>\n/docs go ?> b", true},
		// A tab that a list item takes part of: its other columns are
		// spaces on the page.
		{"- a\n\n\t<div>\n\t/docs go\n", true},
		// A bogus comment left open in one HTML block runs, on the page, to
		// the next block's ">": the page decides, marks or not.
		// The body's own marks, with places out of its bounds or on hidden
		// text, change nothing.
		{"<x-src a=\"0\" b=\"999999\" k=\"\">\n/docs go\n</x-src>", true},
		{"> /docs quoted\n\n<x-src a=\"2\" b=\"7\" k=\"\">x</x-src>", false},
		{"</details>\n&amp;<![~~\n[^1]<\n\n  <pre>\n<b>https://x.y&x;`/docs\n\n**&nbsp;&x;</em>`<br>\n go.![\n", true},
	}
	for _, tc := range cases {
		fast, oracle := agree(t, tc.body)
		if fast != oracle || fast != tc.acts {
			t.Errorf("%q: fast path acts %v, rendered page %v, want %v\nrendered: %q", tc.body, fast, oracle, tc.acts, rendered(t, tc.body))
		}
	}
}
