//go:build unix

package inputs

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// promptly fails the test when f does not return within a generous bound:
// a FIFO opened without O_NONBLOCK would block forever.
func promptly(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("still blocked after 10s: opening the file waits for a writer")
		return nil
	}
}

func TestReadPromptFileSpecial(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	fifo := filepath.Join(ws, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	symlink(t, "fifo.md", filepath.Join(ws, "to-fifo.md"))
	cases := []struct{ name, ws, file, wantErr string }{
		{"FIFO", ws, "fifo.md", "input prompt-file fifo.md is a named pipe, not a regular file"},
		{"link to a FIFO", ws, "to-fifo.md", "input prompt-file to-fifo.md is a named pipe, not a regular file"},
		{"device", "/dev", "zero", "input prompt-file zero is a device, not a regular file"},
		{"device by its absolute path", "/dev", "/dev/null", "input prompt-file /dev/null is a device, not a regular file"},
		// Outside Actions (no workspace) the same limits hold anywhere.
		{"FIFO outside Actions", "", fifo, "is a named pipe, not a regular file"},
		{"device outside Actions", "", "/dev/zero", "input prompt-file /dev/zero is a device, not a regular file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := promptly(t, func() error {
				_, _, err := Read(valid(map[string]string{"prompt": "", "prompt-file": tc.file}), tc.ws)
				return err
			})
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Read() error = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestOpenRegularFIFO opens a FIFO as if it had replaced a regular file
// after the check: the open must not block and must refuse it.
func TestOpenRegularFIFO(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(ws, "p"), 0o600); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	err = promptly(t, func() error {
		f, err := openRegular(root, "p", "p")
		if f != nil {
			f.Close()
		}
		return err
	})
	if err == nil || err.Error() != "p is a named pipe, not a regular file: name a file of the repository" {
		t.Errorf("openRegular(FIFO) error = %v", err)
	}
}
