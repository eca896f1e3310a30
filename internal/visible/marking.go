package visible

import (
	"bytes"
	"cmp"
	"html"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markTag is the element that wraps each text of the body in the marked
// rendering: attribute a is where it starts in the body, b where it ends,
// and k how the page shows it (see kind).
const markTag = "x-src"

// markdown is goldmark's parser with the extensions GitHub renders
// (tables, strikethrough, autolinks, task lists and footnotes), and two
// renderers of its parse, raw HTML included: plain, the page as GitHub
// shows it (with where its raw HTML came from, see placed), and marked, the same page with every text of the body marked
// with its place (see Read). It is built on first use: most runs read no
// comment.
var markdown = sync.OnceValue(func() *gm {
	plain := goldmark.New(append(GitHubFlavour(),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(placed{}, 100))))...)
	marked := goldmark.New(append(GitHubFlavour(),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(marker{}, 100))))...)
	return &gm{parser: plain.Parser(), plain: plain.Renderer(), marked: marked.Renderer()}
})

// gm is what markdown holds.
type gm struct {
	parser        parser.Parser
	plain, marked renderer.Renderer
}

// GitHubFlavour is goldmark set to read Markdown as GitHub does:
// CommonMark with GitHub's extensions (tables, strikethrough, autolinks,
// task lists and footnotes), raw HTML kept, and a closing tag of pre,
// script or style alone on a line starting an HTML block (closingTagBlock),
// "<?>" in text not closing itself (instruction), and a table ending where
// another block starts (tableEnds).
func GitHubFlavour() []goldmark.Option {
	return []goldmark.Option{
		goldmark.WithExtensions(extension.GFM, extension.Footnote),
		goldmark.WithParserOptions(
			parser.WithBlockParsers(util.Prioritized(closingTagBlock{parser.NewHTMLBlockParser()}, 899)),
			parser.WithInlineParsers(util.Prioritized(instruction{}, 350)),
			parser.WithASTTransformers(util.Prioritized(tableEnds{}, 100)),
		),
		goldmark.WithRendererOptions(ghtml.WithUnsafe()),
	}
}

// closingTagBlock starts HTML blocks of CommonMark's type 7 (a line that
// is only a complete tag) where GitHub's cmark-gfm does and goldmark does
// not:
//   - at a line that is only a closing tag of pre, script or style, as
//     cmark, commonmark.js and cmark-gfm do: the text after it up to a
//     blank line is raw HTML, so "</pre>" then "> /docs go" shows the ">"
//     and "</pre>" then an unclosed tag hides the rest. goldmark reads the
//     spec's exception for those names as covering their closing tags too,
//     and makes a paragraph of the line.
//   - at such a line after a paragraph of a block quote or list item that
//     the line does not continue (a lazy continuation line, "> a" then
//     "</span>"): cmark-gfm (cmark's blocks.c) lets a type 7 block start
//     wherever the container it would go in is not a paragraph, so the
//     quote ends there; goldmark, as the spec and commonmark.js, continues
//     the quoted paragraph.
//
// Like every type 7 block, it does not interrupt a paragraph it continues.
// Every other line is left to goldmark's own HTML block parser (the
// embedded one), which also continues and closes the block.
type closingTagBlock struct{ parser.BlockParser }

// closingTagLine is compiled on first use: most runs read no comment.
var closingTagLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^ {0,3}</(?:pre|script|style)[ \t\n\f]*>[ \t\f]*(?:\r\n|\n|\r)?$`)
})

func (b closingTagBlock) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	last := pc.LastOpenedBlock().Node
	if ast.IsParagraph(last) && last.Parent() == parent {
		return nil, parser.NoChildren
	}
	line, segment := reader.PeekLine()
	lazy := ast.IsParagraph(last)
	switch {
	case closingTagLine().Match(line):
	case lazy && htmlTagLine().Match(bytes.TrimRight(line, "\r\n")):
		// The types that interrupt a paragraph are goldmark's to open.
		if node, state := b.BlockParser.Open(parent, reader, pc); node != nil {
			return node, state
		}
	default:
		return nil, parser.NoChildren
	}
	node := ast.NewHTMLBlock(ast.HTMLBlockType7)
	reader.AdvanceToEOL()
	node.Lines().Append(segment)
	return node, parser.NoChildren
}

// CanInterruptParagraph is true so that Open sees lazy continuation
// lines; it refuses to interrupt a paragraph it would continue.
func (closingTagBlock) CanInterruptParagraph() bool { return true }

// instruction reads "<?>" in a paragraph as CommonMark, cmark-gfm and
// commonmark.js do: a processing instruction runs from "<?" to the first
// "?>" after it, so "<?>" does not close itself. goldmark looks for "?>"
// from the "<" and takes "<?>" for a whole instruction, which the page
// then hides. Every other "<" is left to goldmark's parsers (raw HTML,
// autolinks). A "<?>" with no "?>" after it in the paragraph is text; the
// first such failure is kept, so that many of them cost one search.
type instruction struct{}

// instructionScanned is the context key of how far a search for "?>"
// read without finding it.
var instructionScanned = parser.NewContextKey()

func (instruction) Trigger() []byte { return []byte{'<'} }

func (instruction) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	first, start := block.PeekLine()
	if !bytes.HasPrefix(first, []byte("<?>")) {
		return nil
	}
	if scanned, _ := pc.Get(instructionScanned).(int); start.Start < scanned {
		// An earlier search read past this one's start: no "?>" follows.
		block.Advance(1)
		return ast.NewTextSegment(start.WithStop(start.Start + 1))
	}
	savedLine, savedSegment := block.Position()
	node := ast.NewRawHTML()
	for from := 3; ; from = 0 {
		line, segment := block.PeekLine()
		if line == nil {
			break
		}
		if i := bytes.Index(line[from:], []byte("?>")); i >= 0 {
			node.Segments.Append(segment.WithStop(segment.Start + from + i + 2))
			block.Advance(from + i + 2)
			return node
		}
		node.Segments.Append(segment)
		pc.Set(instructionScanned, segment.Stop)
		block.AdvanceLine()
	}
	block.SetPosition(savedLine, savedSegment)
	block.Advance(1)
	return ast.NewTextSegment(start.WithStop(start.Start + 1))
}

// tableEnds ends a table where GitHub's cmark-gfm does: there a table
// ends where another block starts, while goldmark builds tables from a
// paragraph's lines, and a block that cannot interrupt a paragraph (an
// indented code block, an HTML block of CommonMark's type 7) was read as
// more rows. A row whose line is indented four columns or more becomes the
// indented code block it is there; a row whose line is only an HTML tag
// starts the HTML block it is there, which takes the rows after it too
// (they are the paragraph's lines up to a blank line). They follow the
// table.
type tableEnds struct{}

func (tableEnds) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	var rows []*east.TableRow
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if r, ok := n.(*east.TableRow); ok && entering {
			rows = append(rows, r)
		}
		return ast.WalkContinue, nil
	})
	last := map[ast.Node]ast.Node{} // a table's last block moved after it
	for _, r := range rows {
		table := r.Parent()
		if table == nil {
			continue // moved into an HTML block with an earlier row
		}
		line := func(r ast.Node) text.Segment {
			end := bytes.IndexByte(src[r.Pos():], '\n')
			if end < 0 {
				end = len(src) - r.Pos()
			}
			seg := text.NewSegment(r.Pos(), r.Pos()+end)
			return seg.TrimRightSpace(src)
		}
		var block ast.Node
		switch l := line(r); {
		case indentedLine(src, r.Pos()):
			code := ast.NewCodeBlock()
			code.Lines().Append(l)
			block = code
			table.RemoveChild(table, r)
		case htmlTagLine().Match(l.Value(src)):
			html := ast.NewHTMLBlock(ast.HTMLBlockType7)
			for next := ast.Node(r); next != nil; {
				after := next.NextSibling()
				html.Lines().Append(line(next))
				table.RemoveChild(table, next)
				next = after
			}
			block = html
		default:
			continue
		}
		after := cmp.Or(last[table], ast.Node(table))
		table.Parent().InsertAfter(table.Parent(), after, block)
		last[table] = block
	}
}

// htmlTagLine is a line that starts an HTML block of CommonMark's type 7:
// only a complete open or closing tag. Compiled on first use.
var htmlTagLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>` + "`" + `]+|'[^']*'|"[^"]*"))?)*[ \t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$`)
})

// indentedLine reports whether the line that starts at pos is indented
// four columns or more.
func indentedLine(src []byte, pos int) bool {
	col := 0
	for i := pos; i < len(src) && col < 4; i++ {
		switch src[i] {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return false
		}
	}
	return col >= 4
}

// marker renders the three kinds of node that hold the body's text as
// goldmark's HTML renderer does, with the text marked.
type marker struct{}

func (marker) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindText, renderText)
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindAutoLink, renderAutoLink)
}

// kind is how the page shows a marked text of the body.
type kind string

const (
	markdownText kind = ""  // backslash escapes and references decoded
	htmlText     kind = "h" // references decoded
	verbatim     kind = "v" // as it is
)

// renderAutoLink writes an autolink as goldmark does, with its label
// marked: the page shows it as it stands in the body.
func renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	url := util.URLEscape(n.URL(source), false)
	label := n.Label(source)
	_, _ = w.WriteString(`<a href="`)
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(url), []byte("mailto:")) {
		_, _ = w.WriteString("mailto:")
	}
	_, _ = w.Write(util.EscapeHTML(url))
	_, _ = w.WriteString(`">`)
	// The label is the body's text at or after the node's position.
	from := max(n.Pos(), 0)
	if i := bytes.Index(source[from:], label); i >= 0 && len(label) > 0 {
		open(w, from+i, from+i+len(label), verbatim)
		_, _ = w.Write(util.EscapeHTML(label))
		_, _ = w.WriteString("</" + markTag + ">")
	} else {
		_, _ = w.Write(util.EscapeHTML(label))
	}
	_, _ = w.WriteString(`</a>`)
	return ast.WalkContinue, nil
}

func renderText(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Text)
	seg := n.Segment
	if seg.Len() > 0 {
		open(w, seg.Start, seg.Stop, markdownText)
		if n.IsRaw() {
			ghtml.DefaultWriter.RawWrite(w, seg.Value(source))
		} else {
			ghtml.DefaultWriter.Write(w, seg.Value(source))
		}
		_, _ = w.WriteString("</" + markTag + ">")
	}
	switch {
	case n.IsRaw():
	case n.HardLineBreak():
		_, _ = w.WriteString("<br>\n")
	case n.SoftLineBreak():
		_ = w.WriteByte('\n')
	}
	return ast.WalkContinue, nil
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*ast.RawHTML)
		var segs []text.Segment
		for i := range n.Segments.Len() {
			segs = append(segs, n.Segments.At(i))
		}
		markHTML(w, source, segs)
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	// The lines and the closing line in one piece: a tag may run from one
	// into the other.
	n := node.(*ast.HTMLBlock)
	var segs []text.Segment
	for i := range n.Lines().Len() {
		segs = append(segs, n.Lines().At(i))
	}
	if n.HasClosure() {
		segs = append(segs, n.ClosureLine)
	}
	markHTML(w, source, segs)
	return ast.WalkContinue, nil
}

// markHTML writes raw HTML as it is, but for what the plain page reads
// as text (see tokens), which it marks, one mark for each run that is
// contiguous in the body (the lines of a block in a list or a quote are
// not).
func markHTML(w util.BufWriter, source []byte, segs []text.Segment) {
	shown := w.(*pageWriter).text
	var at []int // the bytes of the raw HTML, by place in the body; -1 for a space a tab stands for
	for _, s := range segs {
		for range s.Padding {
			at = append(at, -1)
		}
		for i := s.Start; i < s.Stop; i++ {
			at = append(at, i)
		}
	}
	for i := 0; i < len(at); {
		j := i + 1
		if at[i] < 0 {
			_ = w.WriteByte(' ')
			i = j
			continue
		}
		if !shown[at[i]] {
			for j < len(at) && at[j] >= 0 && !shown[at[j]] {
				j++
			}
			for _, k := range at[i:j] {
				writeSecure(w, source[k:k+1])
			}
			i = j
			continue
		}
		for j < len(at) && at[j] == at[j-1]+1 && shown[at[j]] {
			j++
		}
		open(w, at[i], at[j-1]+1, htmlText)
		writeSecure(w, source[at[i]:at[j-1]+1])
		_, _ = w.WriteString("</" + markTag + ">")
		i = j
	}
}

// writeSecure writes b with NUL replaced, as goldmark writes raw HTML.
func writeSecure(w util.BufWriter, b []byte) {
	_, _ = w.Write(bytes.ReplaceAll(b, []byte{0}, []byte("\uFFFD")))
}

func open(w util.BufWriter, from, to int, k kind) {
	_, _ = w.WriteString("<" + markTag + ` a="` + strconv.Itoa(from) + `" b="` + strconv.Itoa(to) + `" k="` + string(k) + `">`)
}

// reference decodes the character reference at the start of b (&amp;,
// &#47;, &#x2F;) as CommonMark does, and gives its length; 0 when there is
// none.
func reference(b []byte) (string, int) {
	end := bytes.IndexByte(b, ';')
	if end < 2 || end > 33 {
		return "", 0
	}
	ref := string(b[:end+1])
	if ref[1] != '#' && strings.IndexFunc(ref[1:end], func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) >= 0 {
		// Not a name: html.UnescapeString would still decode a legacy
		// one without its ";" ("&nbsp x;"), which CommonMark does not.
		return "", 0
	}
	if ref[1] == '#' {
		digits := ref[2:end]
		hex := len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X')
		if hex {
			digits = digits[1:]
		}
		if len(digits) == 0 || hex && len(digits) > 6 || !hex && len(digits) > 7 || strings.IndexFunc(digits, func(r rune) bool {
			return !(r >= '0' && r <= '9' || hex && (r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'))
		}) >= 0 {
			return "", 0
		}
	}
	s := html.UnescapeString(ref)
	if s == ref {
		return "", 0
	}
	return s, end + 1
}

// htmlReference decodes the character reference at the start of b as
// HTML does in text (the page's raw HTML): as html.UnescapeString does,
// legacy names without their ";" included ("&nbsp"); it gives the length
// consumed, 0 when there is no reference.
func htmlReference(b []byte) (string, int) {
	end := len(b)
	if j := bytes.IndexByte(b[1:], '&'); j >= 0 {
		end = j + 1
	}
	w := string(b[:end])
	d := html.UnescapeString(w)
	if d == w {
		return "", 0
	}
	// d is the reference decoded, then the rest of w as it is.
	for k := 2; k <= len(w); k++ {
		if rest := w[k:]; strings.HasSuffix(d, rest) && d[:len(d)-len(rest)] != w[:k] {
			return d[:len(d)-len(rest)], k
		}
	}
	return "", 0
}
