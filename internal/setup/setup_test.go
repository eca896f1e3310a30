package setup

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

// cases are the setups init's goldens hold, by their flags: the one
// CI lints (.ci/run runs actionlint on testdata/*/ as two repositories).
var cases = []struct {
	name string
	args []string
}{
	{"here", []string{"--repo", "acme/app", "--ref", "v1"}},
	{"when-approved", []string{"--repo", "acme/app", "--ref", "v1", "--docs-when", "approved", "--docs-merge", "squash", "--merge-queue"}},
	{"landing", []string{"--repo", "acme/app", "--ref", "v1", "--docs-merge", "squash", "--docs-close", "--merge-queue",
		"--paths", "src/**", "--paths", "!src/**/*_test.go"}},
	{"elsewhere", []string{"--repo", "acme/app", "--docs-repo", "acme/handbook", "--ref", "v1", "--docs-merge", "squash", "--docs-close",
		"--merge-queue", "--paths", "src/**", "--paths", "!src/**/*_test.go"}},
	{"pinned-waiting", []string{"--repo", "acme/app", "--docs-repo", "acme/handbook", "--ref", "0123456789abcdef0123456789abcdef01234567",
		"--wait", "--docs-check", "exists", "--max-sends-per-thread", "5", "--max-sends-per-day", "40", "--allowed-bots", "renovate[bot], dependabot[bot]",
		"--trigger-phrase", "@docs", "--release-label", "no docs", "--agent-app", "docs-agent[bot]", "--default-branch", "trunk"}},
}

// initIn runs init with args in a new code checkout (and docs checkout,
// which --docs-dir names when the args have --docs-repo) and returns the
// two directories, what it printed and its error.
func initIn(t *testing.T, dirs [2]string, args []string) (string, error) {
	t.Helper()
	args = append([]string{"--dir", dirs[0]}, args...)
	for _, a := range args {
		if a == "--docs-repo" {
			args = append(args, "--docs-dir", dirs[1])
			break
		}
	}
	in, err := ParseInit(args, func(string) string { return "" }, "")
	if err != nil {
		return "", err
	}
	done, err := in.Write()
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	Report(&out, in, done)
	return strings.ReplaceAll(strings.ReplaceAll(out.String(), dirs[0], "<app>"), dirs[1], "<handbook>"), nil
}

// TestInitGolden: init writes, for each setup, the files and the steps
// testdata holds (go test -update rewrites them), and a second init with
// the same flags changes nothing and says so.
func TestInitGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dirs := [2]string{t.TempDir(), t.TempDir()}
			out, err := initIn(t, dirs, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", tc.name, "init.txt"), out)
			wrote := 0
			for i, repo := range []string{"app", "handbook"} {
				body, err := os.ReadFile(filepath.Join(dirs[i], Dir, File))
				if errors.Is(err, os.ErrNotExist) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				wrote++
				golden.Check(t, filepath.Join("testdata", tc.name, repo, Dir, File), string(body))
			}
			args := slices.Clone(tc.args)
			if slices.Contains(args, "--docs-repo") {
				args = append(args, "--docs-dir", dirs[1])
			}
			in, err := ParseInit(args, func(string) string { return "" }, "")
			if err != nil {
				t.Fatal(err)
			}
			files, err := Files(in.Choices)
			if err != nil || wrote != len(files) {
				t.Errorf("init wrote %d files, want %d (%v)", wrote, len(files), err)
			}
			again, err := initIn(t, dirs, tc.args)
			if err != nil {
				t.Fatalf("init again: %v", err)
			}
			if strings.Contains(again, "wrote ") || strings.Count(again, "unchanged ") != wrote {
				t.Errorf("init again said:\n%s\nwant every file unchanged", again)
			}
		})
	}
}

// TestInitKeepsADifferentFile: a file that is not what init writes for
// the choices is left as it is, with nothing else written, unless --force.
func TestInitKeepsADifferentFile(t *testing.T) {
	t.Parallel()
	dirs := [2]string{t.TempDir(), t.TempDir()}
	mine := filepath.Join(dirs[0], Dir, File)
	if err := os.MkdirAll(filepath.Dir(mine), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte("name: mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--repo", "acme/app", "--docs-repo", "acme/handbook", "--ref", "v1"}
	_, err := initIn(t, dirs, args)
	var usage *UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "--force replaces it") {
		t.Fatalf("init over a different file: %v, want a usage error naming --force", err)
	}
	if body, _ := os.ReadFile(mine); string(body) != "name: mine\n" {
		t.Errorf("the file was changed:\n%s", body)
	}
	if _, err := os.Stat(filepath.Join(dirs[1], Dir, File)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the docs repository's file was written: %v", err)
	}
	if _, err := initIn(t, dirs, append(args, "--force")); err != nil {
		t.Fatal(err)
	}
	if body, _ := os.ReadFile(mine); !strings.HasPrefix(string(body), "# Written by agent-job-action init") {
		t.Errorf("--force did not replace the file:\n%s", body)
	}
}

// TestInitRefuses: a choice no workflow can carry is a usage error in the
// flag's terms, that never repeats the value, and nothing is written.
func TestInitRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--ref", "v1"}, "--repo must name the code repository"},
		{[]string{"--repo", "acme/app"}, "--ref is needed: this build is not a release"},
		{[]string{"--repo", "acme/app", "--ref", "main"}, "--ref must be the action's release (v1) or a full 40-character commit"},
		{[]string{"--repo", "acme/app", "--ref", "v1", "--docs-repo", "acme/app"}, "--docs-repo names the code repository"},
		{[]string{"--repo", "acme/app", "--ref", "v1", "--docs-merge", "fast-forward"}, "--docs-merge must be merge, squash or rebase"},
		{[]string{"--repo", "acme/app", "--ref", "v1", "--docs-check", "maybe"}, "--docs-check must be approved or exists"},
		{[]string{"--repo", "acme/app", "--ref", "v1", "--paths", "src/**' || true"}, "--paths takes patterns without quotes"},
		{[]string{"--repo", "acme/app", "--ref", "v1", "--agent-app", "x' || 'y"}, "--agent-app must be the login"},
		{[]string{"--repo", "acme/app", "--ref", "v1", "--allowed-bots", "mallory"}, "--allowed-bots names \"mallory\", which is not a bot's login"},
		{[]string{"--repo", "acme/app", "--ref", "v1", "--max-sends-per-day", "mint_secret"}, "-max-sends-per-day: its value is not one it takes"},
		{[]string{"--repo", "acme/app", "--ref", "v1", "--api-key", "mint_secret"}, "init has no flag -api-key"},
		{[]string{"--repo", "acme/app", "--ref", "v1", "stray"}, "init takes flags only"},
	} {
		dirs := [2]string{t.TempDir(), t.TempDir()}
		_, err := initIn(t, dirs, tc.args)
		var usage *UsageError
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "mint_secret") {
			t.Errorf("init %q: %v, want a usage error with %q", tc.args, err, tc.want)
		}
		if entries, _ := os.ReadDir(dirs[0]); len(entries) != 0 {
			t.Errorf("init %q wrote %d entries", tc.args, len(entries))
		}
	}
}

// TestInitReadsTheRepository: without --repo, init names the repository
// GITHUB_REPOSITORY names, else the checkout's remote origin on GitHub.
func TestInitReadsTheRepository(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	config := "[core]\n\tbare = false\n[remote \"upstream\"]\n\turl = https://github.com/other/fork.git\n[remote \"origin\"]\n\turl = git@github.com:acme/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	if err := os.WriteFile(filepath.Join(dir, ".git", "config"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git", "refs", "remotes", "origin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "refs", "remotes", "origin", "HEAD"), []byte("ref: refs/remotes/origin/trunk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env, want string
	}{{"", "acme/app"}, {"acme/other", "acme/other"}} {
		in, err := ParseInit([]string{"--dir", dir, "--ref", "v1"}, func(k string) string {
			if k == "GITHUB_REPOSITORY" {
				return tc.env
			}
			return ""
		}, "")
		if err != nil || in.CodeRepo != tc.want || in.CodeBranch != "trunk" {
			t.Errorf("GITHUB_REPOSITORY %q: repo %q, default branch %q, %v; want %q, trunk", tc.env, in.CodeRepo, in.CodeBranch, err, tc.want)
		}
	}
	if in, err := ParseInit([]string{"--dir", dir, "--ref", "v1", "--default-branch", "main"}, func(string) string { return "" }, ""); err != nil || in.CodeBranch != "main" {
		t.Errorf("--default-branch main over the checkout's trunk: %q, %v", in.CodeBranch, err)
	}
	if in, err := ParseInit([]string{"--repo", "acme/app"}, func(string) string { return "" }, "v2"); err != nil || in.Ref != "v2" {
		t.Errorf("a release's init: ref %q, %v; want v2", in.Ref, err)
	}
}

// TestPinnedFilesPinEveryAction: init given a commit (--ref <sha>) pins
// every action its files use by a commit, not only its own: setup-go runs
// in the jobs that hold the key.
func TestPinnedFilesPinEveryAction(t *testing.T) {
	t.Parallel()
	c := Defaults
	c.CodeRepo, c.DocsRepo, c.Ref = "acme/app", "acme/handbook", "0123456789abcdef0123456789abcdef01234567"
	files, err := Files(c)
	if err != nil {
		t.Fatal(err)
	}
	pinned := regexp.MustCompile(`^\s*- uses: [^@\s]+@[0-9a-f]{40}( #.*)?$`)
	for _, f := range files {
		for _, line := range strings.Split(string(f.Body), "\n") {
			if strings.Contains(line, "- uses:") && !pinned.MatchString(line) {
				t.Errorf("%s: %q is not pinned by a commit", f.Path, line)
			}
		}
	}
}
