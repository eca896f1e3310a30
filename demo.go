//go:build !nodemo

package main

import (
	"context"
	"io"

	"github.com/agentjob/agent-job-action/internal/demo"
)

// runDemo runs the demo: the action against the in-process fakes of
// internal/fakes. Release builds (-tags nodemo) leave it out, and the
// fakes with it (nodemo.go).
func runDemo(ctx context.Context, env Env, stdout io.Writer) error {
	return demo.Run(ctx, env.Deps, stdout)
}
