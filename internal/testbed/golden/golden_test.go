package golden

import (
	"os/exec"
	"strings"
	"testing"
)

// TestEveryTestPackageAcceptsUpdate: CONTRIBUTING.md says `go test ./...
// -update`, which passes -update to every package's test binary; a binary
// that does not define it fails ("flag provided but not defined"). This
// package defines it, so every package with tests must import it, blank
// where it checks no golden file.
func TestEveryTestPackageAcceptsUpdate(t *testing.T) {
	t.Parallel()
	const self = "github.com/agentjob/agent-job-action/internal/testbed/golden"
	out, err := exec.Command("go", "list", "-f",
		`{{.ImportPath}} {{len .TestGoFiles}} {{len .XTestGoFiles}} {{join .TestImports " "}} {{join .XTestImports " "}}`,
		"github.com/agentjob/agent-job-action/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	tested := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[1] == "0" && f[2] == "0" || f[0] == self {
			continue
		}
		tested++
		imports := f[3:]
		found := false
		for _, imp := range imports {
			found = found || imp == self
		}
		if !found {
			t.Errorf("%s has tests but does not import %s: go test ./... -update fails there", f[0], self)
		}
	}
	if tested < 20 {
		t.Errorf("%d packages with tests found; go list found too few", tested)
	}
}
