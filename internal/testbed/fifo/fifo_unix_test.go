//go:build unix

package fifo

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestAt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		link bool
		want fs.FileMode // path's own type, not followed
	}{
		{"a named pipe", false, fs.ModeNamedPipe},
		{"a symbolic link to a named pipe", true, fs.ModeSymlink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "file")
			At(t, path, tc.link)
			fi, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Type(); got != tc.want {
				t.Errorf("%s is %v, want %v", path, got, tc.want)
			}
			fi, err = os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Type(); got != fs.ModeNamedPipe {
				t.Errorf("%s leads to %v, want a named pipe", path, got)
			}
		})
	}
}

func TestReturns(t *testing.T) {
	t.Parallel()
	if got := Returns(t, "f", func() int { return 7 }); got != 7 {
		t.Errorf("Returns = %d, want f's 7", got)
	}
}
