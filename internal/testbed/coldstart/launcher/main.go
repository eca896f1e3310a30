//go:build linux

// Command launcher runs a command and writes its peak RSS, for the coldstart
// benchmarks and the tests that bound a run: launcher REPORT COMMAND
// [ARG...] runs COMMAND, then writes "<its peak KiB> <the launcher's own
// peak KiB> <its user and system CPU time in µs>" to the file REPORT, and
// exits with the command's exit status.
//
// The benchmarks cannot read the figure from their own wait4: Go starts
// children with vfork (CLONE_VM), and at exec Linux records the high-water
// mark of the address space being left, the parent's, as the child's
// ru_maxrss. A /bin/true started by a process holding 100 MiB reports
// 100 MiB. This launcher plays the part of /usr/bin/time: it is small, so the
// figure it reads is the command's own as long as it is above the launcher's
// own size, which it reports for the benchmark to check.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: launcher REPORT COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		os.Exit(1)
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
	cpu := (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Microseconds()
	if err := os.WriteFile(os.Args[1], fmt.Appendf(nil, "%d %d %d\n", peak, ownPeak(), cpu), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		os.Exit(1)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}

// ownPeak is the high-water mark in KiB of the launcher's own address space,
// which, unlike its rusage, leaves out its parent's.
func ownPeak() int64 {
	data, _ := os.ReadFile("/proc/self/status")
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kib int64
			_, _ = fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kib)
			return kib
		}
	}
	return 0
}
