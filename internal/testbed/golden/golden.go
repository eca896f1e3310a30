// Package golden compares test output with files under testdata/, the
// expected text of the action's user-facing surface (comments, summaries).
// `go test ./... -update` rewrites the files from what the code now writes.
//
// go test hands -update to every package's test binary, and a binary
// that does not define it fails: so every package with tests imports this
// one, which defines it, blank where it checks no file (a test keeps it so).
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Updating says whether the tests run with -update, for a test that
// keeps a file under testdata/ other than by Check (a floor it must not
// fall below, say) and rewrites it then.
func Updating() bool { return *update }

// Check compares got with the file at path, or writes it with -update.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
