package publish

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// TestOnlyTheHallPublishes holds that the part of the writer that writes
// comments and commit statuses (this package) is imported by the run's
// hall alone, internal/action: a room returns what happened, or tells it
// through a narrow interface of its own, and never holds the writer. The
// test harness (internal/testbed) builds one for the rooms' tests.
func TestOnlyTheHallPublishes(t *testing.T) {
	t.Parallel()
	const self = "github.com/agentjob/agent-job-action/internal/publish"
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"internal/action": true, "internal/publish": true}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" || rel == "internal/testbed") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == self && !allowed[filepath.ToSlash(filepath.Dir(rel))] {
				t.Errorf("%s imports the writer of comments and statuses: only internal/action may", rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil || files < 50 {
		t.Fatalf("read %d product files under %s: not the repository's root", files, root)
	}
}
