package demo

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// markdown renders as GitHub does the parts the demo shows: CommonMark with
// GitHub's tables and autolinks.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// theComment is the one comment on number as it reads (asText), and how
// often it was edited.
func theComment(gh *fakegithub.Server, number int) (text string, edits int, err error) {
	comments := gh.Comments(number)
	if len(comments) != 1 {
		return "", 0, fmt.Errorf("demo: %d comments on #%d, want 1", len(comments), number)
	}
	text, err = asText(comments[0].Body)
	return text, comments[0].Edits, err
}

// asText shows Markdown as a reader of the page sees it: rendered to HTML
// (goldmark, with GitHub's extensions), then to text. Entities are
// decoded; invisible characters (the word joiners that stop GitHub's
// autolinks) are removed; a link shows its text and, when that differs,
// its address; a table shows its cells in aligned columns; an image shows
// its description.
func asText(md string) (string, error) {
	var h bytes.Buffer
	if err := markdown.Convert([]byte(md), &h); err != nil {
		return "", fmt.Errorf("demo: render the Markdown: %w", err)
	}
	doc, err := html.Parse(&h)
	if err != nil {
		return "", fmt.Errorf("demo: read the rendered HTML: %w", err)
	}
	var t text
	t.node(doc)
	out := strings.ReplaceAll(t.b.String(), "\u2060", "")
	for strings.Contains(out, "\n\n\n") {
		out = strings.ReplaceAll(out, "\n\n\n", "\n\n")
	}
	return strings.TrimSpace(out) + "\n", nil
}

type text struct{ b strings.Builder }

func (t *text) node(n *html.Node) {
	switch {
	case n.Type == html.TextNode:
		t.b.WriteString(n.Data)
		return
	case n.Type != html.ElementNode && n.Type != html.DocumentNode:
		return
	case n.DataAtom == atom.Table:
		t.table(n)
		return
	case n.DataAtom == atom.Img:
		t.b.WriteString("[image: " + attr(n, "alt") + "]")
		return
	case n.DataAtom == atom.Br:
		t.b.WriteString("\n")
		return
	case n.DataAtom == atom.Li:
		t.b.WriteString("- ")
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		t.node(c)
	}
	switch n.DataAtom {
	case atom.A:
		if href := attr(n, "href"); href != "" && href != inner(n) {
			t.b.WriteString(" <" + href + ">")
		}
	case atom.P, atom.H1, atom.H2, atom.H3, atom.H4, atom.Blockquote, atom.Pre, atom.Ul, atom.Ol:
		t.b.WriteString("\n\n")
	case atom.Li:
		t.b.WriteString("\n")
	}
}

// table writes n's rows with each column padded to its widest cell.
func (t *text) table(n *html.Node) {
	var rows [][]string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.DataAtom == atom.Tr {
			var row []string
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.DataAtom == atom.Td || c.DataAtom == atom.Th {
					var cell text
					for cc := c.FirstChild; cc != nil; cc = cc.NextSibling {
						cell.node(cc)
					}
					row = append(row, strings.TrimSpace(strings.ReplaceAll(cell.b.String(), "\u2060", "")))
				}
			}
			rows = append(rows, row)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	var width []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		if strings.Join(r, "") == "" {
			continue
		}
		var line strings.Builder
		for i, c := range r {
			line.WriteString(c + strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)+2))
		}
		t.b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	t.b.WriteString("\n")
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// inner is the text inside n, with the word joiners removed.
func inner(n *html.Node) string {
	var t text
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		t.node(c)
	}
	return strings.ReplaceAll(t.b.String(), "\u2060", "")
}
