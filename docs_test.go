package main

import (
	"bytes"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/report"
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

// TestPagesLinkWhatExists: every relative link of every
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

// TestLimitsURLResolves: the error, the advice on a 429
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

// TestYAMLBlocksParse: every yaml block of every page
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

// TestREADMEFitsOnePage: the README is usage; scenarios
// and details live in docs/, which it links.
func TestREADMEFitsOnePage(t *testing.T) {
	t.Parallel()
	src, err := readRepo("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(src, []byte("\n")); n > 400 {
		t.Errorf("README.md has %d lines, more than 400: move a scenario or a detail to docs/", n)
	}
}

// TestDocsExamplesWorkAsCopied: what a reader copies
// from any page works: every input given to the action (or to the reusable
// workflow) exists, every complete workflow grants the permissions its
// steps use, a workflow the pages show twice (by its name) has the same
// triggers, permissions, concurrency and inputs each time, and a page that
// uses concurrency's queue key shows the actionlint line it needs.
func TestDocsExamplesWorkAsCopied(t *testing.T) {
	t.Parallel()
	ex := readExampleRules(t)
	var srcs []examplePage
	for _, page := range pages(t) {
		src, err := readRepo(page)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, examplePage{page, src})
	}
	for _, p := range ex.problems(srcs) {
		t.Error(p)
	}

	// The checks notice each kind of mistake the pages once held.
	page := func(blocks ...string) []examplePage {
		return []examplePage{{"docs/x.md", []byte("```yaml\n" + strings.Join(blocks, "```\n\n```yaml\n") + "```\n")}}
	}
	const weekly = `name: Weekly
on:
  schedule:
    - cron: "0 6 * * 1"
permissions:
  issues: write
  pull-requests: write
jobs:
  m:
    runs-on: ubuntu-latest
    steps:
      - uses: agentjob/agent-job-action@v1
        with:
          prompt: x
          issue-number: 34
`
	if p := ex.problems(page(weekly)); len(p) != 0 {
		t.Fatalf("a good example has problems: %q", p)
	}
	for _, tt := range []struct{ name, want string }{
		{"unknown input", "no input trigger-labels"},
		{"no backlink permission", "pull-requests: write"},
		{"triggers differ", "on: differs"},
		{"queue without the line", "actionlint"},
		{"filter by if", "trigger-label"},
		{"setup-go without a version", "installs no Go"},
		{"setup-go too old", "go.mod needs"},
		{"setup-go in a comment", "only in a comment"},
	} {
		var blocks []string
		switch tt.name {
		case "unknown input":
			blocks = []string{strings.Replace(weekly, "issue-number", "trigger-labels", 1)}
		case "no backlink permission":
			blocks = []string{strings.Replace(weekly, "  pull-requests: write\n", "", 1)}
		case "triggers differ":
			blocks = []string{weekly, strings.Replace(weekly, "schedule:\n    - cron: \"0 6 * * 1\"", "workflow_dispatch:", 1)}
		case "queue without the line":
			blocks = []string{strings.Replace(weekly, "jobs:", "concurrency:\n  group: g\n  queue: max\njobs:", 1)}
		case "filter by if":
			blocks = []string{strings.Replace(weekly, "    runs-on:", "    if: github.event.label.name == 'docs'\n    runs-on:", 1)}
		case "setup-go without a version":
			blocks = []string{strings.Replace(weekly, "    steps:\n", "    steps:\n      - uses: actions/setup-go@v6\n", 1)}
		case "setup-go in a comment":
			blocks = []string{strings.Replace(weekly, "    steps:\n", "    steps:\n      # add - uses: actions/setup-go@v6\n", 1)}
		case "setup-go too old":
			blocks = []string{"      - uses: actions/setup-go@v6\n        with:\n          go-version: \"1.22\"\n      - uses: agentjob/agent-job-action/binary@v1\n"}
		}
		p := ex.problems(page(blocks...))
		if !slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, tt.want) }) {
			t.Errorf("%s: problems %q, want one that says %q", tt.name, p, tt.want)
		}
	}
}

type examplePage struct {
	name string
	src  []byte
}

// exampleRules is what the examples are held to, read from the repository.
type exampleRules struct {
	inputs        map[string]bool // action.yml's
	reusable      map[string]bool // docs-agent.yml's inputs and secrets
	reusablePerms map[string]string
	queueIgnore   string // .github/actionlint.yaml's ignore line for queue:
	goVersion     string // go.mod's go line, major.minor: the Go the binary action builds with
}

func readExampleRules(t *testing.T) exampleRules {
	t.Helper()
	var action struct {
		Inputs map[string]any `yaml:"inputs"`
	}
	var reusable struct {
		On struct {
			Call struct {
				Inputs  map[string]any `yaml:"inputs"`
				Secrets map[string]any `yaml:"secrets"`
			} `yaml:"workflow_call"`
		} `yaml:"on"`
		Jobs map[string]struct {
			Permissions map[string]string `yaml:"permissions"`
		} `yaml:"jobs"`
	}
	var lint struct {
		Paths map[string]struct {
			Ignore []string `yaml:"ignore"`
		} `yaml:"paths"`
	}
	for _, f := range []struct {
		name string
		v    any
	}{{"action.yml", &action}, {".github/workflows/docs-agent.yml", &reusable}, {".github/actionlint.yaml", &lint}} {
		src, err := readRepo(f.name)
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(src, f.v); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
	}
	r := exampleRules{inputs: map[string]bool{}, reusable: map[string]bool{}, reusablePerms: map[string]string{}}
	for name := range action.Inputs {
		r.inputs[name] = true
	}
	for name := range reusable.On.Call.Inputs {
		r.reusable[name] = true
	}
	for name := range reusable.On.Call.Secrets {
		r.reusable[name] = true
	}
	for _, job := range reusable.Jobs {
		maps.Copy(r.reusablePerms, job.Permissions)
	}
	for _, p := range lint.Paths {
		for _, line := range p.Ignore {
			if strings.Contains(line, `"queue"`) {
				r.queueIgnore = line
			}
		}
	}
	mod, err := readRepo("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			parts := strings.SplitN(v, ".", 3)
			r.goVersion = strings.Join(parts[:min(2, len(parts))], ".")
		}
	}
	if len(r.inputs) < 20 || len(r.reusable) < 5 || len(r.reusablePerms) == 0 || r.queueIgnore == "" || r.goVersion == "" {
		t.Fatalf("read too little: %d inputs, %d of the reusable workflow's, its permissions %v, queue ignore %q",
			len(r.inputs), len(r.reusable), r.reusablePerms, r.queueIgnore)
	}
	return r
}

// exampleWorkflow is a complete workflow a page shows.
type exampleWorkflow struct {
	Name        string                `yaml:"name"`
	On          any                   `yaml:"on"`
	Permissions any                   `yaml:"permissions"`
	Concurrency any                   `yaml:"concurrency"`
	Jobs        map[string]exampleJob `yaml:"jobs"`
}

type exampleJob struct {
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	With  map[string]any    `yaml:"with"`
	Steps []exampleStep     `yaml:"steps"`
	Perms map[string]string `yaml:"permissions"`
}

type exampleStep struct {
	Uses string         `yaml:"uses"`
	With map[string]any `yaml:"with"`
}

func (s exampleStep) isAction() bool {
	return strings.HasPrefix(s.Uses, "agentjob/agent-job-action@") || strings.HasPrefix(s.Uses, "agentjob/agent-job-action/binary@")
}

// problems lists what is wrong with the examples of pages.
func (r exampleRules) problems(pages []examplePage) []string {
	var problems []string
	type seen struct {
		where string
		wf    exampleWorkflow
		with  map[string]any // the action step's, nil when none
	}
	byName := map[string]seen{}
	for _, page := range pages {
		queue := false
		for _, block := range yamlBlocks(page.src) {
			where := fmt.Sprintf("%s:%d", page.name, block.line)
			var wf exampleWorkflow
			var steps []exampleStep
			var single exampleStep
			switch {
			case yaml.Unmarshal([]byte(block.text), &steps) == nil:
			case yaml.Unmarshal([]byte(block.text), &wf) == nil && wf.On != nil && wf.Jobs != nil:
			case yaml.Unmarshal([]byte(block.text), &single) == nil:
				steps = []exampleStep{single}
			}
			for _, s := range steps {
				problems = append(problems, r.unknownInputs(where, s)...)
				problems = append(problems, r.setupGo(where, s)...)
			}
			if strings.Contains(block.text, "actions/setup-go") && !usesSetupGo(steps, wf) {
				problems = append(problems, fmt.Sprintf("%s: names actions/setup-go only in a comment: a reader copies no go-version from it; show it as a step", where))
			}
			if wf.Jobs == nil {
				continue
			}
			if c, ok := wf.Concurrency.(map[string]any); ok && c["queue"] != nil {
				queue = true
			}
			var with map[string]any
			for name, job := range wf.Jobs {
				if strings.HasSuffix(strings.SplitN(job.Uses, "@", 2)[0], "/docs-agent.yml") {
					for k := range job.With {
						if !r.reusable[k] {
							problems = append(problems, fmt.Sprintf("%s: the reusable workflow has no input %s", where, k))
						}
					}
					problems = append(problems, missingPerms(where, wf.Permissions, r.reusablePerms)...)
				}
				for _, s := range job.Steps {
					problems = append(problems, r.unknownInputs(where, s)...)
					problems = append(problems, r.setupGo(where, s)...)
					if !s.isAction() {
						continue
					}
					with = s.With
					problems = append(problems, missingPerms(where, wf.Permissions, neededPerms(wf.On, s.With))...)
					// The one label an if: may name is the release label's
					// (release-label): the job skips every other label
					// without billing a runner, and a code workflow's
					// other labels are no requests.
					release := "docs-not-needed"
					if v, ok := s.With["release-label"].(string); ok {
						release = v
					}
					rest := strings.NewReplacer("github.event.action != 'labeled'", "", "github.event.label.name == '"+release+"'", "").Replace(job.If)
					if strings.Contains(rest, "label") {
						problems = append(problems, fmt.Sprintf("%s: job %s filters labels with if:; the action's trigger-label does that and says why it skipped", where, name))
					}
				}
			}
			if first, ok := byName[wf.Name]; ok {
				for _, f := range []struct {
					what      string
					got, want any
					both      bool // compared only when both run the action in a step
				}{
					{"on:", wf.On, first.wf.On, false},
					{"permissions:", wf.Permissions, first.wf.Permissions, false},
					{"concurrency:", wf.Concurrency, first.wf.Concurrency, true},
					{"the action's inputs", with, first.with, true},
				} {
					if f.both && (with == nil || first.with == nil) {
						continue
					}
					if !reflect.DeepEqual(f.got, f.want) {
						problems = append(problems, fmt.Sprintf("%s: %q's %s differs from %s's: %v, there %v", where, wf.Name, f.what, first.where, f.got, f.want))
					}
				}
			} else {
				byName[wf.Name] = seen{where, wf, with}
			}
		}
		if queue && !bytes.Contains(page.src, []byte(r.queueIgnore)) {
			problems = append(problems, fmt.Sprintf("%s: shows concurrency's queue: without the actionlint ignore line a reader needs for it: %s", page.name, r.queueIgnore))
		}
	}
	return problems
}

// usesSetupGo reports whether steps, or a job of wf, has a step that uses
// actions/setup-go.
func usesSetupGo(steps []exampleStep, wf exampleWorkflow) bool {
	for _, job := range wf.Jobs {
		steps = append(steps, job.Steps...)
	}
	return slices.ContainsFunc(steps, func(s exampleStep) bool { return strings.HasPrefix(s.Uses, "actions/setup-go@") })
}

// setupGo checks that a step that installs Go installs one the binary
// action can build with: setup-go with no go-version installs nothing and
// uses the runner's own Go, which ubuntu-slim lacks.
func (r exampleRules) setupGo(where string, s exampleStep) []string {
	if !strings.HasPrefix(s.Uses, "actions/setup-go@") {
		return nil
	}
	v, _ := s.With["go-version"].(string)
	if v == "" {
		return []string{fmt.Sprintf("%s: actions/setup-go has no go-version: it installs no Go (ubuntu-slim has none); the action needs %s", where, r.goVersion)}
	}
	if !atLeast(v, r.goVersion) {
		return []string{fmt.Sprintf("%s: actions/setup-go installs Go %s; go.mod needs %s", where, v, r.goVersion)}
	}
	return nil
}

// atLeast reports whether the Go version v (1.26, 1.26.1, 1.26.x) is
// want (major.minor) or newer.
func atLeast(v, want string) bool {
	num := func(s string) (major, minor int) {
		parts := strings.SplitN(s, ".", 3)
		if len(parts) < 2 {
			return -1, -1
		}
		a, err1 := strconv.Atoi(parts[0])
		b, err2 := strconv.Atoi(parts[1])
		if err1 != nil || err2 != nil {
			return -1, -1
		}
		return a, b
	}
	va, vb := num(v)
	wa, wb := num(want)
	return va > wa || va == wa && vb >= wb
}

func (r exampleRules) unknownInputs(where string, s exampleStep) []string {
	var problems []string
	if !s.isAction() {
		return nil
	}
	for k := range s.With {
		if !r.inputs[k] {
			problems = append(problems, fmt.Sprintf("%s: action.yml has no input %s", where, k))
		}
	}
	return problems
}

// neededPerms is what the README's Setup says the action's step needs,
// given the workflow's triggers and the step's inputs.
func neededPerms(on any, with map[string]any) map[string]string {
	events := map[string]bool{}
	switch on := on.(type) {
	case string:
		events[on] = true
	case []any:
		for _, e := range on {
			events[fmt.Sprint(e)] = true
		}
	case map[string]any:
		for e := range maps.Keys(on) {
			events[e] = true
		}
	}
	off := func(name string) bool { return fmt.Sprint(with[name]) == "false" }
	need := map[string]string{}
	if !off("wait") && !off("comment") {
		need["pull-requests"] = "write" // the backlink
	}
	if !off("comment") && (events["issues"] || events["issue_comment"] || with["issue-number"] != nil) {
		need["issues"] = "write"
	}
	if events["pull_request"] {
		need["contents"], need["statuses"] = "read", "write"
	}
	return need
}

func missingPerms(where string, granted any, need map[string]string) []string {
	g, _ := granted.(map[string]any)
	var problems []string
	for _, scope := range slices.Sorted(maps.Keys(need)) {
		level := fmt.Sprint(g[scope])
		if level != need[scope] && level != "write" {
			problems = append(problems, fmt.Sprintf("%s: permissions: lack %s: %s", where, scope, need[scope]))
		}
	}
	return problems
}

// TestNoStatusOnlyWorkflow: no page offers a workflow that sets the check
// docs / agent-job itself (the status-only workflow the pages once gave
// forks and bots set success on a fork's head, which any outsider could
// point at a same-repository pull request's commit): every status is the
// action's, which init's outside job runs for forks and bots. Each page's
// workflow is read as YAML, and none of its steps calls the statuses API.
func TestNoStatusOnlyWorkflow(t *testing.T) {
	t.Parallel()
	pages, err := filepath.Glob(filepath.FromSlash("docs/*.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for _, page := range append(pages, "README.md") {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range yamlBlocks(src) {
			var wf struct {
				Jobs map[string]struct {
					Steps []struct {
						Run string `yaml:"run"`
					} `yaml:"steps"`
				} `yaml:"jobs"`
			}
			if yaml.Unmarshal([]byte(b.text), &wf) != nil {
				continue
			}
			blocks++
			for name, job := range wf.Jobs {
				for _, st := range job.Steps {
					if strings.Contains(st.Run, "/statuses/") || strings.Contains(st.Run, check.Context) {
						t.Errorf("%s: job %s sets a commit status itself: %q", page, name, st.Run)
					}
				}
			}
		}
	}
	if blocks < 5 {
		t.Fatalf("read %d workflows on the pages: the search missed them", blocks)
	}
}

// TestStatusOutputListed: the values the status output can hold are the
// ones action.yml's description of it and the README's outputs table list,
// no more and no fewer, so a script that branches on status can rely on
// either.
func TestStatusOutputListed(t *testing.T) {
	t.Parallel()
	// The job statuses the API documents, and a run's own.
	want := slices.Sorted(slices.Values([]string{agentapi.StatusActive, agentapi.StatusCompleted, agentapi.StatusArchived, agentapi.StatusFailed,
		report.StatusDryRun, report.StatusSkipped, report.StatusSettled, report.StatusError}))
	var action struct {
		Outputs map[string]struct {
			Description string `yaml:"description"`
		} `yaml:"outputs"`
	}
	src, err := readRepo("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(src, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if got := describedStatuses(action.Outputs["status"].Description); !slices.Equal(got, want) {
		t.Errorf("action.yml's status output lists %q; a run writes %q", got, want)
	}
	readme, err := readRepo("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := tabledStatuses(readme); !slices.Equal(got, want) {
		t.Errorf("README.md's outputs table lists %q for status; a run writes %q", got, want)
	}
}

// TestListedStatusesCatchDrift: the readings above notice a value left
// out and a value added, so that a passing TestStatusOutputListed means
// something.
func TestListedStatusesCatchDrift(t *testing.T) {
	t.Parallel()
	const desc = "The job's last seen status (active, completed, or a new one the API adds), dry-run, or error when it failed."
	if got, want := describedStatuses(desc), []string{"active", "completed", "dry-run", "error"}; !slices.Equal(got, want) {
		t.Errorf("describedStatuses(%q) = %q, want %q", desc, got, want)
	}
	const row = "| Output | Value |\n|---|---|\n| `status` | The job's last status: `active` (or a new one); `skipped` when the run did nothing; not `settle: true`. |\n| `job` | `x` |\n"
	if got, want := tabledStatuses([]byte(row)), []string{"active", "skipped"}; !slices.Equal(got, want) {
		t.Errorf("tabledStatuses(%q) = %q, want %q", row, got, want)
	}
}

// describedStatuses are the values a status description of action.yml
// names, sorted: the words of its parenthesised list of job statuses,
// then the first word of each clause after it ("dry-run", "skipped when
// …", "or error when …"). action.yml's descriptions are plain text, so
// that shape is the list.
func describedStatuses(desc string) []string {
	var got []string
	add := func(clause string) {
		clause = strings.TrimPrefix(strings.TrimSpace(clause), "or ")
		word, _, _ := strings.Cut(clause, " ")
		if word != "" && strings.Trim(word, "abcdefghijklmnopqrstuvwxyz-") == "" {
			got = append(got, word)
		}
	}
	_, after, _ := strings.Cut(desc, "(")
	inside, rest, _ := strings.Cut(after, ")")
	for _, c := range strings.Split(inside, ",") {
		if c = strings.TrimPrefix(strings.TrimSpace(c), "or "); !strings.Contains(c, " ") {
			add(c)
		}
	}
	for _, c := range strings.Split(strings.TrimSuffix(rest, "."), ",") {
		add(c)
	}
	slices.Sort(got)
	return got
}

// tabledStatuses are the code spans of one word (such as `settled`, not
// `settle: true`) in the status row of the README's outputs table, sorted.
func tabledStatuses(readme []byte) []string {
	var got []string
	for line := range strings.Lines(string(readme)) {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || strings.TrimSpace(cells[1]) != "`status`" {
			continue
		}
		spans := strings.Split(cells[2], "`")
		for i := 1; i < len(spans); i += 2 {
			if strings.Trim(spans[i], "abcdefghijklmnopqrstuvwxyz-") == "" {
				got = append(got, spans[i])
			}
		}
	}
	slices.Sort(got)
	return got
}

// TestREADMEListsEveryInput: the README's list of inputs (section
// "### Inputs": a step with every input under with:, each at its default)
// names every input of action.yml and no other, each at action.yml's
// default, so that "All inputs, with their defaults" stays true when an
// input is added, renamed or removed.
func TestREADMEListsEveryInput(t *testing.T) {
	t.Parallel()
	readme, err := readRepo("README.md")
	if err != nil {
		t.Fatal(err)
	}
	action, err := readRepo("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range inputListProblems(readme, action) {
		t.Error("README.md's Inputs: " + p)
	}
}

// TestInputListProblemsCatchDrift: the comparison above notices an input
// left out, one action.yml lacks, a default that differs and a list that is
// gone, so that a passing TestREADMEListsEveryInput means something.
func TestInputListProblemsCatchDrift(t *testing.T) {
	t.Parallel()
	const action = "name: x\ninputs:\n  prompt:\n    description: p\n  wait:\n    description: w\n    default: \"true\"\n" +
		"  docs-merge:\n    description: m\n    default: \"false\"\n"
	readme := func(with string) string {
		return "# X\n\n### Inputs\n\n```yaml\n- uses: a/b@v1\n  with:\n" + with + "```\n\n### Outputs\n\n```yaml\nwith:\n  other: 1\n```\n"
	}
	const all = "    # The prompt.\n    prompt: \"\"\n    # Wait.\n    wait: true\n    docs-merge: false\n"
	tests := []struct {
		name, readme string
		want         []string // a part of each problem, in order
	}{
		{"in step", readme(all), nil},
		{"an input left out", readme(strings.Replace(all, "    docs-merge: false\n", "", 1)), []string{"lacks docs-merge"}},
		{"an input action.yml lacks", readme(all + "    docs-close: false\n"), []string{"docs-close, which action.yml has not"}},
		{"a default that differs", readme(strings.Replace(all, "wait: true", "wait: false", 1)), []string{`wait: "false"`}},
		{"no list", "# X\n\n### Inputs\n\nNone.\n\n### Outputs\n\n```yaml\nwith:\n  prompt: \"\"\n```\n", []string{"no yaml block"}},
	}
	for _, tt := range tests {
		got := inputListProblems([]byte(tt.readme), []byte(action))
		ok := len(got) == len(tt.want)
		for i := 0; ok && i < len(got); i++ {
			ok = strings.Contains(got[i], tt.want[i])
		}
		if !ok {
			t.Errorf("%s: problems %q, want one with each of %q", tt.name, got, tt.want)
		}
	}
}

// inputListProblems compares the input list of readme, the first yaml
// block of its section "### Inputs" (a step, the inputs under its with:),
// with the inputs of action, action.yml's text: a line for each input the
// list lacks, each it names that action lacks, and each it shows at another
// value than action's default ("" for none).
func inputListProblems(readme, action []byte) []string {
	var spec struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(action, &spec); err != nil || len(spec.Inputs) == 0 {
		return []string{fmt.Sprintf("action.yml has no inputs (%v)", err)}
	}
	heading := regexp.MustCompile(`(?m)^#{1,6} `)
	_, section, found := strings.Cut(string(readme), "\n### Inputs\n")
	if i := heading.FindStringIndex(section); i != nil {
		section = section[:i[0]]
	}
	blocks := yamlBlocks([]byte(section))
	if !found || len(blocks) == 0 {
		return []string{"no yaml block under ### Inputs"}
	}
	var step []struct {
		With yaml.Node `yaml:"with"`
	}
	if err := yaml.Unmarshal([]byte(blocks[0].text), &step); err != nil || len(step) == 0 || step[0].With.Kind != yaml.MappingNode {
		return []string{fmt.Sprintf("the yaml block is no step with inputs under with: (%v)", err)}
	}
	var problems []string
	listed := map[string]bool{}
	with := step[0].With.Content
	for i := 0; i+1 < len(with); i += 2 {
		name, value := with[i].Value, with[i+1].Value
		listed[name] = true
		in, ok := spec.Inputs[name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("names %s, which action.yml has not", name))
		case value != in.Default:
			problems = append(problems, fmt.Sprintf("shows %s: %q, where action.yml's default is %q", name, value, in.Default))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(spec.Inputs)) {
		if !listed[name] {
			problems = append(problems, fmt.Sprintf("lacks %s, an input of action.yml", name))
		}
	}
	return problems
}
