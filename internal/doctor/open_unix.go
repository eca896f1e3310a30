//go:build unix

package doctor

import "syscall"

// oNonblock keeps opening a named pipe from waiting for a writer.
const oNonblock = syscall.O_NONBLOCK
