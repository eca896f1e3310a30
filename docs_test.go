package main

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"go.yaml.in/yaml/v4"
)

// pages are the Markdown pages a reader of the repository follows.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("docs/*.md: %v, %d pages", err, len(docs))
	}
	return append([]string{"README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md"}, docs...)
}

// TestPagesLinkWhatExists (issue 26, item 6): every relative link of every
// page names a file or directory of the repository and, with #, a section
// of that page; a link to a section of the page itself names one of its
// sections.
func TestPagesLinkWhatExists(t *testing.T) {
	t.Parallel()
	for _, page := range pages(t) {
		src, err := readRepo(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, problem := range brokenLinks(page, src, readRepo) {
			t.Errorf("%s: %s", page, problem)
		}
	}
}

// readRepo reads a file of the repository by its path from the root; a
// directory has no text.
func readRepo(name string) ([]byte, error) {
	fi, err := os.Stat(filepath.FromSlash(name))
	switch {
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, nil
	}
	return os.ReadFile(filepath.FromSlash(name))
}

// TestBrokenLinksCatchesMisses: the check above fails on a missing file, a
// missing section of another page and of the page itself, and passes what
// GitHub resolves.
func TestBrokenLinksCatchesMisses(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"docs/other.md": "# Other\n\n## Bursts: every request answered once\n\n## `/docs` in issues\n\n## Twice\n\n## Twice\n",
		"binary/run.sh": "#!/bin/sh\n",
		"binary":        "",
	}
	read := func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	page := "# Page\n\n## Limits\n\n" +
		"[ok](other.md) [ok](other.md#bursts-every-request-answered-once) [ok](other.md#docs-in-issues) [ok](other.md#twice-1)\n" +
		"[ok](#limits) [ok](../binary/run.sh) [ok](../binary/) [ok](https://example.com/missing.md) [ok](mailto:a@example.com)\n" +
		"[missing file](gone.md) [missing section](other.md#nowhere) [missing here](#nowhere) [missing third](other.md#twice-2)\n"
	got := brokenLinks("docs/page.md", []byte(page), read)
	want := []string{"gone.md", "other.md#nowhere", "#nowhere", "other.md#twice-2"}
	if len(got) != len(want) {
		t.Fatalf("problems %q, want one for each of %q", got, want)
	}
	for i, w := range want {
		if !strings.Contains(got[i], "("+w+")") {
			t.Errorf("problem %d is %q, want one about %s", i, got[i], w)
		}
	}
}

// brokenLinks returns a line for each relative link of page (a path from
// the repository's root, with source src) that names no file, or no
// section of the page it names. read gives a file's text by its path from
// the root (nothing for a directory), or an error when there is none.
func brokenLinks(page string, src []byte, read func(string) ([]byte, error)) []string {
	var problems []string
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest string
		switch l := n.(type) {
		case *ast.Link:
			dest = string(l.Destination)
		case *ast.Image:
			dest = string(l.Destination)
		default:
			return ast.WalkContinue, nil
		}
		u, err := url.Parse(dest)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("link (%s) does not parse: %v", dest, err))
			return ast.WalkContinue, nil
		case u.Scheme != "" || u.Host != "":
			return ast.WalkContinue, nil // not the repository's
		}
		target, targetSrc := page, src
		if u.Path != "" {
			target = path.Join(path.Dir(page), u.Path)
			if targetSrc, err = read(target); err != nil {
				problems = append(problems, fmt.Sprintf("link (%s): no file %s", dest, target))
				return ast.WalkContinue, nil
			}
		}
		if u.Fragment != "" && !slices.Contains(anchors(targetSrc), u.Fragment) {
			problems = append(problems, fmt.Sprintf("link (%s): %s has no section #%s", dest, target, u.Fragment))
		}
		return ast.WalkContinue, nil
	})
	return problems
}

// anchors are the ids GitHub gives the headings of a Markdown page: the
// heading's text in lower case, without punctuation, spaces as hyphens;
// the second of two equal ones gets -1, the third -2.
func anchors(src []byte) []string {
	var ids []string
	seen := map[string]int{}
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		var b strings.Builder
		for _, r := range strings.ToLower(plainText(h, src)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		id := b.String()
		if k := seen[id]; k > 0 {
			ids = append(ids, fmt.Sprintf("%s-%d", id, k))
		} else {
			ids = append(ids, id)
		}
		seen[id]++
		return ast.WalkSkipChildren, nil
	})
	return ids
}

// plainText is the text of n's inlines, code spans included, as a reader
// sees it.
func plainText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// TestLimitsURLResolves (issue 26, item 2): the error, the advice on a 429
// and the demo link the README's one statement of the rate limit; the
// section they name exists.
func TestLimitsURLResolves(t *testing.T) {
	t.Parallel()
	src, err := readRepo("README.md")
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(agentapi.LimitsURL)
	if err != nil || u.Fragment == "" || !slices.Contains(anchors(src), u.Fragment) {
		t.Errorf("%s: README.md has no such section (%v)", agentapi.LimitsURL, err)
	}
}

// TestYAMLBlocksParse (issue 26, item 6): every yaml block of every page
// parses as YAML, step lists and fragments included, so that what a reader
// copies is at least well-formed (complete workflows are also linted by
// actionlint in .ci/run).
func TestYAMLBlocksParse(t *testing.T) {
	t.Parallel()
	n := 0
	for _, page := range pages(t) {
		src, err := os.ReadFile(filepath.FromSlash(page))
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range yamlBlocks(src) {
			n++
			var v any
			if err := yaml.Unmarshal([]byte(block.text), &v); err != nil {
				t.Errorf("%s:%d: the yaml block does not parse: %v\n%s", page, block.line, err, block.text)
			}
		}
	}
	if n < 10 {
		t.Errorf("%d yaml blocks found; the pages hold more", n)
	}
	// The snippet issue 26 found: a plain value cannot hold ": ".
	var v any
	if yaml.Unmarshal([]byte(`run: echo "Pull request: ${PR_LINK:-none}"`), &v) == nil {
		t.Error("the parser accepts a plain value holding \": \"; this test cannot catch it")
	}
}

type codeBlock struct {
	line int // of the opening fence, from 1
	text string
}

// yamlBlocks are the fenced code blocks of src whose info string is yaml.
func yamlBlocks(src []byte) []codeBlock {
	var blocks []codeBlock
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		f, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok || string(f.Language(src)) != "yaml" {
			return ast.WalkContinue, nil
		}
		var b strings.Builder
		lines := f.Lines()
		for i := range lines.Len() {
			seg := lines.At(i)
			b.Write(seg.Value(src))
		}
		line := 1
		if lines.Len() > 0 {
			line = bytes.Count(src[:lines.At(0).Start], []byte("\n"))
		}
		blocks = append(blocks, codeBlock{line: line, text: b.String()})
		return ast.WalkContinue, nil
	})
	return blocks
}
