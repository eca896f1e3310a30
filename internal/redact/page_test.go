package redact

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/testbed/escapetest"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"

	"github.com/agentjob/agent-job-action/internal/escape"
)

// seen is what a reader of a GitHub page takes from the Markdown md: it is
// rendered (goldmark with GitHub's extensions) and its text read, entities
// decoded; invisible characters are not seen, and a backslash before
// punctuation is read as Markdown's escape of it, as a reader who knows
// Markdown reads "mint\_…".
func seen(t *testing.T, md string) string {
	t.Helper()
	var h bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &h); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&h)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for _, a := range n.Attr {
			b.WriteString(" " + a.Val + " ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	text := escapetest.Seen(b.String())
	for _, c := range "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~" {
		text = strings.ReplaceAll(text, `\`+string(c), string(c))
	}
	return text
}

// TestRedactWhatAPageShows: a key the API sends back escaped for Markdown,
// with references or invisible characters inside, goes into a comment the
// two ways the action writes untrusted text (as Markdown's source, and
// through escape.Markdown); the comment is redacted whole, as
// conversation.Thread does, and rendered. No reader sees the key.
func TestRedactWhatAPageShows(t *testing.T) {
	t.Parallel()
	w, _ := redactor(key)
	shown := 0 // comments that, unredacted, show the key
	for _, form := range []string{
		key,
		`mint\_test\_0123456789abcdef`,
		"mint&#95;test&#x5F;0123456789abcdef",
		"mint&lowbar;test_0123456789abcdef",
		spread(key, "\u200b"),
		spread(key, "&#8203;"),
		spread(key, "&ZeroWidthSpace;"),
		"mint\\_te\u2060st&#95;0123\u00ad456789abcdef",
	} {
		for _, md := range []string{"The build failed: " + form + ".", "The build failed: " + escape.Markdown(form) + "."} {
			if strings.Contains(seen(t, md), key) {
				shown++
			}
			out := w.Redact(md)
			if page := seen(t, out); strings.Contains(page, key) || !strings.Contains(page, "***") {
				t.Errorf("Redact(%q) = %q, which a page shows as %q", md, out, page)
			}
		}
	}
	// Escaped by escape.Markdown, a reference shows as itself, and "_"
	// around the zero-width references is emphasis: those comments show
	// no key. Every other one would.
	if shown != 9 {
		t.Errorf("%d comments show the key unredacted, want 9: the test no longer reaches what it meant to", shown)
	}
}
