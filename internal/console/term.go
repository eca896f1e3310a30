package console

import "io"

// IsTerminal says whether w is a terminal (a console on Windows).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && isTerminal(f.Fd())
}
