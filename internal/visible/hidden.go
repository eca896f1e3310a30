package visible

import (
	"bytes"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	xhtml "golang.org/x/net/html"
)

// hidden finds the spans of src that the page renders as nothing: the
// comments, processing instructions, declarations and CDATA sections of
// its raw HTML, as the parser found the raw HTML (HTML blocks and inline
// raw HTML, not code, link titles or text) and as HTML ends them. An HTML
// tokenizer reads each piece of raw HTML, so "<?" and "<![CDATA[" end at
// the first ">", and a comment at "-->" or "--!>". A comment that a piece
// leaves open runs on the page to the first "-->" or "--!>" of the raw
// HTML after it, or to the end: the text between is hidden too. Any other
// construct left open ends at the next ">" on the page, which is the
// renderer's next tag, so it is hidden to the end of its piece. The spans
// are in order and do not overlap.
func hidden(src []byte, doc ast.Node) [][2]int {
	var pieces [][][2]int
	var nodes []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.RawHTML:
			var p [][2]int
			for i := range n.Segments.Len() {
				s := n.Segments.At(i)
				p = append(p, [2]int{s.Start, s.Stop})
			}
			pieces, nodes = append(pieces, p), append(nodes, n)
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			var p [][2]int
			for i := range n.Lines().Len() {
				s := n.Lines().At(i)
				p = append(p, [2]int{s.Start, s.Stop})
			}
			if n.HasClosure() {
				p = append(p, [2]int{n.ClosureLine.Start, n.ClosureLine.Stop})
			}
			pieces, nodes = append(pieces, p), append(nodes, n)
		}
		return ast.WalkContinue, nil
	})

	var spans [][2]int
	add := func(from, to int) {
		if k := len(spans) - 1; k >= 0 && from <= spans[k][1] {
			spans[k][1] = max(spans[k][1], to)
			return
		}
		spans = append(spans, [2]int{from, to})
	}
	openComment := -1 // where a comment left open by an earlier piece starts
	for k, p := range pieces {
		raw, at := gather(src, p)
		start := 0
		if openComment >= 0 {
			end, ok := commentEnd(raw)
			if !ok {
				nodes[k].SetAttribute(resumeAttr, len(raw))
				continue
			}
			add(openComment, at[end-1]+1)
			openComment, start = -1, end
			nodes[k].SetAttribute(resumeAttr, end)
		}
		z := xhtml.NewTokenizer(bytes.NewReader(raw[start:]))
		pos := start
		for {
			tt := z.Next()
			if tt == xhtml.ErrorToken {
				break
			}
			tok := z.Raw()
			from := pos
			pos += len(tok)
			if tt != xhtml.CommentToken && tt != xhtml.DoctypeToken {
				continue
			}
			switch {
			case closed(tok):
				add(at[from], at[pos-1]+1)
			case bytes.HasPrefix(tok, []byte("<!--")):
				openComment = at[from]
			default:
				add(at[from], at[pos-1]+1)
			}
		}
	}
	if openComment >= 0 {
		add(openComment, len(src))
	}
	return spans
}

// resumeAttr names the attribute hidden sets on a piece of raw HTML whose
// first bytes (its value) a comment opened before it takes: markHTML
// writes them as they are, as the page's comment holds them.
var resumeAttr = []byte("x-src-resume")

// gather joins the spans of a piece of raw HTML, with where in src each
// byte is.
func gather(src []byte, p [][2]int) (raw []byte, at []int) {
	for _, s := range p {
		for i := s[0]; i < s[1]; i++ {
			raw = append(raw, src[i])
			at = append(at, i)
		}
	}
	return raw, at
}

// closed reports whether a comment or declaration token ends in the
// piece: with ">" ("<!-->" and "<!--->" are whole comments), and a
// comment with "-->" or "--!>".
func closed(tok []byte) bool {
	if !bytes.HasPrefix(tok, []byte("<!--")) {
		return bytes.HasSuffix(tok, []byte(">"))
	}
	return string(tok) == "<!-->" || string(tok) == "<!--->" ||
		len(tok) >= 7 && (bytes.HasSuffix(tok, []byte("-->")) || bytes.HasSuffix(tok, []byte("--!>")))
}

// commentEnd finds where a comment open before raw ends in it: after the
// first "-->" or "--!>".
func commentEnd(raw []byte) (int, bool) {
	a, b := bytes.Index(raw, []byte("-->")), bytes.Index(raw, []byte("--!>"))
	switch {
	case a >= 0 && (b < 0 || a < b):
		return a + 3, true
	case b >= 0:
		return b + 4, true
	}
	return 0, false
}

// cut returns src without the spans.
func cut(src []byte, spans [][2]int) string {
	out := make([]byte, 0, len(src))
	last := 0
	for _, s := range spans {
		out = append(out, src[last:s[0]]...)
		last = s[1]
	}
	return string(append(out, src[last:]...))
}

// withoutTags returns s without Unicode tag characters (U+E0000 to
// U+E007F), which no font draws.
func withoutTags(s string) string {
	var out []byte
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0xE0000 && r <= 0xE007F {
			if out == nil {
				out = append(make([]byte, 0, len(s)), s[:i]...)
			}
		} else if out != nil {
			out = append(out, s[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return s
	}
	return string(out)
}
