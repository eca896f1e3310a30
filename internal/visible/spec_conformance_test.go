//go:build conformance

package visible

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// SpecEnv names spec.txt of the commonmark-spec npm package (0.31.2), the
// CommonMark spec with its examples, which .ci/run fetches at a pinned
// version and checksum. A conformance run without it fails.
const SpecEnv = "COMMONMARK_SPEC_TXT"

// example is how spec.txt writes an example: its Markdown, a line with a
// dot, its HTML. A tab is written as "→".
var example = regexp.MustCompile("(?ms)^`{32} example\n(.*?)^\\.\n(.*?)^`{32}$")

// TestSpecExamples places the phrase in every example of the CommonMark
// spec (before it, after it, and at the start and end of each of its
// lines) and holds the decision to the rendered page.
func TestSpecExamples(t *testing.T) {
	t.Parallel()
	path := os.Getenv(SpecEnv)
	if path == "" {
		t.Fatalf("%s is not set: conformance tests need the CommonMark spec from commonmark-spec (run .ci/run, or see CONTRIBUTING.md)", SpecEnv)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	examples := example.FindAllStringSubmatch(strings.ReplaceAll(string(data), "\r\n", "\n"), -1)
	if len(examples) < 600 {
		t.Fatalf("%d examples in %s, want the spec's 650 or so", len(examples), path)
	}
	var bodies, disagree int
	for i, ex := range examples {
		md := strings.ReplaceAll(ex[1], "→", "\t")
		var placed []string
		placed = append(placed, phrase+" "+md, md+phrase+" go\n", md+"\n"+phrase+" go\n")
		lines := strings.Split(md, "\n")
		for j := range lines {
			with := append([]string(nil), lines...)
			with[j] = phrase + " " + with[j]
			placed = append(placed, strings.Join(with, "\n"))
			with[j] = lines[j] + " " + phrase
			placed = append(placed, strings.Join(with, "\n"))
		}
		for _, body := range placed {
			bodies++
			if fast, oracle := agree(t, body); fast != oracle {
				disagree++
				if disagree <= 10 {
					t.Errorf("example %d %q: fast path acts %v, rendered page %v\nrendered: %q", i+1, body, fast, oracle, rendered(t, body))
				}
			}
		}
	}
	t.Logf("%d examples, %d bodies, %d disagree", len(examples), bodies, disagree)
}
