package setup

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Init is the init command: the choices it parsed, and where it writes.
type Init struct {
	Choices
	// Dir is the code repository's checkout; DocsDir the docs
	// repository's, when the docs live apart.
	Dir, DocsDir string
	// Force replaces a file that differs from what init writes.
	Force bool
	// Help asks for the usage.
	Help bool
}

// UsageError is a command line init (or doctor) cannot take: nothing was
// written, nor read.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// stringList is a flag given once per value (--paths, --allowed-bots),
// whose values may also be separated by commas (--allowed-bots).
type stringList struct {
	to    *[]string
	comma bool
}

func (l stringList) String() string { return "" }
func (l stringList) Set(v string) error {
	if l.comma {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				*l.to = append(*l.to, p)
			}
		}
		return nil
	}
	*l.to = append(*l.to, v)
	return nil
}

// ParseInit reads init's flags (the arguments after "init"). getenv
// gives GITHUB_REPOSITORY, and release is the action's release this
// program was built as ("" when it is none): --ref's default.
func ParseInit(args []string, getenv func(string) string, release string) (Init, error) {
	in := Init{Choices: Defaults, Dir: "."}
	in.Ref = release
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&in.CodeRepo, "repo", getenv("GITHUB_REPOSITORY"), "")
	fs.StringVar(&in.CodeBranch, "default-branch", in.CodeBranch, "")
	fs.StringVar(&in.DocsRepo, "docs-repo", "", "")
	fs.StringVar(&in.Dir, "dir", in.Dir, "")
	fs.StringVar(&in.DocsDir, "docs-dir", "", "")
	fs.BoolVar(&in.Wait, "wait", false, "")
	check := "approved"
	fs.StringVar(&check, "docs-check", check, "")
	merge := "false"
	fs.StringVar(&merge, "docs-merge", merge, "")
	fs.BoolVar(&in.Close, "docs-close", false, "")
	when := "push"
	fs.StringVar(&when, "docs-when", when, "")
	fs.BoolVar(&in.MergeQueue, "merge-queue", false, "")
	fs.Var(stringList{to: &in.Paths}, "paths", "")
	fs.Var(stringList{to: &in.Bots, comma: true}, "allowed-bots", "")
	fs.IntVar(&in.PerThread, "max-sends-per-thread", 0, "")
	fs.IntVar(&in.PerDay, "max-sends-per-day", 0, "")
	fs.StringVar(&in.Ref, "ref", in.Ref, "")
	fs.StringVar(&in.AgentApp, "agent-app", in.AgentApp, "")
	fs.StringVar(&in.Phrase, "trigger-phrase", in.Phrase, "")
	fs.StringVar(&in.ReleaseLabel, "release-label", in.ReleaseLabel, "")
	fs.BoolVar(&in.Force, "force", false, "")
	fs.BoolVar(&in.Help, "help", false, "")
	fs.BoolVar(&in.Help, "h", false, "")
	if err := fs.Parse(args); err != nil {
		// flag's own message may quote a value: only the flag is named.
		return in, &UsageError{Err: FlagError("init", err)}
	}
	if fs.NArg() > 0 {
		return in, &UsageError{Err: fmt.Errorf("init takes flags only; %d more arguments", fs.NArg())}
	}
	if in.Help {
		return in, nil
	}
	switch check {
	case "approved":
	case "exists":
		in.Approval = false
	default:
		return in, &UsageError{Err: &Error{Flag: "docs-check", Why: "must be approved or exists"}}
	}
	if merge != "false" {
		in.Merge = merge
	}
	switch when {
	case "push":
	case "approved":
		in.WhenApproved = true
	default:
		return in, &UsageError{Err: &Error{Flag: "docs-when", Why: "must be push or approved"}}
	}
	if in.CodeRepo == "" {
		in.CodeRepo = OriginRepo(in.Dir)
	}
	branchSet := false
	fs.Visit(func(f *flag.Flag) { branchSet = branchSet || f.Name == "default-branch" })
	if !branchSet { // read only when not given: the checkout may hold anything there
		in.CodeBranch = cmp.Or(originHead(in.Dir), in.CodeBranch)
	}
	if in.Ref == "" {
		return in, &UsageError{Err: &Error{Flag: "ref", Why: "is needed: this build is not a release; name the action's release (v1) or a full commit of agentjob/agent-job-action"}}
	}
	if err := in.Check(); err != nil {
		return in, &UsageError{Err: err}
	}
	if in.docsFile() && in.DocsDir == "" {
		return in, &UsageError{Err: &Error{Flag: "docs-dir", Why: "must name a checkout of " + in.DocsRepo + ", where init writes its file"}}
	}
	if in.DocsRepo == "" && in.DocsDir != "" {
		return in, &UsageError{Err: &Error{Flag: "docs-dir", Why: "is for --docs-repo's checkout: give both, or neither"}}
	}
	return in, nil
}

var flagName = &Regexp{Expr: `-[A-Za-z][A-Za-z-]*`}

// FlagError is the error of a subcommand's flags (cmd: init, doctor) as
// the flag package gave it, naming the flag and never its value, which
// may be a secret typed in the wrong place.
func FlagError(cmd string, err error) error {
	msg := err.Error()
	name := flagName.Re().FindString(msg)
	switch {
	case strings.HasPrefix(msg, "flag provided but not defined"):
		return fmt.Errorf("%s has no flag %s (agent-job-action %s --help lists them)", cmd, name, cmd)
	case strings.HasPrefix(msg, "flag needs an argument"):
		return fmt.Errorf("%s needs a value", name)
	case strings.HasPrefix(msg, "invalid value"), strings.HasPrefix(msg, "invalid boolean value"):
		return fmt.Errorf("%s: its value is not one it takes (agent-job-action %s --help)", name, cmd)
	}
	return fmt.Errorf("%s: the flags cannot be read (agent-job-action %s --help)", cmd, cmd)
}

var originURL = &Regexp{Expr: `(?m)^\s*url\s*=\s*\S*github\.com[:/]([A-Za-z0-9-]+/[A-Za-z0-9._-]+?)(?:\.git)?\s*$`}

// maxGitConfig bounds the read of a checkout's .git/config.
const maxGitConfig = 64 << 10

// originHead is the default branch of dir's remote origin, as git
// recorded it when it cloned (refs/remotes/origin/HEAD), or "" when it
// did not.
func originHead(dir string) string {
	data, err := ReadRegular(filepath.Join(dir, ".git", "refs", "remotes", "origin", "HEAD"), 1024)
	if err != nil {
		return ""
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: refs/remotes/origin/")
	if !ok || !branch.Re().MatchString(ref) || strings.Contains(ref, "..") {
		return ""
	}
	return ref
}

// OriginRepo is the owner/name of dir's remote origin on github.com, or
// "" when it cannot tell.
func OriginRepo(dir string) string {
	data, err := ReadRegular(filepath.Join(dir, ".git", "config"), maxGitConfig)
	if err != nil {
		return ""
	}
	_, after, ok := bytes.Cut(data, []byte(`[remote "origin"]`))
	if !ok {
		return ""
	}
	if i := bytes.Index(after, []byte("\n[")); i >= 0 {
		after = after[:i]
	}
	if m := originURL.Re().FindSubmatch(after); m != nil {
		return string(m[1])
	}
	return ""
}

// maxWorkflow bounds the read of a workflow file init would replace:
// GitHub refuses files far smaller; a longer one differs from init's.
const maxWorkflow = 512 << 10

// ErrNotRegular is a file that is not a regular file, where one is read.
var ErrNotRegular = errors.New("not a regular file")

// ReadRegular reads at most max bytes of the regular file at path, opened
// without blocking: a named pipe (or a link to one, which a checkout can
// hold) would otherwise wait for a writer for ever, and a device never
// end. Anything but a regular file is ErrNotRegular, naming what it is.
func ReadRegular(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("it is %s, %w", kind(fi.Mode()), ErrNotRegular)
	}
	return io.ReadAll(io.LimitReader(f, max))
}

// kind says what a file that is not regular is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// Outcome is what init did with one file.
type Outcome struct {
	Repo, Path string
	// Changed says the file was written; false: it was as init writes it.
	Changed bool
}

// Write writes the files of in into their checkouts: the code
// repository's under Dir, the docs repository's under DocsDir. A file
// that is already as init writes it is left as it is, so that a second
// init changes nothing; one that differs is replaced only with Force.
// Nothing is written unless every file can be.
func (in Init) Write() ([]Outcome, error) {
	files, err := Files(in.Choices)
	if err != nil {
		return nil, err
	}
	var out []Outcome
	for _, f := range files {
		dir := in.Dir
		if f.Repo == in.DocsRepo && in.DocsRepo != "" {
			dir = in.DocsDir
		}
		target := filepath.Join(dir, filepath.FromSlash(f.Path))
		// Nothing is written through a link: it may lead out of the checkout.
		for d := filepath.Dir(target); d != filepath.Clean(dir) && len(d) > len(filepath.Clean(dir)); d = filepath.Dir(d) {
			if fi, err := os.Lstat(d); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return nil, &UsageError{Err: fmt.Errorf("%s is a link: init writes nothing through one; make it a directory, and run init again", d)}
			}
		}
		old, err := ReadRegular(target, maxWorkflow)
		switch {
		case err == nil && bytes.Equal(old, f.Body):
			out = append(out, Outcome{Repo: f.Repo, Path: target})
			continue
		case err == nil && !in.Force:
			return nil, &UsageError{Err: fmt.Errorf("%s exists and is not what init writes for these choices: nothing was written; --force replaces it", target)}
		case errors.Is(err, ErrNotRegular):
			return nil, &UsageError{Err: fmt.Errorf("%s exists and is not a regular file: nothing was written; remove it, and run init again", target)}
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("read %s: %w", target, err)
		}
		out = append(out, Outcome{Repo: f.Repo, Path: target, Changed: true})
	}
	for i, f := range files {
		if !out[i].Changed {
			continue
		}
		if err := writeFile(out[i].Path, f.Body); err != nil {
			return out[:i], err
		}
	}
	return out, nil
}

// writeFile writes body to path through a file beside it, renamed over
// it, so that a file is never left half written.
func writeFile(path string, body []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".init-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(body); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Report prints what init did and what a person must still do, in order.
func Report(w io.Writer, in Init, done []Outcome) {
	for _, o := range done {
		verb := "unchanged"
		if o.Changed {
			verb = "wrote"
		}
		fmt.Fprintf(w, "%s %s (for %s)\n", verb, o.Path, o.Repo)
	}
	fmt.Fprintf(w, "\nWhat you still do, in order:\n")
	for i, s := range Steps(in.Choices) {
		fmt.Fprintf(w, "\n%d. %s\n", i+1, s.What)
		if s.Command != "" {
			// Flush left, as it is pasted: a here-document's end must
			// start its line.
			fmt.Fprintf(w, "\n%s\n", s.Command)
		}
	}
	fmt.Fprintf(w, "\nTo turn it off: delete the ruleset's required check first, then the files.\n")
}

// Usage prints init's flags.
func Usage(w io.Writer) {
	fmt.Fprint(w, `agent-job-action init: write the workflow files for a team's choices, and
say what a person must still do (secrets, tokens, the ruleset).

Usage:
  agent-job-action init --ref v1 [flags]

Flags:
  --repo owner/name        the code repository (GITHUB_REPOSITORY, or the
                           checkout's remote origin)
  --default-branch name    its default branch (the checkout's origin/HEAD,
                           else main)
  --dir path               its checkout, where the file goes (.)
  --docs-repo owner/name   the repository the agent opens its pull requests
                           in, when it is not the code repository
  --docs-dir path          that repository's checkout (needed with
                           --docs-repo)
  --wait                   runs wait for the agent (a runner waits; the
                           default leaves the job to the settle job)
  --docs-check value       approved (the check waits for an approval of the
                           docs pull request; the default) or exists
  --docs-merge value       merge, squash or rebase the docs pull request
                           with the code; false (the default): a person does
  --docs-close             close the docs pull request with an unmerged code
                           pull request
  --docs-when value        push (the default): the docs job hears every
                           push; approved: it hears the change once the code
                           is approved, and the check waits until then
  --merge-queue            the default branch has, or gets, a merge queue:
                           the file hears merge_group, and the ruleset step
                           turns the queue on
  --paths pattern          a pattern of the changed files the docs follow,
                           as on.pull_request.paths writes it; give it once
                           for each pattern (every file when none)
  --max-sends-per-thread n the most creates and follow-ups per issue or
                           pull request (no cap)
  --max-sends-per-day n    the most per day in the repository (no cap)
  --ref value              the action's release (v1) or a full commit
                           (a commit builds the action: setup-go is added)
  --agent-app login        the app that opens the agent's pull requests
                           (mintlify[bot])
  --allowed-bots list      other bots whose code pull requests get docs
  --trigger-phrase word    a request's phrase (/docs)
  --release-label name     the label that releases the check
                           (docs-not-needed)
  --force                  replace a file that differs

Running it twice with the same flags changes nothing.
`)
}
