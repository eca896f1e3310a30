// Package pathfilter decides which changed files of a pull request a docs
// job hears about, with the patterns of a workflow's on.pull_request.paths,
// as GitHub documents them (the filter pattern cheat sheet of "Workflow
// syntax for GitHub Actions"):
//
//   - * matches any characters but /; ** matches any characters, / too, and
//     **/ also matches no directory at all (**/README.md matches README.md);
//   - ? matches zero or one of the character before it (*.jsx? matches
//     a.js and a.jsx), + one or more of it;
//   - [] matches one character listed or in a range of a-z, A-Z or 0-9;
//   - \ makes the next character plain;
//   - ! at the start of a pattern excludes what it matches.
//
// Patterns are read in order and the last that matches a path decides: an
// exclusion after an inclusion leaves the path out, an inclusion after an
// exclusion takes it back. A path no pattern includes is left out, so a
// list of exclusions alone matches nothing: Parse refuses it. No pattern at
// all matches every path. A pattern matches the whole path, from the
// repository's root.
package pathfilter

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Filter is a parsed list of patterns.
type Filter struct {
	rules []rule
}

type rule struct {
	exclude bool
	re      *regexp.Regexp
}

// Parse reads patterns, one a line, as the paths input holds them; blank
// lines and the spaces around a pattern are ignored. It returns an error
// that names the first pattern it cannot read, and what is wrong with it,
// worded to follow the name of the list ("paths has the pattern ...").
func Parse(lines string) (*Filter, error) {
	f := &Filter{}
	included := false
	for line := range strings.Lines(lines) {
		p := strings.TrimSpace(line)
		if p == "" {
			continue
		}
		r := rule{}
		if rest, ok := strings.CutPrefix(p, "!"); ok {
			r.exclude, p = true, rest
		}
		expr, err := translate(p)
		if err != nil {
			return nil, fmt.Errorf("has the pattern %s: %w", strconv.Quote(strings.TrimSpace(line)), err)
		}
		r.re = regexp.MustCompile(expr) // translate writes only valid expressions
		f.rules = append(f.rules, r)
		included = included || !r.exclude
	}
	if len(f.rules) > 0 && !included {
		return nil, errors.New("only excludes: every pattern starts with !, and a path must match a pattern that includes it (list one first, such as **, then the exclusions)")
	}
	return f, nil
}

// All reports whether the filter lets every path through: it has no
// pattern.
func (f *Filter) All() bool { return len(f.rules) == 0 }

// Match reports whether path passes the filter: the last pattern that
// matches it includes it, or there is no pattern.
func (f *Filter) Match(path string) bool {
	if len(f.rules) == 0 {
		return true
	}
	in := false
	for _, r := range f.rules {
		if r.re.MatchString(path) {
			in = !r.exclude
		}
	}
	return in
}

// translate writes pattern p as an anchored regular expression.
func translate(p string) (string, error) {
	if !utf8.ValidString(p) {
		return "", errors.New("it is not valid UTF-8")
	}
	var b strings.Builder
	b.WriteString(`^`)
	// last is the expression of the last single character written (a
	// literal or a class), which ? and + repeat; "" when the last thing
	// written was a wildcard or nothing.
	last := ""
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '*':
			switch {
			case strings.HasPrefix(p[i:], "**/") && (i == 0 || p[i-1] == '/'):
				b.WriteString(`(?:.*/)?`)
				i += 2
			case strings.HasPrefix(p[i:], "**"):
				b.WriteString(`.*`)
				i++
			default:
				b.WriteString(`[^/]*`)
			}
			last = ""
			continue
		case '?', '+':
			if last == "" {
				return "", fmt.Errorf("%c repeats the character before it, and there is none (write \\%c for the character itself)", c, c)
			}
			b.WriteByte(c)
			last = ""
			continue
		case '[':
			end := strings.IndexByte(p[i+1:], ']')
			if end < 0 {
				return "", errors.New("[ has no closing ]")
			}
			class, err := bracket(p[i+1 : i+1+end])
			if err != nil {
				return "", err
			}
			last = class
			i += end + 1
		case '\\':
			if i+1 == len(p) {
				return "", errors.New(`it ends with \, which makes the next character plain, and there is none`)
			}
			i++
			fallthrough
		default:
			_, n := utf8.DecodeRuneInString(p[i:])
			last = regexp.QuoteMeta(p[i : i+n])
			i += n - 1
		}
		b.WriteString(last)
	}
	b.WriteString(`$`)
	return b.String(), nil
}

// bracket writes the inside of [...] as a character class: letters and
// digits, and ranges of a-z, A-Z or 0-9, as GitHub allows.
func bracket(in string) (string, error) {
	if in == "" {
		return "", errors.New("[] lists no character")
	}
	for i := 0; i < len(in); i++ {
		c := in[i]
		if !alnum(c) {
			return "", fmt.Errorf("[%s] holds %s: brackets take letters, digits and ranges of a-z, A-Z or 0-9", in, strconv.QuoteRune(rune(c)))
		}
		if i+2 < len(in) && in[i+1] == '-' {
			lo, hi := c, in[i+2]
			if !alnum(hi) || kind(lo) != kind(hi) || lo > hi {
				return "", fmt.Errorf("[%s] has the range %c-%c: a range goes up within a-z, A-Z or 0-9", in, lo, hi)
			}
			i += 2
		}
	}
	return "[" + in + "]", nil
}

func alnum(c byte) bool { return kind(c) != 0 }

// kind tells lower-case letters (1), upper-case ones (2) and digits (3)
// apart, 0 for anything else.
func kind(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return 1
	case c >= 'A' && c <= 'Z':
		return 2
	case c >= '0' && c <= '9':
		return 3
	}
	return 0
}
