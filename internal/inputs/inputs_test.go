package inputs

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/escape"
)

// valid is the least set of inputs that reads without error.
func valid(extra map[string]string) map[string]string {
	raw := map[string]string{"prompt": "Fix typos", "project-id": "p1", "api-key": "mint_k"}
	for k, v := range extra {
		raw[k] = v
	}
	return raw
}

func TestRead(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		raw     map[string]string
		check   func(Config) bool
		wantErr []string // each *Error's text
	}{
		{
			name: "defaults",
			raw:  valid(nil),
			check: func(c Config) bool {
				return c.Prompt == "Fix typos" && c.BaseURL.String() == "https://api.mintlify.com" && c.Wait &&
					c.Timeout == 30*time.Minute && c.PollInterval == 0 && c.Comment == "auto" &&
					c.RequiredPermission == "write" && c.TriggerLabel == "" && c.TriggerAssignee == "" &&
					c.Paths.All() && c.Preview && !c.PreviewSet && c.DocsToken == ""
			},
		},
		{
			name: "code pull request inputs",
			raw:  valid(map[string]string{"paths": "src/**\n  !src/**/*_test.go  \n", "preview": "false", "docs-token": " ghp_docs "}),
			check: func(c Config) bool {
				return !c.Paths.All() && c.Paths.Match("src/api/limits.go") && !c.Paths.Match("src/api/limits_test.go") &&
					!c.Paths.Match("README.md") && !c.Preview && c.PreviewSet && c.DocsToken == "ghp_docs"
			},
		},
		{
			name: "bad code pull request inputs",
			raw:  valid(map[string]string{"paths": "src/[._]x", "preview": "maybe", "docs-token": "ghp a"}),
			wantErr: []string{
				`input paths has the pattern "src/[._]x" on line 1: [._] holds '.': brackets take letters, digits and ranges of a-z, A-Z or 0-9`,
				"input preview must be true or false",
				"input docs-token contains spaces or control characters: copy the token again",
			},
		},
		{
			name:  "caps",
			raw:   valid(map[string]string{"max-sends-per-thread": " 3 ", "max-sends-per-day": "40"}),
			check: func(c Config) bool { return c.MaxSendsPerThread == 3 && c.MaxSendsPerDay == 40 },
		},
		{
			name:  "no caps by default",
			raw:   valid(nil),
			check: func(c Config) bool { return c.MaxSendsPerThread == 0 && c.MaxSendsPerDay == 0 },
		},
		{
			name: "caps that are no whole number of sends",
			raw:  valid(map[string]string{"max-sends-per-thread": "0", "max-sends-per-day": "1.5"}),
			wantErr: []string{
				"input max-sends-per-thread must be a whole number of creates and follow-ups from 1 to 100000, or empty for no cap",
				"input max-sends-per-day must be a whole number of creates and follow-ups from 1 to 100000, or empty for no cap",
			},
		},
		{
			name:    "paths that only exclude",
			raw:     valid(map[string]string{"paths": "!docs/**"}),
			wantErr: []string{"input paths only excludes: every pattern starts with !, and a path must match a pattern that includes it (list one first, such as **, then the exclusions)"},
		},
		{
			name: "trigger label and assignee",
			raw:  valid(map[string]string{"trigger-label": "  needs docs ", "trigger-assignee": "@docs-bot"}),
			check: func(c Config) bool {
				return c.TriggerLabel == "needs docs" && c.TriggerAssignee == "docs-bot"
			},
		},
		{
			name:    "assignee that is not a login",
			raw:     valid(map[string]string{"trigger-assignee": "ann bob"}),
			wantErr: []string{"input trigger-assignee must be one GitHub login, such as docs-bot"},
		},
		{
			name:    "assignee with a second @",
			raw:     valid(map[string]string{"trigger-assignee": "@ann@x"}),
			wantErr: []string{"input trigger-assignee must be one GitHub login, such as docs-bot"},
		},
		{
			name: "every problem at once",
			raw:  map[string]string{"prompt": "x", "prompt-file": "p.md", "wait": "yes", "comment": "maybe"},
			wantErr: []string{
				"input prompt-file is set together with prompt: set only one of them",
				"input project-id is required: set it to your Mintlify project id",
				"input api-key is required: pass an admin API key from a secret, e.g. ${{ secrets.MINTLIFY_API_KEY }}",
				"input wait must be true or false",
				"input comment must be auto, true or false",
			},
		},
		{
			name:    "a missing map is every input missing",
			raw:     nil,
			wantErr: []string{"input project-id is required", "input api-key is required"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _, err := Read(tc.raw, t.TempDir())
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatalf("Read() error = %v", err)
				}
				if !tc.check(c) {
					t.Errorf("Read() = %+v", c)
				}
				return
			}
			if err == nil {
				t.Fatal("Read() gave no error")
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Read() error = %v\nwant a part %q", err, w)
				}
			}
		})
	}
}

// TestPathsInTerms: a paths line that holds YAML's syntax is an error
// that names the line in the run's terms, a workflow's input (and why a
// block of lines is not YAML) or a command line's flag; any other bad
// pattern is worded alike in both.
func TestPathsInTerms(t *testing.T) {
	t.Parallel()
	const quoted = `has the pattern "'src/**'" on line 3: the quotes would be part of the pattern: write it without them, or \' and \" for quotes a name holds`
	tests := []struct {
		paths, workflow, flags string
	}{
		{"docs/**\n\n  'src/**'\n", "input paths " + quoted + " (paths: | is read line by line, not as YAML)", "--paths " + quoted},
		{"src/**\n- lib/**", `input paths has the pattern "- lib/**" on line 2: the list marker "- " would be part of the pattern: write one pattern a line, without a marker (paths: | is read line by line, not as YAML)`,
			`--paths has the pattern "- lib/**" on line 2: the list marker "- " would be part of the pattern: write one pattern a line, without a marker`},
		{"src/[", `input paths has the pattern "src/[" on line 1: [ has no closing ]`, `--paths has the pattern "src/[" on line 1: [ has no closing ]`},
	}
	for _, tt := range tests {
		t.Run(tt.paths, func(t *testing.T) {
			t.Parallel()
			c, _, err := Read(valid(map[string]string{"paths": tt.paths}), t.TempDir())
			if err == nil {
				t.Fatalf("Read() = %+v, want an error", c)
			}
			if got := err.Error(); got != tt.workflow {
				t.Errorf("in a workflow:\n%s\nwant\n%s", got, tt.workflow)
			}
			if got := AsFlags(err).Error(); got != tt.flags {
				t.Errorf("on a command line:\n%s\nwant\n%s", got, tt.flags)
			}
		})
	}
}

// TestProjectID holds the characters a project id may have: the id is a
// segment of every request's path, so anything else is refused before a
// request is built, in the terms of the run that gave it.
func TestProjectID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id       string
		workflow string // the error in a workflow's terms; "" for none
		flags    string // the same error on a command line
	}{
		{id: "6475a9f0c2e4d1b3a7f8e901"},
		{id: "proj-1"},
		{id: "Acme_Docs-2"},
		{id: "  proj-1 "}, // the spaces around are trimmed, as for every input
		{
			id:       "https://dashboard.mintlify.com/acme/docs",
			workflow: "input project-id is a URL: give the project id alone, as the API keys page (" + APIKeysPage + ") shows it; the API's address, if not the default, goes in base-url",
			flags:    "--project-id is a URL: give the project id alone, as the API keys page (" + APIKeysPage + ") shows it; the API's address, if not the default, goes in --base-url",
		},
		{
			id:       "acme/docs",
			workflow: "input project-id holds '/': a project id is letters, digits, - and _ only; copy it from the API keys page (" + APIKeysPage + ")",
			flags:    "--project-id holds '/': a project id is letters, digits, - and _ only; copy it from the API keys page (" + APIKeysPage + ")",
		},
		{id: "proj 1", workflow: "input project-id holds ' ':", flags: "--project-id holds ' ':"},
		{id: "..", workflow: "input project-id holds '.':", flags: "--project-id holds '.':"},
		{id: "proj%2F1", workflow: "input project-id holds '%':", flags: "--project-id holds '%':"},
		{id: "proj?x=1", workflow: "input project-id holds '?':", flags: "--project-id holds '?':"},
		{id: "prój", workflow: "input project-id holds 'ó':", flags: "--project-id holds 'ó':"},
		{id: "p\x00", workflow: `input project-id holds '\x00':`, flags: `--project-id holds '\x00':`},
	} {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			c, _, err := Read(valid(map[string]string{"project-id": tc.id}), t.TempDir())
			if tc.workflow == "" {
				if err != nil || c.ProjectID != strings.TrimSpace(tc.id) {
					t.Errorf("Read() = %q, %v; want the id and no error", c.ProjectID, err)
				}
				return
			}
			if err == nil {
				t.Fatal("Read() gave no error")
			}
			if !strings.HasPrefix(err.Error(), tc.workflow) {
				t.Errorf("error = %q\nwant it to start %q", err, tc.workflow)
			}
			if got := AsFlags(err).Error(); !strings.HasPrefix(got, tc.flags) {
				t.Errorf("on a command line, error = %q\nwant it to start %q", got, tc.flags)
			}
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestReadPromptFile drives prompt-file through Read, with the files an
// attacker would commit to the repository.
func TestReadPromptFile(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	shownWS := escape.Log(ws) // as errors show it: quoted when it holds a "\\" (Windows)
	write(t, filepath.Join(ws, "prompts", "fix.md"), "Fix the typos.\n")
	write(t, filepath.Join(ws, "empty.md"), " \n")
	write(t, filepath.Join(ws, "big.md"), strings.Repeat("x", MaxPromptBytes+1))
	write(t, filepath.Join(ws, "max.md"), strings.Repeat("y", MaxPromptBytes))
	write(t, filepath.Join(base, "secret.txt"), "INPUT_API-KEY=mint_secret")
	symlink(t, "/proc/self/environ", filepath.Join(ws, "environ.md"))
	symlink(t, filepath.Join(base, "secret.txt"), filepath.Join(ws, "outside.md"))
	symlink(t, "../secret.txt", filepath.Join(ws, "relative-outside.md"))
	symlink(t, base, filepath.Join(ws, "up"))
	symlink(t, "prompts/fix.md", filepath.Join(ws, "inside.md"))
	symlink(t, "nothing.md", filepath.Join(ws, "dangling.md"))
	symlink(t, "prompts", filepath.Join(ws, "in"))
	symlink(t, filepath.Join(ws, "prompts", "fix.md"), filepath.Join(ws, "absolute-inside.md"))
	symlink(t, filepath.Join(ws, "prompts"), filepath.Join(ws, "absolute-in"))

	cases := []struct {
		name, file string
		want       string // the prompt
		wantErr    string // the error's text
	}{
		{name: "relative", file: "prompts/fix.md", want: "Fix the typos.\n"},
		{name: "relative with a dot segment inside", file: "./prompts/../prompts/fix.md", want: "Fix the typos.\n"},
		{name: "absolute inside the workspace", file: filepath.Join(ws, "prompts", "fix.md"), want: "Fix the typos.\n"},
		{name: "link inside the workspace", file: "inside.md", want: "Fix the typos.\n"},
		{name: "through a linked directory inside", file: "in/fix.md", want: "Fix the typos.\n"},
		{
			name: "missing, through a linked directory inside", file: "in/nope.md",
			wantErr: "input prompt-file in/nope.md does not exist in the workspace",
		},
		{name: "exactly the size limit", file: "max.md", want: strings.Repeat("y", MaxPromptBytes)},
		{
			name: "link to the process environment", file: "environ.md",
			wantErr: "input prompt-file environ.md is or passes through a symbolic link that leads outside the workspace " + shownWS + ": name a file of the repository",
		},
		{
			name: "absolute link to a file outside", file: "outside.md",
			wantErr: "input prompt-file outside.md is or passes through a symbolic link that leads outside the workspace",
		},
		{
			name: "absolute link to a file inside", file: "absolute-inside.md",
			wantErr: "input prompt-file absolute-inside.md is or passes through a symbolic link with an absolute target, which is never followed, even to a place inside the workspace " + shownWS + ": name the file itself, or make the link relative",
		},
		{
			name: "through an absolute link to a directory inside", file: "absolute-in/fix.md",
			wantErr: "input prompt-file absolute-in/fix.md is or passes through a symbolic link with an absolute target, which is never followed, even to a place inside the workspace",
		},
		{
			name: "relative link to a file outside", file: "relative-outside.md",
			wantErr: "input prompt-file relative-outside.md is or passes through a symbolic link that leads outside the workspace",
		},
		{
			name: "a linked directory that leads out", file: "up/secret.txt",
			wantErr: "input prompt-file up/secret.txt is or passes through a symbolic link that leads outside the workspace " + shownWS,
		},
		{
			name: "dot dot", file: "../secret.txt",
			wantErr: "input prompt-file ../secret.txt leads outside the workspace " + shownWS + ": name a file of the repository, relative to the workspace",
		},
		{
			name: "dot dot after a directory", file: "prompts/../../secret.txt",
			wantErr: "input prompt-file prompts/../../secret.txt leads outside the workspace",
		},
		{
			name: "absolute outside", file: filepath.Join(base, "secret.txt"),
			wantErr: "input prompt-file " + escape.Log(filepath.Join(base, "secret.txt")) + " is outside the workspace " + shownWS,
		},
		{
			name: "the process environment itself", file: "/proc/self/environ",
			wantErr: "input prompt-file /proc/self/environ is outside the workspace",
		},
		{
			name: "directory", file: "prompts",
			wantErr: "input prompt-file prompts is a directory, not a regular file: name a file of the repository",
		},
		{
			name: "the workspace itself", file: ws,
			wantErr: "is a directory, not a regular file",
		},
		{
			name: "too large", file: "big.md",
			wantErr: "input prompt-file big.md is larger than 256 KiB: shorten it",
		},
		{
			name: "missing", file: "nope.md",
			wantErr: "input prompt-file nope.md does not exist in the workspace " + shownWS + ": check the path",
		},
		{
			name: "dangling link", file: "dangling.md",
			wantErr: "input prompt-file dangling.md is a symbolic link to nothing: name the file itself",
		},
		{
			name: "empty", file: "empty.md",
			wantErr: "input prompt-file empty.md is an empty file: write the instruction for the agent in it",
		},
		{
			name: "a name that would be a workflow command is escaped", file: "x\n::error::y",
			wantErr: `input prompt-file "x\n::error::y" does not exist`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _, err := Read(valid(map[string]string{"prompt": "", "prompt-file": tc.file}), ws)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Read() error = %v", err)
				}
				if c.Prompt != tc.want {
					t.Errorf("Prompt = %.40q (%d bytes), want %.40q", c.Prompt, len(c.Prompt), tc.want)
				}
				return
			}
			var ie *Error
			if err == nil || !errors.As(err, &ie) || ie.Input != "prompt-file" {
				t.Fatalf("Read() error = %v, want one about prompt-file", err)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Read() error = %v\nwant one containing %q", err, tc.wantErr)
			}
			if strings.Contains(err.Error(), "mint_secret") || strings.Contains(c.Prompt, "mint_secret") {
				t.Errorf("the secret outside the workspace was read: %v", err)
			}
		})
	}
}

// TestReadPromptFileAnywhere: outside Actions (no
// workspace) the file a person names is read wherever it is, absolute or
// relative to the current directory, with the same limits.
func TestReadPromptFileAnywhere(t *testing.T) {
	t.Parallel()
	got, err := readPromptFile("", "inputs.go")
	if err != nil || !strings.HasPrefix(got, "package inputs") {
		t.Errorf("readPromptFile(\"\", inputs.go) = %.20q, %v; want this package's file", got, err)
	}
	wd, _ := os.Getwd()
	outside := filepath.Join(filepath.Dir(wd), "event", "event.go")
	if got, err := readPromptFile("", outside); err != nil || !strings.HasPrefix(got, "// Package event") && !strings.HasPrefix(got, "package event") {
		t.Errorf("readPromptFile(\"\", %s) = %.20q, %v; want that file", outside, got, err)
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, make([]byte, MaxPromptBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		big:                           "is larger than",
		dir:                           "is a directory",
		filepath.Join(dir, "none.md"): "does not exist: check the path (absolute, or relative to the current directory)",
	} {
		if _, err := readPromptFile("", name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("readPromptFile(\"\", %s) error %v, want %q", name, err, want)
		}
	}
}

func TestRegular(t *testing.T) {
	t.Parallel()
	fi, err := os.Stat(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := regular(fi, "d"); err == nil || err.Error() != "d is a directory, not a regular file: name a file of the repository" {
		t.Errorf("regular(directory) = %v", err)
	}
	if fi, err = os.Stat("inputs.go"); err != nil {
		t.Fatal(err)
	}
	if err := regular(fi, "f"); err != nil {
		t.Errorf("regular(file) = %v", err)
	}
	if !reflect.DeepEqual(reason(errors.New("plain")), "plain") {
		t.Error("reason() of a plain error changed it")
	}
}

// TestValuesAreTheRule: an input that takes one of a few words lists
// them in Values, which Read takes in any case and holds it to, naming
// them when it refuses another; its default is one of them. An input whose
// default is true or false lists its Values too, so that no reader (the
// command line, which makes a flag that needs no value of an input that
// takes true or false alone) guesses them from the default.
func TestValuesAreTheRule(t *testing.T) {
	t.Parallel()
	for _, in := range Inputs {
		if (in.Default == "true" || in.Default == "false") && in.Values == nil {
			t.Errorf("input %s defaults to %s and lists no Values", in.Name, in.Default)
		}
		if in.Values == nil {
			continue
		}
		if !slices.Contains(in.Values, in.Default) {
			t.Errorf("input %s defaults to %q, not one of its Values %q", in.Name, in.Default, in.Values)
		}
		for _, v := range in.Values {
			for _, given := range []string{v, strings.ToUpper(v), " " + v + "\n"} {
				if _, _, err := Read(valid(map[string]string{in.Name: given}), t.TempDir()); err != nil {
					t.Errorf("input %s: %q: %v", in.Name, given, err)
				}
			}
		}
		_, _, err := Read(valid(map[string]string{in.Name: "sometimes"}), t.TempDir())
		if want := "input " + in.Name + " must be " + Words(in.Values); err == nil || err.Error() != want {
			t.Errorf("input %s: sometimes: %v, want %q", in.Name, err, want)
		}
	}
	if got := Words([]string{"false", "merge", "squash", "rebase"}); got != "false, merge, squash or rebase" {
		t.Errorf("Words = %q", got)
	}
}
