package check

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the repository's root: the directory above this package's
// that holds go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the package's directory")
		}
		dir = parent
	}
}

// TestOnlyCheckBuildsStatuses holds that package check is the one author
// of the check: no other product code builds a commit status value (a
// ghclient.CommitStatus composite literal, or a variable of the type
// declared to fill in) nor names one of ghclient's status states, under
// whatever name the file imports ghclient. Package ghclient declares the
// type and sends it; queue reads another head's state and compares it with
// success, which sets nothing. A state written as a bare string is not
// seen: review is what catches that.
func TestOnlyCheckBuildsStatuses(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	var where []string
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || d.Name() == "node_modules" ||
				rel == filepath.Join("internal", "testbed") || rel == filepath.Join("internal", "fakes") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		if pkg == "internal/check" || pkg == "internal/ghclient" {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		gh := ""
		for _, imp := range f.Imports {
			if strings.Trim(imp.Path.Value, `"`) == "github.com/agentjob/agent-job-action/internal/ghclient" {
				gh = "ghclient"
				if imp.Name != nil {
					gh = imp.Name.Name
				}
			}
		}
		if gh == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if isStatusType(n.Type, gh) {
					where = append(where, rel+": a ghclient.CommitStatus literal")
				}
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == gh {
					switch n.Sel.Name {
					case "StatusPending", "StatusFailure", "StatusError":
						where = append(where, rel+": ghclient."+n.Sel.Name)
					case "StatusSuccess":
						if pkg != "internal/queue" {
							where = append(where, rel+": ghclient."+n.Sel.Name)
						}
					}
				}
			case *ast.ValueSpec:
				if isStatusType(n.Type, gh) {
					where = append(where, rel+": a ghclient.CommitStatus variable")
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read %d product files, too few: the walk missed the repository", files)
	}
	for _, w := range where {
		t.Errorf("%s: only package check builds the status docs / agent-job (Decide)", w)
	}
}

// isStatusType reports whether e names ghclient.CommitStatus, the package
// imported as gh.
func isStatusType(e ast.Expr, gh string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == gh && s.Sel.Name == "CommitStatus"
}
