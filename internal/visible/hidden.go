package visible

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	xhtml "golang.org/x/net/html"
)

// pageWriter holds a page as a renderer writes it, with, for each byte,
// where in the body it came from when it is the body's raw HTML (-1 for
// the renderer's own markup and for Markdown text). A renderer writes to
// it directly (it is a util.BufWriter), so that the node renderers of raw
// HTML, placed and markHTML, find it.
type pageWriter struct {
	page []byte
	at   []int32
	// text says which bytes of the body's raw HTML the plain page reads
	// as text (see tokens): markHTML marks those in the marked page.
	text []bool
}

var _ util.BufWriter = (*pageWriter)(nil)

// newPageWriter makes a pageWriter for the page of a body of n bytes,
// sized for twice as many, the markup included.
func newPageWriter(n int, text []bool) *pageWriter {
	return &pageWriter{page: make([]byte, 0, 2*n), at: make([]int32, 0, 2*n), text: text}
}

func (p *pageWriter) Write(b []byte) (int, error) {
	p.grow(len(b))
	p.page = append(p.page, b...)
	for range b {
		p.at = append(p.at, -1)
	}
	return len(b), nil
}

// grow makes room for n more bytes, doubling: append grows a large slice
// by a quarter, and a page is written a few bytes at a time.
func (p *pageWriter) grow(n int) {
	if len(p.page)+n > cap(p.page) {
		p.page = slices.Grow(p.page, max(n, len(p.page)))
		p.at = slices.Grow(p.at, max(n, len(p.at)))
	}
}

func (p *pageWriter) WriteString(s string) (int, error) { return p.Write([]byte(s)) }
func (p *pageWriter) WriteByte(c byte) error {
	_, err := p.Write([]byte{c})
	return err
}
func (p *pageWriter) WriteRune(r rune) (int, error) { return p.Write(utf8.AppendRune(nil, r)) }
func (p *pageWriter) Available() int                { return 1 << 30 }
func (p *pageWriter) Buffered() int                 { return 0 }
func (p *pageWriter) Flush() error                  { return nil }

// writeRaw writes the body's raw HTML segment s of src as goldmark does
// (the spaces a tab stands for first, NUL as U+FFFD when secure), keeping
// where each byte came from.
func (p *pageWriter) writeRaw(src []byte, s text.Segment, secure bool) {
	for range s.Padding {
		_ = p.WriteByte(' ')
	}
	p.grow(s.Stop - s.Start)
	for i := s.Start; i < s.Stop; i++ {
		if src[i] == 0 && secure {
			p.page = append(p.page, "\uFFFD"...)
			p.at = append(p.at, int32(i), int32(i), int32(i))
			continue
		}
		p.page = append(p.page, src[i])
		p.at = append(p.at, int32(i))
	}
}

// placed renders raw HTML exactly as goldmark's HTML renderer does with
// raw HTML kept, into a pageWriter, which learns where each byte came
// from.
type placed struct{}

func (placed) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, func(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			n := node.(*ast.RawHTML)
			for i := range n.Segments.Len() {
				w.(*pageWriter).writeRaw(source, n.Segments.At(i), false)
			}
		}
		return ast.WalkSkipChildren, nil
	})
	reg.Register(ast.KindHTMLBlock, func(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		n := node.(*ast.HTMLBlock)
		switch {
		case entering:
			for i := range n.Lines().Len() {
				w.(*pageWriter).writeRaw(source, n.Lines().At(i), true)
			}
		case n.HasClosure():
			w.(*pageWriter).writeRaw(source, n.ClosureLine, true)
		}
		return ast.WalkContinue, nil
	})
}

// tokens reads the page as a browser's tokenizer does and finds, of the
// body's raw HTML, what it reads as text (text, by place in the body) and
// the spans of the body that it renders as nothing (hidden): comments,
// processing instructions, declarations and CDATA, where the parser found
// raw HTML and as HTML ends them ("<?" and "<![CDATA[" at the first ">",
// a comment at "-->" or "--!>"), whatever tag, attribute or comment of
// earlier raw HTML they continue. A comment that runs over Markdown text
// hides that text too, from its start in the body to its end; one never
// closed hides the rest of the body. The spans are in order and do not
// overlap.
func tokens(w *pageWriter, n int) (text []bool, hidden [][2]int) {
	text = make([]bool, n)
	z := xhtml.NewTokenizer(bytes.NewReader(w.page))
	pos := 0
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			return text, hidden
		}
		tok := z.Raw()
		from := pos
		pos += len(tok)
		switch tt {
		case xhtml.TextToken:
			for _, a := range w.at[from:pos] {
				if a >= 0 {
					text[a] = true
				}
			}
		case xhtml.CommentToken, xhtml.DoctypeToken:
			// The page keeps the body's order.
			first, last := -1, -1
			for _, a := range w.at[from:pos] {
				if a >= 0 && first < 0 {
					first = int(a)
				}
				if a >= 0 {
					last = int(a)
				}
			}
			if first < 0 {
				continue // the renderer writes none
			}
			end := last + 1
			if pos == len(w.page) && !closed(tok) {
				end = n
			}
			if k := len(hidden) - 1; k >= 0 && first <= hidden[k][1] {
				hidden[k][1] = max(hidden[k][1], end)
			} else {
				hidden = append(hidden, [2]int{first, end})
			}
		}
	}
}

// closed reports whether a comment or declaration token is ended: with
// ">" ("<!-->" and "<!--->" are whole comments), and a comment with "-->"
// or "--!>".
func closed(tok []byte) bool {
	if !bytes.HasPrefix(tok, []byte("<!--")) {
		return bytes.HasSuffix(tok, []byte(">"))
	}
	return string(tok) == "<!-->" || string(tok) == "<!--->" ||
		len(tok) >= 7 && (bytes.HasSuffix(tok, []byte("-->")) || bytes.HasSuffix(tok, []byte("--!>")))
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
