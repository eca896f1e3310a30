// Package pathfilter decides which changed files of a pull request a docs
// job hears about, with the patterns of a workflow's on.pull_request.paths,
// as GitHub documents them (the filter pattern cheat sheet of "Workflow
// syntax for GitHub Actions"):
//
//   - * matches any characters but /; ** matches any characters, / too, and
//     **/ also matches no directory at all (**/README.md matches README.md);
//     a character is any a name can hold, a newline too: GitHub's own
//     filter matches the whole name;
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
//
// The list is read line by line, not as YAML, although authors copy it
// from a workflow's YAML list: a quote, a list marker or a comment would
// stay in a pattern that then matches nothing GitHub's would, so Parse
// refuses them (a \ before the character lets a name hold it).
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

// PatternError is a line of the list that Parse refuses.
type PatternError struct {
	// Line counts the list's lines from 1, blank ones too.
	Line int
	// Pattern is the line without the spaces around it.
	Pattern string
	// Problem says what is wrong and how to write the pattern instead.
	Problem string
	// YAML is set when the line holds YAML's own syntax (a quote, a list
	// marker, a comment): the list was likely copied from a workflow's
	// on.pull_request.paths, and advice can say how the list is read.
	YAML bool
}

// Error words the problem to follow the name of the list ("paths has the
// pattern ... on line 2: ...").
func (e *PatternError) Error() string {
	return fmt.Sprintf("has the pattern %s on line %d: %s", strconv.Quote(e.Pattern), e.Line, e.Problem)
}

// Parse reads patterns, one a line, as the paths input holds them; blank
// lines and the spaces around a pattern are ignored. A line it cannot
// read, or that holds YAML's syntax, is a *PatternError for the first such
// line; a list that only excludes is an error worded to follow the name of
// the list ("paths only excludes ...").
func Parse(lines string) (*Filter, error) {
	f := &Filter{}
	included := false
	n := 0
	for line := range strings.Lines(lines) {
		n++
		p := strings.TrimSpace(line)
		if p == "" {
			continue
		}
		if problem := yamlSyntax(p); problem != "" {
			return nil, &PatternError{Line: n, Pattern: p, Problem: problem, YAML: true}
		}
		r := rule{}
		body := p
		if rest, ok := strings.CutPrefix(p, "!"); ok {
			r.exclude, body = true, rest
		}
		expr, err := translate(body)
		if err != nil {
			return nil, &PatternError{Line: n, Pattern: p, Problem: err.Error()}
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

// yamlSyntax says what YAML syntax the line p holds, "" for none. In a
// workflow's on.pull_request.paths, YAML takes quotes, list markers and
// comments away before GitHub's filter sees a pattern; here they would
// stay in it, so they are refused rather than read. Each is refused where
// YAML would see it: a marker at the start, a comment at the start or
// after a space, a quote at the start of the rest or at its end (unless a
// \ makes it plain). All are named at once, so that one edit mends the
// line.
func yamlSyntax(p string) string {
	var found []string
	rest := p
	if rest == "-" || strings.HasPrefix(rest, "- ") || strings.HasPrefix(rest, "-\t") {
		found = append(found, `the list marker "- "`)
		rest = strings.TrimSpace(rest[1:])
	}
	for i := 0; i < len(rest); i++ {
		head := rest[:i]
		if rest[i] != '#' || head != "" && head != "!" && !strings.HasSuffix(head, " ") && !strings.HasSuffix(head, "\t") {
			continue
		}
		if h := strings.TrimSpace(head); h == "" || h == "!" {
			if len(found) == 0 {
				return `it would be a pattern, not a comment: delete the line, or write \# for a name that starts with #`
			}
			found = append(found, "the comment")
			rest = ""
			break
		}
		found = append(found, "the comment "+strconv.Quote(rest[i:]))
		rest = strings.TrimSpace(rest[:i])
		break
	}
	if body := strings.TrimPrefix(rest, "!"); strings.HasPrefix(body, "'") || strings.HasPrefix(body, `"`) || quoteAtEnd(rest) {
		found = append(found, "the quotes")
	}
	switch len(found) {
	case 0:
		return ""
	case 1:
		advice := map[string]string{
			`the list marker "- "`: "write one pattern a line, without a marker",
			"the quotes":           `write it without them, or \' and \" for quotes a name holds`,
		}[found[0]]
		if advice == "" {
			advice = `delete it, or write \# for a # a name holds`
		}
		return found[0] + " would be part of the pattern: " + advice
	}
	return strings.Join(found[:len(found)-1], ", ") + " and " + found[len(found)-1] +
		` would be part of the pattern: write the pattern alone, one a line, with \ before a quote or # a name holds`
}

// quoteAtEnd reports whether p ends with a quote that no \ makes plain.
func quoteAtEnd(p string) bool {
	if !strings.HasSuffix(p, "'") && !strings.HasSuffix(p, `"`) {
		return false
	}
	slashes := len(p) - 1 - len(strings.TrimRight(p[:len(p)-1], `\`))
	return slashes%2 == 0
}

// translate writes pattern p as an anchored regular expression. The flag s
// lets . match a newline: a name may hold one, and ** must match it as it
// matches every other character.
func translate(p string) (string, error) {
	if !utf8.ValidString(p) {
		return "", errors.New("it is not valid UTF-8")
	}
	var b strings.Builder
	b.WriteString(`(?s)^`)
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
