package inputs

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// Usage prints how to run the binary, every input with its default, and the
// outputs.
func Usage(w io.Writer) {
	fmt.Fprint(w, `agent-job-action: create or continue a Mintlify agent job, wait for it, report it.

Usage:
  agent-job-action            run as a GitHub Action step (inputs from INPUT_* variables)
  agent-job-action demo       a whole run against an in-process fake service
  agent-job-action --version  print the version

Outside GitHub Actions, set inputs as the runner does, name upper-cased and
hyphens kept, e.g.:
  env INPUT_PROMPT='Fix typos' INPUT_PROJECT-ID=p INPUT_API-KEY=mint_... agent-job-action

Inputs:
`)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, in := range Inputs {
		def := in.Default
		switch {
		case in.Required:
			def = "(required)"
		case def == "":
			def = "(empty)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", in.Name, def, in.Description)
	}
	tw.Flush()
	fmt.Fprint(w, "\nOutputs (to GITHUB_OUTPUT, or printed when it is unset):\n")
	for _, out := range Outputs {
		fmt.Fprintf(tw, "  %s\t%s\n", out.Name, out.Description)
	}
	tw.Flush()
}
