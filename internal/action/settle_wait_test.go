package action_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/testbed/step"
)

// TestSettleWaitActsOnTheRecordAsItEnds: code pull request #7's job works
// on head1, and head2's change waits for it. The agent's pull request
// moves a minute before the job's end, and the settle run its dispatch
// starts waits for that job. While it waits, a push (head3) runs in #7
// (the code workflow: another concurrency group) and writes, as the
// record says, that head1..head3 now waits. When the job ends, the settle
// run must send what the record holds then, and record that send: sending
// head1..head2 as it read the record minutes earlier leaves head3's
// change to a second follow-up that repeats head2's, and its own send
// counted by no cap.
func TestSettleWaitActsOnTheRecordAsItEnds(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute, PRAhead: 2 * time.Minute})
	pushWhileWorking(t, w)
	f2 := fakegithub.File{Name: "src/push.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
	f3 := fakegithub.File{Name: "src/later.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
	w.moveHead(head2, head3, []fakegithub.File{f3}, append(slices.Clone(codeFiles), f2, f3))
	c := w.gh.Comments(7)
	if len(c) != 1 || recordIn(c[0].Body).Waiting != head2 {
		t.Fatalf("comment after the push: %+v", c)
	}
	id, read := c[0].ID, recordIn(c[0].Body)
	// What the push run writes: head3 waits too, and owes its status.
	pushed := read
	pushed.Waiting, pushed.Owed = head3, append(slices.Clone(read.Owed), head3)
	body := strings.Replace(c[0].Body, record.Format(read), record.Format(pushed), 1)

	w.clk.Advance(6 * time.Minute)
	w.setEvent("repository_dispatch", map[string]any{"action": "docs-agent-settle",
		"client_payload": map[string]any{"pull_request": "https://github.com/acme/docs/pull/101"},
		"repository":     map[string]any{"full_name": "acme/docs"}, "sender": user("writer")})
	w.vars["INPUT_SETTLE"], w.vars["INPUT_WAIT"], w.vars["INPUT_TIMEOUT"] = "true", "true", "12m"
	delete(w.vars, "INPUT_PROMPT")
	var once sync.Once
	w.api.FailOn(len(w.api.Requests())+2, func(_ http.ResponseWriter, r *http.Request) bool {
		// The push run's write, while the settle run waits.
		once.Do(func() { w.editAsAnotherRun(id, body) })
		return false
	})
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	w.wantLog("waiting for its end")
	if out := step.Outputs(t, w.vars["GITHUB_OUTPUT"]); out["waited-seconds"] == "0" || out["waited-seconds"] == "" {
		t.Errorf("the settle run waited for the job's end, but its cost says it waited %q seconds", out["waited-seconds"])
	}
	var followUps []string
	for _, r := range w.api.Requests() {
		if strings.HasSuffix(r.Path, "/message") {
			followUps = append(followUps, r.Prompt())
		}
	}
	if len(followUps) != 1 || !strings.Contains(followUps[0], `"src/later.go"`) || !strings.Contains(followUps[0], `"src/push.go"`) {
		t.Errorf("follow-ups: %q, want one with head1..head3's change (src/push.go and src/later.go)", followUps)
	}
	c = w.gh.Comments(7)
	if got := recordIn(c[0].Body); got.Head != head3 || got.Waiting != "" || !got.Unsettled || got.Sent.Total != 2 {
		t.Errorf("record after the settle run: %+v, want the job to have heard head3, nothing waiting, and 2 sends counted", got)
	}
}
