//go:build unix

package fifo

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// At makes path a named pipe, or, with link, a symbolic link to a named
// pipe in a directory of its own; path's directory must exist. When the
// test ends, it opens the pipe's writing end once, which frees a reader
// still blocked on it.
func At(t testing.TB, path string, link bool) {
	t.Helper()
	pipe := path
	if link {
		pipe = filepath.Join(t.TempDir(), "pipe")
		if err := os.Symlink(pipe, path); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
}

// Bound is how long Returns waits: far past what reading a few files
// takes, short of the test binary's own timeout.
const Bound = 10 * time.Second

// Returns runs f and returns what it returns, failing the test at once if
// f has not returned within Bound: what, a reader of a pipe, still waits
// for its writer.
func Returns[T any](t testing.TB, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(Bound):
		t.Fatalf("%s still blocked after %v: it waits for a writer of the named pipe", what, Bound)
		panic("unreachable")
	}
}
