//go:build conformance

package ghspec

import (
	"errors"
	"fmt"
	"os"
)

// SourceEnv names the file that holds GitHub's own REST description,
// generated/api.github.com.json of the @octokit/openapi package, which
// .ci/run fetches at a pinned version and checksum.
const SourceEnv = "OCTOKIT_OPENAPI_JSON"

// source is GitHub's own description. A conformance run without it fails:
// it never falls back to the project's own.
func source() ([]byte, string, error) {
	path := os.Getenv(SourceEnv)
	if path == "" {
		return nil, "", errors.New(SourceEnv + " is not set: conformance tests need GitHub's description from @octokit/openapi (run .ci/run, or see CONTRIBUTING.md)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", SourceEnv, err)
	}
	return data, path, nil
}
