package visible

import (
	"errors"
	"strings"
	"testing"
)

// maxBody is the longest body GitHub accepts, in characters.
const maxBody = 65536

// adversarial are shapes of body that made goldmark or the HTML parser
// work superlinearly or nest past x/net/html's limit, each repeated to
// GitHub's longest body, and whether Read refuses them or decides. A shape
// that Read decides is decided as the page shows it (nothing to act on in
// these). How long each takes is BenchmarkAdversarial's.
var adversarial = []struct {
	name    string
	body    string
	refused bool
}{
	{"unclosed link destinations", repeat("[a](", ""), true},
	{"unclosed angle destinations", repeat("[a](<", ""), true},
	{"nested quotes", repeat(">", " x"), true},
	{"nested quotes with spaces", repeat("> ", "x"), true},
	{"nested lists", repeat("- ", "x"), true},
	{"nested ordered lists", repeat("1. ", "x"), true},
	{"lists nested by indentation", indented(), false},
	{"nested divs", repeat("<div>", ""), true},
	{"nested q", repeat("<q>", ""), true},
	{"32 nested lists, then text", strings.Repeat("- ", 32) + "/docs go\n" + repeat("x", "", 73), false},
	{"links", repeat("[a](b) ", ""), false},
	{"link labels", repeat("[", ""), false},
	{"images", repeat("![", ""), false},
	{"parentheses", repeat("(", ""), false},
	{"emphasis", repeat("*a", ""), false},
	{"strong emphasis", repeat("**a", ""), false},
	{"mixed emphasis", repeat("*_", ""), false},
	{"strikethrough", repeat("~~a", ""), false},
	{"code span runs", repeat("`a``", ""), false},
	{"open tags", repeat("<a ", ""), false},
	{"less-than signs", repeat("<", ""), false},
	{"ampersands", repeat("&", ""), false},
	{"numeric references", repeat("&#", ""), false},
	{"backslashes", repeat("\\", ""), false},
	{"pipes", repeat("|", ""), false},
	{"table", "| a | b |\n|---|---|\n" + repeat("| x | y |\n", "", 20), false},
	{"reference links", repeat("[a][", ""), false},
	{"footnote references", repeat("[^", ""), false},
	{"link titles", repeat("[a](b \"", ""), false},
	{"links in links", repeat("[[a](b)", ""), false},
	{"declarations", repeat("<!", ""), false},
	{"comment openers", repeat("<!--", ""), false},
	{"comments", repeat("<!-- a -->", ""), false},
	{"processing instructions", repeat("<?", ""), false},
	{"empty processing instructions", repeat("<?>", ""), false},
	{"empty processing instructions on lines", repeat("<?>\n", ""), false},
	{"bare addresses", repeat("www.a ", ""), false},
	{"headings", repeat("# a\n", ""), false},
	{"unclosed html blocks", repeat("<div>\n\n", ""), true},
	{"lines", repeat("a\n", ""), false},
}

// repeat fills GitHub's longest body, less what goes before it (before),
// with unit, then ends it with end.
func repeat(unit, end string, before ...int) string {
	n := (maxBody - len(end)) / len(unit)
	if len(before) > 0 {
		n = (maxBody - before[0] - len(end)) / len(unit)
	}
	return strings.Repeat(unit, n) + end
}

// indented is a list item on each line, each one level deeper.
func indented() string {
	var b strings.Builder
	for i := 0; ; i++ {
		line := strings.Repeat(" ", 2*i) + "- x\n"
		if b.Len()+len(line) > maxBody {
			return b.String()
		}
		b.WriteString(line)
	}
}

// TestAdversarial holds Read to its bound: each shape is refused with
// ErrTooComplex or decided, never misread.
func TestAdversarial(t *testing.T) {
	t.Parallel()
	for _, tc := range adversarial {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if len(tc.body) > maxBody {
				t.Fatalf("%d bytes, more than GitHub's %d", len(tc.body), maxBody)
			}
			read, err := Read(tc.body)
			if tc.refused {
				if !errors.Is(err, ErrTooComplex) {
					t.Fatalf("Read: %v, want ErrTooComplex", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			_, _, acts := read.Find(phrase)
			if want := strings.Contains(tc.body, phrase); acts != want {
				t.Errorf("acts %v, want %v", acts, want)
			}
		})
	}
}

// TestBounded holds the limits at their edges.
func TestBounded(t *testing.T) {
	t.Parallel()
	cases := []struct {
		body    string
		refused bool
	}{
		{strings.Repeat("> ", 32) + "x", false},
		{strings.Repeat("> ", 33) + "x", true},
		{strings.Repeat(">", 33) + "x", true},
		{"text\n" + strings.Repeat(" - ", 33) + "x\nmore", true},
		{strings.Repeat("1) ", 33) + "x", true},
		{strings.Repeat("1234567890. ", 33) + "x", false}, // ten digits are no list marker
		{strings.Repeat("-", 100) + " x", false},
		{strings.Repeat("[a](b)", 10000), false},
		{strings.Repeat("[a](", 2000), true},
		{strings.Repeat("[a](", 1000), false},
		{strings.Repeat("[a](", 1000) + "\n" + strings.Repeat("[a](", 1000), false},
		{strings.Repeat("[a](x\\)", 2000), true},
		{strings.Repeat("[a](((", 1500), true},
		{strings.Repeat("[a](<", 2000), true},
		{strings.Repeat("[a](< ", 2000), true},
		{strings.Repeat("[a](b c", 5000), false},
		{strings.Repeat("<div>", 510), false},
		{strings.Repeat("<div>", 520), true},
	}
	for _, tc := range cases {
		_, err := Read(tc.body)
		if got := errors.Is(err, ErrTooComplex); got != tc.refused || err != nil && !got {
			t.Errorf("Read(%.40q… %d bytes): %v, want refused %v", tc.body, len(tc.body), err, tc.refused)
		}
	}
}

// BenchmarkAdversarial measures Read on each shape (go test -bench
// Adversarial ./internal/visible/).
func BenchmarkAdversarial(b *testing.B) {
	for _, tc := range adversarial {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				_, _ = Read(tc.body)
			}
		})
	}
}

// BenchmarkTypical measures Read on a typical comment of 200 characters.
func BenchmarkTypical(b *testing.B) {
	body := "/docs Please document the new `--timeout` flag in the CLI reference, with an example.\n\n" +
		"> The old page says 30 s.\n\nSee [the issue](https://github.com/acme/docs/issues/12) for details."
	for b.Loop() {
		_, _ = Read(body)
	}
}

// BenchmarkLargest measures Read on a body of GitHub's largest size,
// prose with some Markdown, the kind a batch of maintainers' requests
// holds (go test -bench Largest -benchmem ./internal/visible/).
func BenchmarkLargest(b *testing.B) {
	line := "/docs Document the *new* `--timeout` flag, see [the issue](https://github.com/acme/docs/issues/12).\n"
	body := strings.Repeat(line, 65536/len(line))
	for b.Loop() {
		_, _ = Read(body)
	}
}
