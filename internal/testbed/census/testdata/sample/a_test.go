package sample

import (
	"errors"
	"fmt"
	"log"
	"testing"
)

// The census of this directory: 4 test functions (TestOne, Test,
// FuzzParse, TestAlias in alias_test.go) and 11 assertion calls, each
// marked "counts".

// harness holds its test as the repository's harnesses do.
type harness struct{ t *testing.T }

func (h *harness) check(ok bool) {
	if !ok {
		h.t.Fatalf("not ok") // counts: h.t is a *testing.T field
	}
}

// TestMain is not a test function.
func TestMain(m *testing.M) { m.Run() }

func TestOne(t *testing.T) {
	t.Error("one")    // counts
	t.Errorf("%d", 2) // counts
	t.Run("sub", func(tt *testing.T) {
		tt.Fatal("three") // counts: tt is declared *testing.T
	})
	h := &harness{t: t}
	h.check(true)
	err := errors.New("x")
	_ = err.Error()             // an error's method
	_ = fmt.Errorf("not %d", 1) // a package's function
	t.Log("logs")               // no failure
	t.Fail()                    // fails, but is not one of the four
}

// Test alone is a test function.
func Test(t *testing.T) {
	t.Fatal() // counts
}

// Testify is not a test function (lower case after Test); its call counts.
func Testify(t *testing.T) {
	t.Error("x") // counts
}

func FuzzParse(f *testing.F) {
	f.Fatalf("x") // counts
}

// BenchmarkX is not a test function; its call counts.
func BenchmarkX(b *testing.B) {
	b.Errorf("x") // counts
}

func helper(tb testing.TB) {
	tb.Helper()
	tb.Error("x") // counts
}

func logs() {
	log.Fatal("the log package's") // log is not a test
}

type method struct{}

// TestLike is a method, not a test function; its call counts.
func (method) TestLike(t *testing.T) {
	t.Error("x") // counts
}
