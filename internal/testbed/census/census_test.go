package census

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

// floorFile holds the counts no package may fall below.
const floorFile = "testdata/assertions.golden"

// TestNoAssertionVanishes: no package of the repository has fewer test
// functions, assertion calls in its test files or assertion calls in its
// shared helpers than testdata/assertions.golden says. An assertion that
// goes on purpose goes with -update, which rewrites the floor, and the
// diff shows which package lost how many. A package above its floor only
// logs: the floor rises when someone runs -update.
func TestNoAssertionVanishes(t *testing.T) {
	t.Parallel()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := Root(wd)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Count(root)
	if err != nil {
		t.Fatal(err)
	}
	// The census must have walked the whole module: it sees this package
	// (two test functions here) and the module's root (main_test.go).
	self, err := filepath.Rel(root, wd)
	if err != nil {
		t.Fatal(err)
	}
	if got[filepath.ToSlash(self)].Tests < 2 || got["."].Tests == 0 {
		t.Fatalf("the census of %s missed this package or the root: %v", root, got)
	}
	if golden.Updating() {
		if err := os.WriteFile(floorFile, Format(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(floorFile)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	floor, err := Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", floorFile, err)
	}
	if _, ok := floor[Total]; !ok || len(floor) < 2 {
		t.Fatalf("%s holds no package or no total (go test -update writes them)", floorFile)
	}
	for _, pkg := range slices.Sorted(maps.Keys(floor)) {
		f, g := floor[pkg], got[pkg]
		if pkg == Total {
			g = Sum(got)
		}
		for _, n := range []struct {
			what       string
			got, floor int
		}{
			{"test functions", g.Tests, f.Tests},
			{"assertion calls in test files", g.TestAsserts, f.TestAsserts},
			{"assertion calls in shared helpers", g.HelperAsserts, f.HelperAsserts},
		} {
			switch {
			case n.got < n.floor:
				t.Errorf("%s: %d %s, %d fewer than the floor of %d in %s; if they went on purpose, run go test ./internal/testbed/census -update and commit the diff",
					pkg, n.got, n.what, n.floor-n.got, n.floor, floorFile)
			case n.got > n.floor:
				t.Logf("%s: %d %s, %d above the floor of %d (-update raises it)", pkg, n.got, n.what, n.got-n.floor, n.floor)
			}
		}
	}
	for pkg, g := range got {
		if _, ok := floor[pkg]; !ok {
			t.Logf("%s: %+v, not in %s (-update adds it)", pkg, g, floorFile)
		}
	}
}

// TestCountSample: the census of testdata/sample, a module whose every
// call that counts says so ("// counts"): Test and Fuzz functions but not
// TestMain, benchmarks, methods or Testify; the four calls on any value
// declared with a testing type, a harness's field and an embedded
// testing.TB included, under any import name, but not an error's Error,
// fmt.Errorf or log.Fatal; non-test files only under internal/testbed and
// internal/fakes; nothing in testdata, in _ or . directories, or in
// another module.
func TestCountSample(t *testing.T) {
	t.Parallel()
	root, err := Root(filepath.Join("testdata", "sample", "internal", "testbed", "h"))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.Abs(filepath.Join("testdata", "sample")); root != want {
		t.Errorf("Root = %s, want %s (the nearest go.mod above)", root, want)
	}
	got, err := Count(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Counts{
		".":                  {Tests: 4, TestAsserts: 11},
		"internal/testbed/h": {Tests: 1, HelperAsserts: 3},
		"internal/fakes/f":   {HelperAsserts: 1},
		"internal/product":   {Tests: 1, TestAsserts: 1},
	}
	if !maps.Equal(got, want) {
		t.Errorf("Count(testdata/sample) = %+v, want %+v", got, want)
	}
	back, err := Parse(Format(got))
	if err != nil {
		t.Fatal(err)
	}
	want[Total] = Counts{Tests: 6, TestAsserts: 12, HelperAsserts: 4}
	if !maps.Equal(back, want) {
		t.Errorf("Parse(Format(counts)) = %+v, want %+v and the total", back, want)
	}
}

// TestParseRefuses: a floor file that is not one Format wrote is an
// error, not a floor of nothing.
func TestParseRefuses(t *testing.T) {
	t.Parallel()
	for _, data := range []string{
		"internal/action 1 2 3\n",         // spaces, not tabs
		"internal/action\t1\t2\n",         // a count missing
		"internal/action\t1\t2\tmany\n",   // not a number
		"internal/action\t1\t-2\t3\n",     // negative
		"a\t1\t2\t3\na\t1\t2\t3\n",        // a package twice
		"internal/action\t1\t2\t3\t4\n",   // a count too many
		"internal/action\t1\t2\t3\nbad\n", // a bad line after a good one
	} {
		if got, err := Parse([]byte(data)); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", data, got)
		}
	}
}
