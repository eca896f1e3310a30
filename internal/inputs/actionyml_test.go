package inputs

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/testbed/yamlscalar"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// TestActionYMLMatchesSpec keeps action.yml and the Inputs/Outputs tables in
// step: the runner reads one, the code and --help the other.
func TestActionYMLMatchesSpec(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatalf("action.yml must sit at the repository root: %v", err)
	}
	ins, outs, err := parseActionYML(string(data))
	if err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	for _, p := range actionYMLProblems(ins, outs) {
		t.Error("action.yml: " + p)
	}
}

// TestActionYMLProblems makes sure the comparison notices each kind of drift,
// so that a passing TestActionYMLMatchesSpec means something.
func TestActionYMLProblems(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatalf("action.yml must sit at the repository root: %v", err)
	}
	withDefault := slices.IndexFunc(Inputs, func(in Input) bool { return in.Default != "" })
	required := slices.IndexFunc(Inputs, func(in Input) bool { return in.Required })
	tests := []struct {
		name   string
		mutate func(ins, outs []ymlEntry) ([]ymlEntry, []ymlEntry)
	}{
		{"changed default", func(ins, outs []ymlEntry) ([]ymlEntry, []ymlEntry) {
			ins[withDefault].def += "x"
			return ins, outs
		}},
		{"dropped default", func(ins, outs []ymlEntry) ([]ymlEntry, []ymlEntry) {
			ins[withDefault].def, ins[withDefault].hasDefault = "", false
			return ins, outs
		}},
		{"added default", func(ins, outs []ymlEntry) ([]ymlEntry, []ymlEntry) {
			ins[required].hasDefault = true
			return ins, outs
		}},
		{"not required", func(ins, outs []ymlEntry) ([]ymlEntry, []ymlEntry) {
			ins[required].required = false
			return ins, outs
		}},
		{"empty input description", func(ins, outs []ymlEntry) ([]ymlEntry, []ymlEntry) {
			ins[0].description = ""
			return ins, outs
		}},
		{"empty output description", func(ins, outs []ymlEntry) ([]ymlEntry, []ymlEntry) {
			outs[len(outs)-1].description = ""
			return ins, outs
		}},
		{"renamed input", func(ins, outs []ymlEntry) ([]ymlEntry, []ymlEntry) {
			ins[0].name += "x"
			return ins, outs
		}},
		{"reordered inputs", func(ins, outs []ymlEntry) ([]ymlEntry, []ymlEntry) {
			ins[0], ins[1] = ins[1], ins[0]
			return ins, outs
		}},
		{"missing output", func(ins, outs []ymlEntry) ([]ymlEntry, []ymlEntry) {
			return ins, outs[1:]
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ins, outs, err := parseActionYML(string(data))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if len(actionYMLProblems(ins, outs)) != 0 {
				t.Skip("action.yml already differs from spec.go; see TestActionYMLMatchesSpec")
			}
			if p := actionYMLProblems(tt.mutate(ins, outs)); len(p) == 0 {
				t.Error("no problem reported")
			}
		})
	}
}

func TestParseActionYML(t *testing.T) {
	t.Parallel()
	src := `name: "x"   # comment
description: 'Does: things'
inputs:
  a:
    description: "A \"quoted\" one: with a colon."
    required: true

  b:
    description: 'It''s plain'
    default: "${{ github.token }}"  # trailing comment
  c:
    description: plain text
    required: false
    default: ""
outputs:
  o:
    description: "Out."
runs:
  using: "docker"
  image: "Dockerfile"
`
	ins, outs, err := parseActionYML(src)
	if err != nil {
		t.Fatal(err)
	}
	wantIns := []ymlEntry{
		{name: "a", description: `A "quoted" one: with a colon.`, required: true},
		{name: "b", description: "It's plain", def: "${{ github.token }}", hasDefault: true},
		{name: "c", description: "plain text", hasDefault: true},
	}
	wantOuts := []ymlEntry{{name: "o", description: "Out."}}
	if !slices.Equal(ins, wantIns) || !slices.Equal(outs, wantOuts) {
		t.Errorf("parseActionYML() = %+v, %+v; want %+v, %+v", ins, outs, wantIns, wantOuts)
	}
}

func TestParseActionYMLRejects(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"inputs:\n  a:\n    description: >\n      folded\n",
		"inputs:\n  a:\n    description: x: y\n",
		"inputs:\n  a:\n    defualt: x\n",
		"inputs:\n  a:\n    required: yes\n",
		"inputs:\n  a:\n    default: x\n    default: y\n",
		"inputs:\n  a:\n  a:\n",
		"inputs:\n\ta:\n",
		"inputs:\n    a: {}\n",
		"outputs:\n  a:\n    description: \"unterminated\n",
		"outputs:\n  a:\n    default: x\n",
	} {
		if _, _, err := parseActionYML(src); err == nil {
			t.Errorf("parseActionYML(%q) = nil error, want one", src)
		}
	}
}

// ymlEntry is one input or output as action.yml declares it.
type ymlEntry struct {
	name, description, def string
	hasDefault, required   bool
}

// actionYMLProblems compares action.yml's entries with Inputs and Outputs.
func actionYMLProblems(ins, outs []ymlEntry) []string {
	var problems []string
	entryNames := func(es []ymlEntry) []string {
		var n []string
		for _, e := range es {
			n = append(n, e.name)
		}
		return n
	}
	var wantIns, wantOuts []string
	for _, in := range Inputs {
		wantIns = append(wantIns, in.Name)
	}
	for _, out := range Outputs {
		wantOuts = append(wantOuts, out.Name)
	}
	if got := entryNames(ins); !slices.Equal(got, wantIns) {
		problems = append(problems, fmt.Sprintf("inputs are %q, want %q (spec.go order)", got, wantIns))
	}
	if got := entryNames(outs); !slices.Equal(got, wantOuts) {
		problems = append(problems, fmt.Sprintf("outputs are %q, want %q (spec.go order)", got, wantOuts))
	}

	for _, e := range ins {
		if e.description == "" {
			problems = append(problems, fmt.Sprintf("input %s has no description", e.name))
		}
		i := slices.IndexFunc(Inputs, func(in Input) bool { return in.Name == e.name })
		if i < 0 {
			continue
		}
		want := Inputs[i]
		switch {
		case want.Default == "" && e.hasDefault:
			problems = append(problems, fmt.Sprintf("input %s has default %q, want none", e.name, e.def))
		case want.Default != "" && e.def != want.Default:
			problems = append(problems, fmt.Sprintf("input %s has default %q, want %q", e.name, e.def, want.Default))
		}
		if e.required != want.Required {
			problems = append(problems, fmt.Sprintf("input %s has required %t, want %t", e.name, e.required, want.Required))
		}
	}
	for _, e := range outs {
		if e.description == "" {
			problems = append(problems, fmt.Sprintf("output %s has no description", e.name))
		}
	}
	return problems
}

// parseActionYML reads the inputs and outputs of an action.yml written in the
// plain shape this repository uses: two-space indents, one-line scalars. It
// rejects anything else rather than guess, so a test never passes on a file
// it did not understand.
func parseActionYML(src string) (ins, outs []ymlEntry, err error) {
	var (
		section string      // the current top-level key
		list    *[]ymlEntry // inputs or outputs, when section is one of them
		entry   *ymlEntry
		seen    map[string]bool // keys of the current entry
	)
	for n, line := range strings.Split(src, "\n") {
		fail := func(format string, args ...any) ([]ymlEntry, []ymlEntry, error) {
			return nil, nil, fmt.Errorf("line %d: %s", n+1, fmt.Sprintf(format, args...))
		}
		line = strings.TrimRight(line, " \r")
		body := strings.TrimLeft(line, " ")
		if body == "" || body[0] == '#' {
			continue
		}
		if strings.HasPrefix(body, "\t") {
			return fail("tab in indentation")
		}
		indent := len(line) - len(body)
		key, rest, ok := strings.Cut(body, ":")
		if !ok || (rest != "" && rest[0] != ' ') {
			return fail("want key: value, got %q", body)
		}

		switch {
		case indent == 0:
			section, list, entry = key, nil, nil
			switch key {
			case "inputs":
				list = &ins
			case "outputs":
				list = &outs
			}
		case list == nil:
			// Another top-level mapping (branding, runs): not checked here.
		case indent == 2:
			if strings.TrimSpace(rest) != "" {
				return fail("%s %s: want a mapping on the following lines", section, key)
			}
			if slices.ContainsFunc(*list, func(e ymlEntry) bool { return e.name == key }) {
				return fail("%s %s is declared twice", section, key)
			}
			*list = append(*list, ymlEntry{name: key})
			entry, seen = &(*list)[len(*list)-1], map[string]bool{}
		case indent == 4 && entry != nil:
			if seen[key] {
				return fail("%s %s: %s is set twice", section, entry.name, key)
			}
			seen[key] = true
			v, err := yamlscalar.Parse(rest)
			if err != nil {
				return fail("%s %s: %s: %v", section, entry.name, key, err)
			}
			switch {
			case key == "description":
				entry.description = v
			case key == "default" && section == "inputs":
				entry.def, entry.hasDefault = v, true
			case key == "required" && section == "inputs":
				if v != "true" && v != "false" {
					return fail("%s %s: required must be true or false, got %q", section, entry.name, v)
				}
				entry.required = v == "true"
			default:
				return fail("%s %s: unknown key %s", section, entry.name, key)
			}
		default:
			return fail("unexpected indentation %d under %s", indent, section)
		}
	}
	return ins, outs, nil
}
