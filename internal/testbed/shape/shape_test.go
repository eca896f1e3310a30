package shape

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentjob/agent-job-action/internal/testbed/census"
	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

// ceilingFile holds the figures none may rise above.
const ceilingFile = "testdata/figures.golden"

// The targets, which every figure meets: a figure above its target
// fails the test whatever its ceiling says, so that no -update can record
// a shape the issue refused (.ci/run runs this test).
const (
	targetEdges                 = 235
	targetLines                 = 22500
	targetDecideSites           = 3
	targetDecidePackages        = 1
	targetWithValue             = 0
	targetWriterExportedMethods = 12
	targetWriterPortMethods     = 4
	targetRunnerEnvPackages     = 1
)

// targets are the targets by figure, for the log.
var targets = map[string]int{
	Edges:                 targetEdges,
	Lines:                 targetLines,
	DecideSites:           targetDecideSites,
	DecidePackages:        targetDecidePackages,
	WithValue:             targetWithValue,
	WriterExportedMethods: targetWriterExportedMethods,
	WriterPortMethods:     targetWriterPortMethods,
	RunnerEnvPackages:     targetRunnerEnvPackages,
}

// TestNoFigureGrows: no structure figure of the module is above its
// ceiling in testdata/figures.golden, nor above its target. A figure lowered on purpose is
// recorded with -update, which rewrites the ceiling, and the diff shows
// which went down by how much; one below its ceiling only logs, so that
// the next -update lowers it.
func TestNoFigureGrows(t *testing.T) {
	t.Parallel()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := census.Root(wd)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Measure(root)
	if err != nil {
		t.Fatal(err)
	}
	// The walk must have seen the module: a walk that reads nothing
	// measures every figure at zero, which no ceiling would catch.
	if got[Edges] <= 100 || got[Lines] <= 10000 {
		t.Fatalf("the figures of %s are too small for the module, the walk missed it: %v", root, got)
	}
	if golden.Updating() {
		if err := os.WriteFile(ceilingFile, Format(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(ceilingFile)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	ceiling, err := Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", ceilingFile, err)
	}
	for _, name := range Names {
		c, ok := ceiling[name]
		if name == Lines {
			// Lines may grow while the coverage does, up to the issue's
			// bound: a ceiling below it is the bound's until -update
			// lowers the next one.
			c = max(c, targetLines)
		}
		g := got[name]
		switch {
		case !ok:
			t.Errorf("%s: %d, not in %s; run go test ./internal/testbed/shape -update and commit the diff", name, g, ceilingFile)
		case g > c:
			t.Errorf("%s: %d, %d above the ceiling of %d in %s; the figures only go down: if one went down on purpose, record it with go test ./internal/testbed/shape -update",
				name, g, g-c, c, ceilingFile)
		case g < c:
			t.Logf("%s: %d, %d below the ceiling of %d (-update lowers it)", name, g, c-g, c)
		}
		if target := targets[name]; g > target {
			t.Errorf("%s: %d, %d above the target of %d", name, g, g-target, target)
		} else {
			t.Logf("%s: %d, at or below the target of %d", name, g, target)
		}
	}
}

// TestTargetsNameEveryFigure: every figure has a target and the names
// are sorted as the ceiling file lists them.
func TestTargetsNameEveryFigure(t *testing.T) {
	t.Parallel()
	if !slices.IsSorted(Names) {
		t.Errorf("Names = %v, not sorted", Names)
	}
	for _, name := range Names {
		if _, ok := targets[name]; !ok {
			t.Errorf("%s has no target", name)
		}
	}
	if len(targets) != len(Names) {
		t.Errorf("%d targets for %d figures", len(targets), len(Names))
	}
}

// fakeModule is a module whose every file says what it adds to which
// figure, and why what it does not add does not count.
var fakeModule = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.26\n",
	// 10 lines; edge to a; os.Getenv: the root is a package that reads
	// the environment; testbed is no edge.
	"main.go": `package main

import (
	"os"

	"example.com/m/internal/a"
	"example.com/m/internal/testbed/tb"
)

func main() { a.A(); tb.T(); _ = os.Getenv("X") }
`,
	// 5 lines; edge to b, from a file go list would not see without the tag.
	"nodemo.go": `//go:build nodemo

package main

import "example.com/m/internal/b"
`,
	// 11 lines; edge to b; fakes and a module whose path only starts with
	// this one's are no edges; one WithValue.
	"internal/a/a.go": `package a

import (
	"context"

	"example.com/m/internal/b"
	"example.com/m/internal/fakes/f"
	"example.com/mx/other"
)

func A() { _ = context.WithValue(context.Background(), b.K{}, f.F); other.O() }
`,
	// 12 lines; b again (still one edge), an edge to c; a WithValue under
	// another name.
	"internal/a/a_unix.go": `//go:build unix

package a

import (
	ctx "context"

	"example.com/m/internal/b"
	"example.com/m/internal/c"
)

var _ = ctx.WithValue(nil, b.K{}, c.C)
`,
	// A test file counts nothing.
	"internal/a/a_test.go": `package a

import (
	"context"
	"os"

	"example.com/m/internal/check"
	"example.com/m/internal/settle"
)

func init() { check.Decide(); _ = context.WithValue(nil, 1, 2); os.Getenv("T") }

type Writer interface{ W() }
`,
	// 18 lines; a Writer of two methods (not the embedded one);
	// os.LookupEnv; names that are not the imports they look like.
	"internal/b/b.go": `package b

import (
	"io"
	"os"
)

type Writer interface {
	Write(p []byte) (int, error)
	Flush() error
	io.Closer
}

type K struct{}

var check, context struct{ Decide, WithValue func() }

func B() { check.Decide(); context.WithValue(); os.LookupEnv("Y") }
`,
	// 7 lines; edge to check; two decide sites, under another name.
	"internal/c/c.go": `package c

import chk "example.com/m/internal/check"

var C = 1

func init() { chk.Decide(); chk.DecideGroup(); chk.Other() }
`,
	// 7 lines; check's own files decide; os.Environ.
	"internal/check/check.go": `package check

import "os"

func Decide()      { DecideGroup(); _ = os.Environ() }
func DecideGroup() {}
func Other()       {}
`,
	// 15 lines; edge to check; one decide site; three exported methods,
	// one of them on an unexported type; its own Writer is no port.
	"internal/publish/p.go": `package publish

import "example.com/m/internal/check"

type Reporter struct{}

type observer struct{}

func (r *Reporter) Apply()      { check.Decide() }
func (r Reporter) Name() string { return "" }
func (r *Reporter) state()      {}
func (o *observer) Sleeping()   {}
func Free()                     {}

type Writer interface{ Own() }
`,
	// A test file's methods are no surface.
	"internal/publish/p_test.go": "package publish\n\nfunc (r *Reporter) Helper() {}\n",
	// 10 lines; a Writer of two methods in a group; a Reader is no port;
	// os.Getenv taken as a value, not called, reads the environment too.
	"internal/settle/s.go": `package settle

import "os"

type (
	Writer interface{ Apply(); Gone() int }
	Reader interface{ Read() }
)

var getenv = os.Getenv
`,
	// Not the product: the shared helpers, a directory of test files only,
	// testdata, _ and . directories, another module.
	"internal/testbed/tb/tb.go":    helper,
	"internal/fakes/f/f.go":        helper,
	"internal/d/d_test.go":         helper,
	"internal/a/testdata/x/x.go":   helper,
	"internal/_skip/s.go":          helper,
	"internal/.hidden/h.go":        helper,
	"internal/nested/go.mod":       "module example.com/m/internal/nested\n",
	"internal/nested/n.go":         helper,
	"internal/nested/deep/deep.go": helper,
}

// helper does everything the figures count, in a place that is not the
// product.
const helper = `package h

import (
	"context"
	"os"

	"example.com/m/internal/a"
	"example.com/m/internal/check"
)

type Writer interface{ W() }

func (h *H) Exported() {}

func init() { a.A(); check.Decide(); context.WithValue(nil, 1, 2); os.Getenv("X") }
`

// TestMeasureFakeModule: Measure of fakeModule counts what each file says
// it adds, and nothing from what is not the product, so that a figure
// cannot silently measure nothing (or everything).
func TestMeasureFakeModule(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for name, src := range fakeModule {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Measure(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want int
		why  string
	}{
		{Edges, 6, "root→a, root→b (tagged), a→b (twice), a→c, c→check, publish→check"},
		{Lines, 95, "10+5 root, 11+12 a, 18 b, 7 c, 7 check, 15 publish, 10 settle"},
		{DecideSites, 3, "chk.Decide, chk.DecideGroup in c; check.Decide in publish"},
		{DecidePackages, 2, "c and publish"},
		{WithValue, 2, "context.WithValue and ctx.WithValue in a"},
		{WriterExportedMethods, 3, "Apply, Name, Sleeping"},
		{WriterPortMethods, 4, "Write, Flush in b; Apply, Gone in settle"},
		{RunnerEnvPackages, 4, "the root, b, check, settle"},
	} {
		if got[tc.name] != tc.want {
			t.Errorf("%s = %d, want %d: %s", tc.name, got[tc.name], tc.want, tc.why)
		}
	}
	if len(got) != len(Names) {
		t.Errorf("Measure = %v, want the %d figures %v", got, len(Names), Names)
	}
	back, err := Parse(Format(got))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Names {
		if back[name] != got[name] {
			t.Errorf("Parse(Format(figures))[%s] = %d, want %d", name, back[name], got[name])
		}
	}
}

// TestParseRefuses: a ceiling file that is not one Format wrote is an
// error, not a ceiling of nothing.
func TestParseRefuses(t *testing.T) {
	t.Parallel()
	for _, data := range []string{
		"",                        // no figure
		"# only a comment\n",      // no figure
		"edges\t12\n",             // a tab, not a space
		"edges 12 13\n",           // a value too many
		"edges\n",                 // no value
		"edges many\n",            // not a number
		"edges -1\n",              // negative
		"edges 1\nedges 2\n",      // a figure twice
		"wires 1\n",               // no such figure
		"edges 1\nlines 2\nbad\n", // a bad line after good ones
	} {
		if got, err := Parse([]byte(data)); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", data, got)
		}
	}
}
