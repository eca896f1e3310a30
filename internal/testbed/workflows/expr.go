package workflows

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Eval evaluates the expression src (with or without ${{ }}) over ev, as
// GitHub's expression language does: literals, the github context's
// event_name and event, property access (.name and ['name']), !, == and
// !=, && and || (which give one of their operands), parentheses, and the
// functions contains, startsWith and endsWith. Anything else is an error.
// Values are nil, bool, float64, string, map[string]any and []any.
func Eval(src string, ev Event) (any, error) {
	src = strings.TrimSpace(src)
	if inner, ok := strings.CutPrefix(src, "${{"); ok {
		src = strings.TrimSpace(strings.TrimSuffix(inner, "}}"))
	}
	p := &parser{src: src}
	e, err := p.or()
	if p.skip(); err == nil && p.pos != len(p.src) {
		err = fmt.Errorf("unexpected %q", p.src[p.pos:])
	}
	if err != nil {
		return nil, fmt.Errorf("%q: %w", src, err)
	}
	return e(ev)
}

// expr is a parsed expression, evaluated over an event.
type expr func(ev Event) (any, error)

type parser struct {
	src string
	pos int
}

func (p *parser) skip() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n') {
		p.pos++
	}
}

// eat consumes tok when it comes next.
func (p *parser) eat(tok string) bool {
	p.skip()
	if strings.HasPrefix(p.src[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

func (p *parser) or() (expr, error) {
	return p.logical("||", p.and, true)
}

func (p *parser) and() (expr, error) {
	return p.logical("&&", p.compare, false)
}

// logical parses operands joined by op; or says which operand a truthy
// left one is: || gives it, && goes on.
func (p *parser) logical(op string, next func() (expr, error), or bool) (expr, error) {
	left, err := next()
	for err == nil && p.eat(op) {
		var right expr
		if right, err = next(); err != nil {
			break
		}
		l := left
		left = func(ev Event) (any, error) {
			v, err := l(ev)
			if err != nil || truthy(v) == or {
				return v, err
			}
			return right(ev)
		}
	}
	return left, err
}

func (p *parser) compare() (expr, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	var not bool
	switch {
	case p.eat("=="):
	case p.eat("!="):
		not = true
	default:
		p.skip()
		if p.pos < len(p.src) && strings.ContainsRune("<>", rune(p.src[p.pos])) {
			return nil, fmt.Errorf("the operator %c is not modelled", p.src[p.pos])
		}
		return left, nil
	}
	right, err := p.unary()
	if err != nil {
		return nil, err
	}
	return func(ev Event) (any, error) {
		l, err := left(ev)
		if err != nil {
			return nil, err
		}
		r, err := right(ev)
		if err != nil {
			return nil, err
		}
		return equal(l, r) != not, nil
	}, nil
}

func (p *parser) unary() (expr, error) {
	if p.eat("!") {
		e, err := p.unary()
		if err != nil {
			return nil, err
		}
		return func(ev Event) (any, error) {
			v, err := e(ev)
			return !truthy(v), err
		}, nil
	}
	return p.postfix()
}

// postfix parses a primary and the property accesses after it.
func (p *parser) postfix() (expr, error) {
	e, err := p.primary()
	for err == nil {
		var name expr
		switch {
		case p.eat("."):
			var id string
			if id = p.ident(); id == "" {
				return nil, fmt.Errorf("a property name must follow . at %d", p.pos)
			}
			name = func(Event) (any, error) { return id, nil }
		case p.eat("["):
			if name, err = p.or(); err == nil && !p.eat("]") {
				err = fmt.Errorf("missing ] at %d", p.pos)
			}
			if err != nil {
				return nil, err
			}
		default:
			return e, nil
		}
		recv := e
		e = func(ev Event) (any, error) {
			obj, err := recv(ev)
			if err != nil {
				return nil, err
			}
			key, err := name(ev)
			if err != nil {
				return nil, err
			}
			m, _ := obj.(map[string]any)
			for k, v := range m {
				// Property names are matched without regard to case.
				if strings.EqualFold(k, str(key)) {
					return v, nil
				}
			}
			return nil, nil
		}
	}
	return nil, err
}

func (p *parser) primary() (expr, error) {
	p.skip()
	if p.pos == len(p.src) {
		return nil, fmt.Errorf("the expression ends too soon")
	}
	switch c := p.src[p.pos]; {
	case c == '(':
		p.pos++
		e, err := p.or()
		if err == nil && !p.eat(")") {
			err = fmt.Errorf("missing ) at %d", p.pos)
		}
		return e, err
	case c == '\'':
		return p.string()
	case c == '-' || c >= '0' && c <= '9':
		start := p.pos
		for p.pos++; p.pos < len(p.src) && strings.ContainsRune("0123456789.eE+-xabcdefABCDEF", rune(p.src[p.pos])); p.pos++ {
		}
		f, err := strconv.ParseFloat(p.src[start:p.pos], 64)
		if err != nil {
			return nil, fmt.Errorf("the number %q: %w", p.src[start:p.pos], err)
		}
		return constant(f), nil
	}
	id := p.ident()
	switch id {
	case "":
		return nil, fmt.Errorf("unexpected %q", p.src[p.pos:])
	case "null":
		return constant(nil), nil
	case "true", "false":
		return constant(id == "true"), nil
	case "github":
		return func(ev Event) (any, error) {
			// github.repository is the repository the event happened in.
			repo, _ := ev.Payload["repository"].(map[string]any)
			return map[string]any{"event_name": ev.Name, "event": ev.Payload, "repository": repo["full_name"]}, nil
		}, nil
	}
	if !p.eat("(") {
		return nil, fmt.Errorf("the context %s is not modelled", id)
	}
	var args []expr
	for !p.eat(")") {
		if len(args) > 0 && !p.eat(",") {
			return nil, fmt.Errorf("missing , in the arguments of %s", id)
		}
		a, err := p.or()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	return p.call(id, args)
}

// call is the string functions the pages use; GitHub compares their
// strings without regard to case.
func (p *parser) call(name string, args []expr) (expr, error) {
	var f func(s, sub string) bool
	switch strings.ToLower(name) {
	case "contains":
		f = strings.Contains
	case "startswith":
		f = strings.HasPrefix
	case "endswith":
		f = strings.HasSuffix
	default:
		return nil, fmt.Errorf("the function %s is not modelled", name)
	}
	if len(args) != 2 {
		return nil, fmt.Errorf("%s takes 2 arguments, not %d", name, len(args))
	}
	return func(ev Event) (any, error) {
		var s [2]string
		for i, a := range args {
			v, err := a(ev)
			if err != nil {
				return nil, err
			}
			if _, ok := v.([]any); ok && i == 0 {
				return nil, fmt.Errorf("%s of an array is not modelled", name)
			}
			s[i] = strings.ToLower(str(v))
		}
		return f(s[0], s[1]), nil
	}, nil
}

func (p *parser) string() (expr, error) {
	var b strings.Builder
	for p.pos++; p.pos < len(p.src); p.pos++ {
		if c := p.src[p.pos]; c != '\'' {
			b.WriteByte(c)
			continue
		}
		if p.pos+1 < len(p.src) && p.src[p.pos+1] == '\'' {
			// '' is a quote inside a string.
			b.WriteByte('\'')
			p.pos++
			continue
		}
		p.pos++
		return constant(b.String()), nil
	}
	return nil, fmt.Errorf("a string does not end")
}

func (p *parser) ident() string {
	p.skip()
	start := p.pos
	for p.pos < len(p.src) {
		r := rune(p.src[p.pos])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' || p.pos == start && !unicode.IsLetter(r) && r != '_' {
			break
		}
		p.pos++
	}
	return p.src[start:p.pos]
}

func constant(v any) expr { return func(Event) (any, error) { return v, nil } }
