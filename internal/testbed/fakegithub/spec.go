package fakegithub

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// SpecFile is where the GitHub REST description lives, relative to the
// directory that holds the repository (the one above go.mod's).
const SpecFile = "shared/specs/github-subset.openapi.json"

// Spec is the part of an OpenAPI 3.0 description that says what a valid
// request is: per path template and method, the path and query parameters
// and the JSON body's schema. Check holds a request against it.
type Spec struct {
	ops []operation
}

type operation struct {
	method   string
	segments []string // of the path template; "{name}" for a parameter
	template string
	params   map[string]parameter // by "in:name"
	body     *schema              // nil when the operation takes no body
	bodyReq  bool
}

type parameter struct {
	Name     string  `json:"name"`
	In       string  `json:"in"`
	Required bool    `json:"required"`
	Schema   *schema `json:"schema"`
}

// schema is the subset of JSON Schema the GitHub description uses in
// parameters and request bodies.
type schema struct {
	Type                 string             `json:"type"`
	Format               string             `json:"format"`
	Nullable             bool               `json:"nullable"`
	Enum                 []any              `json:"enum"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	AdditionalProperties json.RawMessage    `json:"additionalProperties"`
	Items                *schema            `json:"items"`
	MinItems             *int               `json:"minItems"`
	OneOf                []*schema          `json:"oneOf"`
	AnyOf                []*schema          `json:"anyOf"`
}

// LoadSpec reads an OpenAPI 3.0 description in JSON.
func LoadSpec(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("GitHub REST description: %w", err)
	}
	return ParseSpec(data)
}

// ParseSpec parses an OpenAPI 3.0 description in JSON. Only what Check
// needs is kept; a $ref is refused, since the description inlines them.
func ParseSpec(data []byte) (*Spec, error) {
	if bytes.Contains(data, []byte(`"$ref"`)) {
		return nil, errors.New("GitHub REST description: $ref is not supported; use a description with references inlined")
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("GitHub REST description: %w", err)
	}
	if len(doc.Paths) == 0 {
		return nil, errors.New("GitHub REST description: no paths")
	}
	s := &Spec{}
	for tmpl, item := range doc.Paths {
		var shared []parameter
		if raw, ok := item["parameters"]; ok {
			if err := json.Unmarshal(raw, &shared); err != nil {
				return nil, fmt.Errorf("GitHub REST description: %s parameters: %w", tmpl, err)
			}
		}
		for method, raw := range item {
			switch method {
			case "get", "put", "post", "delete", "patch", "head", "options":
			default:
				continue
			}
			var op struct {
				Parameters  []parameter `json:"parameters"`
				RequestBody *struct {
					Required bool `json:"required"`
					Content  map[string]struct {
						Schema *schema `json:"schema"`
					} `json:"content"`
				} `json:"requestBody"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				return nil, fmt.Errorf("GitHub REST description: %s %s: %w", method, tmpl, err)
			}
			o := operation{
				method:   strings.ToUpper(method),
				segments: strings.Split(strings.Trim(tmpl, "/"), "/"),
				template: tmpl,
				params:   map[string]parameter{},
			}
			for _, p := range slices.Concat(shared, op.Parameters) {
				o.params[p.In+":"+p.Name] = p
			}
			if rb := op.RequestBody; rb != nil {
				c, ok := rb.Content["application/json"]
				if !ok || c.Schema == nil {
					return nil, fmt.Errorf("GitHub REST description: %s %s: request body is not JSON", method, tmpl)
				}
				o.body, o.bodyReq = c.Schema, rb.Required
			}
			s.ops = append(s.ops, o)
		}
	}
	// A stable order makes the first match, and so the messages, stable.
	sort.Slice(s.ops, func(i, j int) bool {
		return s.ops[i].template < s.ops[j].template || s.ops[i].template == s.ops[j].template && s.ops[i].method < s.ops[j].method
	})
	return s, nil
}

var defaultSpec = sync.OnceValues(func() (*Spec, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("GitHub REST description: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return LoadSpec(filepath.Join(filepath.Dir(dir), filepath.FromSlash(SpecFile)))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, fmt.Errorf("GitHub REST description: no go.mod above the working directory, so ../%s cannot be found", SpecFile)
		}
		dir = parent
	}
})

// DefaultSpec returns the description at ../shared/specs beside the module
// holding the working directory (where `go test` runs), read once.
func DefaultSpec() (*Spec, error) { return defaultSpec() }

// Checked returns opt with every request checked against DefaultSpec. When
// the description cannot be read, every request is noted as unchecked, so
// that no test passes unchecked.
func Checked(opt Options) Options {
	opt.Check = checker(DefaultSpec())
	return opt
}

func checker(spec *Spec, err error) func(method, path, rawQuery string, body []byte) []string {
	if err != nil {
		return func(string, string, string, []byte) []string {
			return []string{fmt.Sprintf("requests cannot be checked: %v", err)}
		}
	}
	return spec.Check
}

// Check returns what makes a request invalid under the description, or
// nothing: an unknown path or method, a path parameter of the wrong type,
// an undeclared or malformed query parameter, or a body that does not fit
// the operation's schema. path is the escaped path without the API prefix.
func (s *Spec) Check(method, path, rawQuery string, body []byte) []string {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	values := make([]string, len(segs))
	for i, seg := range segs {
		v, err := url.PathUnescape(seg)
		if err != nil {
			return []string{fmt.Sprintf("path segment %q is not valid escaping", seg)}
		}
		values[i] = v
	}
	var (
		best     *operation
		bestLits = -1
		methods  []string
	)
	for i := range s.ops {
		o := &s.ops[i]
		lits, ok := o.match(values)
		if !ok {
			continue
		}
		if o.method != method {
			methods = append(methods, o.method)
			continue
		}
		if lits > bestLits {
			best, bestLits = o, lits
		}
	}
	if best == nil {
		if len(methods) > 0 {
			return []string{fmt.Sprintf("%s is not an operation of %s (it has %s)", method, path, strings.Join(methods, ", "))}
		}
		return []string{fmt.Sprintf("no operation has the path %s", path)}
	}
	var bad []string
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		bad = append(bad, fmt.Sprintf("%s %s: query %q is not valid: %v", method, best.template, rawQuery, err))
	}
	for _, name := range slices.Sorted(maps.Keys(q)) {
		p, ok := best.params["query:"+name]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s %s: query parameter %q is not declared", method, best.template, name))
			continue
		}
		if len(q[name]) > 1 {
			bad = append(bad, fmt.Sprintf("%s %s: query parameter %q is repeated", method, best.template, name))
		}
		if msg := p.Schema.checkString(q[name][0]); msg != "" {
			bad = append(bad, fmt.Sprintf("%s %s: query parameter %q: %s", method, best.template, name, msg))
		}
	}
	for _, p := range best.params {
		if p.In == "query" && p.Required && !q.Has(p.Name) {
			bad = append(bad, fmt.Sprintf("%s %s: query parameter %q is required", method, best.template, p.Name))
		}
	}
	bad = append(bad, best.checkBody(body)...)
	return bad
}

// match reports whether the path's unescaped segments fit the template,
// parameters by their schema's type, and how many literal segments did.
func (o *operation) match(values []string) (int, bool) {
	if len(values) != len(o.segments) {
		return 0, false
	}
	lits := 0
	for i, seg := range o.segments {
		name, isParam := strings.CutPrefix(seg, "{")
		if !isParam {
			if values[i] != seg {
				return 0, false
			}
			lits++
			continue
		}
		p, ok := o.params["path:"+strings.TrimSuffix(name, "}")]
		if !ok || values[i] == "" || p.Schema.checkString(values[i]) != "" {
			return 0, false
		}
	}
	return lits, true
}

func (o *operation) checkBody(body []byte) []string {
	where := o.method + " " + o.template
	empty := len(bytes.TrimSpace(body)) == 0
	switch {
	case o.body == nil && !empty:
		return []string{fmt.Sprintf("%s takes no body, got %q", where, truncate(body))}
	case o.body == nil:
		return nil
	case empty && o.bodyReq:
		return []string{fmt.Sprintf("%s: the JSON body is required", where)}
	case empty:
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []string{fmt.Sprintf("%s: body is not JSON: %v", where, err)}
	}
	if dec.More() {
		return []string{fmt.Sprintf("%s: body holds more than one JSON value", where)}
	}
	var bad []string
	o.body.check("body", v, &bad)
	for i := range bad {
		bad[i] = where + ": " + bad[i]
	}
	return bad
}

func truncate(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}

// dateTime is compiled on first use: at package init it would run at every
// start of the action's binary, which links this package for the demo.
var dateTime = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$`)
})

// checkString holds a parameter's text against its schema: query and path
// values are strings on the wire, typed by the schema.
func (sc *schema) checkString(s string) string {
	if sc == nil {
		return ""
	}
	var v any = s
	switch sc.Type {
	case "integer":
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			return fmt.Sprintf("%q is not an integer", s)
		}
		v = json.Number(s)
	case "number":
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return fmt.Sprintf("%q is not a number", s)
		}
		v = json.Number(s)
	case "boolean":
		if s != "true" && s != "false" {
			return fmt.Sprintf("%q is not a boolean", s)
		}
		v = s == "true"
	case "string":
		if sc.Format == "date-time" && !dateTime().MatchString(s) {
			return fmt.Sprintf("%q is not an ISO 8601 date-time", s)
		}
	}
	var bad []string
	sc.check("value", v, &bad)
	if len(bad) > 0 {
		return bad[0]
	}
	return ""
}

// check appends to bad what makes v, found at where, not fit the schema.
func (sc *schema) check(where string, v any, bad *[]string) {
	if sc == nil {
		return
	}
	if v == nil {
		if !sc.Nullable && (sc.Type != "" || len(sc.OneOf) > 0 || len(sc.AnyOf) > 0) {
			*bad = append(*bad, fmt.Sprintf("%s is null, and the schema does not allow null", where))
		}
		return
	}
	if len(sc.OneOf) > 0 {
		n := 0
		var first []string
		for _, alt := range sc.OneOf {
			var b []string
			alt.check(where, v, &b)
			if len(b) == 0 {
				n++
			} else if first == nil {
				first = b
			}
		}
		switch {
		case n == 0:
			*bad = append(*bad, fmt.Sprintf("%s matches none of oneOf (first: %s)", where, strings.Join(first, "; ")))
		case n > 1:
			*bad = append(*bad, fmt.Sprintf("%s matches %d alternatives of oneOf, want exactly one", where, n))
		}
	}
	if len(sc.AnyOf) > 0 && !slices.ContainsFunc(sc.AnyOf, func(alt *schema) bool {
		var b []string
		alt.check(where, v, &b)
		return len(b) == 0
	}) {
		*bad = append(*bad, fmt.Sprintf("%s matches none of anyOf", where))
	}
	if got := jsonType(v); sc.Type != "" && got != sc.Type && !(sc.Type == "number" && got == "integer") {
		*bad = append(*bad, fmt.Sprintf("%s is %s, want %s", where, got, sc.Type))
		return
	}
	if len(sc.Enum) > 0 && !slices.ContainsFunc(sc.Enum, func(e any) bool { return sameValue(e, v) }) {
		*bad = append(*bad, fmt.Sprintf("%s is %v, not one of %v", where, v, sc.Enum))
	}
	switch v := v.(type) {
	case []any:
		if sc.MinItems != nil && len(v) < *sc.MinItems {
			*bad = append(*bad, fmt.Sprintf("%s has %d items, want at least %d", where, len(v), *sc.MinItems))
		}
		for i, item := range v {
			sc.Items.check(fmt.Sprintf("%s[%d]", where, i), item, bad)
		}
	case map[string]any:
		for _, name := range sc.Required {
			if _, ok := v[name]; !ok {
				*bad = append(*bad, fmt.Sprintf("%s lacks the required property %q", where, name))
			}
		}
		extra, closed := sc.additional()
		for _, name := range slices.Sorted(maps.Keys(v)) {
			at := where + "." + name
			switch p, ok := sc.Properties[name]; {
			case ok:
				p.check(at, v[name], bad)
			case closed:
				*bad = append(*bad, fmt.Sprintf("%s is not a property the schema allows", at))
			default:
				extra.check(at, v[name], bad)
			}
		}
	}
}

// additional reads additionalProperties: false closes the object, a schema
// types the other properties, and absent or true leaves them free.
func (sc *schema) additional() (extra *schema, closed bool) {
	raw := bytes.TrimSpace(sc.AdditionalProperties)
	switch {
	case len(raw) == 0 || string(raw) == "true":
		return nil, false
	case string(raw) == "false":
		return nil, true
	}
	extra = &schema{}
	if err := json.Unmarshal(raw, extra); err != nil {
		return nil, false
	}
	return extra, false
}

func jsonType(v any) string {
	switch v := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// sameValue compares a decoded value with an enum entry, which the
// description's decoding made a float64 when it is a number.
func sameValue(e, v any) bool {
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		ef, isNum := e.(float64)
		return err == nil && isNum && f == ef
	}
	return e == v
}
