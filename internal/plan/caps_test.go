package plan

import (
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/inputs"
)

// TestDecideCaps: a run that sends reads its caps before it does, and
// only a run that comments can be counted; a run that sends nothing reads
// none.
func TestDecideCaps(t *testing.T) {
	t.Parallel()
	capped := func(thread, day int) func(*inputs.Config) {
		return func(c *inputs.Config) { c.MaxSendsPerThread, c.MaxSendsPerDay = thread, day }
	}
	withPrompt := func(c *inputs.Config) { c.Prompt = "Update the changelog page." }
	weekly := &event.Trigger{Event: "schedule", Owner: "acme", Repo: "handbook"}
	tests := []struct {
		name string
		cfg  inputs.Config
		trig *event.Trigger
		want *Caps
		err  string
	}{
		{name: "no caps", cfg: cfg(), trig: comment("/docs fix it", "writer", false)},
		{name: "a comment's request may pass the thread's cap",
			cfg: cfg(capped(3, 40)), trig: comment("/docs fix it", "writer", false),
			want: &Caps{Owner: "acme", Repo: "handbook", Thread: 3, Day: 40, Pass: true}},
		{name: "a weekly run with a tracking issue passes nothing",
			cfg: cfg(withPrompt, capped(0, 40), func(c *inputs.Config) { c.IssueNumber = 7 }), trig: weekly,
			want: &Caps{Owner: "acme", Repo: "handbook", Day: 40}},
		{name: "an issue's event is no explicit request",
			cfg: cfg(capped(2, 0)), trig: issue("labeled", "writer"),
			want: &Caps{Owner: "acme", Repo: "handbook", Thread: 2}},
		{name: "a code pull request's push passes nothing",
			cfg:  cfg(withPrompt, capped(5, 0)),
			trig: &event.Trigger{Event: "pull_request", Action: "synchronize", Owner: "acme", Repo: "handbook", Number: 7, IsPR: true, Sender: "writer", Opener: "writer", HeadSHA: strings.Repeat("a", 40)},
			want: &Caps{Owner: "acme", Repo: "handbook", Thread: 5}},
		{name: "a run that watches a job sends nothing, so reads no cap",
			cfg:  cfg(capped(3, 40), func(c *inputs.Config) { c.JobID = "job_1"; c.IssueNumber = 7 }),
			trig: &event.Trigger{Event: "workflow_dispatch", Owner: "acme", Repo: "handbook", Sender: "octo"}},
		{name: "a dry run reads nothing",
			cfg: cfg(capped(3, 40), func(c *inputs.Config) { c.DryRun = true }), trig: comment("/docs fix it", "writer", false)},
		{name: "a run that writes no comment could not be counted",
			cfg: cfg(withPrompt, capped(0, 40)), trig: weekly,
			err: "input max-sends-per-day is set, but this run has no issue or pull request to comment in: the caps count what the action's comments record, so its sends would not be counted: set issue-number"},
		{name: "comment false writes none",
			cfg: cfg(capped(3, 0), func(c *inputs.Config) { c.Comment = "false" }), trig: comment("/docs fix it", "writer", false),
			err: "input max-sends-per-thread is set, but comment is false: the caps count what the action's comments record, so a run that writes none would not be counted: set comment to auto"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Decide(tt.cfg, tt.trig)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || p.Skip != "" {
				t.Fatalf("Decide: %v, skip %q", err, p.Skip)
			}
			if (p.Caps == nil) != (tt.want == nil) || p.Caps != nil && *p.Caps != *tt.want {
				t.Errorf("Caps = %+v, want %+v", p.Caps, tt.want)
			}
		})
	}
}

func TestCapsMayPass(t *testing.T) {
	t.Parallel()
	explicit, event := &Caps{Thread: 1, Pass: true}, &Caps{Thread: 1}
	for level, want := range map[string]bool{"admin": true, "maintain": true, "write": false, "triage": false, "": false} {
		if got := explicit.MayPass(level); got != want {
			t.Errorf("an explicit request by %q passes: %v, want %v", level, got, want)
		}
		if event.MayPass(level) {
			t.Errorf("an event by %q passes the cap", level)
		}
	}
}
