package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/action"
	"github.com/agentjob/agent-job-action/internal/cli"
)

// TestFlagsOfAFewWords: an input that takes one of a few words, not just
// true or false (docs-merge: false, merge, squash or rebase), is a flag
// that takes its value apart or after =, as every other value flag does;
// alone, or followed by another flag, it is a usage error that names its
// words; --help shows them. What a person sees: both streams and the exit
// status of a dry run, in process, with nothing sent.
func TestFlagsOfAFewWords(t *testing.T) {
	t.Parallel()
	const help = "Run agent-job-action --help for every flag.\n"
	vars := map[string]string{"MINTLIFY_API_KEY": testKey, "MINTLIFY_PROJECT_ID": "proj-1"}
	exec := func(t *testing.T, args ...string) (code int, stdout, stderr string) {
		t.Helper()
		var out, errs bytes.Buffer
		calls := 0
		env := Env{Getenv: func(k string) string { return vars[k] }, Stdin: strings.NewReader(""), Stderr: &errs,
			Deps: action.Deps{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) { calls++; return nil, errors.New("no") })}}
		err := run(context.Background(), args, env, &out)
		if calls != 0 {
			t.Errorf("%q sent %d requests", args, calls)
		}
		return exitCode(err), out.String(), errs.String()
	}
	dryRun := []string{"--prompt", "p", "--dry-run"}

	for _, args := range [][]string{
		{"--docs-merge", "squash"},
		{"--docs-merge=squash"},
		{"--docs-merge", "rebase", "--docs-check", "approved", "--docs-close"},
		{"--docs-merge", "false"},
		{"--comment", "false"},
		{"--required-permission", "maintain"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := exec(t, append(dryRun, args...)...)
			if code != cli.ExitOK || strings.Contains(stderr, "error:") || !strings.Contains(stdout, "output status=dry-run\n") {
				t.Errorf("exit %d\nstderr:\n%s\nstdout:\n%s", code, stderr, stdout)
			}
		})
	}

	for _, tt := range []struct {
		name   string
		args   []string
		stderr string // all of it
	}{
		{"alone", []string{"--docs-merge"},
			"error: --docs-merge needs a value: false, merge, squash or rebase, as in --docs-merge merge\n" + help},
		{"followed by a flag", []string{"--docs-merge", "--wait=false"},
			"error: --docs-merge needs a value: false, merge, squash or rebase, as in --docs-merge merge\n" + help},
		{"a word it does not take", []string{"--docs-merge", "true"},
			"error: --docs-merge must be false, merge, squash or rebase\n" + help},
		{"docs-check alone", []string{"--docs-check"},
			"error: --docs-check needs a value: exists or approved, as in --docs-check approved\n" + help},
		{"comment alone", []string{"--comment"},
			"error: --comment needs a value: auto, true or false, as in --comment true\n" + help},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := exec(t, append(dryRun, tt.args...)...)
			if code != cli.ExitUsage || stderr != tt.stderr || stdout != "" {
				t.Errorf("exit %d\nstderr:\n%s\nwant:\n%s\nstdout:\n%s", code, stderr, tt.stderr, stdout)
			}
		})
	}

	t.Run("--help", func(t *testing.T) {
		t.Parallel()
		code, stdout, _ := exec(t, "--help")
		for _, want := range []string{
			"\n  --docs-merge false|merge|squash|rebase  (false)\n",
			"\n  --docs-check exists|approved  (exists)\n",
			"\n  --comment auto|true|false  (auto)\n",
			"\n  --required-permission read|triage|write|maintain|admin  (write)\n",
			"\n  --docs-close  (false)\n",
			"\n  --wait=false  (true)\n",
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("--help lacks %q:\n%s", want, stdout)
			}
		}
		if code != cli.ExitOK {
			t.Errorf("exit %d", code)
		}
	})
}

// TestHelpOfACommandAndATypo: help init prints init's help, as init
// --help does, with exit status 0; a mistyped command says which command
// it may mean, with the usage status, and sends nothing.
func TestHelpOfACommandAndATypo(t *testing.T) {
	t.Parallel()
	exec := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		env := Env{Getenv: func(string) string { return "" }, Stdin: strings.NewReader(""), Stderr: &errs,
			Deps: action.Deps{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("nothing is sent") })}}
		err := run(context.Background(), args, env, &out)
		return exitCode(err), out.String(), errs.String()
	}
	_, want, _ := exec("init", "--help")
	if code, got, errs := exec("help", "init"); code != cli.ExitOK || got != want || !strings.Contains(got, "agent-job-action init") || errs != "" {
		t.Errorf("help init: exit %d\n%s\n%s", code, got, errs)
	}
	if code, got, errs := exec("inti", "--repo", "acme/api"); code != cli.ExitUsage || got != "" || !strings.Contains(errs, `unknown command "inti": did you mean init?`) {
		t.Errorf("inti: exit %d\n%s\n%s", code, got, errs)
	}
}
