package h

import "testing"

func TestH(t *testing.T) { Check(t) }
