package demo

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/action"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

// TestRun runs the three scenes with the automatic schedule's jitter drawn
// from a seeded source, so the whole output, every poll's time included,
// is the golden file's. The scenes check themselves what the fakes
// received (one comment on the issue, one backlink, one follow-up for the
// three line comments); the counts they print are in the golden file too.
func TestRun(t *testing.T) {
	t.Parallel()
	auto := poll.DefaultAuto
	auto.Rand = rand.New(rand.NewPCG(1, 2)).Float64
	var out bytes.Buffer
	if err := Run(context.Background(), action.Deps{Schedule: auto}, &out); err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	golden.Check(t, "testdata/demo.golden", out.String())
}

// TestRunCancelled: a demo cancelled before it starts ends with the run's
// error, not a half-told scene presented as whole.
func TestRunCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	err := Run(ctx, action.Deps{}, &out)
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "demo step run failed: ") {
		t.Errorf("Run() = %v, want the step scene's run cancelled", err)
	}
	if strings.Contains(out.String(), "# Step outputs:") {
		t.Errorf("a cancelled scene printed its outputs:\n%s", out.String())
	}
}

// TestAsText: Markdown as a reader of the page sees it.
func TestAsText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, md, want string }{
		{"emphasis and entities", "**Done.** Job `job_1` &#58; ok", "Done. Job job_1 : ok\n"},
		{"word joiners", "www\u2060.example and job\u2060_1", "www.example and job_1\n"},
		{"link whose text is its address", "<https://github.com/acme/docs/pull/101>", "https://github.com/acme/docs/pull/101\n"},
		{"link with other text", "[Workflow run](https://github.com/acme/docs/actions/runs/4242)", "Workflow run <https://github.com/acme/docs/actions/runs/4242>\n"},
		{"image", "![the agent's avatar](https://example.com/a.png)", "[image: the agent's avatar]\n"},
		{"table", "| Field | Value |\n|---|---|\n| Status | completed |\n| Pull request | #101 |",
			"Field         Value\nStatus        completed\nPull request  #101\n"},
		{"paragraphs", "one\n\n\n\ntwo", "one\n\ntwo\n"},
	} {
		got, err := asText(tc.md)
		if err != nil || got != tc.want {
			t.Errorf("%s: asText(%q) = %q, %v; want %q", tc.name, tc.md, got, err, tc.want)
		}
	}
}

func TestIndent(t *testing.T) {
	t.Parallel()
	if got := indent("a\nb\n\n"); got != "    a\n    b\n" {
		t.Errorf("indent = %q", got)
	}
}
