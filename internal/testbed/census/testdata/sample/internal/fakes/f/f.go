// Package f is a fake: its assertion calls count (1).
package f

import "testing"

func Serve(t *testing.T) {
	var e error
	if e != nil {
		_ = e.Error()
	}
	t.Fatalf("x") // counts
}
