// Package previewspec holds requests to the project's own description of
// the provider's preview-deployment API (preview-api.yaml), so that the
// fake preview server (package fakepreview) refuses, as a test failure,
// any request the API would refuse: an unknown path or method, a body
// without its branch. It uses package ghspec's checks. Only tests import
// it, so neither the description nor kin-openapi is linked into the action.
package previewspec

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
)

//go:embed preview-api.yaml
var own []byte

// Server is the scheme and host of the description's server: the paths
// checked start below it, with /v1.
const Server = "https://api.mintlify.com"

var load = sync.OnceValues(func() (*ghspec.Spec, error) {
	return ghspec.ParseAt(own, "preview API description preview-api.yaml", Server)
})

// Checker returns a check for fakepreview.Options.Check. When the
// description cannot be loaded, every request is reported as unchecked, so
// that no test passes unchecked.
func Checker() func(method, path, rawQuery string, body []byte) []string {
	s, err := load()
	if err != nil {
		return func(string, string, string, []byte) []string {
			return []string{fmt.Sprintf("requests cannot be checked: %v", err)}
		}
	}
	return s.Check
}
