package plan

import (
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/queue"
)

// TestDecideMergeGroup: a merge queue's request for checks sets the
// group's check and nothing else, whatever the code workflow's other
// inputs say; nobody's permission is read, no job is started, no comment
// written.
func TestDecideMergeGroup(t *testing.T) {
	t.Parallel()
	group := func(action string) *event.Trigger {
		return &event.Trigger{Event: "merge_group", Action: action, Owner: "acme", Repo: "code", Sender: "ann",
			Group: &event.MergeGroup{HeadSHA: "c0ffee0", BaseSHA: "ba5e000", HeadRef: "refs/heads/gh-readonly-queue/main/pr-12-c0ffee0", BaseRef: "refs/heads/main"}}
	}
	want := queue.Group{Owner: "acme", Repo: "code", HeadSHA: "c0ffee0", BaseSHA: "ba5e000", Branch: "main", HeadRef: "refs/heads/gh-readonly-queue/main/pr-12-c0ffee0"}
	cases := []struct {
		name string
		cfg  inputs.Config
		t    *event.Trigger
		skip string
		err  string
	}{
		{name: "the code workflow's inputs", cfg: cfg(func(c *inputs.Config) { c.Prompt = "Update the docs for this change"; c.Wait = false }), t: group("checks_requested")},
		{name: "settle", cfg: cfg(func(c *inputs.Config) { c.Settle = true }), t: group("checks_requested")},
		{name: "a sender who is a bot", cfg: cfg(), t: func() *event.Trigger {
			g := group("checks_requested")
			g.Sender, g.SenderIsBot = "queue[bot]", true
			return g
		}()},
		{name: "another action", cfg: cfg(), t: group("destroyed"), skip: "the merge_group action destroyed does not ask for checks"},
		{name: "a dry run", cfg: cfg(func(c *inputs.Config) { c.DryRun = true }), t: group("checks_requested"), skip: "dry-run is true"},
		{name: "no token", cfg: cfg(func(c *inputs.Config) { c.GitHubToken = "" }), t: group("checks_requested"), err: "github-token is empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := Decide(tc.cfg, tc.t)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Decide() error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Decide() error = %v", err)
			}
			if !strings.HasPrefix(p.Skip, tc.skip) || (p.Skip == "") != (tc.skip == "") {
				t.Fatalf("Skip = %q, want %q", p.Skip, tc.skip)
			}
			if tc.skip != "" {
				return
			}
			if p.Group == nil || *p.Group != want {
				t.Errorf("Group = %+v, want %+v", p.Group, want)
			}
			if p.Check != nil || p.OpenerCheck != nil || p.Own != nil || p.Answer != nil || p.Code != nil || p.Settle || p.Caps != nil || p.Backlink || p.Workflow != "" || !p.GitHub {
				t.Errorf("Decide() = %+v: a merge group's run reads no permission, sends nothing and writes no comment", p)
			}
		})
	}
}
