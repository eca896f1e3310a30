// Package yamlscalar reads the one-line YAML scalars of action.yml files, so
// that tests can hold action.yml and binary/action.yml to the inputs'
// spec without a YAML dependency.
package yamlscalar

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse returns the value of a one-line scalar: plain, 'single' or "double"
// quoted, with an optional trailing comment. Block scalars, flow
// collections, anchors, tags and other forms these files never need are
// errors, as is a plain value holding ": ".
func Parse(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	var v, rest string
	switch s[0] {
	case '"':
		end := 1
		for end < len(s) && s[end] != '"' {
			if s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(s) {
			return "", fmt.Errorf("unterminated string %s", s)
		}
		var err error
		if v, err = strconv.Unquote(s[:end+1]); err != nil {
			return "", fmt.Errorf("bad string %s: %v", s[:end+1], err)
		}
		rest = s[end+1:]
	case '\'':
		var b strings.Builder
		i := 1
		for ; i < len(s); i++ {
			if s[i] == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					b.WriteByte('\'')
					i++
					continue
				}
				break
			}
			b.WriteByte(s[i])
		}
		if i >= len(s) {
			return "", fmt.Errorf("unterminated string %s", s)
		}
		v, rest = b.String(), s[i+1:]
	case '|', '>', '[', '{', '&', '*', '!', '%', '@', '`':
		return "", fmt.Errorf("%q: only one-line plain or quoted scalars are supported", s)
	default:
		v, _, _ = strings.Cut(s, " #")
		v = strings.TrimSpace(v)
		if strings.Contains(v, ": ") {
			return "", fmt.Errorf("%q contains \": \": quote it", v)
		}
	}
	if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
		return "", fmt.Errorf("unexpected %q after the string", rest)
	}
	return v, nil
}
