//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !windows

package console

// isTerminal is false where this program cannot ask: the log is then
// written as plain lines, which every output shows correctly.
func isTerminal(uintptr) bool { return false }
