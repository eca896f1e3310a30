//go:build unix

package inputs

import "syscall"

// oNonblock keeps opening a named pipe from waiting for a writer.
const oNonblock = syscall.O_NONBLOCK
