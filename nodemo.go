//go:build nodemo

package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/agentjob/agent-job-action/internal/cli"
)

// runDemo, in a release build, says where the demo is. The Dockerfile and
// the release workflow build with -tags nodemo so that the image and the
// binaries carry the action alone: the demo's fakes (two HTTP servers and
// net/http/httptest) are a seventh of the binary and its largest share of
// a run's memory, and no step ever runs them. go run . demo builds without
// the tag.
func runDemo(_ context.Context, env Env, _ io.Writer) error {
	fmt.Fprintln(env.Stderr, "error: this build has no demo (release builds leave out its fakes); run it from a clone of the repository: go run . demo")
	return &cli.UsageError{Err: errors.New("no demo in this build")}
}
