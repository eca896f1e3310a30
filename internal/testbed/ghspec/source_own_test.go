//go:build !conformance

package ghspec

import (
	"context"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestOwnDescriptionIsValid holds github-rest.yaml to the OpenAPI rules.
func TestOwnDescriptionIsValid(t *testing.T) {
	t.Parallel()
	doc, err := openapi3.NewLoader().LoadFromData(own)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Errorf("github-rest.yaml: %v", err)
	}
}
