package doctor

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/redact"
	"github.com/agentjob/agent-job-action/internal/setup"
)

// Env is what the doctor command takes from the process: its environment
// (the credentials are read from there only, never from a flag), and in
// tests the transport and the clock.
type Env struct {
	Getenv    func(string) string
	Transport http.RoundTripper
	Clock     clock.Clock
	Version   string
}

// Timeout bounds a doctor run: its reads are a dozen.
const Timeout = time.Minute

// ProblemsError is a run that found problems, and NotProvenError one
// that found none but could not tell N checks: each its own exit status,
// apart from a run's.
type (
	ProblemsError  struct{ N int }
	NotProvenError struct{ N int }
)

func (e *ProblemsError) Error() string { return "doctor found " + plural(e.N, "problem") }
func (e *NotProvenError) Error() string {
	return "Not proven: no problem found, but " + plural(e.N, "check") + " could not be told"
}

// plural is n things, as a person writes it.
func plural(n int, thing string) string {
	if n != 1 {
		thing += "s"
	}
	return fmt.Sprintf("%d %s", n, thing)
}

// Options are doctor's flags.
type Options struct {
	Setup
	ProjectID, BaseURL string
	JSON, Help         bool
}

var (
	fileName  = &setup.Regexp{Expr: `^[A-Za-z0-9._-]+\.ya?ml$`}
	projectID = &setup.Regexp{Expr: `^[A-Za-z0-9_-]{1,200}$`}
)

// Parse reads doctor's flags (the arguments after "doctor").
func Parse(args []string, getenv func(string) string) (Options, error) {
	o := Options{Setup: Setup{Dir: ".", File: setup.File, AgentApp: setup.Defaults.AgentApp}, BaseURL: "https://api.mintlify.com"}
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&o.CodeRepo, "repo", getenv("GITHUB_REPOSITORY"), "")
	fs.StringVar(&o.DocsRepo, "docs-repo", "", "")
	fs.StringVar(&o.Dir, "dir", o.Dir, "")
	fs.StringVar(&o.DocsDir, "docs-dir", "", "")
	fs.StringVar(&o.File, "file", o.File, "")
	fs.StringVar(&o.AgentApp, "agent-app", o.AgentApp, "")
	fs.StringVar(&o.ProjectID, "project-id", getenv("MINTLIFY_PROJECT_ID"), "")
	fs.StringVar(&o.BaseURL, "base-url", o.BaseURL, "")
	fs.BoolVar(&o.JSON, "json", false, "")
	fs.BoolVar(&o.Help, "help", false, "")
	fs.BoolVar(&o.Help, "h", false, "")
	if err := fs.Parse(args); err != nil {
		return o, &setup.UsageError{Err: setup.FlagError("doctor", err)}
	}
	if o.CodeRepo == "" {
		o.CodeRepo = setup.OriginRepo(o.Dir)
	}
	switch {
	case o.Help:
		return o, nil
	case fs.NArg() > 0:
		return o, &setup.UsageError{Err: fmt.Errorf("doctor takes flags only; %d more arguments", fs.NArg())}
	case !setup.RepoName(o.CodeRepo):
		return o, &setup.UsageError{Err: fmt.Errorf("--repo must name the code repository as owner/name (GITHUB_REPOSITORY, or the checkout's remote origin, when set)")}
	case o.DocsRepo != "" && !setup.RepoName(o.DocsRepo):
		return o, &setup.UsageError{Err: fmt.Errorf("--docs-repo must name the docs repository as owner/name")}
	case o.DocsRepo == "" && o.DocsDir != "":
		return o, &setup.UsageError{Err: fmt.Errorf("--docs-dir is for --docs-repo's checkout: give both, or neither")}
	case !fileName.Re().MatchString(o.File):
		return o, &setup.UsageError{Err: fmt.Errorf("--file must be a workflow file's name, such as %s", setup.File)}
	}
	return o, nil
}

// Run checks the setup o names with the credentials of env, prints the
// findings on stdout (as one line of JSON with --json), and returns
// ProblemsError when any is a problem.
func Run(ctx context.Context, o Options, env Env, stdout io.Writer) error {
	clk := env.Clock
	if clk == nil {
		clk = clock.Real{}
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	var secrets []string
	for _, k := range []string{"MINTLIFY_API_KEY", "GITHUB_TOKEN", "GH_TOKEN", "DOCS_REPO_TOKEN", "CODE_REPO_DISPATCH_TOKEN"} {
		if v := strings.TrimSpace(env.Getenv(k)); v != "" {
			secrets = append(secrets, v)
		}
	}
	// Everything doctor prints goes through the redactor: no secret of
	// its environment, in any form the project knows, whatever a service
	// echoes.
	red := redact.NewWriter(stdout)
	for _, s := range secrets {
		red.Add(s)
	}
	stdout = red
	hc := httpclient.New(httpclient.Options{UserAgent: "agent-job-action/" + env.Version + " doctor", Clock: clk, Deadline: clk.Now().Add(Timeout),
		RequestTimeout: 20 * time.Second, Transport: env.Transport, Redact: red.Redact})
	var d Doctor
	if key := strings.TrimSpace(env.Getenv("MINTLIFY_API_KEY")); key != "" {
		o.Key = key
		// The base URLs the action takes, and no other: the key goes to it.
		base, err := inputs.ParseBaseURL(o.BaseURL)
		if err != nil {
			return &setup.UsageError{Err: fmt.Errorf("--base-url %w", err)}
		}
		if !projectID.Re().MatchString(o.ProjectID) {
			return &setup.UsageError{Err: fmt.Errorf("--project-id (or MINTLIFY_PROJECT_ID) must be the project id, letters, digits, - and _, as the dashboard's API keys page shows it")}
		}
		d.Agent = agentapi.New(hc, base, o.ProjectID, key)
	}
	apiURL := env.Getenv("GITHUB_API_URL")
	var badURL error // a GITHUB_API_URL no client can take: not a missing token
	client := func(token string) GitHub {
		if token = strings.TrimSpace(token); token == "" {
			return nil
		}
		gh, err := ghclient.New(hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable}), hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once}), apiURL, token)
		if err != nil {
			badURL = err
			return nil
		}
		return gh
	}
	token := env.Getenv("GITHUB_TOKEN")
	if strings.TrimSpace(token) == "" {
		token = env.Getenv("GH_TOKEN")
	}
	d.GitHub, d.Docs, d.Dispatch = client(token), client(env.Getenv("DOCS_REPO_TOKEN")), client(env.Getenv("CODE_REPO_DISPATCH_TOKEN"))
	if badURL != nil {
		return &setup.UsageError{Err: fmt.Errorf("%w: unset it for GitHub.com, or set it to GitHub Enterprise Server's https://HOST/api/v3", badURL)}
	}
	findings := d.Check(ctx, o.Setup)
	ok, unknown, problems := Count(findings, OK), Count(findings, CannotTell), Count(findings, Problem)
	if o.JSON {
		data, err := json.Marshal(struct {
			Findings   []Finding `json:"findings"`
			OK         int       `json:"ok"`
			CannotTell int       `json:"cannot_tell"`
			Problems   int       `json:"problems"`
			Proven     bool      `json:"proven"` // every check told, none a problem
		}{findings, ok, unknown, problems, unknown+problems == 0})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", data)
	} else {
		Print(stdout, findings)
	}
	switch {
	case problems > 0:
		return &ProblemsError{N: problems}
	case unknown > 0:
		return &NotProvenError{N: unknown}
	}
	return nil
}

// Print writes the findings for a person: one line each, the fix below a
// problem and what doctor cannot tell; then their count, and "No problem
// found" only when every check was told.
func Print(w io.Writer, fs []Finding) {
	for _, f := range fs {
		fmt.Fprintf(w, "%-12s %s: %s\n", f.State, f.Check, escape.Line(f.Says))
		if f.Fix != "" && f.State != OK {
			fmt.Fprintf(w, "%-12s fix: %s\n", "", escape.Line(f.Fix))
		}
	}
	var counts []string
	for _, st := range []State{OK, CannotTell} {
		if n := Count(fs, st); n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, st))
		}
	}
	verdict := "No problem found"
	switch problems, unknown := Count(fs, Problem), Count(fs, CannotTell); {
	case problems > 0:
		counts, verdict = append(counts, plural(problems, "problem")), (&ProblemsError{N: problems}).Error()
	case unknown > 0:
		verdict = (&NotProvenError{N: unknown}).Error()
	}
	fmt.Fprintf(w, "\n%s: %s. %s.\n", plural(len(fs), "check"), strings.Join(counts, ", "), verdict)
}

// Usage prints doctor's flags.
func Usage(w io.Writer) {
	fmt.Fprint(w, `agent-job-action doctor: check a setup before its first real run. It sends
only reads; it says what it cannot tell, and the fix for each problem.

Usage:
  agent-job-action doctor [flags]

Credentials, from the environment only:
  MINTLIFY_API_KEY          the API key (with --project-id, or
                            MINTLIFY_PROJECT_ID)
  GITHUB_TOKEN or GH_TOKEN  a token that can read the code repository
  DOCS_REPO_TOKEN           the docs repository's token, to check its reach
  CODE_REPO_DISPATCH_TOKEN  the dispatch token, to check its reach
  GITHUB_API_URL            GitHub Enterprise Server's API

Flags:
  --repo owner/name       the code repository (GITHUB_REPOSITORY, or the
                          checkout's remote origin)
  --dir path              its checkout (.)
  --docs-repo owner/name  the docs repository, when it is another
  --docs-dir path         its checkout
  --file name             the workflow file (docs-agent.yml)
  --agent-app login       the app that opens the agent's pull requests
                          (mintlify[bot])
  --project-id id         the Mintlify project (MINTLIFY_PROJECT_ID)
  --base-url url          the Agent Job API (https://api.mintlify.com)
  --json                  print the findings as one line of JSON

Exit status: 0 every check told, no problem; 6 no problem, but not proven
(a check it could not tell); 5 a problem found; 2 usage.
`)
}
