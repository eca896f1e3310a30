package redact

import (
	"html"
	"strings"
	"testing"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// TestNormaliseSpans: each byte of the normalised text comes from the span
// of the original that decodes to it, multi-byte characters included.
func TestNormaliseSpans(t *testing.T) {
	t.Parallel()
	in := "ü%41\\u00e9&lt;\u2060😀\\x25\\x34\\x31"
	all := levels(in)
	lv := all[len(all)-1]
	out := lv.text
	if want := "üAé<😀A"; string(out) != want {
		t.Fatalf("normalise(%q) = %q, want %q", in, out, want)
	}
	wantSpans := [][2]int{{0, 1}, {1, 2}, {2, 5}, {5, 11}, {5, 11}, {11, 15}, {18, 19}, {19, 20}, {20, 21}, {21, 22}, {22, 34}}
	for i := range out {
		if got := [2]int{lv.from(i), lv.to(i)}; got != wantSpans[i] {
			t.Errorf("byte %d of %q comes from %v, want %v", i, out, got, wantSpans[i])
		}
	}
}

// TestReferenceMatchesHTML holds the redactor's own reading of character
// references to the html package's, which it stands in for.
func TestReferenceMatchesHTML(t *testing.T) {
	t.Parallel()
	for _, ref := range []string{"&#58;", "&#8288;", "&#x3A;", "&#X3a;", "&#0;", "&#128;", "&#159;", "&#160;", "&#xD800;", "&#x110000;",
		"&#99999999;", "&#;", "&#x;", "&;", "&a;", "&#1;", "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#00058;", "&#-1;", "&#+5;"} {
		want := html.UnescapeString(ref)
		r, ok := reference([]byte(ref))
		switch {
		case ok && string(r) != want:
			t.Errorf("reference(%q) = %q, html reads %q", ref, string(r), want)
		case !ok && want != ref && !strings.HasPrefix(ref, "&#") && ref != "&#0;":
			t.Errorf("reference(%q) declined a reference html reads as %q", ref, want)
		}
	}
}
