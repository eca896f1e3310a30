//go:build nodemo

package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/agentjob/agent-job-action/internal/cli"
)

// runDoctor, in a release build, says where doctor is. Release builds
// (-tags nodemo, the image and the binaries every workflow run starts)
// leave it out with the demo: its YAML reader is about 600 KB of the
// binary and 0.7 MiB of every run's memory, and no run of the action uses
// it. A person runs it from the module: go run
// github.com/agentjob/agent-job-action@<ref> doctor.
func runDoctor(_ context.Context, _ []string, env Env, _ cli.Build, _ io.Writer) error {
	fmt.Fprintln(env.Stderr, "error: this build has no doctor (release builds leave it out); run it from the module: go run github.com/agentjob/agent-job-action@<commit or release> doctor")
	return &cli.UsageError{Err: errors.New("no doctor in this build")}
}

// doctorExit finds no doctor's end: this build has no doctor.
func doctorExit(error) (int, bool) { return 0, false }
