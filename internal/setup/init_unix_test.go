//go:build unix

package setup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/testbed/fifo"
)

// TestInitReadsRegularFilesOnly: init reads two files of a checkout, the
// workflow file it would replace and .git/config (for --repo), and a
// checkout can make either a named pipe, or a symbolic link to one: init
// ends at once, with nothing written, where opening or reading the pipe
// would wait for a writer for ever.
func TestInitReadsRegularFilesOnly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		path string // the file that is a pipe, under the checkout
		link bool   // a symbolic link to the pipe, else the pipe
		args []string
	}{
		{"the workflow file is a named pipe", filepath.Join(Dir, File), false, []string{"--repo", "acme/app", "--ref", "v1"}},
		{"the workflow file links to a named pipe", filepath.Join(Dir, File), true, []string{"--repo", "acme/app", "--ref", "v1"}},
		{".git/config is a named pipe", filepath.Join(".git", "config"), false, []string{"--ref", "v1"}},
		{".git/config links to a named pipe", filepath.Join(".git", "config"), true, []string{"--ref", "v1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, tc.path)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			fifo.At(t, path, tc.link)
			err := fifo.Returns(t, "init", func() error {
				in, err := ParseInit(append([]string{"--dir", dir}, tc.args...), func(string) string { return "" }, "")
				if err == nil {
					_, err = in.Write()
				}
				return err
			})
			var usage *UsageError
			if !errors.As(err, &usage) {
				t.Errorf("init: %v, want a usage error", err)
			}
			if fi, err := os.Lstat(path); err != nil || fi.Mode().IsRegular() {
				t.Errorf("%s was replaced: %v", tc.path, err)
			}
		})
	}
}

// TestInitWritesNothingThroughALink: a checkout whose .github, or
// .github/workflows, is a symbolic link to a directory outside it (a
// checkout can hold one) gets nothing written through it: init refuses,
// names the link, and the directory it leads to stays empty.
func TestInitWritesNothingThroughALink(t *testing.T) {
	t.Parallel()
	for _, link := range []string{".github", Dir} {
		t.Run(link, func(t *testing.T) {
			t.Parallel()
			dir, outside := t.TempDir(), t.TempDir()
			at := filepath.Join(dir, link)
			if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, at); err != nil {
				t.Fatal(err)
			}
			in, err := ParseInit([]string{"--dir", dir, "--repo", "acme/app", "--ref", "v1"}, func(string) string { return "" }, "")
			if err == nil {
				_, err = in.Write()
			}
			var usage *UsageError
			if !errors.As(err, &usage) || !strings.Contains(err.Error(), "is a link") {
				t.Errorf("init: %v, want a usage error naming the link", err)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Errorf("init wrote through the link: %v", entries)
			}
		})
	}
}

// TestInitReadsNoPipeAtOriginHead: a checkout whose origin/HEAD is a named
// pipe, or a link to one, does not hold init up, with --default-branch
// (which it then need not read) or without (it reads regular files only).
func TestInitReadsNoPipeAtOriginHead(t *testing.T) {
	t.Parallel()
	for _, told := range []bool{true, false} {
		for _, link := range []bool{false, true} {
			dir := t.TempDir()
			path := filepath.Join(dir, ".git", "refs", "remotes", "origin", "HEAD")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			fifo.At(t, path, link)
			args := []string{"--dir", dir, "--repo", "acme/app", "--ref", "v1"}
			if told {
				args = append(args, "--default-branch", "main")
			}
			err := fifo.Returns(t, "init", func() error {
				in, err := ParseInit(args, func(string) string { return "" }, "")
				if err == nil {
					_, err = in.Write()
				}
				return err
			})
			if err != nil {
				t.Errorf("init (--default-branch given: %v, a link: %v): %v", told, link, err)
			}
		}
	}
}
