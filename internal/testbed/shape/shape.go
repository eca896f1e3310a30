// Package shape measures the module's structure figures: how its product
// packages import one another, how long they are, and how many places
// reach past the seams the code is being moved towards (check decisions
// taken outside the writer, values hung on a context, ports onto the
// writer, the environment read outside the runner). Its test holds each
// figure to a ceiling committed in testdata/figures.golden, so that one
// that grows does so in a diff a reviewer reads rather than silently,
// and fails one above the target.
//
// The product is every package of the module but the helpers tests share
// (internal/testbed, internal/fakes), in its non-test files only: a test
// file ships nothing, so its imports and calls shape nothing.
package shape

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentjob/agent-job-action/internal/testbed/census"
)

// The figures' names, as testdata/figures.golden spells them. All of
// them should only go down.
const (
	// Edges are the import edges between product packages: per package,
	// the distinct product packages its non-test files import, summed.
	Edges = "edges"
	// Lines are the physical lines of the product's non-test files, as
	// wc -l counts them.
	Lines = "lines"
	// DecideSites are the calls of check.Decide and check.DecideGroup
	// outside package check.
	DecideSites = "decide_sites"
	// DecidePackages are the product packages that hold a DecideSite.
	DecidePackages = "decide_packages"
	// WithValue are the calls of context.WithValue.
	WithValue = "with_value"
	// WriterExportedMethods are the exported methods internal/publish
	// declares, on any of its types: the writer's surface.
	WriterExportedMethods = "writer_exported_methods"
	// WriterPortMethods are the methods of the interfaces named Writer
	// declared outside internal/publish: the ports a package opens onto
	// the writer, each method one more the writer must offer it.
	WriterPortMethods = "writer_port_methods"
	// RunnerEnvPackages are the product packages that read the
	// environment: that call os.Getenv, os.LookupEnv or os.Environ, or
	// hand one on as a value (main.go's Env{Getenv: os.Getenv}).
	RunnerEnvPackages = "runner_env_packages"
)

// Names are the figures Measure measures, sorted as the ceiling file
// lists them.
var Names = []string{
	DecidePackages, DecideSites, Edges, Lines,
	RunnerEnvPackages, WithValue, WriterExportedMethods, WriterPortMethods,
}

// helperTrees are the directories, relative to the root with slashes,
// whose packages are not the product (census's helper trees).
var helperTrees = []string{"internal/testbed", "internal/fakes"}

// The product directories, relative to the root, some figures single out.
const (
	checkDir   = "internal/check"
	publishDir = "internal/publish"
)

// pkg is one product package: its non-test files, parsed, and their lines.
type pkg struct {
	files []*ast.File
	lines int
}

// Measure measures the figures of the module at root. It reads every
// non-test .go file the go command would, whatever its build constraints,
// so that the figures are the same on every platform (go list sees one
// platform's files: an import only a build-tagged file makes is an edge
// here and may not be there); like census, it leaves out what the go
// command leaves out (directories named testdata, or whose name starts
// with "." or "_") and other modules (a directory below root with a
// go.mod of its own).
func Measure(root string) (map[string]int, error) {
	module, err := modulePath(root)
	if err != nil {
		return nil, err
	}
	pkgs, err := load(root)
	if err != nil {
		return nil, err
	}
	fig := map[string]int{}
	for _, name := range Names {
		fig[name] = 0 // a figure that measures nothing is still a line
	}
	for rel, p := range pkgs {
		fig[Lines] += p.lines
		fig[Edges] += edges(p, module, pkgs)
		if rel != checkDir { // check deciding is the point; others asking it is the seam
			sites := calls(p, module+"/"+checkDir, "Decide", "DecideGroup")
			fig[DecideSites] += sites
			if sites > 0 {
				fig[DecidePackages]++
			}
		}
		fig[WithValue] += calls(p, "context", "WithValue")
		if uses(p, "os", "Getenv", "LookupEnv", "Environ") > 0 {
			fig[RunnerEnvPackages]++
		}
		if rel == publishDir {
			fig[WriterExportedMethods] += exportedMethods(p)
		} else {
			fig[WriterPortMethods] += interfaceMethods(p, "Writer")
		}
	}
	return fig, nil
}

// modulePath is the module path go.mod at root declares.
func modulePath(root string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "module" {
			continue
		}
		if path, err := strconv.Unquote(f[1]); err == nil {
			return path, nil
		}
		return f[1], nil
	}
	return "", fmt.Errorf("%s/go.mod declares no module", root)
}

// load parses the product packages under root, keyed by their directory
// relative to root with slashes ("." for root itself); a directory with
// no non-test .go file is no package of the product.
func load(root string) (map[string]*pkg, error) {
	pkgs := map[string]*pkg{}
	err := census.Dirs(root, func(path, rel string) error {
		if slices.Contains(helperTrees, rel) {
			return filepath.SkipDir
		}
		p, err := loadDir(path)
		if err != nil {
			return err
		}
		if len(p.files) > 0 {
			pkgs[rel] = p
		}
		return nil
	})
	return pkgs, err
}

// loadDir parses the non-test .go files in dir.
func loadDir(dir string) (*pkg, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	p := &pkg{}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.files = append(p.files, f)
		p.lines += bytes.Count(src, []byte("\n"))
	}
	return p, nil
}

// edges counts the distinct product packages p's files import, all its
// files together: an import two files make, or two build-tagged variants
// of a file, is one edge.
func edges(p *pkg, module string, pkgs map[string]*pkg) int {
	to := map[string]bool{}
	for _, f := range p.files {
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			rel, ok := strings.CutPrefix(path, module+"/") // the slash: example.com/mx is not in example.com/m
			if ok && pkgs[rel] != nil {
				to[rel] = true
			}
		}
	}
	return len(to)
}

// calls counts the calls X.Sel(...) in p's files, Sel one of sels, whose
// X is the name the file imports path by.
func calls(p *pkg, path string, sels ...string) int {
	return count(p, path, sels, func(n ast.Node) ast.Expr {
		if call, ok := n.(*ast.CallExpr); ok {
			return call.Fun
		}
		return nil
	})
}

// uses counts X.Sel in p's files as calls does, called or not: os.Getenv
// handed on as a value reads the environment as surely as a call of it.
func uses(p *pkg, path string, sels ...string) int {
	return count(p, path, sels, func(n ast.Node) ast.Expr {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			return sel
		}
		return nil
	})
}

// count counts the nodes of p's files that at picks an X.Sel out of, Sel
// one of sels and X the name the file imports path by. There is no type
// checker here (it would have to build every import): a file that
// imports path and also shadows its name would have the shadow's counted;
// none does. A file that does not import path uses nothing of it, whatever
// its identifiers are named.
func count(p *pkg, path string, sels []string, at func(ast.Node) ast.Expr) int {
	n := 0
	for _, f := range p.files {
		local := importName(f, path)
		if local == "" {
			continue
		}
		ast.Inspect(f, func(node ast.Node) bool {
			sel, ok := at(node).(*ast.SelectorExpr)
			if !ok || !slices.Contains(sels, sel.Sel.Name) {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
				n++
			}
			return true
		})
	}
	return n
}

// importName is the name f imports path by, "" when it does not or when
// the import names nothing to select from (blank or dot). An unnamed
// import is taken by the path's last element, which the packages it is
// asked about (context, os, internal/check) are named.
func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p != path {
			continue
		}
		if imp.Name == nil {
			return path[strings.LastIndex(path, "/")+1:]
		}
		if imp.Name.Name == "_" || imp.Name.Name == "." {
			return ""
		}
		return imp.Name.Name
	}
	return ""
}

// exportedMethods counts the method declarations of p whose name is
// exported, whatever the receiver's type: an exported method of an
// unexported type still answers an interface another package declares.
func exportedMethods(p *pkg) int {
	n := 0
	for _, f := range p.files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.IsExported() {
				n++
			}
		}
	}
	return n
}

// interfaceMethods counts the methods of the interface types named name
// that p declares; an embedded interface or a type constraint in one is
// no method it declares.
func interfaceMethods(p *pkg, name string) int {
	n := 0
	for _, f := range p.files {
		ast.Inspect(f, func(node ast.Node) bool {
			spec, ok := node.(*ast.TypeSpec)
			if !ok || spec.Name.Name != name {
				return true
			}
			if it, ok := spec.Type.(*ast.InterfaceType); ok {
				for _, m := range it.Methods.List {
					if _, ok := m.Type.(*ast.FuncType); ok {
						n += len(m.Names)
					}
				}
			}
			return true
		})
	}
	return n
}

// Format is the ceiling file of figures: a line per figure, name and
// value, sorted.
func Format(fig map[string]int) []byte {
	var b strings.Builder
	b.WriteString("# The ceiling of internal/testbed/shape: the structure figures of the\n")
	b.WriteString("# module's product packages, none of which may grow.\n")
	b.WriteString("# go test ./internal/testbed/shape -update rewrites it.\n")
	for _, name := range Names {
		fmt.Fprintf(&b, "%s %d\n", name, fig[name])
	}
	return []byte(b.String())
}

// Parse reads a ceiling file Format wrote: the figures by name. It
// refuses a figure Measure does not measure, so that one renamed or gone
// is rewritten with -update rather than held to nothing.
func Parse(data []byte) (map[string]int, error) {
	out := map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r") // a checkout with CRLF line ends
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, " ")
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: %q: want a figure and its value, space-separated", i+1, line)
		}
		if !slices.Contains(Names, f[0]) {
			return nil, fmt.Errorf("line %d: %q: no figure is named %s", i+1, line, f[0])
		}
		v, err := strconv.Atoi(f[1])
		if err != nil || v < 0 {
			return nil, fmt.Errorf("line %d: %q: value %q is not a number", i+1, line, f[1])
		}
		if _, dup := out[f[0]]; dup {
			return nil, fmt.Errorf("line %d: figure %s twice", i+1, f[0])
		}
		out[f[0]] = v
	}
	if len(out) == 0 {
		return nil, errors.New("no figure")
	}
	return out, nil
}
