package product

import "testing"

func TestP(t *testing.T) {
	t.Error("x") // counts
}
