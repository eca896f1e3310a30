//go:build !conformance

package ghspec

import _ "embed"

//go:embed github-rest.yaml
var own []byte

// source is the project's own description of the API it calls.
func source() ([]byte, string, error) {
	return own, "github-rest.yaml", nil
}
