// Package census counts, package by package, the repository's test
// functions and its assertion calls: the calls of Error, Errorf, Fatal and
// Fatalf on a *testing.T, testing.TB, *testing.B or *testing.F, in test
// files and in the helpers tests share (internal/testbed, internal/fakes).
// Its test holds the counts to a floor committed in
// testdata/assertions.golden, so that an assertion that goes, deleted or
// lost in a move (def5693 lost the token check when it moved the
// harnesses' helpers into internal/testbed/step), goes in a diff a
// reviewer reads rather than silently.
package census

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Counts are one package's.
type Counts struct {
	// Tests are the Test and Fuzz functions of its _test.go files
	// (TestMain, benchmarks and examples are not tests that assert).
	Tests int
	// TestAsserts are the assertion calls in its _test.go files.
	TestAsserts int
	// HelperAsserts are the assertion calls in its other files, counted
	// under internal/testbed and internal/fakes only: elsewhere a
	// non-test file is the product, which fails no test.
	HelperAsserts int
}

func (c Counts) zero() bool { return c == Counts{} }

// helperTrees are the directories whose non-test files are helpers tests
// share, relative to the root with slashes.
var helperTrees = []string{"internal/testbed", "internal/fakes"}

// asserts are the methods of testing.TB that fail a test and report why;
// Fail and FailNow say nothing, and no test here calls them.
var asserts = []string{"Error", "Errorf", "Fatal", "Fatalf"}

// Root is the module's root: dir, or the nearest directory above it,
// that holds a go.mod.
func Root(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod in the directory or above it")
		}
		dir = up
	}
}

// Count counts the packages of the module at root, keyed by their
// directory relative to root with slashes ("." for root itself); a
// package that counts nothing is left out. It reads every .go file the
// go command would, whatever its build constraints, so that the counts are
// the same on every platform: it leaves out what the go command leaves out
// (directories named testdata, or whose name starts with "." or "_") and
// other modules (a directory below root with a go.mod of its own).
func Count(root string) (map[string]Counts, error) {
	out := map[string]Counts{}
	err := Dirs(root, func(dir, rel string) error {
		c, err := countDir(dir, isHelperDir(rel))
		if err != nil {
			return err
		}
		if !c.zero() {
			out[rel] = c
		}
		return nil
	})
	return out, err
}

// Dirs calls visit with each directory of the module at root that the go
// command reads packages from, whatever their build constraints: it leaves
// out directories named testdata or whose name starts with "." or "_", and
// other modules (a directory below root with a go.mod of its own). rel is
// dir relative to root, with slashes ("." for root); a visit that returns
// filepath.SkipDir leaves out dir and what is below it.
func Dirs(root string, visit func(dir, rel string) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != root {
			name := d.Name()
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		return visit(path, filepath.ToSlash(rel))
	})
}

func isHelperDir(rel string) bool {
	return slices.ContainsFunc(helperTrees, func(tree string) bool { return rel == tree || strings.HasPrefix(rel, tree+"/") })
}

// countDir counts the package in dir; its non-test files count only when
// helpers.
func countDir(dir string, helpers bool) (Counts, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return Counts{}, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	var tests []bool
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return Counts{}, err
		}
		files = append(files, f)
		tests = append(tests, strings.HasSuffix(e.Name(), "_test.go"))
	}
	names := testingNames(files)
	var c Counts
	for i, f := range files {
		switch {
		case tests[i]:
			c.Tests += testFuncs(f)
			c.TestAsserts += assertCalls(f, names)
		case helpers:
			c.HelperAsserts += assertCalls(f, names)
		}
	}
	return c, nil
}

// testFuncs counts f's Test and Fuzz functions, named as go test finds
// them: the prefix, then nothing or a rune that is not lower case.
func testFuncs(f *ast.File) int {
	n := 0
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name == "TestMain" {
			continue
		}
		if isTestName(fn.Name.Name, "Test") || isTestName(fn.Name.Name, "Fuzz") {
			n++
		}
	}
	return n
}

func isTestName(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !unicode.IsLower(r)
}

// testingNames are the names the package's files declare with a testing
// type (*testing.T, testing.TB, *testing.B or *testing.F, pointer or
// not): parameters and results, struct fields (an embedded testing.TB is
// named TB) and typed vars.
//
// The census has no type checker (the test files of a package import
// packages it would have to build), so it takes a call's receiver to be
// a test's when its name is one of these: t in func(t *testing.T), or the
// field t of h.t where the harness declares `t *testing.T`. A package that
// also gave one of these names to another value with an Error or Fatal
// method would have that value's calls counted as assertions too; none
// does today: the counts equal those of the calls on a receiver named t
// or b or a field named t.
func testingNames(files []*ast.File) map[string]bool {
	names := map[string]bool{}
	for _, f := range files {
		local := testingImport(f)
		if local == "" {
			continue
		}
		declare := func(idents []*ast.Ident, typ ast.Expr) {
			sel := testingType(typ, local)
			if sel == "" {
				return
			}
			if len(idents) == 0 { // embedded: the field is named by its type
				names[sel] = true
			}
			for _, id := range idents {
				names[id.Name] = true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Field:
				declare(n.Names, n.Type)
			case *ast.ValueSpec:
				if n.Type != nil {
					declare(n.Names, n.Type)
				}
			}
			return true
		})
	}
	return names
}

// testingImport is the name f imports package testing by, "" when it
// does not.
func testingImport(f *ast.File) string {
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path != "testing" {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return "testing"
	}
	return ""
}

// testingType is T, TB, B or F when typ is that type of package testing
// (imported as local), or a pointer to it; "" otherwise.
func testingType(typ ast.Expr, local string) string {
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	sel, ok := typ.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != local {
		return ""
	}
	switch sel.Sel.Name {
	case "T", "TB", "B", "F":
		return sel.Sel.Name
	}
	return ""
}

// assertCalls counts f's calls of Error, Errorf, Fatal and Fatalf whose
// receiver, an identifier or a selector's last name, is one of names.
func assertCalls(f *ast.File, names map[string]bool) int {
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		call, ok := node.(*ast.CallExpr)
		if !ok {
			return true
		}
		fun, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !slices.Contains(asserts, fun.Sel.Name) {
			return true
		}
		var recv string
		switch x := fun.X.(type) {
		case *ast.Ident:
			recv = x.Name
		case *ast.SelectorExpr:
			recv = x.Sel.Name
		}
		if names[recv] {
			n++
		}
		return true
	})
	return n
}

// Format is the floor file of counts: a line per package, sorted, then
// the total.
func Format(counts map[string]Counts) []byte {
	var b strings.Builder
	b.WriteString("# The floor of internal/testbed/census: per package directory, its test\n")
	b.WriteString("# functions, assertion calls in test files and in shared helpers.\n")
	b.WriteString("# go test ./internal/testbed/census -update rewrites it.\n")
	b.WriteString("# package\ttests\ttest-asserts\thelper-asserts\n")
	for _, pkg := range slices.Sorted(maps.Keys(counts)) {
		c := counts[pkg]
		fmt.Fprintf(&b, "%s\t%d\t%d\t%d\n", pkg, c.Tests, c.TestAsserts, c.HelperAsserts)
	}
	total := Sum(counts)
	fmt.Fprintf(&b, "%s\t%d\t%d\t%d\n", Total, total.Tests, total.TestAsserts, total.HelperAsserts)
	return []byte(b.String())
}

// Sum is the counts of all packages together.
func Sum(counts map[string]Counts) Counts {
	var total Counts
	for _, c := range counts {
		total.Tests += c.Tests
		total.TestAsserts += c.TestAsserts
		total.HelperAsserts += c.HelperAsserts
	}
	return total
}

// Total is the floor file's line of the sums, which no package directory
// can be named (a directory holds no tab).
const Total = "(total)"

// Parse reads a floor file Format wrote: the counts by package, the
// total under Total.
func Parse(data []byte) (map[string]Counts, error) {
	out := map[string]Counts{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r") // a checkout with CRLF line ends
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: %q: want a package and three counts, tab-separated", i+1, line)
		}
		var n [3]int
		for j := range n {
			v, err := strconv.Atoi(f[j+1])
			if err != nil || v < 0 {
				return nil, fmt.Errorf("line %d: %q: count %q is not a number", i+1, line, f[j+1])
			}
			n[j] = v
		}
		if _, dup := out[f[0]]; dup {
			return nil, fmt.Errorf("line %d: package %s twice", i+1, f[0])
		}
		out[f[0]] = Counts{Tests: n[0], TestAsserts: n[1], HelperAsserts: n[2]}
	}
	return out, nil
}
