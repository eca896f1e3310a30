package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// buildLauncher builds the launcher (internal/testbed/coldstart/launcher),
// which runs a command and reports its peak memory and CPU time: the
// test's own wait4 would report this test process's size.
func buildLauncher(t *testing.T) string {
	t.Helper()
	launcher := filepath.Join(t.TempDir(), "launcher")
	if out, err := exec.Command("go", "build", "-o", launcher, "./internal/testbed/coldstart/launcher").CombinedOutput(); err != nil {
		t.Fatalf("go build launcher: %v\n%s", err, out)
	}
	return launcher
}

// launched is what the launcher reported, in the file report, of the
// command it ran: its peak RSS and its user and system CPU time.
func launched(t *testing.T, report string) (peakKiB int64, cpu time.Duration) {
	t.Helper()
	var launcherKiB, cpuMicros int64
	data, err := os.ReadFile(report)
	if err != nil {
		t.Errorf("launcher report: %v", err)
		return 0, 0
	}
	if _, err := fmt.Sscan(string(data), &peakKiB, &launcherKiB, &cpuMicros); err != nil {
		t.Errorf("launcher report %q: %v", data, err)
	}
	return peakKiB, time.Duration(cpuMicros) * time.Microsecond
}
