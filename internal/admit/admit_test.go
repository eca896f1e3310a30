package admit

import (
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/request"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// TestJudge: the one judgment of a request, the run's own and the
// thread's alike: who may ask, before any text is read; then whether a
// reader sees the phrase; then an instruction besides it where one is
// needed. What a run logs when its own request is not acted on, and what
// its comment says of a thread's, come from the same verdict.
func TestJudge(t *testing.T) {
	t.Parallel()
	rules := Rules{Phrase: "/docs", AllowedBots: []string{"Docs-Bot[bot]"}, Required: "write", Instruction: true}
	comment := func(author, body string) *request.Request {
		return &request.Request{Key: request.Key{Kind: request.Comment, ID: 1}, Author: author, Bot: strings.HasSuffix(author, "[bot]"), Body: body}
	}
	tests := []struct {
		name    string
		rules   Rules
		r       *request.Request
		level   string
		verdict Verdict
		read    bool   // the body was parsed
		text    string // what the agent receives
		skip    string // the run's line when it is its own request
		reason  string // the comment's reason when it is the thread's
	}{
		{name: "a writer's request", rules: rules, r: comment("ann", "please /docs add a FAQ <!-- and leak -->"), level: "write",
			verdict: Admitted, read: true, text: "please add a FAQ"},
		{name: "an admin passes a write requirement", rules: rules, r: comment("ann", "/docs x"), level: "admin",
			verdict: Admitted, read: true, text: "x"},
		{name: "a reader is refused, unread", rules: rules, r: comment("rea", "/docs x"), level: "read",
			verdict: Refused, skip: "rea has read permission on acme/docs; required-permission is write",
			reason: "read permission; required-permission is write"},
		{name: "an unknown level grants nothing", rules: rules, r: comment("ann", "/docs x"), level: "bogus",
			verdict: Refused, skip: "ann has bogus permission", reason: "bogus permission; required-permission is write"},
		{name: "a bot not in allowed-bots, unread", rules: rules, r: comment("renovate[bot]", "/docs x"),
			verdict: Refused, skip: `"renovate[bot]" is a bot and is not in allowed-bots`, reason: "a bot not in allowed-bots"},
		{name: "an allowed bot, whose permission is not read", rules: rules, r: comment("docs-bot[bot]", "/docs x"),
			verdict: Admitted, read: true, text: "x"},
		{name: "a look-alike phrase is none", rules: rules, r: comment("ann", "/docsify the page"), level: "write",
			verdict: Unseen, read: true, text: "/docsify the page", skip: "the comment does not contain the trigger phrase /docs"},
		{name: "a quoted phrase is none", rules: rules, r: comment("ann", "> /docs x\n\nno"), level: "write",
			verdict: Unseen, read: true, text: "> /docs x\n\nno", skip: "does not contain the trigger phrase"},
		{name: "the phrase alone, where the request is the prompt", rules: rules, r: comment("ann", "  /docs "), level: "write",
			verdict: Empty, read: true, reason: "no instruction besides the trigger phrase"},
		{name: "the phrase alone triggers the workflow's prompt", rules: Rules{Phrase: "/docs", Required: "write"}, r: comment("ann", "/docs"), level: "write",
			verdict: Admitted, read: true},
		{name: "a review whose instruction is in its line comments", rules: rules, level: "write",
			r: &request.Request{Key: request.Key{Kind: request.Review, ID: 5}, Author: "ann", Body: "/docs",
				Lines: []*request.Request{{Key: request.Key{Kind: request.Line, ID: 6}, Body: "shorter <!-- x -->"}}},
			verdict: Admitted, read: true},
		{name: "a text past what can be read safely is refused, not hung on", rules: rules, r: comment("ann", strings.Repeat("[a](", 16384)+" /docs x"), level: "write",
			verdict: TooComplex, read: true, reason: "too complex to read safely"},
		{name: "so is a review with such a line comment", rules: rules, level: "write",
			r: &request.Request{Key: request.Key{Kind: request.Review, ID: 5}, Author: "ann", Body: "/docs fix",
				Lines: []*request.Request{{Key: request.Key{Kind: request.Line, ID: 6}, Body: strings.Repeat(">", 65536) + " x"}}},
			verdict: TooComplex, read: true, text: "fix", reason: "too complex to read safely"},
		{name: "an event is judged by who caused it; its text is not read", rules: rules, level: "write",
			r:       &request.Request{Key: request.Key{Kind: request.Event, ID: 5}, Author: "ann", Title: "T", Body: "<!-- x --> body"},
			verdict: Admitted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := tt.rules.Judge(tt.r, tt.level)
			if d.Verdict != tt.verdict {
				t.Fatalf("Judge() = %+v, want verdict %v", d, tt.verdict)
			}
			if tt.r.Seen != tt.read || tt.r.Text != tt.text {
				t.Errorf("read %v, text %q; want %v, %q", tt.r.Seen, tt.r.Text, tt.read, tt.text)
			}
			got := d.Skip(tt.rules, tt.r, "acme", "docs")
			if acts := tt.verdict == Admitted || tt.verdict == Empty || tt.verdict == TooComplex; !strings.Contains(got, tt.skip) || (got == "") != acts {
				t.Errorf("Skip() = %q, want it to hold %q", got, tt.skip)
			}
			if got := d.Reason(tt.rules); got != tt.reason && !(tt.reason == "" && tt.verdict == Unseen) {
				t.Errorf("Reason() = %q, want %q", got, tt.reason)
			}
		})
	}
}

// TestJudgeReadsOnce: a request judged keeps what it read; its lines are
// read with it.
func TestJudgeReadsOnce(t *testing.T) {
	t.Parallel()
	r := &request.Request{Key: request.Key{Kind: request.Review, ID: 5}, Author: "ann", Body: "/docs tighten",
		Lines: []*request.Request{{Key: request.Key{Kind: request.Line, ID: 6}, Body: "/docs bold"}}}
	rules := Rules{Phrase: "/docs", Required: "write", Instruction: true}
	if d := rules.Judge(r, "write"); d.Verdict != Admitted {
		t.Fatalf("Judge() = %+v", d)
	}
	if r.Text != "tighten" || !r.Lines[0].Seen || r.Lines[0].Text != "bold" {
		t.Errorf("texts %q and %+v", r.Text, r.Lines[0])
	}
}
