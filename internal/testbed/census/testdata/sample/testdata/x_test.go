package x

import "testing"

// The go command does not build this directory: not counted.
func TestX(t *testing.T) { t.Error("not counted") }
