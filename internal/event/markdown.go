package event

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Visible returns the text of the Markdown md that a reader of the rendered
// page sees: md without the markup GitHub renders as nothing. That is HTML
// comments ("<!--" to the first "-->" after it; "<!-->" and "<!--->" are
// whole comments, as in HTML), processing instructions ("<?" to "?>"),
// declarations ("<!" and a letter, to ">"), CDATA sections ("<![CDATA[" to
// "]]>"), and Unicode tag characters (U+E0000 to U+E007F), which no font
// draws but a model reads. A construct that is never closed hides the rest
// of the text, as an HTML block does. They are removed wherever they stand,
// inside code too: a sample that shows one loses it, but no parse of the
// surrounding Markdown, right or wrong, can let hidden text through. The
// result never holds an opener, not even one formed by the text on both
// sides of a removed construct.
func Visible(md string) string {
	out := make([]byte, 0, len(md))
	for i := 0; i < len(md); i++ {
		if r, size := utf8.DecodeRuneInString(md[i:]); r >= 0xE0000 && r <= 0xE007F {
			i += size - 1
			continue
		}
		out = append(out, md[i])
		opener, closer, reuse := hiddenAt(out)
		if opener == 0 {
			continue
		}
		out = out[:len(out)-opener]
		// The opener's last bytes may close it ("<!-->"): search from them.
		from := i + 1 - reuse
		j := strings.Index(md[from:], closer)
		if j < 0 {
			break
		}
		i = from + j + len(closer) - 1
	}
	return string(out)
}

// hiddenAt reports whether out ends with the opener of a construct that
// renders as nothing: its length, the text that closes it, and how many of
// the opener's last bytes may be part of the closer.
func hiddenAt(out []byte) (opener int, closer string, reuse int) {
	n := len(out)
	switch {
	case bytes.HasSuffix(out, []byte("<!--")):
		return 4, "-->", 2
	case bytes.HasSuffix(out, []byte("<![CDATA[")):
		return 9, "]]>", 0
	case bytes.HasSuffix(out, []byte("<?")):
		return 2, "?>", 0
	case n >= 3 && out[n-3] == '<' && out[n-2] == '!' && isLetter(out[n-1]):
		return 3, ">", 0
	}
	return 0, "", 0
}

// RequestText returns Visible(md) with every byte that is not visible,
// unquoted text replaced by a space (line breaks stay): block quotes and
// the lines that lazily continue them, fenced and indented code, code
// spans, raw HTML tags and the contents of <code>, <pre>, <blockquote>,
// <q> and the like, link destinations and titles, image descriptions and
// link reference definitions. It has the length of Visible(md), so an
// offset in one is an offset in the other. It is where a request counts:
// the trigger phrase in someone else's quoted request, in a code sample or
// in a link must not start a run.
//
// The parse is a deliberate over-approximation of CommonMark and GitHub's
// extensions: where it is unsure whether text is code or quoted, it blanks
// it, so that a doubtful case fails to trigger rather than triggers.
func RequestText(md string) string {
	return requestText(Visible(md))
}

func requestText(v string) string {
	m := []byte(v)
	blankBlocks(v, m)
	blankInline(m)
	return string(m)
}

// blank replaces m[from:to] by spaces, keeping line breaks.
func blank(m []byte, from, to int) {
	for k := from; k < to && k < len(m); k++ {
		if m[k] != '\n' && m[k] != '\r' {
			m[k] = ' '
		}
	}
}

// fence is an open fenced code block.
type fence struct {
	open   bool
	char   byte // '`' or '~'
	n      int  // length of the opening run
	col    int  // the column its container's content starts at
	quoted bool // opened inside a block quote
}

// blankBlocks blanks, in m, the lines of v that are code or quoted.
func blankBlocks(v string, m []byte) {
	var (
		f      fence
		quote  bool // inside a block quote, until a blank line
		para   bool // the last line was paragraph text (it may continue)
		refdef bool // the last line was a link reference definition
	)
	for s := 0; s < len(v); {
		e := strings.IndexByte(v[s:], '\n')
		if e < 0 {
			e = len(v)
		} else {
			e += s
		}
		line := strings.TrimSuffix(v[s:e], "\r")
		from, to := s, e
		s = e + 1

		if f.open {
			rest := line
			quoted := false
			if f.quoted {
				// Inside a quote, the fence's lines are those of the quote.
				quoted, rest = quotePrefix(line)
			}
			if f.quoted && !quoted {
				// Fenced code has no lazy lines: the quote, and the fence
				// in it, end here.
				f.open, quote, para = false, false, false
			} else {
				blank(m, from, to)
				w, run, ch, tail := fenceRun(rest)
				switch {
				case run == 0 || ch != f.char:
				case w < f.col && !f.quoted:
					// Less indented than the list item the fence opened in:
					// the item ends, and this run may open a new fence.
					f.n, f.col = run, w
				case w <= f.col+3 && run >= f.n && strings.TrimSpace(tail) == "":
					f.open, para = false, false
				}
				continue
			}
		}

		p := parsePrefix(line)
		if strings.TrimSpace(p.rest) == "" {
			if p.quoted {
				blank(m, from, to)
			}
			quote = p.quoted
			para, refdef = false, false
			continue
		}
		_, run, ch, info := fenceRun(p.rest)
		opensFence := run >= 3 && !(ch == '`' && strings.ContainsRune(info, '`'))
		heading := isHeading(p.rest) || isBreak(p.rest)

		switch {
		case p.quoted || quote && para && !opensFence && !heading:
			// Quoted, or lazily continuing a quoted paragraph.
			blank(m, from, to)
			quote = true
			para = !heading
			if opensFence {
				f = fence{open: true, char: ch, n: run, quoted: true}
				para = false
			}
			refdef = false
			continue
		case quote:
			quote = false
		}

		switch {
		case opensFence:
			blank(m, from, to)
			f = fence{open: true, char: ch, n: run, col: p.col}
			para, refdef = false, false
		case p.indent >= 4 && (!para || p.item):
			blank(m, from, to) // indented code
			para, refdef = false, false
		case (!para || refdef) && isRefDef(p.rest):
			blank(m, from, to)
			para, refdef = false, true
		case refdef && strings.ContainsAny(strings.TrimSpace(p.rest)[:1], `"'(`):
			blank(m, from, to) // the title of the definition above
			para, refdef = false, false
		default:
			para, refdef = !heading, false
		}
	}
}

// prefix is a line split into its container markers and its content.
type prefix struct {
	quoted bool   // a ">" stands among the markers
	item   bool   // a list marker starts a new item on this line
	col    int    // the column where the content starts
	indent int    // columns of white space at the start of rest
	rest   string // the content, its leading white space included
}

// parsePrefix takes off block quote markers and list markers, with the
// spaces around them, from the start of line. Any ">" reached through
// white space and list markers counts as a quote, even where CommonMark
// would read code: either way the text is not a plain request.
func parsePrefix(line string) prefix {
	var p prefix
	col, i := 0, 0
	for {
		c0, i0 := col, i
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			col = advance(col, line[i])
			i++
		}
		if i >= len(line) {
			col, i = c0, i0
			break
		}
		if line[i] == '>' {
			p.quoted = true
			col, i = col+1, i+1
			if i < len(line) && line[i] == ' ' {
				col, i = col+1, i+1
			}
			continue
		}
		n := listMarker(line[i:])
		if n == 0 {
			col, i = c0, i0
			break
		}
		p.item = true
		col, i = col+n, i+n
		// One to four spaces belong to the marker; more start code.
		w, j := col, i
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			w = advance(w, line[j])
			j++
		}
		switch {
		case j >= len(line):
			col, i = w, j
		case w-col <= 4:
			col, i = w, j
		default:
			col, i = col+1, i+1
		}
	}
	p.col = col
	p.rest = line[i:]
	w := col
	for j := i; j < len(line) && (line[j] == ' ' || line[j] == '\t'); j++ {
		w = advance(w, line[j])
	}
	p.indent = w - col
	return p
}

func advance(col int, c byte) int {
	if c == '\t' {
		return col + 4 - col%4
	}
	return col + 1
}

// listMarker returns the length of the list marker at the start of s
// ("-", "*", "+", "1." or "1)"), or 0. A marker must be followed by white
// space or the end of the line.
func listMarker(s string) int {
	n := 0
	switch {
	case s != "" && strings.ContainsRune("-*+", rune(s[0])):
		n = 1
	default:
		for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(s) || s[n] != '.' && s[n] != ')' {
			return 0
		}
		n++
	}
	if n < len(s) && s[n] != ' ' && s[n] != '\t' {
		return 0
	}
	return n
}

// quotePrefix reports whether line starts with ">" after white space, and
// returns what follows the quote markers.
func quotePrefix(line string) (bool, string) {
	quoted := false
	for {
		t := strings.TrimLeft(line, " \t")
		if !strings.HasPrefix(t, ">") {
			return quoted, line
		}
		quoted = true
		line = strings.TrimPrefix(t[1:], " ")
	}
}

// fenceRun measures a fence-like line: the columns of white space before
// it, the length and character of its run of backticks or tildes (0 when
// shorter than 3), and what follows the run.
func fenceRun(s string) (indent, n int, ch byte, tail string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		indent = advance(indent, s[i])
		i++
	}
	if i == len(s) || s[i] != '`' && s[i] != '~' {
		return indent, 0, 0, ""
	}
	ch = s[i]
	j := i
	for j < len(s) && s[j] == ch {
		j++
	}
	if j-i < 3 {
		return indent, 0, 0, ""
	}
	return indent, j - i, ch, s[j:]
}

// isHeading reports an ATX heading: one to six "#" and a space or the end.
func isHeading(s string) bool {
	s = strings.TrimLeft(s, " \t")
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(s) || s[n] == ' ' || s[n] == '\t')
}

// isBreak reports a thematic break: three or more of one of "-*_", with
// white space only besides.
func isBreak(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || !strings.ContainsRune("-*_", rune(s[0])) {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case s[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// isRefDef reports a link reference definition, "[label]: destination",
// whose whole line is invisible. "[//]: # (note)" is a common way to write
// a comment in Markdown.
func isRefDef(s string) bool {
	s = strings.TrimLeft(s, " \t")
	if !strings.HasPrefix(s, "[") {
		return false
	}
	end := strings.Index(s, "]:")
	return end > 1 && !strings.ContainsAny(s[1:end], "[]")
}

// hiddenTags are the HTML elements whose content is code or quoted.
var hiddenTags = []string{"blockquote", "code", "kbd", "pre", "q", "samp", "script", "style", "textarea", "tt"}

// blankInline blanks, in m, code spans, raw HTML tags and the contents of
// hiddenTags, link destinations and titles, and image descriptions. None of
// them reaches past a blank line, where a paragraph ends. It takes linear
// time whatever the text, so that no comment can make it slow.
func blankInline(m []byte) {
	in := newInline(m)
	for i := 0; i < len(m); {
		switch c := m[i]; {
		case c == '\\' && i+1 < len(m) && isPunct(m[i+1]):
			i += 2 // an escaped character is literal
		case c == '`':
			r := run(m, i, '`')
			if j := in.closingRun(i+r, r); j >= 0 {
				blank(m, i, j+r)
				i = j + r
			} else {
				i += r
			}
		case c == ']' && i+1 < len(m) && m[i+1] == '(':
			j := in.closing(i+1, '(', ')')
			blank(m, i+1, min(j+1, in.ends[i+1]))
			i = j + 1
		case c == '!' && i+1 < len(m) && m[i+1] == '[':
			// The "]" stays, for a following "(".
			j := in.closing(i+1, '[', ']')
			blank(m, i, j)
			i = j
		case c == '<' && i+1 < len(m) && (isLetter(m[i+1]) || m[i+1] == '/' && i+2 < len(m) && isLetter(m[i+2])):
			i = in.blankTag(i)
		default:
			i++
		}
	}
}

// inline holds what blankInline looks up: where each paragraph ends and
// where the runs of backticks of each length start.
type inline struct {
	m    []byte
	ends []int // ends[i]: the offset of the blank line at or after i, or len(m)
	runs map[int][]int
	next map[int]int // per length, the first run not yet behind the scan
}

func newInline(m []byte) *inline {
	in := &inline{m: m, ends: make([]int, len(m)+1), runs: map[int][]int{}, next: map[int]int{}}
	end := len(m)
	in.ends[len(m)] = end
	for j := len(m) - 1; j >= 0; j-- {
		if m[j] == '\n' && blankLineAt(m, j+1) {
			end = j
		}
		in.ends[j] = end
	}
	for i := 0; i < len(m); {
		if m[i] != '`' {
			i++
			continue
		}
		r := run(m, i, '`')
		in.runs[r] = append(in.runs[r], i)
		i += r
	}
	return in
}

// blankLineAt reports whether the line starting at i holds only white
// space. It reads the line only up to its first other byte, so that
// newInline stays linear.
func blankLineAt(m []byte, i int) bool {
	for ; i < len(m) && m[i] != '\n'; i++ {
		if m[i] != ' ' && m[i] != '\t' && m[i] != '\r' {
			return false
		}
	}
	return true
}

func isPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !isLetter(c) && !(c >= '0' && c <= '9')
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func run(m []byte, i int, c byte) int {
	n := 0
	for i+n < len(m) && m[i+n] == c {
		n++
	}
	return n
}

// indexByte is bytes.IndexByte from index from on: where c is in m at or
// after from, or -1.
func indexByte(m []byte, from int, c byte) int {
	if from >= len(m) {
		return -1
	}
	if k := bytes.IndexByte(m[from:], c); k >= 0 {
		return from + k
	}
	return -1
}

// closingRun returns where a run of exactly n backticks starts at or after
// from, within the paragraph, or -1. Calls come with from increasing.
func (in *inline) closingRun(from, n int) int {
	starts := in.runs[n]
	k := in.next[n]
	for k < len(starts) && starts[k] < from {
		k++
	}
	in.next[n] = k
	if k < len(starts) && starts[k] < in.ends[from] {
		return starts[k]
	}
	return -1
}

// closing returns the offset of the close that matches the open at i, or
// the end of the paragraph.
func (in *inline) closing(i int, open, close byte) int {
	end := in.ends[i]
	depth := 0
	for k := i; k < end; k++ {
		switch in.m[k] {
		case '\\':
			k++
		case open:
			depth++
		case close:
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return end
}

// blankTag blanks the HTML tag at i (its attributes are not shown) and, for
// an opening hidden tag, everything up to its closing tag; it returns where
// to go on.
func (in *inline) blankTag(i int) int {
	m := in.m
	gt := indexByte(m[:in.ends[i]], i, '>')
	if gt < 0 {
		gt = in.ends[i] - 1
	}
	closing := m[i+1] == '/'
	name := tagName(m[i+1:])
	blank(m, i, gt+1)
	if name == "" || closing {
		return gt + 1
	}
	// The content of a hidden element may hold blank lines (a <pre>): it
	// runs to the matching closing tag, or to the end.
	depth := 1
	for k := gt + 1; k < len(m); k++ {
		if m[k] != '<' {
			continue
		}
		switch {
		case tagName(m[k+1:]) == name:
			depth++
		case k+1 < len(m) && m[k+1] == '/' && tagName(m[k+2:]) == name:
			if depth--; depth == 0 {
				end := indexByte(m, k, '>')
				if end < 0 {
					end = len(m) - 1
				}
				blank(m, i, end+1)
				return end + 1
			}
		}
	}
	blank(m, i, len(m))
	return len(m)
}

// tagName returns the lower-cased name of the hidden tag at the start of
// s, or "".
func tagName(s []byte) string {
	n := 0
	for n < len(s) && (isLetter(s[n]) || s[n] >= '0' && s[n] <= '9') {
		n++
	}
	if n == 0 || n < len(s) && !strings.ContainsRune(" \t\r\n/>", rune(s[n])) {
		return ""
	}
	name := strings.ToLower(string(s[:n]))
	for _, t := range hiddenTags {
		if t == name {
			return name
		}
	}
	return ""
}
