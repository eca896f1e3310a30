package previewspec

import (
	"context"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// TestOwnDescriptionIsValid holds preview-api.yaml to the OpenAPI rules.
func TestOwnDescriptionIsValid(t *testing.T) {
	t.Parallel()
	doc, err := openapi3.NewLoader().LoadFromData(own)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Errorf("preview-api.yaml: %v", err)
	}
}

// TestCheck holds the requests the preview client sends to the
// description, and shows that the mistakes it could make are refused.
func TestCheck(t *testing.T) {
	t.Parallel()
	check := Checker()
	cases := []struct {
		name, method, path, query, body string
		want                            string // a substring of the only violation; "" for a valid request
	}{
		{name: "trigger", method: "POST", path: "/v1/project/preview/proj_1", body: `{"branch":"docs/agent-job_0001"}`},
		{name: "status", method: "GET", path: "/v1/project/update-status/st_1"},
		{name: "escaped branch in the body", method: "POST", path: "/v1/project/preview/p%2Fq", body: `{"branch":"a/b"}`},

		{name: "no body", method: "POST", path: "/v1/project/preview/proj_1", want: "value is required but missing"},
		{name: "no branch", method: "POST", path: "/v1/project/preview/proj_1", body: `{"ref":"main"}`, want: `property "branch" is missing`},
		{name: "empty branch", method: "POST", path: "/v1/project/preview/proj_1", body: `{"branch":""}`, want: "minimum string length is 1"},
		{name: "without /v1", method: "GET", path: "/project/update-status/st_1", want: "no operation has the path"},
		{name: "wrong method", method: "GET", path: "/v1/project/preview/proj_1", want: "GET is not an operation of /v1/project/preview/proj_1 (it has POST)"},
		{name: "query", method: "GET", path: "/v1/project/update-status/st_1", query: "x=1", want: `query parameter "x" is not declared`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := check(tc.method, tc.path, tc.query, []byte(tc.body))
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("Check() = %q, want no violation", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("Check() = %q, want one violation containing %q", got, tc.want)
			}
		})
	}
}
