//go:build conformance

package visible

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	xhtml "golang.org/x/net/html"
)

// CmarkGFMEnv names the cmark-gfm program, GitHub's renderer (0.29.0.gfm.6,
// as Debian's package cmark-gfm installs it, which .ci/run installs when it
// can). A conformance run without it fails; it never skips.
const CmarkGFMEnv = "CMARK_GFM"

// CmarkGFMBodiesEnv sets how many random bodies of each family
// TestCrosscheckCmarkGFM renders with cmark-gfm, one process each: 10,000
// by default (the figures in SECURITY.md are for 100,000).
const CmarkGFMBodiesEnv = "CMARK_GFM_BODIES"

// cmarkGFMArgs render as GitHub does: raw HTML kept, with GitHub's
// extensions but for the tag filter, which goldmark lacks (GitHub also
// sanitizes the page; neither is held here).
var cmarkGFMArgs = []string{"--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist", "-e", "footnotes"}

// TestCrosscheckCmarkGFM holds the decision and Shown to the page GitHub's
// renderer builds, on random bodies of the comment-marker family (none of
// GitHub's extensions): the phrase acts as that page shows it, and a word
// it has only in comments is not sent, one it shows is. Any disagreement
// fails, with the body. Bodies of the general family (randomBody, with
// GitHub's extensions) are compared too, and their disagreements, which
// are goldmark's and cmark-gfm's own differences in the extensions,
// logged.
func TestCrosscheckCmarkGFM(t *testing.T) {
	t.Parallel()
	bin := os.Getenv(CmarkGFMEnv)
	if bin == "" {
		t.Fatalf("%s is not set: conformance tests need cmark-gfm, GitHub's renderer (apt-get install cmark-gfm; run .ci/run, or see CONTRIBUTING.md)", CmarkGFMEnv)
	}
	n := 10000
	if v, err := strconv.Atoi(os.Getenv(CmarkGFMBodiesEnv)); err == nil && v > 0 {
		n = v
	}
	markers := rand.New(rand.NewPCG(24, 100))
	general := rand.New(rand.NewPCG(24, 200))
	// The families: the comment-marker family's bodies that both versions
	// of CommonMark read alike (n of them, held to cmark-gfm), those they
	// read otherwise (counted), and n bodies of the general family
	// (counted: their differences are goldmark's and cmark-gfm's in
	// GitHub's extensions).
	const (
		alike = iota
		unlike
		withExtensions
	)
	type body struct {
		text          string
		words, family int
	}
	var bodies []body
	for compared := 0; compared < n; {
		text, words := randomMarkerBody(markers)
		family := alike
		if commonMark029(text) {
			family = unlike
		} else {
			compared++
		}
		bodies = append(bodies, body{text, words, family})
	}
	for range n {
		bodies = append(bodies, body{randomBody(general), 0, withExtensions})
	}

	type verdict struct {
		acts, page bool
		wrong      string
	}
	verdicts := make([]verdict, len(bodies))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var failed sync.Once
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range jobs {
				b := bodies[i]
				read, err := Read(b.text)
				if err != nil {
					failed.Do(func() { t.Errorf("body %d %q: %v", i, b.text, err) })
					continue
				}
				html, err := cmarkGFM(t.Context(), bin, b.text)
				if err != nil {
					failed.Do(func() { t.Errorf("%s: %v", bin, err) })
					continue
				}
				doc, err := xhtml.Parse(bytes.NewReader(html))
				if err != nil {
					failed.Do(func() { t.Errorf("body %d %q: the page of cmark-gfm: %v", i, b.text, err) })
					continue
				}
				_, _, acts := read.Find(phrase)
				verdicts[i] = verdict{acts, actsInRendered(pageText(doc), phrase), shownWords(read.Shown, doc, b.words)}
			}
		})
	}
	for i := range bodies {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	var count, hiddenActs, missed, wrong [3]int
	plain := 0 // disagreements of the general family without GitHub's extensions
	for i, v := range verdicts {
		f := bodies[i].family
		count[f]++
		switch {
		case v.acts && !v.page:
			hiddenActs[f]++
		case !v.acts && v.page:
			missed[f]++
		}
		if f == withExtensions && v.acts != v.page && !githubOnly.MatchString(destination.ReplaceAllString(bodies[i].text, "")) {
			plain++
			t.Logf("general family, without GitHub's extensions: body %d %q: acts %v, cmark-gfm's page %v", i, bodies[i].text, v.acts, v.page)
		}
		if v.wrong != "" {
			wrong[f]++
		}
		if f == alike && (v.acts != v.page || v.wrong != "") && hiddenActs[f]+missed[f]+wrong[f] <= 10 {
			t.Errorf("body %d %q: acts %v, cmark-gfm's page %v; %s\nShown: %q", i, bodies[i].text, v.acts, v.page, v.wrong, shownOf(bodies[i].text))
		}
	}
	for f, family := range []string{"comment-marker family, read alike by CommonMark 0.29 and 0.31", "comment-marker family, read otherwise by 0.29 or with an escaped quote", "general family"} {
		t.Logf("%s: %d bodies; %d act where cmark-gfm's page shows no request, %d miss one it shows; %d send a word it hides or lose one it shows",
			family, count[f], hiddenActs[f], missed[f], wrong[f])
	}
	t.Logf("general family: %d of the disagreements in bodies without GitHub's extensions", plain)
	if n := hiddenActs[alike] + missed[alike] + wrong[alike]; n > 0 {
		t.Errorf("%d of %d bodies of the comment-marker family disagree with cmark-gfm", n, count[alike])
	}
}

// commonMark029 reports whether body holds raw HTML that CommonMark 0.29,
// which cmark-gfm 0.29.0.gfm.6 follows, reads otherwise than 0.31, which
// goldmark and commonmark.js follow: an inline comment "<!-->" or
// "<!--->", or one whose text holds "--" or ends with "-" (0.31 reads them
// as HTML does, 0.29 as text); a declaration whose name is not followed by
// a space ("<!X>", "<!X<q>": 0.31 reads a declaration, 0.29 text). It
// also reports a backslash before a quote (escapedQuote), where cmark-gfm
// 0.29.0.gfm.6 departs from CommonMark. Such a body is not compared.
func commonMark029(body string) bool {
	for i := strings.Index(body, "<!--"); i >= 0; {
		rest := body[i+4:]
		if strings.HasPrefix(rest, ">") || strings.HasPrefix(rest, "->") {
			return true
		}
		if end := strings.Index(rest, "-->"); end >= 0 && (strings.Contains(rest[:end], "--") || strings.HasSuffix(rest[:end], "-")) {
			return true
		}
		j := strings.Index(rest, "<!--")
		if j < 0 {
			break
		}
		i += 4 + j
	}
	return declarationName.MatchString(body) || escapedQuote.MatchString(body)
}

// escapedQuote is a backslash before a quote: cmark-gfm 0.29.0.gfm.6 may
// end a link title there ("[a](x 'q \')" has the title "q \"), which
// CommonMark reads as an escaped quote.
var escapedQuote = regexp.MustCompile(`\\["']`)

// declarationName is a declaration's name followed by what 0.29 does not
// allow after it.
var declarationName = regexp.MustCompile(`<![A-Z]+[^A-Z \t\r\n]`)

// shownOf is Read's Shown of body, for a message.
func shownOf(body string) string {
	read, err := Read(body)
	if err != nil {
		return err.Error()
	}
	return read.Shown
}

// cmarkGFM renders body with cmark-gfm.
func cmarkGFM(ctx context.Context, bin, body string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, cmarkGFMArgs...)
	cmd.Stdin = bytes.NewReader([]byte(body))
	return cmd.Output()
}
