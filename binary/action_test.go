// Package binary holds the tests of the composite action in this folder
// (action.yml and run.sh). It has no Go code of its own: the action is YAML
// and bash, and these tests keep it honest.
package binary

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/testbed/yamlscalar"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// tagLine is the line of action.yml that the release workflow rewrites with
// the release's tag. Both files must hold it exactly.
const tagLine = `        AGENT_JOB_ACTION_TAG: ""`

// TestCompositeMatchesRootAction keeps this composite action's inputs and
// outputs identical to the container action's, and its one step passing
// every input on as the runner passes it to a container.
func TestCompositeMatchesRootAction(t *testing.T) {
	t.Parallel()
	root, comp := readActions(t)
	for _, p := range compositeProblems(root, comp) {
		t.Error("binary/action.yml: " + p)
	}
}

// TestReleaseRewritesTagLine makes sure the line the release workflow looks
// for is in action.yml, so a release pins its tag (the workflow fails
// otherwise, but only at release time).
func TestReleaseRewritesTagLine(t *testing.T) {
	t.Parallel()
	action, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	release, err := os.ReadFile("../.github/workflows/release.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(strings.Split(string(action), "\n"), tagLine) {
		t.Errorf("binary/action.yml has no line %q", tagLine)
	}
	if !strings.Contains(string(release), "'"+tagLine+"'") {
		t.Errorf("release.yml does not rewrite the line %q", tagLine)
	}
}

// TestCompositeProblems makes sure the comparison notices each kind of
// drift, so that a passing TestCompositeMatchesRootAction means something.
func TestCompositeProblems(t *testing.T) {
	t.Parallel()
	root, comp := readActions(t)
	if p := compositeProblems(root, comp); len(p) != 0 {
		t.Fatalf("the files already differ (see TestCompositeMatchesRootAction): %q", p)
	}
	// set returns comp with the value at path replaced, or the entry removed
	// when remove is true.
	set := func(path, value string, remove bool) func([]kv) []kv {
		return func(c []kv) []kv {
			i := slices.IndexFunc(c, func(e kv) bool { return e.path == path })
			if i < 0 {
				t.Fatalf("no %s in binary/action.yml", path)
			}
			if remove {
				return slices.Delete(c, i, i+1)
			}
			c[i].value = value
			return c
		}
	}
	add := func(path, value string) func([]kv) []kv {
		return func(c []kv) []kv { return append(c, kv{path, value}) }
	}
	tests := []struct {
		name   string
		mutate func([]kv) []kv
	}{
		{"changed input description", set("inputs/prompt/description", "x", false)},
		{"changed default", set("inputs/timeout/default", "1h", false)},
		{"dropped default", set("inputs/wait/default", "", true)},
		{"not required", set("inputs/api-key/required", "", true)},
		{"extra input", add("inputs/extra/description", "x")},
		{"changed output description", set("outputs/status/description", "x", false)},
		{"output from the wrong step", set("outputs/pr-link/value", "${{ steps.other.outputs.pr-link }}", false)},
		{"output from another output", set("outputs/pr-link/value", "${{ steps.run.outputs.status }}", false)},
		{"missing output value", set("outputs/job/value", "", true)},
		{"input not passed on", set("runs/steps/0/env/INPUT_PROJECT-ID", "", true)},
		{"input passed under another name", set("runs/steps/0/env/INPUT_PROJECT-ID", "${{ inputs.job-id }}", false)},
		{"extra env", add("runs/steps/0/env/INPUT_EXTRA", "x")},
		{"tag pinned on a branch", set("runs/steps/0/env/AGENT_JOB_ACTION_TAG", "v1.0.0", false)},
		{"not composite", set("runs/using", "node20", false)},
		{"step renamed", set("runs/steps/0/id", "main", false)},
		{"another shell", set("runs/steps/0/shell", "pwsh", false)},
		{"second step", add("runs/steps/1/run", "echo")},
		{"runs another script", set("runs/steps/0/run", "bash run.sh", false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root, comp := readActions(t)
			if p := compositeProblems(root, tt.mutate(comp)); len(p) == 0 {
				t.Error("no problem reported")
			}
		})
	}
}

func TestFlatten(t *testing.T) {
	t.Parallel()
	src := `# comment
name: "x"   # trailing
inputs:
  a-b:
    description: 'It''s: plain'
    default: "${{ github.token }}"

runs:
  using: composite
  steps:
    - id: one
      env:
        INPUT_A-B: "${{ inputs.a-b }}"
      run: |
        echo one
          indented # not a comment

        done
    - run: exec x
`
	got, err := flatten(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []kv{
		{"name", "x"},
		{"inputs/a-b/description", "It's: plain"},
		{"inputs/a-b/default", "${{ github.token }}"},
		{"runs/using", "composite"},
		{"runs/steps/0/id", "one"},
		{"runs/steps/0/env/INPUT_A-B", "${{ inputs.a-b }}"},
		{"runs/steps/0/run", "echo one\n  indented # not a comment\n\ndone\n"},
		{"runs/steps/1/run", "exec x"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("flatten() =\n%q\nwant\n%q", got, want)
	}
}

func TestFlattenRejects(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"a:\n\tb: x\n",
		"a:\n   b: x\n",
		"a: x\na: y\n",
		"a:\n  b: x: y\n",
		"a: \"unterminated\n",
		"a: 'unterminated\n",
		"a: [x]\n",
		"a: {x: y}\n",
		"a: >\n  folded\n",
		"a: &anchor x\n",
		"a\n",
		"- x\n",
	} {
		if got, err := flatten(src); err == nil {
			t.Errorf("flatten(%q) = %q, nil error; want an error", src, got)
		}
	}
}

// kv is one scalar of a YAML file and where it is: keys joined by /, with
// sequence items numbered from 0.
type kv struct{ path, value string }

func readActions(t *testing.T) (root, comp []kv) {
	t.Helper()
	for _, f := range []struct {
		name string
		dst  *[]kv
	}{{"../action.yml", &root}, {"action.yml", &comp}} {
		data, err := os.ReadFile(f.name)
		if err != nil {
			t.Fatal(err)
		}
		if *f.dst, err = flatten(string(data)); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
	}
	return root, comp
}

// compositeProblems lists how comp, the composite action, differs from what
// root, the container action, makes it be.
func compositeProblems(root, comp []kv) []string {
	under := func(entries []kv, prefix string) []kv {
		var out []kv
		for _, e := range entries {
			if strings.HasPrefix(e.path, prefix) {
				out = append(out, e)
			}
		}
		return out
	}
	var problems []string
	check := func(what string, got, want []kv) {
		if !slices.Equal(got, want) {
			problems = append(problems, fmt.Sprintf("%s are\n\t%q\nwant\n\t%q", what, got, want))
		}
	}

	check("inputs", under(comp, "inputs/"), under(root, "inputs/"))

	var inputNames []string
	for _, e := range under(root, "inputs/") {
		name := strings.Split(e.path, "/")[1]
		if !slices.Contains(inputNames, name) {
			inputNames = append(inputNames, name)
		}
	}
	var wantOutputs []kv
	for _, e := range under(root, "outputs/") {
		wantOutputs = append(wantOutputs, e)
		if name, ok := strings.CutSuffix(strings.TrimPrefix(e.path, "outputs/"), "/description"); ok {
			wantOutputs = append(wantOutputs, kv{"outputs/" + name + "/value", "${{ steps.run.outputs." + name + " }}"})
		}
	}
	check("outputs", under(comp, "outputs/"), wantOutputs)

	step := "runs/steps/0/"
	wantRuns := []kv{
		{"runs/using", "composite"},
		{step + "id", "run"},
		{step + "shell", "bash"},
		{step + "working-directory", "${{ github.workspace }}"},
		{step + "env/AGENT_JOB_ACTION_TAG", ""},
	}
	for _, name := range inputNames {
		wantRuns = append(wantRuns, kv{step + "env/INPUT_" + strings.ToUpper(name), "${{ inputs." + name + " }}"})
	}
	wantRuns = append(wantRuns, kv{step + "run", `exec bash "$GITHUB_ACTION_PATH/run.sh"`})
	check("runs", under(comp, "runs/"), wantRuns)
	return problems
}

// flatten reads the YAML this repository writes in action files: mappings
// indented by two spaces, sequences of mappings, one-line scalars (plain,
// 'single' or "double" quoted) and | blocks. It rejects anything else rather
// than guess, so that a test never passes on a file it did not understand.
func flatten(src string) ([]kv, error) {
	type frame struct {
		indent int
		path   string
	}
	var (
		out   []kv
		stack []frame
		items = map[string]int{} // sequence items seen under each path
		seen  = map[string]bool{}
	)
	lines := strings.Split(src, "\n")
	for n := 0; n < len(lines); n++ {
		fail := func(format string, args ...any) ([]kv, error) {
			return nil, fmt.Errorf("line %d: %s", n+1, fmt.Sprintf(format, args...))
		}
		line := strings.TrimRight(lines[n], " \r")
		body := strings.TrimLeft(line, " ")
		if body == "" || body[0] == '#' {
			continue
		}
		if body[0] == '\t' {
			return fail("tab in indentation")
		}
		indent := len(line) - len(body)
		if indent%2 != 0 {
			return fail("indentation %d is not a multiple of two", indent)
		}
		pop := func(indent int) string {
			for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
				stack = stack[:len(stack)-1]
			}
			if len(stack) == 0 {
				return ""
			}
			return stack[len(stack)-1].path + "/"
		}
		if item, ok := strings.CutPrefix(body, "- "); ok {
			parent := pop(indent)
			if parent == "" {
				return fail("a sequence at the top level")
			}
			path := parent + strconv.Itoa(items[parent])
			items[parent]++
			stack = append(stack, frame{indent, path})
			indent, body = indent+2, item
		}
		key, rest, ok := strings.Cut(body, ":")
		if !ok || (rest != "" && rest[0] != ' ') || strings.ContainsAny(key, `"'{}[]&*!|>#`) {
			return fail("want key: value, got %q", body)
		}
		path := pop(indent) + key
		if seen[path] {
			return fail("%s is set twice", path)
		}
		seen[path] = true
		rest = strings.TrimSpace(rest)
		switch {
		case rest == "":
			stack = append(stack, frame{indent, path})
		case rest == "|":
			var block strings.Builder
			blockIndent := -1
			for n+1 < len(lines) {
				next := strings.TrimRight(lines[n+1], " \r")
				nextBody := strings.TrimLeft(next, " ")
				nextIndent := len(next) - len(nextBody)
				if nextBody != "" && nextIndent <= indent {
					break
				}
				n++
				if nextBody == "" {
					block.WriteString("\n")
					continue
				}
				if blockIndent < 0 {
					blockIndent = nextIndent
				}
				if nextIndent < blockIndent {
					return fail("block line less indented than the first")
				}
				block.WriteString(next[blockIndent:] + "\n")
			}
			out = append(out, kv{path, strings.TrimRight(block.String(), "\n") + "\n"})
		default:
			v, err := yamlscalar.Parse(rest)
			if err != nil {
				return fail("%s: %v", path, err)
			}
			out = append(out, kv{path, v})
		}
	}
	return out, nil
}
