// Package h is a shared helper: its assertion calls count (3).
package h

import (
	"fmt"
	"testing"
)

func Check(tb testing.TB) {
	tb.Helper()
	tb.Errorf("x") // counts
	tb.Fatal("y")  // counts
}

// rec embeds testing.TB: the field is named TB.
type rec struct {
	testing.TB
	err error
}

func (r rec) fail() {
	r.TB.Errorf("z") // counts
	_ = r.err.Error()
	_ = fmt.Errorf("not")
}
