package preview

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

// TestMarkdown keeps the preview's lines of the comment and the summary in
// testdata/shown (go test -run Markdown -update rewrites them).
func TestMarkdown(t *testing.T) {
	t.Parallel()
	const url = "https://acme-docs-agent-job-0001.mintlify.app"
	tests := []struct {
		name string
		s    Shown
	}{
		{"success", Shown{URL: url, State: Success}},
		{"success-screenshot", Shown{URL: url, State: Success, Image: "https://shots.mintlify.app/st_0001.png"}},
		{"failure", Shown{URL: url, State: Failure, Summary: "docs.json: *bad* @team [x](https://evil.example)"}},
		{"building", Shown{URL: url, State: InProgress}},
		{"hostile", Shown{URL: "javascript:alert(1)//https://x", State: Success, Image: "https://x/a.png"}},
		{"hostile-image", Shown{URL: url, State: Success, Image: "https://x/a.png) ![y](https://evil.example/track.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			golden.Check(t, "testdata/shown/"+tt.name+".md", tt.s.Markdown())
		})
	}
}

// TestMarkdownLinksOnly renders the preview's lines as GitHub's Markdown
// does (goldmark with GFM) for addresses an API could craft: the address
// is only ever a link's destination, and no text a reader sees could
// mention anyone, reference an issue or become a link of its own.
func TestMarkdownLinksOnly(t *testing.T) {
	t.Parallel()
	for _, address := range []string{
		"https://acme-docs-agent-job-0001.mintlify.app",
		"https://x.mintlify.app/@acme/team",
		"https://x.mintlify.app/#123",
		"https://x.mintlify.app/owner/repo#1",
		"https://x.mintlify.app/?q=owner/repo%231&to=@admin",
		"https://x.mintlify.app/**@acme**/_#12_",
		"https://@admin:pw@x.mintlify.app/GH-12",
		"https://www.x.mintlify.app/a@b.example",
		"https://x.mintlify.app/0123456789abcdef0123456789abcdef01234567",
	} {
		for _, state := range []string{Success, Failure, InProgress} {
			s := Shown{URL: address, State: state, Summary: "see " + address}
			md := s.Markdown()
			hrefs, text := rendered(t, md)
			if len(hrefs) != 1 || hrefs[0] != address {
				t.Errorf("%s %q: links %q, want the preview's alone:\n%s", state, address, hrefs, md)
			}
			if strings.Count(md, address) != strings.Count(md, "]("+address+")") {
				t.Errorf("%s %q: the address is written outside a link's destination:\n%s", state, address, md)
			}
			if m := reference.FindString(text); m != "" {
				t.Errorf("%s %q: a reader sees %q, which GitHub could make a mention, reference or link:\n%s", state, address, m, md)
			}
		}
	}
}

// reference matches what GitHub would make a mention, an issue reference,
// a link or a commit's link in a text node; a word joiner (U+2060) between
// the parts stops each of them.
var reference = regexp.MustCompile(`@[A-Za-z0-9]|#[0-9]|GH-[0-9]|https?://|www\.|[0-9a-fA-F]{7}`)

// rendered renders md as GitHub's Markdown does and returns the links'
// destinations, and the text outside them as a reader sees it.
func rendered(t *testing.T, md string) (hrefs []string, text string) {
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
		switch {
		case n.Type == html.ElementNode && n.DataAtom == atom.A:
			for _, a := range n.Attr {
				if a.Key == "href" {
					hrefs = append(hrefs, a.Val)
				}
			}
			return
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return hrefs, b.String()
}

// TestMarkdownCutsSummary: a summary of any length is cut to MaxSummary
// characters, so the comment it goes into stays within GitHub's 65,536.
func TestMarkdownCutsSummary(t *testing.T) {
	t.Parallel()
	for _, summary := range []string{strings.Repeat(":", 650_000), strings.Repeat("é", 650_000), strings.Repeat("ab", 325_000)} {
		md := Shown{URL: "https://x.mintlify.app", State: Failure, Summary: summary}.Markdown()
		if n := utf8.RuneCountInString(md); n > 12*MaxSummary+200 {
			t.Errorf("a summary of %d bytes renders as %d characters", len(summary), n)
		}
		if !strings.HasSuffix(md, "…\n") {
			t.Errorf("the cut is not marked: …%q", md[len(md)-20:])
		}
	}
	short := strings.Repeat("x", MaxSummary)
	if md := (Shown{URL: "https://x.mintlify.app", State: Failure, Summary: short}).Markdown(); !strings.HasSuffix(md, short+"\n") {
		t.Errorf("a summary of MaxSummary characters is cut: …%q", md[len(md)-20:])
	}
}
