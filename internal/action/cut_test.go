package action_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/testbed/escapetest"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
)

// keyForms are the ways an API's error text may spell a key: as it is,
// percent-encoded, as HTML references, as \u escapes, or with an invisible
// character between its letters.
var keyForms = map[string]func(string) string{
	"plain": func(k string) string { return k },
	"percent": func(k string) string {
		var b strings.Builder
		for i := range len(k) {
			fmt.Fprintf(&b, "%%%02X", k[i])
		}
		return b.String()
	},
	"html": func(k string) string {
		var b strings.Builder
		for _, r := range k {
			fmt.Fprintf(&b, "&#%d;", r)
		}
		return b.String()
	},
	"unicode escapes": func(k string) string {
		var b strings.Builder
		for _, r := range k {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		return b.String()
	},
	"invisible": func(k string) string { return strings.Join(strings.Split(k, ""), "\u2063") },
}

var (
	escapeSeq   = regexp.MustCompile(`\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}|%[0-9a-fA-F]{2}`)
	escapedMark = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~])`)
)

// decoded undoes, until nothing changes, every escape that the log, the
// outputs, Markdown or the API could wrap a key in, and drops invisible
// characters: what is left is what a reader or a decoder gets back.
func decoded(s string) string {
	for range 5 {
		prev := s
		s = escapeSeq.ReplaceAllStringFunc(s, func(m string) string {
			v, _ := strconv.ParseUint(strings.TrimLeft(m, `\ux%`), 16, 32)
			return string(rune(v))
		})
		s = escapedMark.ReplaceAllString(s, "$1")
		s = escapetest.Seen(html.UnescapeString(s))
		if s == prev {
			break
		}
	}
	return s
}

// assertNoPiece fails when any 8 characters of key in a row are in text,
// as written or decoded.
func assertNoPiece(t *testing.T, key, where, text string) {
	t.Helper()
	plain := decoded(text)
	for i := 0; i+8 <= len(key); i++ {
		if piece := key[i : i+8]; strings.Contains(text, piece) || strings.Contains(plain, piece) {
			t.Errorf("%q, 8 characters of the key, reaches the %s:\n%s", piece, where, text)
			return
		}
	}
}

// TestNoPartOfAKeySurvivesACut: an API error that
// quotes the key, in any form, at any place around the 1 KiB the service's
// reason is cut to, leaves no 8 characters of it in the log, the outputs,
// the summary or the comment: the text is redacted before it is cut.
// Each run's cost is asserted (harness.meter): it runs alone.
func TestNoPartOfAKeySurvivesACut(t *testing.T) {
	keys := []string{"mint_a1b", "mint_q7w9e2r4t6y8u1i3o5p0", "mint_" + strings.Repeat("z8x6c4v2", 7) + "n1m3"}
	offsets := []int{0, 900, 950, 990, 1000, 1010, 1017, 1020, 1023, 1030, 1100}
	for _, key := range keys {
		for form, spell := range keyForms {
			for _, at := range offsets {
				t.Run(fmt.Sprintf("%d/%s/%d", len(key), form, at), func(t *testing.T) {
					msg := strings.Repeat("x", at) + spell(key) + " is not this project's key" + strings.Repeat(".", 200)
					srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(http.StatusBadRequest)
						b, _ := json.Marshal(map[string]string{"error": msg})
						_, _ = w.Write(b)
					}))
					t.Cleanup(srv.Close)
					h := newHarness(t, fakeapi.Scenario{})
					h.meter()
					gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs add a FAQ"))
					h.vars["INPUT_API-KEY"] = key
					h.vars["INPUT_BASE-URL"] = srv.URL
					if err := h.run(context.Background()); err == nil {
						t.Fatalf("run succeeded\n%s", h.stdout.String())
					}
					var log []string
					for _, line := range strings.Split(h.stdout.String(), "\n") {
						if !strings.HasPrefix(line, "::add-mask::") {
							log = append(log, line)
						}
					}
					texts := map[string]string{
						"log":     strings.Join(log, "\n"),
						"outputs": h.file("GITHUB_OUTPUT"),
						"summary": h.file("GITHUB_STEP_SUMMARY"),
					}
					for _, c := range gh.Comments(12) {
						texts["comment"] += c.Body
					}
					for where, text := range texts {
						assertNoPiece(t, key, where, text)
					}
					if !strings.Contains(texts["log"], "::error::create job: HTTP 400 Bad Request: "+strings.Repeat("x", min(at, 3))) || texts["comment"] == "" {
						t.Errorf("the service's reason is not reported:\n%s", texts["log"])
					}
				})
			}
		}
	}
}
