package sample

import "testing"

// check is in a non-test file outside internal/testbed and internal/fakes:
// product code, not counted.
func check(t testing.TB) {
	t.Errorf("not counted")
}

func TestInProduct(t *testing.T) { t.Error("not counted") }
