package cli

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/agentjob/agent-job-action/internal/inputs"
)

// Usage prints how to run the program: a flag for every input of action.yml
// with its default, the environment it reads, the outputs and the exit
// statuses, all from the tables that define them.
func Usage(w io.Writer) {
	fmt.Fprint(w, `agent-job-action: create or continue a Mintlify agent job, wait for it, report it.

Usage:
  agent-job-action [flags]    run a job
  agent-job-action demo       a whole run against in-process fakes (release builds
                              leave it out: go run . demo in a clone)
  agent-job-action --version  print the version
  agent-job-action --help     print this help

Example:
  MINTLIFY_API_KEY=mint_... agent-job-action --project-id your-project --prompt 'Fix typos in the quickstart'

Flags, one per input of action.yml; a flag wins over the input's INPUT_ variable:
`)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, in := range inputs.Inputs {
		def := in.Default
		switch {
		case in.Required:
			def = "(required)"
		case def == "":
			def = "(empty)"
		}
		name := "--" + in.Name + " value"
		switch {
		case slices.Contains(Secrets, in.Name):
			name = "(no flag) " + in.Name
			def = "(" + secretSource(in.Name) + ")"
		case IsBool(in) && in.Default == "true":
			name = "--" + in.Name + "=false"
		case IsBool(in):
			name = "--" + in.Name
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", name, def, in.Description)
	}
	fmt.Fprintf(tw, "  --%s\t\tRead the API key from standard input (it is never a flag: ps and shell history would show it).\n", KeyStdinFlag)
	fmt.Fprintf(tw, "  --%s\t\tPrint the final job record (JSON, null when there is none) on standard output; the log goes to standard error.\n", JSONFlag)
	tw.Flush()

	fmt.Fprint(w, "\nEnvironment:\n")
	fmt.Fprintf(tw, "  INPUT_<NAME>\tAny input as the runner passes it, name upper-cased, hyphens kept (INPUT_PROJECT-ID).\n")
	for _, f := range Fallbacks {
		fmt.Fprintf(tw, "  %s\tThe %s input when neither a flag nor INPUT_ variable gives it.\n", f.Env, f.Input)
	}
	fmt.Fprintf(tw, "  GITHUB_ACTIONS=true\tRun as a GitHub Actions step: workflow commands in the log, outputs to GITHUB_OUTPUT.\n")
	tw.Flush()

	fmt.Fprint(w, "\nOutputs (to GITHUB_OUTPUT; when it is unset, and without --json, printed as \"output name=value\" lines):\n")
	for _, out := range inputs.Outputs {
		fmt.Fprintf(tw, "  %s\t%s\n", out.Name, out.Description)
	}
	tw.Flush()

	fmt.Fprint(w, "\nExit status:\n")
	for _, s := range ExitStatuses {
		fmt.Fprintf(tw, "  %d\t%s\n", s.Code, s.Meaning)
	}
	tw.Flush()
}

// secretSource says where a secret input comes from instead of a flag.
func secretSource(input string) string {
	src := "INPUT_ variable"
	for _, f := range Fallbacks {
		if f.Input == input {
			src = f.Env
		}
	}
	if input == "api-key" {
		src += " or --" + KeyStdinFlag
	}
	return src
}
