package fakegithub

import (
	"strings"
	"testing"
)

// spec reads GitHub's REST description from ../shared/specs; a missing
// file fails the test, never skips it.
func spec(t *testing.T) *Spec {
	t.Helper()
	s, err := DefaultSpec()
	if err != nil {
		t.Fatalf("DefaultSpec() error = %v (the file must be at ../%s beside the repository)", err, SpecFile)
	}
	return s
}

func TestSpecCheck(t *testing.T) {
	t.Parallel()
	s := spec(t)
	cases := []struct {
		name                string
		method, path, query string
		body                string
		want                string // a substring of the only violation; "" for a valid request
	}{
		// The requests the action sends.
		{name: "list comments", method: "GET", path: "/repos/acme/docs/issues/12/comments", query: "page=3&per_page=100"},
		{name: "create comment", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `{"body":"hi"}`},
		{name: "edit comment", method: "PATCH", path: "/repos/acme/docs/issues/comments/1001", body: `{"body":"hi"}`},
		{name: "react to an issue comment", method: "POST", path: "/repos/acme/docs/issues/comments/5/reactions", body: `{"content":"eyes"}`},
		{name: "react to a review comment", method: "POST", path: "/repos/acme/docs/pulls/comments/5/reactions", body: `{"content":"rocket"}`},
		{name: "permission of a bot", method: "GET", path: "/repos/acme/docs/collaborators/dependabot%5Bbot%5D/permission"},
		{name: "get pull request", method: "GET", path: "/repos/acme/docs/pulls/7"},
		{name: "request reviewers", method: "POST", path: "/repos/acme/docs/pulls/7/requested_reviewers", body: `{"reviewers":["ada","max"]}`},
		{name: "review comments", method: "GET", path: "/repos/acme/docs/pulls/7/reviews/88/comments", query: "per_page=100&page=2"},
		{name: "optional body left out", method: "POST", path: "/repos/acme/docs/pulls/7/requested_reviewers"},
		{name: "nullable property", method: "PATCH", path: "/repos/acme/docs/issues/7", body: `{"body":null,"title":"x"}`},
		{name: "oneOf: one alternative", method: "PATCH", path: "/repos/acme/docs/issues/7", body: `{"milestone":3}`},
		{name: "date-time query", method: "GET", path: "/repos/acme/docs/issues/7/comments", query: "since=2024-01-01T00:00:00Z"},

		// Path and method.
		{name: "unknown path", method: "GET", path: "/repos/acme/docs/issues/12/events", want: "no operation has the path /repos/acme/docs/issues/12/events"},
		{name: "unknown method", method: "PUT", path: "/repos/acme/docs/issues/12/comments", want: "PUT is not an operation of /repos/acme/docs/issues/12/comments (it has GET, POST)"},
		{name: "integer path parameter", method: "GET", path: "/repos/acme/docs/pulls/seven", want: "no operation has the path"},
		{name: "empty path parameter", method: "GET", path: "/repos/acme//issues/12/comments", want: "no operation has the path"},
		{name: "escaped slash stays one segment", method: "GET", path: "/repos/acme/docs%2F..%2Fx/pulls/7"},
		{name: "dot segments", method: "GET", path: "/repos/acme/docs/../pulls/7", want: "no operation has the path"},
		{name: "bad escaping", method: "GET", path: "/repos/acme/d%zzocs/pulls/7", want: "is not valid escaping"},

		// Query.
		{name: "undeclared query parameter", method: "GET", path: "/repos/acme/docs/issues/12/comments", query: "sort=created", want: `query parameter "sort" is not declared`},
		{name: "query parameter of the wrong type", method: "GET", path: "/repos/acme/docs/issues/12/comments", query: "per_page=many", want: `query parameter "per_page": "many" is not an integer`},
		{name: "query enum", method: "GET", path: "/repos/acme/docs/issues/comments/5/reactions", query: "content=party", want: `query parameter "content": value is party, not one of`},
		{name: "repeated query parameter", method: "GET", path: "/repos/acme/docs/issues/12/comments", query: "page=1&page=2", want: `query parameter "page" is repeated`},
		{name: "malformed date-time", method: "GET", path: "/repos/acme/docs/issues/12/comments", query: "since=yesterday", want: "is not an ISO 8601 date-time"},
		{name: "query on a body operation", method: "POST", path: "/repos/acme/docs/issues/12/comments", query: "per_page=1", body: `{"body":"x"}`, want: `query parameter "per_page" is not declared`},

		// Body.
		{name: "required body missing", method: "POST", path: "/repos/acme/docs/issues/12/comments", want: "the JSON body is required"},
		{name: "required property missing", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `{"text":"hi"}`, want: `body lacks the required property "body"`},
		{name: "property of the wrong type", method: "PATCH", path: "/repos/acme/docs/issues/comments/1", body: `{"body":42}`, want: "body.body is integer, want string"},
		{name: "null where not nullable", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `{"body":null}`, want: "body.body is null"},
		{name: "body enum", method: "POST", path: "/repos/acme/docs/pulls/comments/5/reactions", body: `{"content":"party"}`, want: "body.content is party, not one of"},
		{name: "array of the wrong item type", method: "POST", path: "/repos/acme/docs/pulls/7/requested_reviewers", body: `{"reviewers":["ada",7]}`, want: "body.reviewers[1] is integer, want string"},
		{name: "array expected", method: "POST", path: "/repos/acme/docs/pulls/7/requested_reviewers", body: `{"reviewers":"ada"}`, want: "body.reviewers is string, want array"},
		{name: "not an object", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `["hi"]`, want: "body is array, want object"},
		{name: "not JSON", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `body=hi`, want: "body is not JSON"},
		{name: "two JSON values", method: "POST", path: "/repos/acme/docs/issues/12/comments", body: `{"body":"a"}{"body":"b"}`, want: "more than one JSON value"},
		{name: "body where none is taken", method: "GET", path: "/repos/acme/docs/pulls/7", body: `{"x":1}`, want: "takes no body"},
		{name: "unknown property where additionalProperties is false", method: "PATCH", path: "/repos/acme/docs/issues/7",
			body: `{"issue_field_values":[{"field_id":1,"value":"x","colour":"red"}]}`, want: `body.issue_field_values[0].colour is not a property the schema allows`},
		{name: "known properties where additionalProperties is false", method: "PATCH", path: "/repos/acme/docs/issues/7",
			body: `{"issue_field_values":[{"field_id":1,"value":["a","b"]}]}`},
		{name: "oneOf: no alternative", method: "PATCH", path: "/repos/acme/docs/issues/7", body: `{"milestone":true}`, want: "body.milestone matches none of oneOf"},
		{name: "minItems", method: "POST", path: "/repos/acme/docs/issues/7/labels", body: `{"labels":[]}`, want: "matches none of oneOf (first: body.labels has 0 items, want at least 1)"},
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

func TestParseSpec(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, doc, wantErr string
	}{
		{name: "not JSON", doc: `{`, wantErr: "GitHub REST description: unexpected end of JSON input"},
		{name: "no paths", doc: `{"openapi":"3.0.3","paths":{}}`, wantErr: "no paths"},
		{name: "references", doc: `{"paths":{"/x":{"get":{"parameters":[{"$ref":"#/components/parameters/p"}]}}}}`, wantErr: "$ref is not supported"},
		{name: "body that is not JSON", doc: `{"paths":{"/x":{"post":{"requestBody":{"content":{"text/plain":{"schema":{"type":"string"}}}}}}}}`, wantErr: "request body is not JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, err := ParseSpec([]byte(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseSpec() error = %v, want %q", err, tc.wantErr)
			}
		})
	}
	if _, err := LoadSpec("testdata/no-such-file.json"); err == nil || !strings.Contains(err.Error(), "no-such-file.json") {
		t.Errorf("LoadSpec(missing) error = %v", err)
	}
}

// TestSpecLiteralsWin checks that a path with a literal segment goes to the
// template that names it, not to one with a parameter in its place.
func TestSpecLiteralsWin(t *testing.T) {
	t.Parallel()
	s, err := ParseSpec([]byte(`{"paths":{
		"/items/{id}": {"get": {"parameters": [{"name":"id","in":"path","required":true,"schema":{"type":"string"}}]}},
		"/items/latest": {"get": {"parameters": [{"name":"full","in":"query","schema":{"type":"boolean"}}]}}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Check("GET", "/items/latest", "full=true", nil); len(got) != 0 {
		t.Errorf("Check(/items/latest?full=true) = %q, want valid", got)
	}
	if got := s.Check("GET", "/items/abc", "full=true", nil); len(got) != 1 || !strings.Contains(got[0], `"full" is not declared`) {
		t.Errorf("Check(/items/abc?full=true) = %q, want full undeclared", got)
	}
	if got := s.Check("GET", "/items/latest", "full=yes", nil); len(got) != 1 || !strings.Contains(got[0], "is not a boolean") {
		t.Errorf("Check(full=yes) = %q", got)
	}
}

// TestServerChecksEveryRequest checks that the fake holds what it receives
// against the description: a valid request leaves no trace, an invalid one
// is listed by Invalid and Unexpected, whatever the endpoint answered.
func TestServerChecksEveryRequest(t *testing.T) {
	t.Parallel()
	for _, prefix := range []string{"", "/api/v3"} {
		s := New(Checked(Options{Token: tok, Prefix: prefix}))
		send(t, s, "POST", prefix+"/repos/o/r/issues/1/comments", "Bearer "+tok, `{"body":"ok"}`)
		send(t, s, "GET", prefix+"/repos/o/r/issues/1/comments?per_page=100&direction=desc", "Bearer "+tok, "")
		send(t, s, "POST", prefix+"/repos/o/r/issues/1/comments", "Bearer nope", `{"body":"ok","extra":[}`)
		want := []string{
			"GET " + prefix + `/repos/o/r/issues/1/comments?per_page=100&direction=desc: GET /repos/{owner}/{repo}/issues/{issue_number}/comments: query parameter "direction" is not declared`,
			"POST " + prefix + "/repos/o/r/issues/1/comments: POST /repos/{owner}/{repo}/issues/{issue_number}/comments: body is not JSON: invalid character '}' looking for beginning of value",
		}
		got := s.Invalid()
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("prefix %q: Invalid() = %q\nwant %q", prefix, got, want)
		}
		if u := s.Unexpected(); strings.Join(u, "\n") != strings.Join(want, "\n") {
			t.Errorf("prefix %q: Unexpected() = %q, want the invalid requests", prefix, u)
		}
		s.Close()
	}
}

// TestServerWithoutSpec checks that a description that cannot be read is
// itself reported, so no test passes unchecked.
func TestServerWithoutSpec(t *testing.T) {
	t.Parallel()
	bad, err := LoadSpec("testdata/no-such-file.json")
	if err == nil || bad != nil {
		t.Fatalf("LoadSpec(missing) = %v, %v", bad, err)
	}
	if u := checker(nil, err)("GET", "/user", "", nil); len(u) != 1 || !strings.HasPrefix(u[0], "requests cannot be checked: GitHub REST description: ") {
		t.Errorf("the check = %q, want the reason requests cannot be checked", u)
	}
}
