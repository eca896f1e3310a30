package action_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

// labeled is the pull_request event of login adding label to code pull
// request #7 at head.
func labeled(login, label, head string) map[string]any {
	ev := codePR("labeled", head, nil)
	ev["label"] = map[string]any{"name": label}
	ev["sender"] = user(login)
	return ev
}

// writes are the requests a run sent GitHub that write, from the index
// from on.
func (w *codeWorld) githubWrites(from int) []string {
	var out []string
	for _, r := range w.gh.Requests()[from:] {
		if r.Method != "GET" {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

// TestReleaseByAMaintainer: with docs-check: approved, a code pull request
// whose docs job works on its second push; a writer adds the release label:
// the latest head's check turns green naming them, the agent is sent
// nothing, and the comment says who released it on which commit. The next
// push asks again: its head waits for its docs job. From a reader, the
// same label writes nothing at all.
func TestReleaseByAMaintainer(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, func(vars map[string]string) { vars["INPUT_DOCS-CHECK"] = "approved" })
	pushWhileWorking(t, w)

	// A reader's label: refused, nothing written, nothing sent.
	w.setEvent("pull_request", labeled("reader", "docs-not-needed", head2))
	ghFrom, apiFrom := len(w.gh.Requests()), len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("a reader's label: %v\n%s", err, w.stdout.String())
	}
	if got := w.githubWrites(ghFrom); len(got) != 0 {
		t.Errorf("a reader's release label wrote %q", got)
	}
	if got := w.sends(apiFrom); len(got) != 0 {
		t.Errorf("a reader's release label sent the agent %q", got)
	}
	w.wantLog("reader has read permission")

	// A writer's label: the latest head released.
	statuses := len(w.statuses())
	w.setEvent("pull_request", labeled("writer", "docs-not-needed", head2))
	apiFrom = len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("a writer's label: %v\n%s", err, w.stdout.String())
	}
	if got := w.statuses()[statuses:]; !slices.Equal(got, []string{"2222 success: Docs check released by writer: no docs job needed for this commit https://github.com/acme/docs/actions/runs/4242"}) {
		t.Errorf("statuses after the release: %q", got)
	}
	if got := w.sends(apiFrom); len(got) != 0 {
		t.Errorf("the release sent the agent %q", got)
	}
	c := w.gh.Comments(7)
	if len(c) != 1 || !strings.Contains(c[0].Body, "🔓 **Docs check released.** writer released this pull request's docs check on 222222") {
		t.Errorf("the comment after the release:\n%+v", c)
	}
	r := recordIn(c[0].Body)
	if slices.Contains(r.Owed, head2) || r.Waiting != "" || r.JobID != "job_0001" {
		t.Errorf("the record after the release owes the released head, keeps its change waiting, or lost the job: %+v", r)
	}
	w.wantOutputs(map[string]string{"status": "skipped", "job-id": "job_0001"})

	// The job ends: a settle run settles the head it heard, not the
	// released one.
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	statuses = len(w.statuses())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	for _, s := range w.statuses()[statuses:] {
		if strings.HasPrefix(s, "2222") {
			t.Errorf("the settle run set %q on the released head", s)
		}
	}
	if got := w.finalStatuses()["2222"]; !strings.HasPrefix(got, "2222 success: Docs check released by writer") {
		t.Errorf("the released head ends %q", got)
	}

	// The next push asks again.
	delete(w.vars, "INPUT_SETTLE")
	w.vars["INPUT_WAIT"] = "false"
	f := fakegithub.File{Name: "src/more.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
	w.moveHead(head2, head3, []fakegithub.File{f}, append(slices.Clone(codeFiles), f))
	w.setEvent("pull_request", push(head2, head3))
	apiFrom = len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("the push after the release: %v\n%s", err, w.stdout.String())
	}
	if got := w.finalStatuses()["3333"]; !strings.HasPrefix(got, "3333 pending: ") {
		t.Errorf("the push after the release ends %q, want pending", got)
	}
	if got := w.sends(apiFrom); len(got) != 1 {
		t.Errorf("the push after the release sent %q, want one send", got)
	}
	// An ordinary push: the job hears what changed since the head it
	// heard (head1), src/push.go of the released head among it.
	if m := w.lastMessage(); !strings.HasPrefix(m, "New commits were pushed") ||
		!strings.Contains(m, "The files the push changes (2):\n- \"src/push.go\" (added, +1 -0)\n- \"src/more.go\" (added, +1 -0)") {
		t.Errorf("the push after the release sent:\n%s\nwant the change since head1, as new commits", m)
	}
}

// TestReleaseLabelIsNotARequest: another label on a code pull request is
// no release, and the release label never starts a docs job, even with no
// earlier run in the pull request: the first head is released, nothing is
// sent.
func TestReleaseLabelIsNotARequest(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, fakepreview.Options{}, "src/**", labeled("writer", "Docs-Not-Needed", head1))
	w.vars["INPUT_WAIT"] = "false"
	w.vars["INPUT_PREVIEW"] = "false"
	g := w.got(context.Background())
	if g.Err != nil {
		t.Fatalf("release: %v\n%s", g.Err, g.Log)
	}
	if got := g.apiCalls(); len(got) != 0 {
		t.Errorf("the release label sent the Agent API %q", got)
	}
	if got := w.statuses(); !slices.Equal(got, []string{"1111 success: Docs check released by writer: no docs job needed for this commit https://github.com/acme/docs/actions/runs/4242"}) {
		t.Errorf("statuses %q", got)
	}
}
