package sample

import tst "testing"

func TestAlias(x *tst.T) {
	x.Errorf("x") // counts: x is declared *testing.T under another name
}
