// Command agent-job-action hands documentation work to a hosted AI agent
// (the Mintlify Agent Job API) and reports the result: as a GitHub Action
// step, or as a command line in a terminal, a script or another CI.
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"time"

	"github.com/agentjob/agent-job-action/internal/action"
	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
	"github.com/agentjob/agent-job-action/internal/setup"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3", as
// releases do; without it the version is the one Go records (cli.ReadBuild).
var version string

// pollEvery is set only by tests that build the binary (-ldflags
// "-X main.pollEvery=10ms"): it replaces the auto poll schedule, whose
// first check comes after 20 s, so that a built binary's wait for a fake
// job takes milliseconds. An explicit poll-interval still wins.
var pollEvery string

// heartbeat is set only by tests that build the binary (-ldflags
// "-X main.heartbeat=40ms"): it replaces the minute the Actions log goes
// without a line while a job is unchanged, so that a built binary's
// heartbeat shows in a wait of milliseconds.
var heartbeat string

// keyHint is set only by tests that build the binary (-ldflags
// "-X main.keyHint=10ms"): it replaces how long --api-key-stdin waits
// before it says what it waits for (cli.KeyHintAfter), so that a test
// knows the program is reading, its signal handlers in place.
var keyHint string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	env := Env{Getenv: os.Getenv, Stdin: os.Stdin, Stderr: os.Stderr}
	if d, err := time.ParseDuration(pollEvery); err == nil {
		env.Schedule = poll.Fixed(d)
	}
	if d, err := time.ParseDuration(heartbeat); err == nil {
		env.Heartbeat = d
	}
	if d, err := time.ParseDuration(keyHint); err == nil {
		env.KeyHint = d
	}
	err := run(ctx, os.Args[1:], env, os.Stdout)
	stop()
	os.Exit(exitCode(err))
}

// Env is what run takes from the process: its environment, standard input
// and standard error (nil: none), and, in tests, stand-ins for time and the
// network.
type Env struct {
	Getenv func(string) string
	Stdin  io.Reader
	Stderr io.Writer
	// KeyHint is how long --api-key-stdin waits before it says so on
	// Stderr; 0 is cli.KeyHintAfter.
	KeyHint time.Duration
	action.Deps
}

// run is the whole program: args select a mode, env is the outside world.
// Errors have been printed by the time it returns.
func run(ctx context.Context, args []string, env Env, stdout io.Writer) error {
	info, _ := debug.ReadBuildInfo()
	build := cli.ReadBuild(version, info)
	env.Version = cmp.Or(build.Version, "dev")
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	cmd, err := cli.Parse(args)
	if err != nil {
		return usage(env.Stderr, "", err)
	}
	switch cmd.Mode {
	case cli.Help:
		cli.Usage(stdout)
		return nil
	case cli.Version:
		fmt.Fprintf(stdout, "agent-job-action %s\n", build)
		return nil
	case cli.Demo:
		return runDemo(ctx, env, stdout)
	case cli.DemoHelp:
		cli.DemoUsage(stdout)
		return nil
	case cli.Init:
		return runInit(cmd.Args, env, build, stdout)
	case cli.Doctor:
		return runDoctor(ctx, cmd.Args, env, build, stdout)
	}

	rc := runner.FromEnv(env.Getenv)
	rc.CommandLine = !rc.InActions || len(args) > 0
	stdin := cli.Stdin{R: env.Stdin, Hint: env.Stderr, HintAfter: cmp.Or(env.KeyHint, cli.KeyHintAfter)}
	if err := cmd.Apply(ctx, &rc, env.Getenv, stdin); err != nil {
		// Interrupted or timed out while reading the key: the run ends as
		// any other wait does (130 or 3), before anything was sent.
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			fmt.Fprintf(env.Stderr, "error: %v (timeout reached): nothing was sent\n", err)
			return &report.Error{End: report.TimedOut, Err: err}
		case errors.Is(err, context.Canceled):
			fmt.Fprintf(env.Stderr, "error: %v (interrupted): nothing was sent\n", err)
			return &report.Error{End: report.Cancelled, Err: err}
		}
		return usage(env.Stderr, "", err)
	}
	var streams action.Streams
	if rc.InActions {
		// The runner reads standard output for the step's log; with --json
		// it is the record's alone.
		logTo := stdout
		if cmd.JSON {
			logTo = env.Stderr
		}
		streams.Log = runlog.NewActions(logTo)
	} else {
		// A command line keeps its streams apart, as git and gh do: the
		// results (the output lines, or the --json record) on standard
		// output, the log for a person on standard error, readable, and on
		// a terminal with a live status line.
		if !cmd.JSON {
			streams.Results = stdout
		}
		var c *runlog.Console
		if runlog.IsTerminal(env.Stderr) {
			clk := env.Clock
			if clk == nil {
				clk = clock.Real{}
			}
			c = runlog.NewTerminal(env.Stderr, clk, time.Second)
		} else {
			c = runlog.NewPlain(env.Stderr)
		}
		defer c.Close()
		streams.Log = c
	}
	res, err := action.Run(ctx, rc, env.Deps, streams)
	var runErr *report.Error
	invalid := errors.As(err, &runErr) && runErr.End == report.Invalid
	if !rc.InActions && invalid {
		// As for any other mistake on the command line.
		streams.Log.Printf("Run agent-job-action --help for every flag.")
	}
	if !cmd.JSON || invalid {
		// A usage error has no result to print, as any other (usage).
		return err
	}
	record, rerr := cli.Record(res.Outputs["job"], res.Cost)
	if rerr == nil {
		_, rerr = stdout.Write(record)
	}
	if rerr != nil {
		streams.Log.Error(rerr.Error())
		if err == nil {
			return &report.Error{End: report.Errored, Err: rerr}
		}
	}
	return err
}

// runInit is the init command: it writes the workflow files for the
// choices its flags give, and says what a person must still do.
func runInit(args []string, env Env, build cli.Build, stdout io.Writer) error {
	in, err := setup.ParseInit(args, env.Getenv, build.Release())
	if err != nil {
		return usage(env.Stderr, "init", &cli.UsageError{Err: err})
	}
	if in.Help {
		setup.Usage(stdout)
		return nil
	}
	done, err := in.Write()
	if err != nil {
		fmt.Fprintf(env.Stderr, "error: %v\n", err)
		var usageErr *setup.UsageError
		if errors.As(err, &usageErr) {
			return &cli.UsageError{Err: err}
		}
		return err
	}
	setup.Report(stdout, in, done)
	return nil
}

// usage prints a command line's mistake, in the style of every other
// error of the command line, and where to find the usage: the action's
// own, or command's ("init", "doctor") when it is not "".
func usage(stderr io.Writer, command string, err error) error {
	name := "agent-job-action"
	if command != "" {
		name += " " + command
	}
	fmt.Fprintf(stderr, "error: %v\nRun %s --help for every flag.\n", err, name)
	return err
}

// exitCode is the program's exit status for how run ended, the one place
// that decides it (the table is cli.ExitStatuses).
func exitCode(err error) int {
	var (
		usageErr *cli.UsageError
		runErr   *report.Error
	)
	switch {
	case err == nil:
		return cli.ExitOK
	case errors.As(err, &usageErr):
		return cli.ExitUsage
	case !errors.As(err, &runErr):
		if code, ok := doctorExit(err); ok {
			return code
		}
		return cli.ExitError
	}
	switch runErr.End {
	case report.JobFailed:
		return cli.ExitJobFailed
	case report.Invalid:
		return cli.ExitUsage
	case report.TimedOut:
		return cli.ExitTimedOut
	case report.Cancelled:
		return cli.ExitCancelled
	}
	return cli.ExitError
}
