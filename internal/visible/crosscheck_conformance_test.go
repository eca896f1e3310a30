//go:build conformance

package visible

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// CrosscheckEnv names .ci/conformance/crosscheck.mjs, which decides with
// a second CommonMark implementation, commonmark.js (0.31.2), its HTML
// parsed by parse5, whether the phrase acts; .ci/run fetches both, beside
// the script, at pinned versions and checksums. A conformance run without
// it fails; it never skips.
const CrosscheckEnv = "COMMONMARK_CROSSCHECK"

// crosscheckBodies is how many random bodies of the general family are
// generated; about one in four has none of the extensions commonmark.js
// lacks and is compared (127,340 of 500,000). As many of the
// comment-marker family, which has none, are compared too.
const crosscheckBodies = 500000

// crosscheckMarkerBodies is how many bodies of the comment-marker family
// (randomMarkerBody) are compared, besides those left out.
const crosscheckMarkerBodies = 100000

var (
	// githubOnly finds what GitHub renders with an extension CommonMark
	// does not have, so commonmark.js renders it otherwise by design:
	// tables (|), strikethrough (~~), footnotes ([^) and autolinks of a
	// bare address (www., https://). A body with one is not compared.
	githubOnly = regexp.MustCompile(`\||~~|\[\^|www\.|https://`)
	// lowercaseDeclaration is "<!" and a small letter: a declaration
	// for CommonMark 0.31 (commonmark.js), text for goldmark and for
	// cmark-gfm (0.29, which GitHub renders with), as "<!" needs a capital
	// letter there. A body with one is not compared.
	lowercaseDeclaration = regexp.MustCompile(`<![a-z]`)
	// containerLine is a line that opens a block quote or a list item.
	containerLine = regexp.MustCompile(`^ {0,3}(?:>|[-*+][ \t]|[0-9]{1,9}[.)][ \t])`)
	// destination is an address where CommonMark takes it as one too: in
	// a link's destination or a link reference definition.
	destination = regexp.MustCompile(`\]\(https://[^\s()]*\)|\[ref\]: https://\S*`)
)

// lazyTag reports whether a line that is only a tag may follow a paragraph
// of a block quote or list item that it does not continue ("> a" then
// "</span>"): goldmark starts an HTML block there, as cmark-gfm does (see
// closingTagBlock); commonmark.js, as the spec, continues the paragraph.
// Such a body is not compared.
func lazyTag(body string) bool {
	container := false
	for line := range strings.Lines(body) {
		switch trimmed := strings.TrimRight(line, "\r\n"); {
		case strings.TrimSpace(trimmed) == "":
			container = false
		case containerLine.MatchString(trimmed):
			container = true
		case container && (htmlTagLine().MatchString(strings.TrimLeft(trimmed, " \t")) || closingTagLine().MatchString(strings.TrimLeft(trimmed, " \t"))):
			// Indented too: a list item may take part of the indent.
			return true
		}
	}
	return false
}

// TestCrosscheckCommonmarkJS holds the decision to a page another
// implementation builds: random bodies without GitHub's extensions,
// seeded so that a failure repeats, rendered by commonmark.js and read by
// crosscheck.mjs as Read reads goldmark's page. For bodies of the
// comment-marker family it holds Shown to that page too: a word the page
// has only in comments is not sent, one it shows is. Any disagreement
// fails, with the body.
func TestCrosscheckCommonmarkJS(t *testing.T) {
	t.Parallel()
	script := os.Getenv(CrosscheckEnv)
	if script == "" {
		t.Fatalf("%s is not set: conformance tests need .ci/conformance/crosscheck.mjs with commonmark and parse5 installed beside it (run .ci/run, or see CONTRIBUTING.md)", CrosscheckEnv)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node, which runs %s: %v", script, err)
	}

	type record struct {
		I     int    `json:"i"`
		Body  string `json:"body"`
		Acts  bool   `json:"acts"`
		Shown string `json:"shown,omitempty"`
		Words int    `json:"words,omitempty"` // numbered words of the marker family
	}
	r := rand.New(rand.NewPCG(18, 31))
	markers := rand.New(rand.NewPCG(18, 32))
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	bodies := map[int]string{}
	var acts, general, marked, declarations int
	for i := 0; i < crosscheckBodies || marked < crosscheckMarkerBodies; i++ {
		var body string
		var words int
		if i < crosscheckBodies {
			body = randomBody(r)
		} else {
			body, words = randomMarkerBody(markers)
		}
		switch {
		case i < crosscheckBodies && githubOnly.MatchString(destination.ReplaceAllString(body, "")):
			continue // the marker family has none; its "~~~" is a fence
		case lowercaseDeclaration.MatchString(body), lazyTag(body):
			declarations++
			continue
		case i < crosscheckBodies:
			general++
		default:
			marked++
		}
		read, err := Read(body)
		if err != nil {
			t.Fatalf("body %d %q: %v", i, body, err)
		}
		_, _, ok := read.Find(phrase)
		if ok {
			acts++
		}
		bodies[i] = body
		rec := record{I: i, Body: body, Acts: ok}
		if words > 0 {
			rec.Shown, rec.Words = read.Shown, words
		}
		if err := enc.Encode(rec); err != nil {
			t.Fatal(err)
		}
	}

	cmd := exec.CommandContext(t.Context(), node, script, phrase)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.Bytes())
	}

	var summary struct {
		Bodies, Both, Neither, GoOnly, CommonmarkOnly, ShownWrong int
	}
	var disagree int
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var d struct {
			record
			Other   bool            `json:"other"`
			Text    string          `json:"text"`
			Wrong   string          `json:"wrong"`
			Summary json.RawMessage `json:"summary"`
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("%s wrote %q: %v", script, sc.Bytes(), err)
		}
		if d.Summary != nil {
			if err := json.Unmarshal(d.Summary, &summary); err != nil {
				t.Fatal(err)
			}
			continue
		}
		disagree++
		if disagree <= 10 {
			t.Errorf("body %d %q: acts %v, commonmark.js page %v; %s\ncommonmark.js text: %q\nShown: %q", d.I, bodies[d.I], d.Acts, d.Other, d.Wrong, d.Text, d.Shown)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if summary.Bodies != len(bodies) {
		t.Fatalf("%s read %d bodies of %d (no summary?)", script, summary.Bodies, len(bodies))
	}
	t.Logf("%d bodies of the general family, %d without GitHub's extensions, and %d of the comment-marker family; %d bodies with a lowercase declaration or a tag line after a quote or list left out; %d act here; commonmark.js agrees on %d acting and %d not; %d act only here, %d only with commonmark.js; %d send a word its page hides or lose one it shows",
		crosscheckBodies, general, crosscheckMarkerBodies, declarations, acts, summary.Both, summary.Neither, summary.GoOnly, summary.CommonmarkOnly, summary.ShownWrong)
	if disagree > 0 {
		t.Errorf("%d of %d bodies: %d act on what commonmark.js's page hides, %d miss what it shows, %d send a word it hides or lose one it shows", disagree, len(bodies), summary.GoOnly, summary.CommonmarkOnly, summary.ShownWrong)
	}
}
