// Package ghspec holds requests to a description of GitHub's REST API, so
// that the fake GitHub (package fakegithub) refuses, as a test failure,
// any request GitHub itself would refuse: an unknown path or method, a
// path or query parameter of the wrong type, an undeclared or repeated
// query parameter, a body that does not fit the operation's schema.
//
// The description is the project's own github-rest.yaml, embedded, unless
// the tests are built with the conformance tag: then it is GitHub's own,
// from the @octokit/openapi package that .ci/run fetches (see source_*.go).
// Only tests import this package, so neither the description nor
// kin-openapi is linked into any build of the action.
package ghspec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// server is where every request to GitHub is placed before it is
// matched: both descriptions name api.github.com as their server, and the
// fake's own host and prefix are not part of what is checked.
const server = "https://api.github.com"

// Spec is a loaded description.
type Spec struct {
	router routers.Router
	server string
}

// Parse loads a description of GitHub's REST API (JSON or YAML), named
// name in errors, and builds its router.
func Parse(data []byte, name string) (*Spec, error) {
	return ParseAt(data, "GitHub REST description "+name, server)
}

// ParseAt loads an OpenAPI 3 description of an API at server (the scheme
// and host of its servers entry, such as https://api.mintlify.com), named
// name in errors, and builds its router; the paths Check is given start
// below server. The checks of Check then hold any fake
// of that API to it: package previewspec does so for the preview API.
func ParseAt(data []byte, name, server string) (*Spec, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(doc.Paths.Map()) == 0 {
		return nil, fmt.Errorf("%s: no paths", name)
	}
	// Not doc.Validate: GitHub's own description has templates kin-openapi
	// calls conflicting (/orgs/{org}/attestations/{subject_digest} and
	// .../{attestation_id}), which GitHub routes by type. The project's
	// description is validated by its test.
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &Spec{router: router, server: strings.TrimRight(server, "/")}, nil
}

// Check returns what makes a request invalid under the description, or
// nothing. path is the escaped path below the description's server (for
// GitHub, without the API prefix).
func (s *Spec) Check(method, path, rawQuery string, body []byte) []string {
	u, err := url.Parse(s.server + path)
	if err != nil {
		return []string{fmt.Sprintf("the path %s is not a URL path: %v", path, err)}
	}
	if strings.Contains("/"+u.Path+"/", "/../") || strings.Contains("/"+u.Path+"/", "/./") {
		return []string{fmt.Sprintf("no operation has the path %s (dot segments)", path)}
	}
	u.RawQuery = rawQuery
	req, err := http.NewRequest(method, u.String(), bytes.NewReader(body))
	if err != nil {
		return []string{err.Error()}
	}
	if len(body) > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	route, params, err := s.router.FindRoute(req)
	if err != nil {
		if others := s.methodsOf(u); len(others) > 0 {
			return []string{fmt.Sprintf("%s is not an operation of %s (it has %s)", method, path, strings.Join(others, ", "))}
		}
		return []string{fmt.Sprintf("no operation has the path %s", path)}
	}
	op := method + " " + route.Path
	if bad := s.checkQuery(route, rawQuery); len(bad) > 0 {
		return prefixed(op, bad)
	}
	switch {
	case len(body) > 0 && route.Operation.RequestBody == nil:
		return prefixed(op, []string{"the operation takes no body"})
	case len(body) > 0 && !json.Valid(body):
		// kin-openapi reads the first JSON value and ignores the rest.
		return prefixed(op, []string{"the body is not one JSON value"})
	}
	in := &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: params,
		Route:      route,
		Options: &openapi3filter.Options{
			MultiError:         true,
			AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		},
	}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		return prefixed(op, reasons(err))
	}
	return nil
}

// methodsOf lists the methods the description has for the path of u.
func (s *Spec) methodsOf(u *url.URL) []string {
	var found []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if _, _, err := s.router.FindRoute(&http.Request{Method: m, URL: u}); err == nil {
			found = append(found, m)
		}
	}
	return found
}

// checkQuery refuses what kin-openapi lets through: a query parameter the
// operation does not declare, or one given twice.
func (s *Spec) checkQuery(route *routers.Route, rawQuery string) []string {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return []string{fmt.Sprintf("the query is not valid: %v", err)}
	}
	var declared []string
	for _, p := range slices.Concat(route.PathItem.Parameters, route.Operation.Parameters) {
		if p.Value != nil && p.Value.In == openapi3.ParameterInQuery {
			declared = append(declared, p.Value.Name)
		}
	}
	var bad []string
	for _, name := range slices.Sorted(maps.Keys(q)) {
		switch {
		case !slices.Contains(declared, name):
			bad = append(bad, fmt.Sprintf("query parameter %q is not declared", name))
		case len(q[name]) > 1:
			bad = append(bad, fmt.Sprintf("query parameter %q is repeated", name))
		}
	}
	return bad
}

// reasons flattens kin-openapi's errors into one line each.
func reasons(err error) []string {
	var multi openapi3.MultiError
	if errors.As(err, &multi) {
		var out []string
		for _, e := range multi {
			out = append(out, reasons(e)...)
		}
		return out
	}
	line := strings.Join(strings.Fields(err.Error()), " ")
	// What follows is the schema and the value, which the reason names.
	line, _, _ = strings.Cut(line, " Schema: ")
	return []string{line}
}

func prefixed(op string, bad []string) []string {
	out := make([]string, len(bad))
	for i, b := range bad {
		out[i] = op + ": " + b
	}
	return out
}

var loadDefault = sync.OnceValues(func() (*Spec, error) {
	data, name, err := source()
	if err != nil {
		return nil, err
	}
	return Parse(data, name)
})

// Default returns the description the tests check against, loaded once.
func Default() (*Spec, error) { return loadDefault() }

// Checker returns a check for fakegithub.Options.Check against Default.
// When the description cannot be loaded, every request is reported as
// unchecked, so that no test passes unchecked.
func Checker() func(method, path, rawQuery string, body []byte) []string {
	s, err := Default()
	if err != nil {
		return func(string, string, string, []byte) []string {
			return []string{fmt.Sprintf("requests cannot be checked: %v", err)}
		}
	}
	return s.Check
}
