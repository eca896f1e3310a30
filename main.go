// Command agent-job-action is a GitHub Action that hands documentation work
// to a hosted AI agent (the Mintlify Agent Job API) and reports the result.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/agentjob/agent-job-action/internal/action"
	"github.com/agentjob/agent-job-action/internal/demo"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/runner"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	err := run(ctx, os.Args[1:], Env{Getenv: os.Getenv}, os.Stdout)
	stop()
	if err != nil {
		os.Exit(1)
	}
}

// Env is what run takes from the process: its environment and, in tests,
// stand-ins for time and the network.
type Env struct {
	Getenv func(string) string
	action.Deps
}

// run is the whole program: args select a mode, env is the outside world.
// Errors have been printed by the time it returns.
func run(ctx context.Context, args []string, env Env, stdout io.Writer) error {
	env.Version = version
	if len(args) > 0 {
		switch args[0] {
		case "demo":
			return demo.Run(ctx, env.Deps, stdout)
		case "-h", "-help", "--help", "help":
			inputs.Usage(stdout)
			return nil
		case "-version", "--version", "version":
			fmt.Fprintf(stdout, "agent-job-action %s\n", version)
			return nil
		default:
			fmt.Fprintf(stdout, "unknown argument %q; try --help\n", args[0])
			return fmt.Errorf("unknown argument %q", args[0])
		}
	}
	return action.Run(ctx, runner.FromEnv(env.Getenv), env.Deps, stdout)
}
