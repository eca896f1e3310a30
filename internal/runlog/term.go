package runlog

import (
	"io"

	"golang.org/x/term"
)

// fder is a writer backed by a file descriptor (*os.File).
type fder interface{ Fd() uintptr }

// IsTerminal says whether w is a terminal (a console on Windows).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(fder)
	return ok && term.IsTerminal(int(f.Fd()))
}

// defaultWidth is the width assumed when the terminal does not say.
const defaultWidth = 80

// width is the number of columns of the terminal w, or defaultWidth when
// it cannot be read.
func width(w io.Writer) int {
	if f, ok := w.(fder); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return defaultWidth
}
