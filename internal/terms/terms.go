// Package terms names the run's settings as the person who started it
// gives them, so that advice can be followed as written: in a workflow, the
// action's inputs (project-id, wait: false); on a command line, its flags
// (--project-id, --wait=false) and, for the secrets, which have no flag,
// the environment variable or standard input that gives them.
package terms

// Terms is how a run names its settings in what it says.
type Terms struct {
	// CommandLine is true when a person or a script started the program
	// with flags, or outside Actions.
	CommandLine bool
}

// Fallback is an environment variable that gives an input on a command
// line when neither its flag nor its INPUT_ variable does.
type Fallback struct {
	Input string
	Env   string
}

// Fallbacks are the environment variables a command line reads instead of
// INPUT_* names, which most shells cannot export (they hold a hyphen).
var Fallbacks = []Fallback{
	{Input: "api-key", Env: "MINTLIFY_API_KEY"},
	{Input: "project-id", Env: "MINTLIFY_PROJECT_ID"},
	{Input: "github-token", Env: "GITHUB_TOKEN"},
	{Input: "docs-token", Env: "DOCS_TOKEN"},
}

// Secrets are the inputs that have no flag: a value on the command line is
// visible to every user of the machine in ps, and stays in shell history.
var Secrets = []string{"api-key", "github-token", "docs-token"}

// KeyStdinFlag reads the API key from standard input.
const KeyStdinFlag = "api-key-stdin"

// Name is input as the person sets it: "timeout" in a workflow, "--timeout"
// on a command line, where a secret is named by where it comes from
// ("MINTLIFY_API_KEY or --api-key-stdin").
func (t Terms) Name(input string) string {
	if !t.CommandLine {
		return input
	}
	if isSecret(input) {
		return SecretSource(input)
	}
	return "--" + input
}

// Subject is input as the subject of a sentence about its value: "input
// timeout", "--timeout", or on a command line "the API key
// (MINTLIFY_API_KEY or --api-key-stdin)".
func (t Terms) Subject(input string) string {
	switch {
	case !t.CommandLine:
		return "input " + input
	case input == "api-key":
		return "the API key (" + t.Name(input) + ")"
	case input == "github-token":
		return "the GitHub token (" + t.Name(input) + ")"
	}
	return t.Name(input)
}

// Setting is how the person gives input a value, for advice: "--job-id
// job_1" on a command line ("--wait=false" for true or false), "job-id:
// job_1" in a workflow; with value "", the name alone (Name).
func (t Terms) Setting(input, value string) string {
	switch {
	case value == "":
		return t.Name(input)
	case t.CommandLine && (value == "true" || value == "false"):
		return "--" + input + "=" + value
	case t.CommandLine:
		return "--" + input + " " + value
	}
	return input + ": " + value
}

// SecretSource says where a command line takes a secret input from, since
// it has no flag: its environment variable, and for the API key standard
// input too.
func SecretSource(input string) string {
	src := "its INPUT_ variable"
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

func isSecret(input string) bool {
	for _, s := range Secrets {
		if s == input {
			return true
		}
	}
	return false
}
