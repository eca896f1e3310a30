package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/terms"
)

// Usage prints how to run the program: a flag for every input of action.yml
// with its default, the environment it reads, the outputs and the exit
// statuses, all from the tables that define them. Every line fits in
// usageWidth columns.
func Usage(w io.Writer) {
	fmt.Fprint(w, `agent-job-action: create or continue a Mintlify agent job, wait for it, and
report it.

Usage:
  agent-job-action [flags]    run a job
  agent-job-action demo       a whole run against in-process fakes
                              (release builds leave it out: go run . demo)
  agent-job-action init       write a repository's workflow file for a
                              team's choices (init --help)
  agent-job-action doctor     check a setup with reads only (doctor --help;
                              release builds leave it out: go run
                              github.com/agentjob/agent-job-action@REF doctor)
  agent-job-action --version  print the version
  agent-job-action --help     print this help; help init, help doctor and
                              help demo print a command's

Example:
  export MINTLIFY_API_KEY=mint_...
  agent-job-action --project-id your-project --prompt 'Fix typos'

Results go to standard output (output name=value lines, or the --json
record), the log to standard error.

Flags, one per input of action.yml; a flag wins over the input's INPUT_
variable:
`)
	for _, in := range inputs.Inputs {
		def := in.Default
		switch {
		case in.Required:
			def = "required"
		case def == "":
			def = "empty"
		}
		name := "--" + in.Name + " value"
		switch {
		case slices.Contains(terms.Secrets, in.Name):
			name = "(no flag) " + in.Name
			def = "from " + terms.SecretSource(in.Name)
		case in.IsTrueFalse() && in.Default == "true":
			name = "--" + in.Name + "=false"
		case in.IsTrueFalse():
			name = "--" + in.Name
		case in.Values != nil:
			name = "--" + in.Name + " " + strings.Join(in.Values, "|")
		}
		entry(w, name+"  ("+def+")", in.Description)
	}
	entry(w, "--"+terms.KeyStdinFlag, "Read the API key from standard input (it is never a flag: ps and shell history would show it).")
	entry(w, "--"+JSONFlag, `Print {"job": the final job record (null when there is none), "cost": what the run cost} as one line of JSON on standard output instead of the output lines.`)

	fmt.Fprint(w, "\nEnvironment:\n")
	entry(w, "INPUT_<NAME>", "Any input as the runner passes it, name upper-cased, hyphens kept (INPUT_PROJECT-ID).")
	for _, f := range terms.Fallbacks {
		entry(w, f.Env, "The "+f.Input+" input when neither a flag nor INPUT_ variable gives it.")
	}
	entry(w, "GITHUB_ACTIONS=true", "Run as a GitHub Actions step: workflow commands in the log, outputs to GITHUB_OUTPUT.")

	fmt.Fprint(w, "\nOutputs (to GITHUB_OUTPUT in Actions; otherwise output name=value lines on\nstandard output, each once per value):\n")
	for _, out := range inputs.Outputs {
		entry(w, out.Name, out.Description)
	}

	fmt.Fprint(w, "\nExit status:\n")
	for _, s := range ExitStatuses {
		entry(w, fmt.Sprint(s.Code), s.Meaning)
	}
}

// DemoUsage prints what agent-job-action demo does, for demo --help.
func DemoUsage(w io.Writer) {
	fmt.Fprint(w, `agent-job-action demo: the whole action, run in this process against built-in
fakes of the Agent Job API, of GitHub and of Mintlify's previews: no key, no
account, no network. Time is simulated: jobs of minutes take milliseconds.

Usage:
  agent-job-action demo         run the demo (release builds leave it out: from
                                a clone of the repository, go run . demo)
  agent-job-action demo --help  print this help

It plays five scenes, each as a GitHub Actions step would run, and prints each
step's log, outputs, job summary and comments as they read on GitHub:
  1. a workflow step asks the agent for a docs change and waits for it;
  2. a maintainer comments "/docs ..." on an issue;
  3. the maintainer comments on three lines of the agent's pull request, and
     one follow-up to the same job answers them;
  4. a code pull request is opened and pushed to, and its docs follow it;
  5. init's setup: no runner waits on the agent, the check waits for an
     approval of the docs pull request, and the code's merge merges the docs.

It takes no flags and sends nothing outside the process. For a real job, see
agent-job-action --help.
`)
}

// usageWidth is the width --help fits in: a terminal's default.
const usageWidth = 80

// entry prints a name on its own line and its text under it, indented and
// wrapped at usageWidth, as the flag package prints its defaults.
func entry(w io.Writer, name, text string) {
	fmt.Fprintf(w, "  %s\n", name)
	const indent = "      "
	line := indent
	for _, word := range strings.Fields(text) {
		if line != indent && len(line)+1+len(word) > usageWidth {
			fmt.Fprintln(w, line)
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += word
	}
	fmt.Fprintln(w, line)
}
