package console

import "syscall"

// isTerminal asks for fd's console mode: only a console has one (a pipe,
// a file, or the pipes of Git Bash's mintty, do not).
func isTerminal(fd uintptr) bool {
	var mode uint32
	return syscall.GetConsoleMode(syscall.Handle(fd), &mode) == nil
}
