// Package visible decides what a reader of a GitHub comment sees, from a
// CommonMark parser with GitHub's extensions (goldmark) and an HTML
// tokenizer and parser (golang.org/x/net/html) for the raw HTML in it. The
// trigger phrase acts only in that text, and only what it leaves reaches
// the agent.
//
// Read parses a body once and gives two texts:
//   - Shown: the body without what GitHub renders as nothing (the HTML
//     comments, processing instructions, declarations and CDATA of its raw
//     HTML, where the parser finds raw HTML and as HTML ends them). It is
//     what the agent receives (cleaned of invisible characters when it is
//     sent: invisible.Clean): quotes and code stay, as context.
//   - Rendered: the visible, unquoted text of the page (entities and
//     backslash escapes decoded), with the place each byte came from. It
//     is where a request counts. A reader sees text, including footnotes,
//     tables and the inside of <details>, except: block quotes; code
//     (fenced, indented, spans); raw HTML elements that quote or show code
//     or nothing (blockquote, q, pre, code, kbd, samp, tt, var, script,
//     style, textarea, template, title, noscript, iframe, xmp, plaintext,
//     noembed, noframes, object, select); image descriptions; link
//     destinations and titles; link reference definitions.
//
// A body whose structure would cost the parsers more than a bounded time,
// or nest deeper than the HTML parser allows, is refused with
// ErrTooComplex.
package visible

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	gtext "github.com/yuin/goldmark/text"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Text is what a reader sees of a body: Shown, what the agent receives,
// and Rendered, the visible, unquoted text of the page, with, for each of
// its bytes, the span of the body it came from; a separator the rendering
// puts between blocks, cells or hidden parts has none.
type Text struct {
	// Shown is the body without the constructs that render as nothing
	// (invisible characters are left to invisible.Clean).
	Shown      string
	Rendered   string
	from, to   []int32 // -1 for a separator
	renderedTo strings.Builder
	src        []byte   // the body
	hidden     [][2]int // the spans of src that Shown leaves out
	// unplaced says the text is the plain page's, whose bytes have no
	// place in the body (see Read).
	unplaced bool
}

// HiddenElements are the raw HTML elements whose content a reader does not
// see as text of the comment: they quote, show code, or show nothing.
var HiddenElements = map[atom.Atom]bool{
	atom.Blockquote: true, atom.Q: true, atom.Pre: true, atom.Code: true, atom.Kbd: true, atom.Samp: true,
	atom.Tt: true, atom.Var: true, atom.Script: true, atom.Style: true, atom.Textarea: true, atom.Template: true,
	atom.Title: true, atom.Noscript: true, atom.Iframe: true, atom.Xmp: true, atom.Plaintext: true,
	atom.Noembed: true, atom.Noframes: true, atom.Object: true, atom.Select: true,
}

// Read reads body as a reader sees it: what the agent may receive of it
// (Shown) and the text where a request counts (Rendered). It returns
// ErrTooComplex, in a time that grows with the body's length alone, for a
// body that would take the parsers longer or nest deeper than the HTML
// parser reads (see bounded).
//
// The body is parsed once and rendered as GitHub renders it (goldmark,
// raw HTML included); the page is built as a browser builds it (x/net/html's
// parser, with its implicit closes and reordering), so that what counts as
// quoted, code or hidden is what the page shows, not what a second parser
// guesses. To keep where each piece of text came from, a second rendering
// of the same parse wraps every text of the body, Markdown text and raw
// HTML text alike, in an element that names its place in the body (<x-src
// a="start" b="end">): an unknown inline element, which a browser keeps
// where the text is.
func Read(body string) (*Text, error) {
	src := []byte(body)
	if err := bounded(src); err != nil {
		return nil, err
	}
	gm := markdown()
	doc := gm.parser.Parse(gtext.NewReader(src))
	plainPage := newPageWriter(len(src), nil)
	if err := gm.plain.Render(plainPage, src, doc); err != nil {
		return nil, err
	}
	shown, spans := tokens(plainPage, len(src))
	markedPage := newPageWriter(len(src), shown)
	if err := gm.marked.Render(markedPage, src, doc); err != nil {
		return nil, err
	}
	marked, err := page(src, markedPage.page)
	if err != nil {
		return nil, err
	}
	plain, err := page(src, plainPage.page)
	if err != nil {
		return nil, err
	}
	t := marked
	if marked.Rendered != plain.Rendered {
		// The marks changed the page: a construct left open in raw HTML
		// (a tag, a bogus comment) ran to a mark's ">" instead of to the
		// next ">" of the body. The page without marks decides; a phrase
		// found in it is placed at its first copy in Shown (see Find).
		plain.unplaced = true
		t = plain
	}
	t.hidden = spans
	t.Shown = cut(src, spans)
	return t, nil
}

// Shown returns what the agent may receive of body: Read's Shown, or ""
// for a body Read refuses, of which nothing is sent. Use Read to say why.
func Shown(body string) string {
	t, err := Read(body)
	if err != nil {
		return ""
	}
	return t.Shown
}

// page reads what a reader sees of a page of src. A page nested deeper
// than x/net/html builds (512 elements) is ErrTooComplex: the parser
// refuses it rather than show part of it.
func page(src, html []byte) (*Text, error) {
	// Sized for about as much text as src holds, which the page's text
	// seldom passes: appending then rarely copies the tables as they
	// grow (a body of 64 KiB allocated 17 MB, now 10.5 MB).
	t := &Text{from: make([]int32, 0, len(src)), to: make([]int32, 0, len(src))}
	t.renderedTo.Grow(len(src))
	root, err := xhtml.Parse(bytes.NewReader(html))
	if err != nil {
		return nil, ErrTooComplex
	}
	read(t, src, root, -1, -1, markdownText)
	t.Rendered = t.renderedTo.String()
	t.src = src
	return t, nil
}

// read adds what a reader sees of n: text outside hidden elements, with
// separators where elements break the text. from and to are the body's
// span of the text n is in, when it is marked; -1 otherwise.
func read(t *Text, src []byte, n *xhtml.Node, from, to int, k kind) {
	switch n.Type {
	case xhtml.TextNode:
		// A mark's place is checked against the body: the body's own raw
		// HTML may hold an element of the same name.
		if from < 0 || to > len(src) {
			t.add(n.Data, -1, -1)
			return
		}
		decoded, spans := decode(src[from:to], from, k)
		if decoded != n.Data {
			// The page holds what the body's bytes do not (it cannot,
			// but then no phrase is found in it).
			t.add(n.Data, -1, -1)
			return
		}
		for i := 0; i < len(spans); i++ {
			t.from = append(t.from, spans[i][0])
			t.to = append(t.to, spans[i][1])
		}
		t.renderedTo.WriteString(decoded)
		return
	case xhtml.ElementNode:
		if n.Data == markTag {
			from, to, k = span(n)
			break
		}
		if HiddenElements[n.DataAtom] || footnoteMark(n) {
			t.sep(" ")
			return
		}
		t.sep(Separator(n.DataAtom))
		defer t.sep(Separator(n.DataAtom))
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		read(t, src, c, from, to, k)
	}
}

// footnoteMark is a footnote's number in the text or its way back: text
// the renderer adds, not the author.
func footnoteMark(n *xhtml.Node) bool {
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

// span reads a mark's place in the body, and how the page shows it.
func span(n *xhtml.Node) (from, to int, k kind) {
	from, to = -1, -1
	for _, a := range n.Attr {
		switch a.Key {
		case "a":
			from, _ = strconv.Atoi(a.Val)
		case "b":
			to, _ = strconv.Atoi(a.Val)
		case "k":
			k = kind(a.Val)
		}
	}
	if from < 0 || to < from {
		return -1, -1, markdownText
	}
	return from, to, k
}

// decode renders b, text of the body starting at offset at, as the page
// shows it: a backslash before ASCII punctuation is dropped, a character
// reference is decoded, NUL is U+FFFD, CR LF and CR are LF. For each byte
// of the result it gives the span of the body it came from.
func decode(b []byte, at int, k kind) (string, [][2]int32) {
	var out strings.Builder
	out.Grow(len(b))
	spans := make([][2]int32, 0, len(b))
	add := func(s string, from, to int) {
		out.WriteString(s)
		for range len(s) {
			spans = append(spans, [2]int32{int32(at + from), int32(at + to)})
		}
	}
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '\\' && k == markdownText && i+1 < len(b) && isPunct(b[i+1]):
			add(string(b[i+1]), i, i+2)
			i += 2
			continue
		case c == '&' && k == htmlText:
			if ref, n := htmlReference(b[i:]); n > 0 {
				add(ref, i, i+n)
				i += n
				continue
			}
		case c == '&' && k == markdownText:
			if ref, n := reference(b[i:]); n > 0 {
				add(ref, i, i+n)
				i += n
				continue
			}
		case c == 0:
			add("\uFFFD", i, i+1)
			i++
			continue
		case c == '\r':
			n := 1
			if i+1 < len(b) && b[i+1] == '\n' {
				n = 2
			}
			add("\n", i, i+n)
			i += n
			continue
		}
		_, size := utf8.DecodeRune(b[i:])
		add(string(b[i:i+size]), i, i+size)
		i += size
	}
	return out.String(), spans
}

// Separator is what an element puts between the text before and after it,
// as a reader sees it: a line break for a block (and <br>), a space for a
// hidden element or an image, nothing for other inline elements.
func Separator(a atom.Atom) string {
	switch {
	case HiddenElements[a], a == atom.Img, a == atom.Input, a == atom.Td, a == atom.Th:
		return " "
	case blocks[a]:
		return "\n"
	}
	return ""
}

// blocks are HTML's block-level elements, and <br>.
var blocks = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Br: true, atom.Details: true, atom.Dd: true,
	atom.Dialog: true, atom.Div: true, atom.Dl: true, atom.Dt: true, atom.Fieldset: true, atom.Figcaption: true,
	atom.Figure: true, atom.Footer: true, atom.Form: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Header: true, atom.Hr: true, atom.Li: true, atom.Main: true, atom.Nav: true,
	atom.Ol: true, atom.P: true, atom.Section: true, atom.Summary: true, atom.Table: true, atom.Tbody: true,
	atom.Thead: true, atom.Tfoot: true, atom.Tr: true, atom.Ul: true, atom.Caption: true, atom.Center: true,
	atom.Legend: true, atom.Menu: true, atom.Optgroup: true, atom.Option: true, atom.Body: true, atom.Html: true,
}

func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// add appends s, which came from the body's bytes [from, to).
func (t *Text) add(s string, from, to int) {
	for range len(s) {
		t.from = append(t.from, int32(from))
		t.to = append(t.to, int32(to))
	}
	t.renderedTo.WriteString(s)
}

// sep appends a separator ("" for none), unless the text already ends
// with the same one or a line break.
func (t *Text) sep(s string) {
	cur := t.renderedTo.String()
	if s == "" || cur == "" || strings.HasSuffix(cur, "\n") || strings.HasSuffix(cur, s) {
		return
	}
	t.add(s, -1, -1)
}

// Find returns the span of Shown where phrase first stands as a whole
// word of the rendered text: not glued to letters, digits, marks or the
// characters that continue a command, a path or a mention ("_-/@"). Every
// byte of the match must come from the body.
func (t *Text) Find(phrase string) (from, to int, ok bool) {
	r := t.Rendered
	for start := 0; start <= len(r)-len(phrase) && phrase != ""; {
		j := strings.Index(r[start:], phrase)
		if j < 0 {
			return 0, 0, false
		}
		i := start + j
		prev, _ := utf8.DecodeLastRuneInString(r[:i])
		next, _ := utf8.DecodeRuneInString(r[i+len(phrase):])
		whole := (i == 0 || !WordRune(prev)) && (i+len(phrase) == len(r) || !WordRune(next))
		switch {
		case whole && t.unplaced:
			// The page shows the phrase; its place is its first copy
			// in Shown.
			if k := strings.Index(t.Shown, phrase); k >= 0 {
				return k, k + len(phrase), true
			}
		case whole && t.sourced(i, i+len(phrase)):
			// A comment inside the phrase ("/do<!-- -->cs") is not in
			// Shown either.
			return t.inShown(int(t.from[i])), t.inShown(int(t.to[i+len(phrase)-1])), true
		}
		_, size := utf8.DecodeRuneInString(r[i:])
		start = i + size
	}
	return 0, 0, false
}

// inShown gives where offset p of the body, a byte Shown keeps or the end
// of one, stands in Shown.
func (t *Text) inShown(p int) int {
	removed := 0
	for _, h := range t.hidden {
		if h[0] >= p {
			break
		}
		removed += min(h[1], p) - h[0]
	}
	return p - removed
}

// sourced reports whether rendered bytes [i, j) all come from the body.
func (t *Text) sourced(i, j int) bool {
	for k := i; k < j; k++ {
		if t.from[k] < 0 {
			return false
		}
	}
	return true
}

// WordRune reports whether r continues a word, a command, a path or a
// mention, so that a phrase next to it is not a whole word.
func WordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune("_-/@", r)
}
