//go:build darwin || freebsd || netbsd || openbsd

package console

import (
	"syscall"
	"unsafe"
)

// isTerminal asks the terminal driver for fd's settings: only a terminal
// has them.
func isTerminal(fd uintptr) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGETA, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
