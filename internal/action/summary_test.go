package action_test

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/testbed/escapetest"
)

// sourceRow is the summary's Source row: its value.
var sourceRow = regexp.MustCompile(`(?m)^\| Source \| (.*) \|$`)

// markdownLink is an explicit link: its text and its target.
var markdownLink = regexp.MustCompile(`^\[([^\]]*)\]\(([^)]*)\)`)

// TestSummarySourceCopiesWhole: the summary shows the job's source
// repository so that what a reader copies is its address, with no
// invisible character inside: a repository on this GitHub as a link whose
// text and target are its address, another https address whole in a code
// span. Text that is no https address is still shown as text that
// links nothing.
func TestSummarySourceCopiesWhole(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, repo string
		link       string // the link's target and text; "" for none
		shown      string // the row's value as written, when not a link
	}{
		{name: "on this GitHub", repo: "https://github.com/acme/docs", link: "https://github.com/acme/docs"},
		{name: "on another forge", repo: "https://gitlab.com/acme/docs", shown: "`https://gitlab.com/acme/docs`"},
		{name: "not https", repo: "http://www.evil.example/r@x"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute, Repository: tt.repo, PRRepository: "https://github.com/acme/docs"})
			g := h.got(context.Background())
			if g.Err != nil {
				t.Fatalf("run: %v\n%s", g.Err, g.Log)
			}
			m := sourceRow.FindStringSubmatch(g.Summary)
			if m == nil {
				t.Fatalf("no Source row:\n%s", g.Summary)
			}
			source, _, _ := strings.Cut(m[1], " @ ") // the ref follows
			l := markdownLink.FindStringSubmatch(source)
			switch {
			case tt.link != "":
				if l == nil || l[2] != tt.link || html.UnescapeString(l[1]) != tt.link || len(l[0]) != len(source) {
					t.Errorf("Source %q, want a link whose text and target are %s", source, tt.link)
				}
			case l != nil:
				t.Errorf("Source %q is a link", source)
			case tt.shown != "" && source != tt.shown:
				t.Errorf("Source %q, want %q", source, tt.shown)
			}
			if tt.shown != "" || tt.link != "" {
				if strings.Contains(source, escape.WordJoiner) || strings.Contains(html.UnescapeString(source), "\u2060") {
					t.Errorf("Source %q holds a word joiner: a copied address is broken", source)
				}
			} else if links := escapetest.Autolinks(source); links != nil {
				t.Errorf("Source %q renders links %q", source, links)
			}
		})
	}
}
