package visible

import (
	"bytes"
	"errors"
)

// ErrTooComplex is returned for a body whose structure the parsers cannot
// read in a bounded time or depth: Read refuses it rather than spend
// seconds on it or miss what it shows. Its text is written for the person
// who wrote the body.
var ErrTooComplex = errors.New("too complex to read safely: more than 32 quotes or list items nested on one line, " +
	"elements nested more than 500 deep, or thousands of unclosed link addresses; simplify the comment and ask again")

const (
	// maxLineNesting is how many block quote and list markers may open
	// one line. goldmark's time grows with the square of it (65,536
	// characters of ">" take 11 s); 32 is far beyond what people write.
	maxLineNesting = 32
	// maxDestinationScan is how many bytes goldmark may read in all while
	// looking for the end of link destinations that start with "](". Each
	// such scan runs to the end of its line when nothing ends it, so
	// "[a](" repeated costs the square of the line (20 s for 65,536
	// characters); a body of ordinary links reads each destination once.
	maxDestinationScan = 1 << 22
)

// bounded reports ErrTooComplex for a body that would make goldmark work
// for more than a linear number of steps or nest deeper than the HTML
// parser's limit allows (the page is refused there too, see page). It
// reads the body once, and each destination at most until the budget is
// spent.
func bounded(src []byte) error {
	scan := 0
	for len(src) > 0 {
		line := src
		if i := bytes.IndexAny(src, "\r\n"); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		if lineNesting(line) > maxLineNesting {
			return ErrTooComplex
		}
		for i := bytes.Index(line, []byte("](")); i >= 0; {
			rest := line[i+2:]
			scan += destinationScan(rest)
			if scan > maxDestinationScan {
				return ErrTooComplex
			}
			j := bytes.Index(rest, []byte("]("))
			if j < 0 {
				break
			}
			i += 2 + j
		}
	}
	return nil
}

// lineNesting counts the block quote markers (">") and list markers ("-",
// "*", "+", "1." or "1)" followed by a space) that open line, up to one
// more than maxLineNesting.
func lineNesting(line []byte) int {
	n := 0
	for i := 0; i < len(line) && n <= maxLineNesting; {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		switch {
		case i < len(line) && line[i] == '>':
			i++
		case i+1 < len(line) && (line[i] == '-' || line[i] == '*' || line[i] == '+') && (line[i+1] == ' ' || line[i+1] == '\t'):
			i += 2
		default:
			d := i
			for d < len(line) && d-i < 9 && line[d] >= '0' && line[d] <= '9' {
				d++
			}
			if d == i || d+1 >= len(line) || line[d] != '.' && line[d] != ')' || line[d+1] != ' ' && line[d+1] != '\t' {
				return n
			}
			i = d + 2
		}
		n++
	}
	return n
}

// destinationScan is how many bytes of rest goldmark reads looking for
// the end of a link destination that starts it (parser.parseLinkDestination):
// to ">" for one in "<…>", else to a space or an unbalanced ")"; to the end
// of the line when nothing ends it.
func destinationScan(rest []byte) int {
	i := 0
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	angle := i < len(rest) && rest[i] == '<'
	opened := 0
	for ; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '\\':
			i++
		case angle && c == '>':
			return i + 1
		case angle:
		case c == '(':
			opened++
		case c == ')':
			if opened--; opened < 0 {
				return i + 1
			}
		case c == ' ' || c == '\t':
			return i + 1
		}
	}
	return len(rest)
}
