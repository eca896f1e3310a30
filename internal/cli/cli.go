// Package cli is the program's command line: one flag per input of
// action.yml (from the same table, inputs.Inputs), merged with the runner's
// INPUT_* variables and a few environment fallbacks into the run's inputs.
// Secrets never come from a flag, where they would land in shell history
// and in ps: the API key comes from the environment or standard input.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/runner"
	"github.com/agentjob/agent-job-action/internal/terms"
)

// Mode is what the command line asks for.
type Mode int

// The modes.
const (
	Run      Mode = iota // run a job (the default)
	Help                 // print the usage
	Version              // print the version
	Demo                 // a whole run against an in-process fake
	DemoHelp             // print what the demo does
	Init                 // write a team's workflow files (package setup)
	Doctor               // check a setup with reads only (package doctor)
)

// Command is a parsed command line.
type Command struct {
	Mode Mode
	// Flags holds the inputs given as flags, by input name; a flag given
	// with an empty value is there, empty.
	Flags map[string]string
	// JSON asks for the final job record and the run's cost on standard
	// output, the log on standard error.
	JSON bool
	// KeyFromStdin reads the API key from standard input.
	KeyFromStdin bool
	// Args are a subcommand's own arguments (init's flags).
	Args []string
}

// UsageError is a command line that cannot run: an unknown flag, a secret
// given as a flag, a stray argument, an input that is missing or invalid.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// JSONFlag prints the final job record and the run's cost as JSON on standard output.
const JSONFlag = "json"

// maxKeyBytes bounds what --api-key-stdin reads: a key is a few dozen bytes,
// and a mistaken pipe must not be read whole.
const maxKeyBytes = 4 << 10

// Parse reads the command line (without the program's name) with the
// standard library's flag package: flags are -name or --name, with the
// value after = or as the next argument; a true/false flag alone means true
// and takes another value only after = (--wait=false); a flag of a few
// words (--docs-merge) alone, or followed by another flag, is refused,
// naming its words. No value is repeated in an error, so that a secret
// typed in the wrong place does not reach a log: flag's own messages,
// which quote values, are never shown.
func Parse(args []string) (Command, error) {
	c := Command{Flags: map[string]string{}}
	if len(args) > 0 {
		switch {
		case args[0] == "init":
			// Its flags are its own (setup.ParseInit).
			c.Mode, c.Args = Init, args[1:]
			return c, nil
		case args[0] == "doctor":
			// Its flags are its own (doctor.Parse).
			c.Mode, c.Args = Doctor, args[1:]
			return c, nil
		case args[0] == "demo":
			c.Mode = Demo
		case isHelp(args[0]) && len(args) == 2 && slices.Contains(commands, args[1]):
			return Parse([]string{args[1], "--help"}) // help init: as gh's
		case isHelp(args[0]):
			c.Mode = Help
		case slices.Contains([]string{"-version", "--version", "version"}, args[0]):
			c.Mode = Version
		}
		switch {
		case c.Mode == Run, len(args) == 1:
		case c.Mode == Demo && len(args) == 2 && isHelp(args[1]):
			c.Mode = DemoHelp
		case c.Mode == Demo:
			return c, usagef("demo takes no arguments: run agent-job-action demo, or demo --help for what it does")
		default:
			return c, usagef("%s takes no arguments", args[0])
		}
		if c.Mode != Run {
			return c, nil
		}
	}

	var p parsing
	fs := flag.NewFlagSet("agent-job-action", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	for _, in := range inputs.Inputs {
		switch {
		case slices.Contains(terms.Secrets, in.Name):
			fs.Var(secretFlag{name: in.Name, p: &p}, in.Name, "")
		case in.IsTrueFalse():
			fs.Var(inputFlag{name: in.Name, flags: c.Flags, isBool: true}, in.Name, "")
		default:
			fs.Var(inputFlag{name: in.Name, flags: c.Flags, words: in.Values, p: &p}, in.Name, "")
		}
	}
	fs.Var(boolFlag{name: JSONFlag, to: &c.JSON, p: &p}, JSONFlag, "")
	fs.Var(boolFlag{name: terms.KeyStdinFlag, to: &c.KeyFromStdin, p: &p}, terms.KeyStdinFlag, "")

	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.Mode = Help
		return c, nil
	case p.secret != "":
		return c, refuseSecret(p.secret)
	case p.notBool != "":
		return c, usagef("--%s must be true or false", p.notBool)
	case p.noValue != "":
		return c, needsValue(p.noValue)
	case err != nil:
		return c, flagError(err, fs)
	}
	if rest := fs.Args(); len(rest) > 0 {
		i := len(args) - len(rest)
		if name, ok := boolWithoutValue(fs, args[:i]); ok {
			if err := boolValueApart(name, rest[0]); err != nil {
				return c, err
			}
		}
		return c, stray(i, rest[0])
	}
	return c, nil
}

// isHelp reports whether a asks for help, as the first argument or after
// demo.
func isHelp(a string) bool { return slices.Contains([]string{"-h", "-help", "--help", "help"}, a) }

// commands are the program's commands, which help names and a typo gets.
var commands = []string{"init", "doctor", "demo"}

// boolWithoutValue reports whether the last of parsed, the arguments flag
// read, is a true/false flag given without "=" (--wait), and its name: the
// argument after it is then a value meant for it (--wait no), which such a
// flag does not take.
func boolWithoutValue(fs *flag.FlagSet, parsed []string) (string, bool) {
	if len(parsed) == 0 {
		return "", false
	}
	last := parsed[len(parsed)-1]
	if !strings.HasPrefix(last, "-") || strings.Contains(last, "=") {
		return "", false
	}
	name := strings.TrimLeft(last, "-")
	f := fs.Lookup(name)
	if f == nil {
		return "", false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return name, ok && b.IsBoolFlag()
}

// boolValueApart is the error for a value written apart from its
// true/false flag (--wait no) that plainly means true or false: it says
// how to write it. Any other argument is no value of the flag, and
// gets nil (stray words it, without repeating what may be a key).
func boolValueApart(name, value string) error {
	switch v := strings.ToLower(value); v {
	case "true", "false":
		return usagef("--%s takes its value after =: write --%s=%s", name, name, v)
	case "yes", "y", "on", "1":
		return usagef("--%s takes true or false, after =: write --%s=true", name, name)
	case "no", "n", "off", "0":
		return usagef("--%s takes true or false, after =: write --%s=false", name, name)
	}
	return nil
}

// parsing is what the flag values noticed while flag.Parse ran: the
// refusals that Parse words itself.
type parsing struct {
	secret  string // a secret given as a flag
	notBool string // a true/false flag given another value
	noValue string // a flag of a few words given a flag (what starts with -)
}

// inputFlag sets an input from its flag; values are checked later, with
// every other input, by package inputs. A flag of a few words (words, the
// input's Values) refuses what starts with -, none of them: flag takes
// the argument after a flag that needs a value as its value, even another
// flag (--docs-merge --dry-run), which was then meant to stand alone.
type inputFlag struct {
	name   string
	flags  map[string]string
	isBool bool
	words  []string
	p      *parsing
}

func (f inputFlag) String() string   { return "" }
func (f inputFlag) IsBoolFlag() bool { return f.isBool }
func (f inputFlag) Set(v string) error {
	if len(f.words) > 0 && strings.HasPrefix(v, "-") {
		f.p.noValue = f.name
		return errors.New("a flag is no value")
	}
	f.flags[f.name] = v
	return nil
}

// boolFlag is one of the command line's own true/false flags.
type boolFlag struct {
	name string
	to   *bool
	p    *parsing
}

func (f boolFlag) String() string   { return "" }
func (f boolFlag) IsBoolFlag() bool { return true }
func (f boolFlag) Set(v string) error {
	b, err := inputs.ParseBool(v)
	if err != nil {
		f.p.notBool = f.name
		return err
	}
	*f.to = b
	return nil
}

// secretFlag refuses a secret given as a flag, whatever its value, which
// is never kept.
type secretFlag struct {
	name string
	p    *parsing
}

func (f secretFlag) String() string { return "" }
func (f secretFlag) Set(string) error {
	f.p.secret = f.name
	return errors.New("a secret is not a flag")
}

// flagError words an error of flag.Parse that no value noticed: an
// unknown flag (named, unless the name may be a secret, with the closest
// flag of fs when one is close), a flag without its value, or bad syntax.
// flag's messages are read for the flag's name only; they are not shown.
func flagError(err error, fs *flag.FlagSet) error {
	msg := err.Error()
	name := ""
	if i := strings.LastIndex(msg, ": -"); i >= 0 {
		name = strings.TrimLeft(msg[i+2:], "-")
	}
	switch {
	case strings.HasPrefix(msg, "flag needs an argument:") && slices.Contains(terms.Secrets, name):
		return refuseSecret(name)
	case strings.HasPrefix(msg, "flag needs an argument:"):
		return needsValue(name)
	case strings.HasPrefix(msg, "flag provided but not defined:") && !maySecret(name):
		if near := closest(fs, name); near != "" {
			return usagef("unknown flag --%s: did you mean --%s?", name, near)
		}
		return usagef("unknown flag --%s", name)
	case strings.HasPrefix(msg, "flag provided but not defined:"):
		return usagef("an unknown flag (not shown: it may be a secret)")
	}
	return usagef("a flag is written wrong: write --name value or --name=value")
}

// needsValue is the error for the flag name given without its value; the
// flag of an input of a few words names them, and one to write.
func needsValue(name string) error {
	i := slices.IndexFunc(inputs.Inputs, func(in inputs.Input) bool { return in.Name == name })
	if i < 0 || len(inputs.Inputs[i].Values) == 0 {
		return usagef("--%s needs a value", name)
	}
	in := inputs.Inputs[i]
	example := in.Values[0]
	if j := slices.IndexFunc(in.Values, func(v string) bool { return v != in.Default }); j >= 0 {
		example = in.Values[j]
	}
	return usagef("--%s needs a value: %s, as in --%s %s", name, inputs.Words(in.Values), name, example)
}

// closest is the flag of fs nearest to name, a flag nobody defined, when
// it is a likely typo of it: at most two edits away (--timout, --promt,
// --projectid), and fewer than half of name's letters. Secrets, which
// have no flag, are never offered.
func closest(fs *flag.FlagSet, name string) string {
	best, bestDist := "", 3
	fs.VisitAll(func(f *flag.Flag) {
		if slices.Contains(terms.Secrets, f.Name) {
			return
		}
		if d := distance(strings.ToLower(name), f.Name); d < bestDist && 2*d < len(name) {
			best, bestDist = f.Name, d
		}
	})
	return best
}

// distance is the Levenshtein distance between a and b: the fewest
// insertions, deletions and substitutions of bytes that turn a into b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// stray is the error for argument i, a, which no flag takes. The argument
// is quoted, unless it may be a secret (see maySecret): a key typed after
// --api-key-stdin must not reach a log.
func stray(i int, a string) error {
	for _, c := range commands {
		if d := distance(strings.ToLower(a), c); i == 0 && d <= 2 && 2*d <= len(a) && !maySecret(a) {
			return usagef("unknown command %q: did you mean %s?", a, c)
		}
	}
	hint := ""
	if v := strings.ToLower(a); v == "true" || v == "false" {
		hint = " (" + v + ": a true/false flag takes its value after =, as in --wait=false)"
	}
	shown := strconv.Quote(a)
	if maySecret(a) {
		shown = "(not shown: it may be a secret)"
	}
	return usagef("argument %d, %s, is not a flag nor a flag's value%s: every input is a flag, such as --prompt 'Fix typos'", i+1, shown, hint)
}

// secretPrefixes start the keys and tokens the action is given: Mintlify
// admin keys and GitHub's tokens.
var secretPrefixes = []string{"mint_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}

// maySecret reports whether a may be a key or a token: it starts as one
// does, or it is one long word of letters, digits and punctuation (20
// bytes or more, no space) holding both letters and digits, as generated
// secrets are.
func maySecret(a string) bool {
	lower := strings.ToLower(a)
	for _, p := range secretPrefixes {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return len(a) >= 20 && !strings.ContainsFunc(a, unicode.IsSpace) &&
		strings.ContainsFunc(a, unicode.IsLetter) && strings.ContainsFunc(a, unicode.IsDigit)
}

// refuseSecret says why a secret has no flag, and where it goes instead.
func refuseSecret(name string) error {
	return usagef("--%s is not accepted: a secret on the command line is visible to every user of the machine (ps) and stays in shell history; give it as %s", name, terms.SecretSource(name))
}

// Stdin is where --api-key-stdin reads the key from: R (nil: there is no
// standard input), and, once the read has waited HintAfter without the
// key, one line on Hint (nil: none) saying what the run waits for, so that
// a person who forgot to pipe the key is not left before a silent program.
type Stdin struct {
	R         io.Reader
	Hint      io.Writer
	HintAfter time.Duration
}

// KeyHintAfter is how long the key is awaited before the run says so.
const KeyHintAfter = 3 * time.Second

// Apply merges the command line into rc.Inputs, which holds the INPUT_*
// variables: a flag wins over its INPUT_ variable, which wins over the
// fallback in the environment. With --api-key-stdin the key is read from
// stdin. Outside Actions, a run without a key or project is a usage error
// that says where to give them.
//
// Reading the key from standard input ends when ctx does (Ctrl+C, SIGTERM)
// or when the run's timeout passes, like any other wait: the error then
// wraps the context's.
func (c Command) Apply(ctx context.Context, rc *runner.Context, getenv func(string) string, stdin Stdin) error {
	if rc.Inputs == nil {
		rc.Inputs = map[string]string{}
	}
	for name, v := range c.Flags {
		rc.Inputs[name] = v
	}
	if c.KeyFromStdin {
		// The timeout bounds the whole run, this wait included; a timeout
		// that does not parse is reported later, with the other inputs.
		if d, err := inputs.ParseDuration(inputs.Value(rc.Inputs, "timeout")); err == nil {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		key, err := readKey(ctx, stdin)
		if err != nil {
			return err
		}
		rc.Inputs["api-key"] = key
	}
	for _, f := range terms.Fallbacks {
		if strings.TrimSpace(rc.Inputs[f.Input]) == "" {
			rc.Inputs[f.Input] = getenv(f.Env)
		}
	}
	if rc.InActions {
		// The step's own checks name the inputs as a workflow sets them.
		return nil
	}
	switch {
	case strings.TrimSpace(rc.Inputs["api-key"]) == "":
		return usagef("no API key: set MINTLIFY_API_KEY in the environment, or pipe the key to --%s (a Mintlify admin API key, mint_...)", terms.KeyStdinFlag)
	case strings.TrimSpace(rc.Inputs["project-id"]) == "":
		return usagef("no project: pass --project-id, or set MINTLIFY_PROJECT_ID in the environment")
	}
	return nil
}

// readKey reads the key from stdin, or gives up when ctx ends: the read
// itself cannot be interrupted (a terminal or a pipe nobody writes to), so
// it runs on its own and is left behind; the program exits soon after.
func readKey(ctx context.Context, in Stdin) (string, error) {
	stdin := in.R
	if stdin == nil {
		return "", usagef("--%s: there is no standard input to read the key from", terms.KeyStdinFlag)
	}
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(stdin, maxKeyBytes+1))
		done <- read{data, err}
	}()
	var hint <-chan time.Time
	if in.Hint != nil {
		t := time.NewTimer(in.HintAfter)
		defer t.Stop()
		hint = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("--%s: stopped while waiting for the key on standard input: %w", terms.KeyStdinFlag, context.Cause(ctx))
		case <-hint:
			hint = nil
			fmt.Fprintf(in.Hint, "waiting for the API key on standard input (--%s): pipe it in, or end the input (Ctrl+D)\n", terms.KeyStdinFlag)
		case r := <-done:
			if r.err != nil {
				return "", usagef("--%s: read standard input: %v", terms.KeyStdinFlag, r.err)
			}
			return keyIn(r.data)
		}
	}
}

// keyIn is the key that standard input held.
func keyIn(data []byte) (string, error) {
	if len(data) > maxKeyBytes {
		return "", usagef("--%s: standard input holds more than %d KiB, which is no API key: pipe only the key", terms.KeyStdinFlag, maxKeyBytes>>10)
	}
	key := strings.TrimSpace(string(data))
	if key == "" {
		return "", usagef(`--%s: standard input is empty: pipe the key, e.g. printf '%%s' "$MINTLIFY_API_KEY" | agent-job-action --%s ...`, terms.KeyStdinFlag, terms.KeyStdinFlag)
	}
	return key, nil
}
