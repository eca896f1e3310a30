package ghspec

import (
	"strings"
	"testing"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// spec loads the description under test; a description that cannot be
// loaded fails the test, never skips it.
func spec(t *testing.T) *Spec {
	t.Helper()
	s, err := Default()
	if err != nil {
		t.Fatalf("Default() error = %v", err)
	}
	return s
}

// TestCheck holds the requests the action sends to the description, and
// shows that each kind of mistake is refused with its reason. It runs on
// the project's description and, under the conformance tag, on GitHub's.
func TestCheck(t *testing.T) {
	t.Parallel()
	s := spec(t)
	cases := []struct {
		name                string
		method, path, query string
		body                string
		want                string // a substring of the only violation; "" for a valid request
	}{
		// The requests the action sends.
		{name: "authenticated user", method: "GET", path: "/user"},
		{name: "list comments", method: "GET", path: "/repos/acme/docs/issues/12/comments", query: "page=3&per_page=100"},
		{name: "create comment", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `{"body":"hi"}`},
		{name: "edit comment", method: "PATCH", path: "/repos/acme/docs/issues/comments/1001", body: `{"body":"hi"}`},
		{name: "react to an issue comment", method: "POST", path: "/repos/acme/docs/issues/comments/5/reactions", body: `{"content":"eyes"}`},
		{name: "react to a review comment", method: "POST", path: "/repos/acme/docs/pulls/comments/5/reactions", body: `{"content":"rocket"}`},
		{name: "react to an issue", method: "POST", path: "/repos/acme/docs/issues/5/reactions", body: `{"content":"eyes"}`},
		{name: "list reactions", method: "GET", path: "/repos/acme/docs/issues/comments/5/reactions", query: "content=eyes&per_page=100"},
		{name: "permission of a bot", method: "GET", path: "/repos/acme/docs/collaborators/dependabot%5Bbot%5D/permission"},
		{name: "get pull request", method: "GET", path: "/repos/acme/docs/pulls/7"},
		{name: "request reviewers", method: "POST", path: "/repos/acme/docs/pulls/7/requested_reviewers", body: `{"reviewers":["ada","max"]}`},
		{name: "review comments", method: "GET", path: "/repos/acme/docs/pulls/7/reviews/88/comments", query: "per_page=100&page=2"},
		{name: "line comments of a pull request", method: "GET", path: "/repos/acme/docs/pulls/7/comments", query: "sort=created&direction=asc&per_page=100"},
		{name: "reviews of a pull request", method: "GET", path: "/repos/acme/docs/pulls/7/reviews", query: "per_page=100"},
		{name: "files of a pull request", method: "GET", path: "/repos/acme/api/pulls/7/files", query: "page=2&per_page=100"},
		{name: "compare two commits", method: "GET", path: "/repos/acme/api/compare/0123456789abcdef0123456789abcdef01234567...89abcdef0123456789abcdef0123456789abcdef", query: "per_page=1"},
		{name: "set a commit status", method: "POST", path: "/repos/acme/api/statuses/89abcdef0123456789abcdef0123456789abcdef", body: `{"state":"pending","context":"docs","description":"Updating the docs","target_url":"https://github.com/acme/docs/pull/3"}`},
		{name: "commit status state", method: "POST", path: "/repos/acme/api/statuses/89abcdef", body: `{"state":"done"}`, want: "value is not one of the allowed values"},
		{name: "optional body left out", method: "POST", path: "/repos/acme/docs/pulls/7/requested_reviewers"},
		{name: "date-time query", method: "GET", path: "/repos/acme/docs/issues/7/comments", query: "since=2024-01-01T00:00:00Z"},

		// Path and method.
		{name: "unknown path", method: "GET", path: "/repos/acme/docs/issues/12/nothing-here", want: "no operation has the path /repos/acme/docs/issues/12/nothing-here"},
		{name: "unknown method", method: "PUT", path: "/repos/acme/docs/issues/12/comments", want: "PUT is not an operation of /repos/acme/docs/issues/12/comments (it has GET, POST)"},
		{name: "integer path parameter", method: "GET", path: "/repos/acme/docs/pulls/seven", want: `parameter "pull_number" in path`},
		{name: "dot segments", method: "GET", path: "/repos/acme/docs/../pulls/7", want: "no operation has the path"},

		// Query.
		{name: "undeclared query parameter", method: "GET", path: "/repos/acme/docs/issues/12/comments", query: "colour=red", want: `query parameter "colour" is not declared`},
		{name: "query parameter of the wrong type", method: "GET", path: "/repos/acme/docs/issues/12/comments", query: "per_page=many", want: `parameter "per_page" in query`},
		{name: "query enum", method: "GET", path: "/repos/acme/docs/issues/comments/5/reactions", query: "content=party", want: `parameter "content" in query`},
		{name: "repeated query parameter", method: "GET", path: "/repos/acme/docs/issues/12/comments", query: "page=1&page=2", want: `query parameter "page" is repeated`},
		{name: "query on a body operation", method: "POST", path: "/repos/acme/docs/issues/12/comments", query: "per_page=1", body: `{"body":"x"}`, want: `query parameter "per_page" is not declared`},

		// Body.
		{name: "required body missing", method: "POST", path: "/repos/acme/docs/issues/12/comments", want: "request body has an error: value is required but missing"},
		{name: "required property missing", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `{"text":"hi"}`, want: `property "body" is missing`},
		{name: "property of the wrong type", method: "PATCH", path: "/repos/acme/docs/issues/comments/1", body: `{"body":42}`, want: `value must be a string`},
		{name: "null where not nullable", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `{"body":null}`, want: "Value is not nullable"},
		{name: "body enum", method: "POST", path: "/repos/acme/docs/pulls/comments/5/reactions", body: `{"content":"party"}`, want: `value is not one of the allowed values`},
		{name: "array of the wrong item type", method: "POST", path: "/repos/acme/docs/pulls/7/requested_reviewers", body: `{"reviewers":["ada",7]}`, want: `value must be a string`},
		{name: "array expected", method: "POST", path: "/repos/acme/docs/pulls/7/requested_reviewers", body: `{"reviewers":"ada"}`, want: "value must be an array"},
		{name: "not an object", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `["hi"]`, want: "value must be an object"},
		{name: "not JSON", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `body=hi`, want: "the body is not one JSON value"},
		{name: "two JSON values", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `{"body":"a"}{"body":"b"}`, want: "the body is not one JSON value"},
		{name: "body where none is taken", method: "GET", path: "/repos/acme/docs/pulls/7", body: `{"x":1}`, want: "takes no body"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := s.Check(tc.method, tc.path, tc.query, []byte(tc.body))
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("Check() = %q, want a valid request", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("Check() = %q, want one violation saying %q", got, tc.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, doc, wantErr string
	}{
		{name: "not a description", doc: `{`, wantErr: "GitHub REST description test:"},
		{name: "no paths", doc: `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}}`, wantErr: "no paths"},
		{name: "dangling reference", doc: `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"parameters":[{"$ref":"#/components/parameters/p"}],"responses":{"200":{"description":"ok"}}}}}}`, wantErr: "GitHub REST description test:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, err := Parse([]byte(tc.doc), "test"); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Parse() error = %v, want %q", err, tc.wantErr)
			}
		})
	}
}
