package cli

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandLineReachesNoRoom holds the command line to what it prints:
// outputs and a cost. No package it builds on, directly or not, is one of
// the code pull request's rooms (codepr, docspr, queue), the thread's
// answered requests (backlog), or the writer of comments and statuses
// (report, check): a change there cannot break the command line, nor
// grow it.
func TestCommandLineReachesNoRoom(t *testing.T) {
	t.Parallel()
	const module = "github.com/agentjob/agent-job-action/"
	forbidden := map[string]bool{}
	for _, p := range []string{"codepr", "docspr", "queue", "backlog", "report", "check"} {
		forbidden[module+"internal/"+p] = true
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{} // import path -> the package that imports it
	queue := []string{module + "internal/cli"}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		pkg, err := build.ImportDir(filepath.Join(root, strings.TrimPrefix(path, module)), 0)
		if err != nil {
			t.Fatalf("read %s: %v", path, err)
		}
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			if _, ok := seen[imp]; ok {
				continue
			}
			seen[imp] = path
			if forbidden[imp] {
				t.Errorf("the command line reaches %s (through %s)", imp, path)
			}
			queue = append(queue, imp)
		}
	}
	if len(seen) < 3 {
		t.Fatalf("found %d of the module's packages below the command line, too few: the walk missed them", len(seen))
	}
}
