package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/agentjob/agent-job-action/internal/cost"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/runner"
	"github.com/agentjob/agent-job-action/internal/terms"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		want    Command
		usage   string // part of the usage error; "" for none
		notSaid string // what the usage error must not say
	}{
		{name: "no arguments", args: nil, want: Command{Flags: map[string]string{}}},
		{name: "demo", args: []string{"demo"}, want: Command{Mode: Demo, Flags: map[string]string{}}},
		{name: "help", args: []string{"--help"}, want: Command{Mode: Help, Flags: map[string]string{}}},
		{name: "-h after flags", args: []string{"--prompt", "x", "-h"}, want: Command{Mode: Help, Flags: map[string]string{"prompt": "x"}}},
		{name: "version", args: []string{"--version"}, want: Command{Mode: Version, Flags: map[string]string{}}},
		{name: "a subcommand takes no arguments", args: []string{"demo", "--json"}, usage: "demo takes no arguments: run agent-job-action demo, or demo --help"},
		{name: "demo --help", args: []string{"demo", "--help"}, want: Command{Mode: DemoHelp, Flags: map[string]string{}}},
		{name: "demo -h", args: []string{"demo", "-h"}, want: Command{Mode: DemoHelp, Flags: map[string]string{}}},
		{name: "demo's help takes no more", args: []string{"demo", "-h", "x"}, usage: "demo takes no arguments"},
		{name: "--version takes no arguments", args: []string{"--version", "--json"}, usage: "--version takes no arguments"},
		{name: "inputs as flags, both syntaxes", args: []string{"--prompt", "Fix typos", "--project-id=p1", "-timeout", "90s", "--job-id=job_1"},
			want: Command{Flags: map[string]string{"prompt": "Fix typos", "project-id": "p1", "timeout": "90s", "job-id": "job_1"}}},
		{name: "true/false inputs", args: []string{"--wait=false", "--dry-run"},
			want: Command{Flags: map[string]string{"wait": "false", "dry-run": "true"}}},
		{name: "an empty flag is given", args: []string{"--prompt="}, want: Command{Flags: map[string]string{"prompt": ""}}},
		{name: "values are checked later", args: []string{"--timeout", "soon"}, want: Command{Flags: map[string]string{"timeout": "soon"}}},
		{name: "json and the key from stdin", args: []string{"--json", "--api-key-stdin"},
			want: Command{Flags: map[string]string{}, JSON: true, KeyFromStdin: true}},
		{name: "--api-key is refused", args: []string{"--api-key", "mint_secret"}, usage: "--api-key is not accepted"},
		{name: "--api-key= is refused", args: []string{"--prompt", "x", "--api-key=mint_secret"}, usage: "shell history"},
		{name: "-api-key is refused", args: []string{"-api-key=mint_secret"}, usage: "MINTLIFY_API_KEY"},
		{name: "--github-token is refused", args: []string{"--github-token", "ghp_secret"}, usage: "GITHUB_TOKEN"},
		{name: "an unknown flag", args: []string{"--promt", "x"}, usage: "unknown flag --promt"},
		{name: "an unknown flag's value is not repeated", args: []string{"--apikey=mint_secret"}, usage: "unknown flag --apikey"},
		{name: "an unknown flag that may be a secret is not named", args: []string{"--mint_secret0123456789abcdef"}, usage: "an unknown flag (not shown: it may be a secret)"},
		{name: "--api-key without its value is refused", args: []string{"--api-key"}, usage: "--api-key is not accepted"},
		{name: "bad flag syntax", args: []string{"-=x"}, usage: "a flag is written wrong"},
		{name: "a stray argument is quoted", args: []string{"--prompt", "x", "extra"}, usage: `argument 3, "extra", is not a flag`},
		{name: "a stray key is not repeated", args: []string{"--api-key-stdin", "mint_secret"}, usage: "argument 2, (not shown: it may be a secret), is not a flag"},
		{name: "a stray token is not repeated", args: []string{"ghs_secret0123"}, usage: "argument 1, (not shown"},
		{name: "a long random word is not repeated", args: []string{"Zx81_secret_4f9a0c2b7e1d"}, usage: "argument 1, (not shown"},
		{name: "a bool flag's value after a space", args: []string{"--wait", "false"}, usage: "--wait=false"},
		{name: "a flag without its value", args: []string{"--prompt"}, usage: "--prompt needs a value"},
		{name: "a value that looks like a flag", args: []string{"--prompt", "--dry-run"}, want: Command{Flags: map[string]string{"prompt": "--dry-run"}}},
		{name: "-- ends the flags", args: []string{"--dry-run", "--"}, want: Command{Flags: map[string]string{"dry-run": "true"}}},
		{name: "nothing may follow --", args: []string{"--", "x"}, usage: `argument 2, "x", is not a flag`},
		{name: "--json=false", args: []string{"--json=false", "--api-key-stdin=true"}, want: Command{Flags: map[string]string{}, KeyFromStdin: true}},
		{name: "--json takes only true or false", args: []string{"--json=yes"}, usage: "--json must be true or false"},
		{name: "a lone dash", args: []string{"-"}, usage: `argument 1, "-", is not a flag`},
		// help <command> is <command> --help, as gh's; a command's typo gets
		// the nearest command.
		{name: "help init", args: []string{"help", "init"}, want: Command{Mode: Init, Args: []string{"--help"}, Flags: map[string]string{}}},
		{name: "help doctor", args: []string{"help", "doctor"}, want: Command{Mode: Doctor, Args: []string{"--help"}, Flags: map[string]string{}}},
		{name: "help demo", args: []string{"help", "demo"}, want: Command{Mode: DemoHelp, Flags: map[string]string{}}},
		{name: "help of no command", args: []string{"help", "deploy"}, usage: "help takes no arguments"},
		{name: "a typo of a command", args: []string{"inti"}, usage: `unknown command "inti": did you mean init?`},
		{name: "a typo of doctor", args: []string{"docter", "--repo", "a/b"}, usage: `unknown command "docter": did you mean doctor?`},
		{name: "no command is near", args: []string{"deploy"}, usage: `argument 1, "deploy", is not a flag`, notSaid: "did you mean"},
		// A typo gets the nearest flag; a value apart from
		// its true/false flag gets how to write it.
		{name: "a typo of a flag", args: []string{"--timout", "5m"}, usage: "unknown flag --timout: did you mean --timeout?"},
		{name: "a typo with one dash", args: []string{"-promt", "x"}, usage: "unknown flag --promt: did you mean --prompt?"},
		{name: "a word missing its hyphen", args: []string{"--projectid", "p"}, usage: "unknown flag --projectid: did you mean --project-id?"},
		{name: "no flag is near", args: []string{"--colour"}, usage: "unknown flag --colour", notSaid: "did you mean"},
		{name: "a secret is never offered", args: []string{"--api-kye"}, usage: "unknown flag --api-kye", notSaid: "did you mean"},
		{name: "--wait no", args: []string{"--prompt", "p", "--wait", "no"}, usage: "--wait takes true or false, after =: write --wait=false"},
		{name: "--dry-run yes", args: []string{"--dry-run", "yes"}, usage: "--dry-run takes true or false, after =: write --dry-run=true"},
		{name: "--wait false", args: []string{"--wait", "false"}, usage: "--wait takes its value after =: write --wait=false"},
		// A flag of a few words takes its value as any value flag does.
		{name: "--docs-merge squash", args: []string{"--docs-merge", "squash", "--docs-close"},
			want: Command{Flags: map[string]string{"docs-merge": "squash", "docs-close": "true"}}},
		{name: "--docs-merge alone", args: []string{"--docs-merge"}, usage: "--docs-merge needs a value: false, merge, squash or rebase, as in --docs-merge merge"},
		{name: "--docs-merge before a flag", args: []string{"--docs-merge", "--dry-run"}, usage: "--docs-merge needs a value: false, merge, squash or rebase"},
		{name: "--docs-merge before a secret", args: []string{"--docs-merge", "--mint_secret"}, usage: "--docs-merge needs a value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.args)
			if tt.usage != "" {
				var u *UsageError
				if !errors.As(err, &u) || !strings.Contains(err.Error(), tt.usage) || tt.notSaid != "" && strings.Contains(err.Error(), tt.notSaid) {
					t.Fatalf("Parse(%q) error %v, want a usage error with %q", tt.args, err, tt.usage)
				}
				if strings.Contains(err.Error(), "_secret") {
					t.Errorf("the error quotes the secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.args, err)
			}
			if got.Mode != tt.want.Mode || got.JSON != tt.want.JSON || got.KeyFromStdin != tt.want.KeyFromStdin || !maps.Equal(got.Flags, tt.want.Flags) || !slices.Equal(got.Args, tt.want.Args) {
				t.Errorf("Parse(%q) = %+v, want %+v", tt.args, got, tt.want)
			}
		})
	}
}

// TestEveryInputHasAFlag: the flags come from inputs.Inputs, all but the
// secrets, which are refused.
func TestEveryInputHasAFlag(t *testing.T) {
	t.Parallel()
	for _, in := range inputs.Inputs {
		arg := "--" + in.Name + "=v"
		c, err := Parse([]string{arg})
		if slices.Contains(terms.Secrets, in.Name) {
			if err == nil {
				t.Errorf("%s accepted", arg)
			}
			continue
		}
		if err != nil || c.Flags[in.Name] != "v" {
			t.Errorf("Parse(%s) = %v, %v", arg, c.Flags, err)
		}
	}
	for _, s := range terms.Secrets {
		if !slices.ContainsFunc(inputs.Inputs, func(in inputs.Input) bool { return in.Name == s }) {
			t.Errorf("secret %s is no input", s)
		}
	}
	for _, f := range terms.Fallbacks {
		if !slices.ContainsFunc(inputs.Inputs, func(in inputs.Input) bool { return in.Name == f.Input }) {
			t.Errorf("fallback %s is for no input (%s)", f.Env, f.Input)
		}
	}
}

// TestFlagsOfAFewWords: one rule for every input, from its Values: one
// that takes true or false alone is a flag that needs no value; one that
// takes other words too (docs-merge: false, merge, squash or rebase) takes
// each of them apart or after =, and without one, or before another flag,
// is a usage error that names them all.
func TestFlagsOfAFewWords(t *testing.T) {
	t.Parallel()
	for _, in := range inputs.Inputs {
		if in.Values == nil || slices.Contains(terms.Secrets, in.Name) {
			continue
		}
		flag := "--" + in.Name
		if in.IsTrueFalse() {
			if c, err := Parse([]string{flag}); err != nil || c.Flags[in.Name] != "true" {
				t.Errorf("Parse(%s) = %v, %v; want it true", flag, c.Flags, err)
			}
			continue
		}
		for _, v := range in.Values {
			for _, args := range [][]string{{flag, v}, {flag + "=" + v}} {
				if c, err := Parse(args); err != nil || c.Flags[in.Name] != v {
					t.Errorf("Parse(%q) = %v, %v", args, c.Flags, err)
				}
			}
		}
		for _, args := range [][]string{{flag}, {flag, "--dry-run"}} {
			_, err := Parse(args)
			var u *UsageError
			if want := flag + " needs a value: " + inputs.Words(in.Values) + ", as in " + flag + " "; !errors.As(err, &u) || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Parse(%q) error %v, want a usage error that starts %q", args, err, want)
			}
		}
	}
}

// TestApplyPrecedence: a flag wins over INPUT_*, which wins over the
// fallback; --api-key-stdin wins over both for the key.
func TestApplyPrecedence(t *testing.T) {
	t.Parallel()
	env := map[string]string{"MINTLIFY_API_KEY": "mint_env", "MINTLIFY_PROJECT_ID": "proj-env", "GITHUB_TOKEN": "ghs_env"}
	tests := []struct {
		name      string
		args      []string
		inputVars map[string]string
		stdin     string
		want      map[string]string
	}{
		{"fallbacks only", nil, nil, "",
			map[string]string{"api-key": "mint_env", "project-id": "proj-env", "github-token": "ghs_env"}},
		{"INPUT_ over fallbacks", nil, map[string]string{"api-key": "mint_input", "project-id": "proj-input", "github-token": "ghs_input"}, "",
			map[string]string{"api-key": "mint_input", "project-id": "proj-input", "github-token": "ghs_input"}},
		{"blank INPUT_ falls back", nil, map[string]string{"project-id": "  "}, "",
			map[string]string{"project-id": "proj-env"}},
		{"flags over INPUT_", []string{"--project-id", "proj-flag", "--prompt", "from flag"}, map[string]string{"project-id": "proj-input", "prompt": "from input"}, "",
			map[string]string{"project-id": "proj-flag", "prompt": "from flag", "api-key": "mint_env"}},
		{"stdin over INPUT_ and the environment", []string{"--api-key-stdin"}, map[string]string{"api-key": "mint_input"}, "  mint_stdin\r\n",
			map[string]string{"api-key": "mint_stdin"}},
		{"an input without flag keeps INPUT_", []string{"--prompt", "p"}, map[string]string{"timeout": "5m"}, "",
			map[string]string{"timeout": "5m", "prompt": "p"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := Parse(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			rc := runner.Context{Inputs: map[string]string{}}
			maps.Copy(rc.Inputs, tt.inputVars)
			if err := c.Apply(context.Background(), &rc, func(k string) string { return env[k] }, Stdin{R: strings.NewReader(tt.stdin)}); err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.want {
				if rc.Inputs[k] != v {
					t.Errorf("input %s = %q, want %q", k, rc.Inputs[k], v)
				}
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("k", maxKeyBytes+1)
	tests := []struct {
		name      string
		args      []string
		env       map[string]string
		inActions bool
		stdin     func() *strings.Reader
		want      string // "" for no error
	}{
		{"no key outside Actions", []string{"--project-id", "p"}, nil, false, nil, "no API key: set MINTLIFY_API_KEY"},
		{"no project outside Actions", nil, map[string]string{"MINTLIFY_API_KEY": "mint_k"}, false, nil, "no project: pass --project-id"},
		{"inside Actions the step checks its inputs", nil, nil, true, nil, ""},
		{"empty stdin", []string{"--api-key-stdin"}, nil, false, func() *strings.Reader { return strings.NewReader(" \n") }, "standard input is empty"},
		{"no stdin", []string{"--api-key-stdin"}, nil, false, nil, "no standard input"},
		{"too much on stdin", []string{"--api-key-stdin"}, nil, false, func() *strings.Reader { return strings.NewReader(big) }, "more than 4 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := Parse(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			rc := runner.Context{InActions: tt.inActions}
			var err2 error
			if tt.stdin != nil {
				err2 = c.Apply(context.Background(), &rc, func(k string) string { return tt.env[k] }, Stdin{R: tt.stdin()})
			} else {
				err2 = c.Apply(context.Background(), &rc, func(k string) string { return tt.env[k] }, Stdin{})
			}
			if tt.want == "" {
				if err2 != nil {
					t.Errorf("Apply: %v", err2)
				}
				return
			}
			var u *UsageError
			if !errors.As(err2, &u) || !strings.Contains(err2.Error(), tt.want) {
				t.Errorf("Apply error %v, want a usage error with %q", err2, tt.want)
			}
		})
	}
}

func TestApplyStdinReadError(t *testing.T) {
	t.Parallel()
	c, _ := Parse([]string{"--api-key-stdin"})
	rc := runner.Context{}
	err := c.Apply(context.Background(), &rc, func(string) string { return "" }, Stdin{R: iotest.ErrReader(errors.New("broken pipe"))})
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("Apply error %v, want the read error", err)
	}
}

// TestApplyKeyHint: a key that does not come within HintAfter is said to
// be awaited, once, on Hint; a key that comes before says nothing.
func TestApplyKeyHint(t *testing.T) {
	t.Parallel()
	const hint = "waiting for the API key on standard input (--api-key-stdin): pipe it in"
	c, _ := Parse([]string{"--api-key-stdin"})

	t.Run("the key never comes", func(t *testing.T) {
		t.Parallel()
		pr, pw := io.Pipe()
		defer pw.Close()
		said := make(chan string, 1)
		w := writerFunc(func(p []byte) (int, error) { said <- string(p); return len(p), nil })
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			errc <- c.Apply(ctx, &runner.Context{}, func(string) string { return "" }, Stdin{R: pr, Hint: w, HintAfter: time.Millisecond})
		}()
		if line := <-said; line != hint+", or end the input (Ctrl+D)\n" {
			t.Errorf("hint %q", line)
		}
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Errorf("Apply: %v, want cancelled", err)
		}
		if len(said) != 0 {
			t.Errorf("said twice: %q", <-said)
		}
	})
	t.Run("the key comes first", func(t *testing.T) {
		t.Parallel()
		var buf bytes.Buffer
		rc := runner.Context{}
		env := map[string]string{"MINTLIFY_PROJECT_ID": "proj-1"}
		err := c.Apply(context.Background(), &rc, func(k string) string { return env[k] },
			Stdin{R: strings.NewReader("mint_abc\n"), Hint: &buf, HintAfter: time.Hour})
		if err != nil || rc.Inputs["api-key"] != "mint_abc" || buf.Len() != 0 {
			t.Errorf("Apply: %v, key %q, said %q", err, rc.Inputs["api-key"], buf.String())
		}
	})
}

// writerFunc is a function as an io.Writer.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestRecord(t *testing.T) {
	t.Parallel()
	spent := &cost.Cost{Creates: 1, Reads: 4, GitHub: 9, Waited: 90 * time.Second, WaitedSeconds: 90}
	const costJSON = `"cost":{"creates":1,"followUps":0,"reads":4,"githubRequests":9,"waitedSeconds":90}`
	tests := []struct {
		name    string
		job     string
		cost    *cost.Cost
		want    string
		wantErr string
	}{
		{"the record, compacted", "{\"id\": \"job_0001\", \"status\": \"completed\"}", spent, `{"job":{"id":"job_0001","status":"completed"},` + costJSON + "}\n", ""},
		{"escapes kept", `{"prLink":"a\u202eb"}`, spent, `{"job":{"prLink":"a\u202eb"},` + costJSON + "}\n", ""},
		{"no job", "", spent, `{"job":null,` + costJSON + "}\n", ""},
		{"white space only, no cost", " \n", nil, `{"job":null,"cost":null}` + "\n", ""},
		{"not JSON", "{oops", spent, "", "not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Record(tt.job, tt.cost)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Record error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("Record = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestUsageFromTheSpec: --help lists a flag for every input but the
// secrets, every output, every fallback and every exit status.
func TestUsageFromTheSpec(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	Usage(&b)
	help := b.String()
	var want []string
	for _, in := range inputs.Inputs {
		switch {
		case slices.Contains(terms.Secrets, in.Name):
			want = append(want, "(no flag) "+in.Name)
		case in.Default == "true":
			want = append(want, "--"+in.Name+"=false")
		case in.Values != nil && !in.IsTrueFalse():
			want = append(want, "--"+in.Name+" "+strings.Join(in.Values, "|")+"  ("+in.Default+")")
		default:
			want = append(want, "--"+in.Name)
		}
		want = append(want, in.Description)
	}
	for _, out := range inputs.Outputs {
		want = append(want, out.Name, out.Description)
	}
	for _, f := range terms.Fallbacks {
		want = append(want, f.Env)
	}
	for _, s := range ExitStatuses {
		want = append(want, s.Meaning)
	}
	want = append(want, "--"+terms.KeyStdinFlag, "--"+JSONFlag, "demo", "--version")
	// Texts are wrapped at 80 columns: compare with white space folded.
	folded := strings.Join(strings.Fields(help), " ")
	for _, w := range want {
		if !strings.Contains(folded, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("--help lacks %q", w)
		}
	}
	if strings.Contains(help, "--api-key ") || strings.Contains(help, "--github-token") {
		t.Errorf("--help offers a secret as a flag:\n%s", help)
	}
}
