// Package escapetest holds the checks tests and fuzzers use on the Markdown
// the action writes: what GitHub would turn into a link, and how many cells
// a table row has. It follows the rules of GitHub's renderer (cmark-gfm's
// autolink and table extensions, and GitHub's mentions and references),
// erring on the side of seeing a link: a check that passes here passes there.
package escapetest

import (
	"html"
	"regexp"
	"strings"

	"github.com/agentjob/agent-job-action/internal/invisible"
)

// links are the patterns, in text whose entities are decoded, that GitHub
// may turn into a link. Each is wider than what GitHub links:
//   - www: GFM's www autolink ("www." followed by a domain);
//   - scheme: GFM's URL autolink (http://, https://, ftp://);
//   - at: GFM's e-mail autolink (also mailto: and xmpp:), which needs an
//     alphanumeric, ".", "-" or "_" right after "@", and @mentions;
//   - issue: #12, owner/repo#12 and GH-12 references;
//   - sha: a commit SHA, seven or more hex digits in a row.
var links = []*regexp.Regexp{
	regexp.MustCompile(`(?i)www\.`),
	regexp.MustCompile(`://`),
	regexp.MustCompile(`@[A-Za-z0-9._-]`),
	regexp.MustCompile(`(?i)(#|gh-)[0-9]`),
	regexp.MustCompile(`[0-9A-Fa-f]{7}`),
}

// codeSpan is a code span of single backticks, inside which GitHub links
// nothing.
var codeSpan = regexp.MustCompile("`[^`]*`")

// Autolinks returns the pieces of markdown that GitHub could render as a
// link, a mention or a reference without any link syntax; nil when none.
// Code spans are left out, and the rest is decoded (entities become
// characters), as GitHub does before it looks for links.
func Autolinks(markdown string) []string {
	text := html.UnescapeString(codeSpan.ReplaceAllString(markdown, "``"))
	var found []string
	for _, re := range links {
		found = append(found, re.FindAllString(text, -1)...)
	}
	return found
}

// Cells returns the number of cells in one row of a GFM table: the row is
// split at every "|" that no backslash escapes, less a leading and a
// trailing one. Entities do not split: the table extension splits the row
// before inlines (and entities) are parsed.
func Cells(row string) int {
	row = strings.TrimSpace(row)
	cells, start := 0, 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			if i > 0 { // a leading "|" opens the first cell
				cells++
			}
			start = i + 1
		}
	}
	if start < len(row) { // text after the last "|" is one more cell
		cells++
	}
	return cells
}

// Seen is s as a reader sees it: without its invisible characters
// (package invisible).
func Seen(s string) string {
	return strings.Map(func(r rune) rune {
		if invisible.Is(r) {
			return -1
		}
		return r
	}, s)
}
