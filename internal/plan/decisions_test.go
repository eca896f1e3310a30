package plan

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/request"
)

// decided is the plan a comment-triggered workflow makes for t.
func decided(t *testing.T, c inputs.Config, body, sender string, bot bool) (Plan, *event.Trigger) {
	t.Helper()
	trig := comment(body, sender, bot)
	p, err := Decide(c, trig)
	if err != nil {
		t.Fatal(err)
	}
	return p, trig
}

// TestAdmit: the one decision of the run's own request, from its author's
// permission: admitted, skipped, or the user's to fix.
func TestAdmit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		body    string
		sender  string
		bot     bool
		level   string
		skip    string
		invalid string
	}{
		{name: "a writer", body: "/docs add a page", sender: "ada", level: "write"},
		{name: "a reader", body: "/docs add a page", sender: "rex", level: "read", skip: "rex has read permission"},
		{name: "a bot not in allowed-bots", body: "/docs add a page", sender: "ci[bot]", bot: true, skip: `"ci[bot]" is a bot and is not in allowed-bots`},
		{name: "the phrase in a quote only", body: "> /docs add a page\n\nthanks", sender: "ada", level: "write", skip: "the comment does not contain the trigger phrase /docs"},
		{name: "only the phrase", body: "/docs", sender: "ada", level: "write", invalid: "the comment holds no instruction besides the trigger phrase"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, _ := decided(t, cfg(), tt.body, tt.sender, tt.bot)
			skip, invalid := p.Admit(tt.level, "acme", "handbook")
			if !strings.HasPrefix(skip, tt.skip) || (skip == "") != (tt.skip == "") {
				t.Errorf("skip %q, want %q", skip, tt.skip)
			}
			if (invalid == nil) != (tt.invalid == "") || invalid != nil && !strings.HasPrefix(invalid.Error(), tt.invalid) {
				t.Errorf("invalid %v, want %q", invalid, tt.invalid)
			}
		})
	}
}

// TestDryAdmit: a dry run reads no permission: a person is taken to have
// the required one, a bot is judged by allowed-bots.
func TestDryAdmit(t *testing.T) {
	t.Parallel()
	p, trig := decided(t, cfg(), "/docs add a page", "rex", false)
	if skip, invalid := p.DryAdmit(trig); skip != "" || invalid != nil {
		t.Errorf("a person's request in a dry run: %q, %v; want it admitted", skip, invalid)
	}
	p, trig = decided(t, cfg(), "/docs add a page", "ci[bot]", true)
	if skip, _ := p.DryAdmit(trig); !strings.Contains(skip, "is not in allowed-bots") {
		t.Errorf("a bot's request in a dry run: %q, want it refused", skip)
	}
}

// TestText: what the run sends, built once.
func TestText(t *testing.T) {
	t.Parallel()
	p, trig := decided(t, cfg(), "/docs add a FAQ", "ada", false)
	// Admitting the request reads what a reader sees of it: the text sent.
	if skip, invalid := p.Admit("write", "acme", "handbook"); skip != "" || invalid != nil {
		t.Fatalf("Admit: %q, %v", skip, invalid)
	}
	if text, err := p.Text([]*request.Request{trig.Own}, trig); err != nil || !strings.Contains(text, "add a FAQ") {
		t.Errorf("the request's text: %q, %v", text, err)
	}
	if _, err := p.Text(nil, trig); !errors.Is(err, inputs.ErrEmptyPrompt) {
		t.Errorf("nothing to send: %v, want ErrEmptyPrompt", err)
	}
	w := Plan{Workflow: "Fix typos."}
	if text, err := w.Text([]*request.Request{trig.Own}, trig); text != "Fix typos." || err != nil {
		t.Errorf("the workflow's prompt: %q, %v", text, err)
	}
	if text, err := (Plan{Job: Watch}).Text(nil, trig); text != "" || err != nil {
		t.Errorf("a watch sends nothing: %q, %v", text, err)
	}
}

// TestThreadDecisions: the decisions a run takes from its thread's
// records: a closed pull request with no job.
func TestThreadDecisions(t *testing.T) {
	t.Parallel()
	if NothingToStop(7, true) != "" {
		t.Error("a job to stop: the run acts")
	}
	if why := NothingToStop(7, false); why != "pull request #7 was closed and has no docs job: nothing to stop" {
		t.Errorf("NothingToStop: %q", why)
	}
}

// TestSettleAwaits: a settle run waits for the job of the pull request
// its event says the agent opened or pushed, and only with wait: a
// schedule or a manual dispatch names none; the docs repository's
// dispatch names it, as a repository_dispatch or a workflow_dispatch.
func TestSettleAwaits(t *testing.T) {
	t.Parallel()
	const agentPR = "https://github.com/acme/handbook/pull/101"
	tests := []struct {
		name string
		trig event.Trigger
		wait bool
		want string
	}{
		{"the agent's pull request opened", event.Trigger{Event: "pull_request", Action: "opened", URL: agentPR}, true, agentPR},
		{"the same, wait: false", event.Trigger{Event: "pull_request", Action: "opened", URL: agentPR}, false, ""},
		{"the docs repository's dispatch", event.Trigger{Event: "repository_dispatch", Moved: agentPR}, true, agentPR},
		{"the docs repository's workflow_dispatch (init's files)", event.Trigger{Event: "workflow_dispatch", Moved: agentPR}, true, agentPR},
		{"a manual dispatch names none", event.Trigger{Event: "workflow_dispatch"}, true, ""},
		{"a push names none", event.Trigger{Event: "push", Moved: agentPR}, true, ""},
		{"a schedule names none", event.Trigger{Event: "schedule"}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.trig.Owner, tt.trig.Repo = "acme", "handbook"
			p, err := Decide(cfg(func(c *inputs.Config) { c.Settle, c.Wait, c.TriggerPhrase = true, tt.wait, "" }), &tt.trig)
			if err != nil || !p.Settle || p.Await != tt.want {
				t.Errorf("Decide: settle %v, await %q, err %v; want a settle run awaiting %q", p.Settle, p.Await, err, tt.want)
			}
		})
	}
}

// TestWithheldSettleJudgesNobody: a settle run whose inputs lack what
// GitHub withholds from a bot's or a fork's pull_request run is skipped
// for that alone, naming no setting of who may ask; any other problem, or
// a run no pull request started, is the workflow's error.
func TestWithheldSettleJudgesNobody(t *testing.T) {
	t.Parallel()
	pr := func(name, sender string) *event.Trigger {
		return &event.Trigger{Event: name, Action: "opened", Owner: "acme", Repo: "handbook", Number: 101, IsPR: true, Sender: sender, SenderIsBot: true,
			Own: &request.Request{Key: request.Key{Kind: request.Event, ID: 101}, Author: sender, Bot: true}}
	}
	for _, tt := range []struct {
		name string
		raw  map[string]string
		trig *event.Trigger
		skip bool
	}{
		{"no key, a bot's pull request", map[string]string{}, pr("pull_request", "dependabot[bot]"), true},
		{"no key and a bad timeout", map[string]string{"timeout": "soon"}, pr("pull_request", "dependabot[bot]"), false},
		{"a bad timeout", map[string]string{"api-key": "mint_x", "timeout": "soon"}, pr("pull_request", "docs-agent[bot]"), false},
		{"no key, a schedule", map[string]string{}, &event.Trigger{Event: "schedule", Owner: "acme", Repo: "handbook"}, false},
	} {
		raw := map[string]string{"settle": "true", "project-id": "proj-1", "github-token": "ghs_x"}
		maps.Copy(raw, tt.raw)
		c, _, err := inputs.Read(raw, "")
		if err == nil {
			t.Fatalf("%s: the inputs read whole", tt.name)
		}
		why := Withheld(c, err, tt.trig)
		if (why != "") != tt.skip || strings.Contains(why, "allowed-bots") {
			t.Errorf("%s: %q, want a skip: %v, and no word of allowed-bots", tt.name, why, tt.skip)
		}
	}
}
