package action_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/action"
	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/publish"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
	"github.com/agentjob/agent-job-action/internal/testbed/golden"
	"github.com/agentjob/agent-job-action/internal/testbed/step"
)

// The harness runs action.Run as the program does on a runner: INPUT_*
// variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, an event file,
// against the recording fakes of internal/fakes. It keeps the names of the
// root package's harness (newHarness, h.run, h.outputs, h.wantOutputs, …),
// so that a test of the run's behaviour moves here from the root by its
// package clause and imports alone; h.got says in one value what a user and
// each service saw.

const testKey = step.Key

// hangGuard is how long a test lets a run take that must end on its own
// (at its timeout, on a signal, past a request that never answers) before
// it calls the run hung. It guards that the run ends, not how fast: the
// time taken is logged, and no test asserts speed on the wall clock, which
// a loaded machine stretches. It is well below the HTTP client's own bound
// on a request (30 s), so that a run that sat that out is caught.
const hangGuard = 10 * time.Second

// Env is what a run takes from the process, as the program's main passes
// it: the environment, standard error, and stand-ins for time and the
// network.
type Env struct {
	Getenv func(string) string
	Stderr io.Writer
	action.Deps
}

// run is the program's run of a step, wired as main wires it: the runner
// context from env, the Actions log on stdout inside Actions, and outside
// it the results on stdout and a plain log on Stderr. Its error is
// action.Run's. It takes main's arguments for a step, none: flags are the
// command line's, tested at the root.
func run(ctx context.Context, args []string, env Env, stdout io.Writer) error {
	if len(args) > 0 {
		return fmt.Errorf("the harness runs a step, with no arguments; got %q", args)
	}
	env.Version = "dev"
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	rc := runner.FromEnv(env.Getenv)
	rc.CommandLine = !rc.InActions
	cmd, err := cli.Parse(nil)
	if err != nil {
		return err
	}
	if err := cmd.Apply(ctx, &rc, env.Getenv, cli.Stdin{Hint: env.Stderr, HintAfter: cli.KeyHintAfter}); err != nil {
		return err
	}
	var streams action.Streams
	if rc.InActions {
		streams.Log = runlog.NewActions(stdout)
	} else {
		c := runlog.NewPlain(env.Stderr)
		defer c.Close()
		streams.Log, streams.Results = c, stdout
	}
	_, err = action.Run(ctx, rc, env.Deps, streams)
	return err
}

// harness runs the step as the runner would, against the fakes.
type harness struct {
	t      *testing.T
	api    *fakeapi.Server
	gh     *fakegithub.Server // nil until withGitHub
	clk    *clock.Fake
	vars   map[string]string
	env    Env
	stdout bytes.Buffer
	// metered: each run asserts its cost (see meter).
	metered bool
	// seen counts what each service had received when got last looked.
	seen struct{ api, gh int }
}

func newHarness(t *testing.T, sc fakeapi.Scenario) *harness {
	t.Helper()
	clk := clock.NewFake(step.Start)
	api := step.API(t, sc, clk)
	h := &harness{t: t, api: api, clk: clk, vars: step.Vars(t, api.URL)}
	// The runner's grace after a cancellation, shortened so that a test of
	// a write GitHub never answers waits a moment, not seconds; long
	// enough for any write the fakes answer.
	grace := publish.Grace{LastWords: 500 * time.Millisecond, RecordFor: time.Second}
	h.env = Env{Getenv: func(k string) string { return h.vars[k] }, Deps: action.Deps{Clock: clk, Schedule: step.Schedule(), Grace: grace, HearOut: 500 * time.Millisecond}}
	return h
}

func (h *harness) run(ctx context.Context) error {
	h.t.Helper()
	var before cost
	if h.metered {
		before = costSoFar()
	}
	err := run(ctx, nil, h.env, &h.stdout)
	if h.metered {
		h.within(costSoFar().since(before))
	}
	h.assertNoSecrets()
	return err
}

// runGuarded is h.run held to hangGuard: it fails the test at once when
// the run has not ended by then, and logs how long it took otherwise.
func (h *harness) runGuarded(ctx context.Context) error {
	h.t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, h.env, &h.stdout) }()
	select {
	case err := <-done:
		h.assertNoSecrets()
		h.t.Logf("the run ended %s after it started", time.Since(start).Round(time.Millisecond))
		return err
	case <-time.After(hangGuard):
		h.t.Fatalf("the run has not ended %s after it started: hung", hangGuard)
		return nil
	}
}

// Got is what a run left, as a user and the services saw it.
type Got struct {
	// End is how the run ended; -1 when it succeeded.
	End     report.End
	Err     error
	Outputs map[string]string
	Summary string
	Log     string
	// API and GitHub are the requests each service received since the
	// last call of got.
	API    []fakeapi.Request
	GitHub []fakegithub.Request
}

// apiCalls are the Agent API requests of g, as "METHOD path".
func (g Got) apiCalls() []string {
	var out []string
	for _, r := range g.API {
		out = append(out, r.Method+" "+r.Path)
	}
	return out
}

// got runs the step once more and says what it left: how it ended, its
// outputs, summary and log, and each request the Agent Job API and
// GitHub received during the run.
func (h *harness) got(ctx context.Context) Got {
	h.t.Helper()
	h.mark()
	err := h.run(ctx)
	g := Got{End: -1, Err: err, Outputs: h.outputs(), Summary: h.file("GITHUB_STEP_SUMMARY"), Log: h.stdout.String()}
	var runErr *report.Error
	if errors.As(err, &runErr) {
		g.End = runErr.End
	}
	api := h.api.Requests()
	g.API = api[h.seen.api:]
	if h.gh != nil {
		gh := h.gh.Requests()
		g.GitHub = gh[h.seen.gh:]
	}
	h.mark()
	return g
}

// mark notes how many requests each service has received so far.
func (h *harness) mark() {
	h.seen.api = len(h.api.Requests())
	if h.gh != nil {
		h.seen.gh = len(h.gh.Requests())
	}
}

// outputs parses the GITHUB_OUTPUT file; a name written twice keeps the last
// value, as the runner does.
func (h *harness) outputs() map[string]string {
	h.t.Helper()
	return step.Outputs(h.t, h.vars["GITHUB_OUTPUT"])
}

func (h *harness) file(name string) string { return step.File(h.vars, name) }

// assertNoSecrets checks that the key appears nowhere but in the mask command.
func (h *harness) assertNoSecrets() {
	h.t.Helper()
	step.AssertNoSecrets(h.t, h.vars, h.stdout.String())
}

func (h *harness) wantOutputs(want map[string]string) {
	h.t.Helper()
	step.WantOutputs(h.t, h.vars, want, h.stdout.String())
}

func (h *harness) wantRequests(creates, messages int) {
	h.t.Helper()
	step.WantRequests(h.t, h.api, creates, messages)
}

// assertNoCommands fails when untrusted text could act as a workflow
// command: it must not start a line outside a ::stop-commands:: block.
func assertNoCommands(t *testing.T, log, untrusted string) {
	t.Helper()
	stopped := ""
	for _, line := range strings.Split(log, "\n") {
		switch {
		case stopped != "" && line == "::"+stopped+"::":
			stopped = ""
		case stopped != "":
		case strings.HasPrefix(line, "::stop-commands::"):
			stopped = strings.TrimPrefix(line, "::stop-commands::")
		case strings.HasPrefix(strings.TrimSpace(line), untrusted):
			t.Errorf("untrusted text acts as a command: %q", line)
		}
	}
}

func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "comments", name), got)
}

// maskCommand is the line that registers secret with the runner.
func maskCommand(secret string) string { return step.MaskCommand(secret) }

// recordIn is the record of one of the action's comments as the action
// reads it (package record), the zero Record when it holds none.
func recordIn(body string) record.Record {
	return conversation.EarlierOf(&ghclient.Comment{Body: body}).Record
}

// recorded is one of the action's comments that keeps r, as a run writes
// it once r's job completed.
func recorded(r record.Record) string {
	return conversation.Render(conversation.State{Phase: conversation.Done, Record: r, Status: "completed"})
}
