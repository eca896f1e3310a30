//go:build !nodemo

package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/doctor"
	"github.com/agentjob/agent-job-action/internal/setup"
)

// runDoctor is the doctor command: it checks a setup with reads only.
func runDoctor(ctx context.Context, args []string, env Env, build cli.Build, stdout io.Writer) error {
	o, err := doctor.Parse(args, env.Getenv)
	if err == nil && o.Help {
		doctor.Usage(stdout)
		return nil
	}
	if err == nil {
		err = doctor.Run(ctx, o, doctor.Env{Getenv: env.Getenv, Transport: env.Transport, Clock: env.Clock, Version: env.Version}, stdout)
	}
	var usageErr *setup.UsageError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &usageErr):
		return usage(env.Stderr, "doctor", &cli.UsageError{Err: err})
	}
	if _, found := doctorExit(err); !found {
		// The findings, printed already, say the problems.
		fmt.Fprintf(env.Stderr, "error: %v\n", err)
	}
	return err
}

// doctorExit is err's exit status when it is doctor's end: problems found
// in the setup, or none but not proven.
func doctorExit(err error) (int, bool) {
	var problems *doctor.ProblemsError
	var notProven *doctor.NotProvenError
	if errors.As(err, &problems) {
		return cli.ExitFindings, true
	}
	return cli.ExitNotProven, errors.As(err, &notProven)
}
