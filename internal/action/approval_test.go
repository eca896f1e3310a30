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
	"github.com/agentjob/agent-job-action/internal/record"
)

// docsHead is the docs pull request #101's latest commit.
const docsHead = "d0c5d0c5d0c5d0c5d0c5d0c5d0c5d0c5d0c5d0c5"

// docsPull is the agent's docs pull request the fake job names, #101 on
// acme/docs at docsHead, as state says: "open", "closed", or "merged"
// (closed by its merge).
func docsPull(state string) fakegithub.Pull {
	p := fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", HeadSHA: docsHead}
	switch state {
	case "open":
	case "closed":
		p.State = "closed"
	case "merged":
		p.State, p.Merged = "closed", true
	default:
		panic("docsPull: state " + state)
	}
	return p
}

// reviewed is a pull_request_review event: login's review, state, of the
// docs pull request #101, which a settle workflow runs on.
func reviewed(login, state string) map[string]any {
	return map[string]any{
		"action": "submitted",
		"review": map[string]any{"id": 777, "user": user(login), "body": "", "state": state, "commit_id": docsHead,
			"html_url": "https://github.com/acme/docs/pull/101#pullrequestreview-777"},
		"pull_request": map[string]any{"number": 101, "title": "Document rate-limit headers", "body": "", "html_url": "https://github.com/acme/docs/pull/101",
			"user": user("docs-agent[bot]"), "state": "open", "draft": false,
			"head": map[string]any{"ref": "docs/agent-job_0001", "sha": docsHead, "repo": map[string]any{"full_name": "acme/docs"}},
			"base": map[string]any{"ref": "main", "sha": baseSHA, "repo": map[string]any{"full_name": "acme/docs"}}},
		"repository": map[string]any{"name": "docs", "full_name": "acme/docs", "owner": map[string]any{"login": "acme"}},
		"sender":     user(login),
	}
}

// approvalWorld is code pull request #7 with docs-check: approved, whose
// job, waited for, ended with the docs pull request #101 at head1, then
// heard the push of head2 and ended again.
//
// Elsewhere, the docs are in acme/handbook, which docs-token writes to.
func approvalWorld(t *testing.T, elsewhere bool) *codeWorld {
	t.Helper()
	sc, repo := fakeapi.Scenario{Runtime: time.Minute}, "acme/docs"
	if elsewhere {
		sc.Repository, repo = "https://github.com/acme/handbook", "acme/handbook"
	}
	w := newCodeWorld(t, sc, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_DOCS-CHECK"] = "approved"
	w.vars["INPUT_PREVIEW"] = "false"
	if elsewhere {
		w.vars["INPUT_DOCS-TOKEN"] = "ghp_docs_token_0123456789"
	}
	w.gh.SeedPull(fakegithub.Pull{Repo: repo, Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", HeadSHA: docsHead})
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	w.moveHead(head1, head2, codeFiles[:1], codeFiles)
	w.setEvent("pull_request", push(head1, head2))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	return w
}

// settleOnReview is a settle run on a review of the docs pull request,
// as the copied settle workflow runs: on the review's event, or, for docs
// elsewhere, on the dispatch the docs repository's workflow sends.
func (w *codeWorld) settleOnReview(login, state string, elsewhere bool) {
	w.t.Helper()
	if elsewhere {
		w.setEvent("repository_dispatch", map[string]any{"action": "docs-agent-settle", "client_payload": map[string]any{"pull_request": "https://github.com/acme/handbook/pull/101"},
			"repository": map[string]any{"name": "docs", "full_name": "acme/docs", "owner": map[string]any{"login": "acme"}}, "sender": user("docs-bot")})
	} else {
		w.setEvent("pull_request_review", reviewed(login, state))
	}
	w.vars["INPUT_SETTLE"] = "true"
	w.vars["INPUT_WAIT"] = "false"
	delete(w.vars, "INPUT_PROMPT")
	if err := w.run(context.Background()); err != nil {
		w.t.Fatalf("settle run on a review: %v\n%s", err, w.stdout.String())
	}
}

// TestApprovalSettlesTheWaitingCheck: with docs-check: approved, the code
// pull request's check waits, naming the docs pull request, once its job
// ends with one; a review that is no approval, or an approval by someone
// without required-permission, leaves it waiting and writes nothing; an
// approval by a writer on the docs pull request's latest commit turns it
// green on the code pull request's latest head, not on the older one.
// None of these runs sends the agent anything.
//
// With the docs in another repository, the settle runs on the dispatches
// of its workflow read it with docs-token, and only there.
func TestApprovalSettlesTheWaitingCheck(t *testing.T) {
	t.Parallel()
	for _, elsewhere := range []bool{false, true} {
		t.Run(map[bool]string{false: "docs in the code's repository", true: "docs in another repository"}[elsewhere], func(t *testing.T) {
			t.Parallel()
			approvalSettles(t, elsewhere)
		})
	}
}

func approvalSettles(t *testing.T, elsewhere bool) {
	w := approvalWorld(t, elsewhere)
	docsURL, docsRepo := "https://github.com/acme/docs/pull/101", "acme/docs"
	if elsewhere {
		docsURL, docsRepo = "https://github.com/acme/handbook/pull/101", "acme/handbook"
	}
	waits := "Waits for an approving review of docs pull request #101 " + docsURL
	got := w.statuses()
	if !slices.Contains(got, "1111 pending: "+waits) || got[len(got)-1] != "2222 pending: "+waits {
		t.Fatalf("statuses before any review:\n%s", strings.Join(got, "\n"))
	}
	c := w.gh.Comments(7)
	if r := recordIn(c[0].Body); r.Docs != record.DocsWaiting || !r.Unsettled || r.Head != head2 {
		t.Errorf("the record: %+v", r)
	}
	if !strings.Contains(c[0].Body, "waits for an approving review of the docs pull request [#101]("+docsURL+") on its latest commit") {
		t.Errorf("the comment on #7:\n%s", c[0].Body)
	}
	sends := func() int {
		n := 0
		for _, r := range w.api.Requests() {
			if r.Method != "GET" {
				n++
			}
		}
		return n
	}
	sent, statuses := sends(), len(w.statuses())

	// A comment, a change request, a reader's approval, and a writer's of
	// an older commit of the docs pull request.
	for _, tc := range []struct{ login, state, commit string }{{"writer", "COMMENTED", ""}, {"writer", "CHANGES_REQUESTED", ""}, {"reader", "APPROVED", ""}, {"admin", "APPROVED", head4}} {
		w.gh.SeedReview(101, fakegithub.Review{Author: tc.login, State: tc.state, CommitID: cmpOr(tc.commit, docsHead)})
		from := len(w.gh.Requests())
		w.settleOnReview(tc.login, tc.state, elsewhere)
		if writes := w.writes(from); len(writes) != 1 || !strings.HasPrefix(writes[0], "POST /repos/acme/docs/issues/comments/") {
			// The one write is the 👀 that tells the token's login.
			t.Errorf("%s's %s: GitHub writes %q, want none but the 👀", tc.login, tc.state, writes)
		}
		w.wantLog("1 docs pull request waiting for an approving review")
	}
	if n := len(w.statuses()); n != statuses {
		t.Errorf("statuses set by reviews that are no approval: %q", w.statuses()[statuses:])
	}

	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	from := len(w.gh.Requests())
	w.settleOnReview("writer", "APPROVED", elsewhere)
	if got := w.statuses()[statuses:]; !slices.Equal(got, []string{"2222 success: Docs approved in pull request #101 " + docsURL}) {
		t.Errorf("statuses after the approval: %q, want success on head2 only", got)
	}
	c = w.gh.Comments(7)
	if r := recordIn(c[0].Body); r.Docs != record.DocsApproved || !r.Unsettled {
		t.Errorf("the record after the approval: %+v", r)
	}
	if !strings.Contains(c[0].Body, "is approved on its latest commit") {
		t.Errorf("the comment on #7 after the approval:\n%s", c[0].Body)
	}
	if !slices.Contains(w.ghCalls(from), "GET /repos/"+docsRepo+"/collaborators/writer/permission") {
		t.Errorf("the approver's permission was not read: %q", w.ghCalls(from))
	}
	if n := sends(); n != sent {
		t.Errorf("the settle runs sent the agent %d requests", n-sent)
	}
	// Approved as the check shows: the next settle run writes nothing.
	from = len(w.gh.Requests())
	w.settleOnReview("writer", "COMMENTED", elsewhere)
	if writes := w.writes(from); len(writes) != 1 {
		t.Errorf("a settle run after the approval wrote %q", writes)
	}
}

// TestApprovalOfAnotherDocsPR: only the code pull request's record pairs
// it with its docs pull request. When the job names another pull request
// than the record does, its approval settles nothing: the record's own
// pull request is the one judged.
func TestApprovalOfAnotherDocsPR(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	c := w.gh.Comments(7)[0]
	w.editAsAnotherRun(c.ID, strings.ReplaceAll(c.Body, "/pull/101", "/pull/102"))
	statuses := len(w.statuses())
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	w.settleOnReview("writer", "APPROVED", false)
	// The check waits for the pull request the record names, #102, which
	// GitHub does not show: the head, which showed it waiting for #101,
	// is set to say so, and nothing settles it.
	if got := w.statuses()[statuses:]; !slices.Equal(got, []string{"2222 pending: Waits for docs pull request #102, whose reviews could not be read: see the run https://github.com/acme/docs/actions/runs/4242"}) {
		t.Errorf("statuses set for an approval of a docs pull request the record does not name: %q", got)
	}
	w.wantLog(`the job now names "https://github.com/acme/docs/pull/101"; the record pairs "https://github.com/acme/docs/pull/102", which alone is judged`)
}

// docsMerged merges the docs pull request #101 before its code, and runs
// the settle run its closed event starts.
func (w *codeWorld) docsMerged(t *testing.T) {
	t.Helper()
	w.gh.SeedPull(docsPull("merged"))
	ev := reviewed("writer", "APPROVED")
	delete(ev, "review")
	ev["action"] = "closed"
	ev["pull_request"].(map[string]any)["state"], ev["pull_request"].(map[string]any)["merged"] = "closed", true
	w.setEvent("pull_request", ev)
	w.vars["INPUT_SETTLE"], w.vars["INPUT_WAIT"] = "true", "false"
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle run on the docs pull request's merge: %v\n%s", err, w.stdout.String())
	}
}

// TestDocsMergedBeforeTheCode: with docs-check: approved, a docs pull
// request merged while its code pull request is open turns the waiting
// check green (the docs are in), and the code pull request's comment says
// the docs were merged first. The settle run on the docs pull request's
// closed event sends the agent nothing.
func TestDocsMergedBeforeTheCode(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	statuses, apiBefore := len(w.statuses()), len(w.api.Requests())
	w.docsMerged(t)
	if got := w.statuses()[statuses:]; !slices.Equal(got, []string{"2222 success: Docs merged in pull request #101 https://github.com/acme/docs/pull/101"}) {
		t.Errorf("statuses after the docs' merge: %q", got)
	}
	c := w.gh.Comments(7)
	if r := recordIn(c[0].Body); r.Docs != record.DocsMerged || r.Unsettled {
		t.Errorf("the record after the docs' merge follows it still, or forgets it merged: %+v", r)
	}
	if !strings.Contains(c[0].Body, "⚠️ The docs pull request [#101](https://github.com/acme/docs/pull/101) was merged before this pull request") {
		t.Errorf("the comment on #7:\n%s", c[0].Body)
	}
	for _, r := range w.api.Requests()[apiBefore:] {
		if r.Method != "GET" {
			t.Errorf("the Agent API got %s %s", r.Method, r.Path)
		}
	}
}

// TestChangeRequestAfterAnApprovalHoldsTheCheck: an approval settles the
// check only while no one with required-permission asks for changes, as
// GitHub's own review decision reads it. A change request by another
// writer after the approval turns the green check back to pending on the
// code pull request's latest head; one by a reader, who could not block a
// merge on GitHub either, leaves it green.
func TestChangeRequestAfterAnApprovalHoldsTheCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, login string
		want        []string // the statuses the change request's settle run sets
	}{
		{name: "by another writer", login: "admin",
			want: []string{"2222 pending: Waits for an approving review of docs pull request #101 https://github.com/acme/docs/pull/101"}},
		{name: "by a reader", login: "reader"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := approvalWorld(t, false)
			w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
			w.settleOnReview("writer", "APPROVED", false)
			if got := w.statuses(); got[len(got)-1] != "2222 success: Docs approved in pull request #101 https://github.com/acme/docs/pull/101" {
				t.Fatalf("statuses after the approval: %q", got)
			}
			statuses := len(w.statuses())
			w.gh.SeedReview(101, fakegithub.Review{Author: tc.login, State: "CHANGES_REQUESTED", CommitID: docsHead})
			w.settleOnReview(tc.login, "CHANGES_REQUESTED", false)
			if got := w.statuses()[statuses:]; !slices.Equal(got, tc.want) {
				t.Errorf("statuses after %s's change request: %q, want %q", tc.login, got, tc.want)
			}
			wantDocs := map[bool]string{true: record.DocsApproved, false: record.DocsWaiting}[len(tc.want) == 0]
			if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != wantDocs || !r.Unsettled {
				t.Errorf("the record after %s's change request: %+v, want docs %q", tc.login, r, wantDocs)
			}
		})
	}
}

// TestAnotherDocsPRIsNotAdoptedBySettleRuns: a settle run that finds the
// job naming another docs pull request than the record does after an
// approval turns the check back to pending, and the record keeps naming
// its own: a later settle run does not judge, and so never settles the
// check on, the pull request the record does not name.
func TestAnotherDocsPRIsNotAdoptedBySettleRuns(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	// The record names #102, approved as the check showed it; the job now
	// names #101.
	c := w.gh.Comments(7)[0]
	w.editAsAnotherRun(c.ID, strings.ReplaceAll(strings.ReplaceAll(c.Body, "/pull/101", "/pull/102"), `"docs":"waiting"`, `"docs":"approved"`))
	if r := recordIn(w.gh.Comments(7)[0].Body); r.PR != "https://github.com/acme/docs/pull/102" || r.Docs != record.DocsApproved {
		t.Fatalf("the record as edited: %+v", r)
	}
	statuses := len(w.statuses())
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	for range 2 {
		w.settleOnReview("writer", "APPROVED", false)
	}
	for _, s := range w.statuses()[statuses:] {
		if strings.Contains(s, "success") {
			t.Errorf("a status settled by the docs pull request the record does not name: %q", w.statuses()[statuses:])
		}
	}
	if r := recordIn(w.gh.Comments(7)[0].Body); r.PR != "https://github.com/acme/docs/pull/102" {
		t.Errorf("the record after the settle runs names %q, want #102 still", r.PR)
	}
}

// TestSettleWithoutDocsCheckLeavesAWaitingCheck: a settle workflow that
// does not set docs-check: approved (no-wait.md's, copied before the code
// workflow asked for approvals) does not turn a check that waits for an
// approval green: the record says the code workflow asked for one.
func TestSettleWithoutDocsCheckLeavesAWaitingCheck(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	statuses := len(w.statuses())
	delete(w.vars, "INPUT_DOCS-CHECK")
	w.settleOnReview("reader", "COMMENTED", false)
	for _, s := range w.statuses()[statuses:] {
		if strings.Contains(s, "success") {
			t.Errorf("a settle run without docs-check set %q on a check that waits for an approval", s)
		}
	}
}

// TestApprovalAtACap: with docs-check: approved, a push at a cap sends
// nothing, and its head gets no success: a cap stops the docs job, so
// pushing up to it cannot turn the check green without an approval.
func TestApprovalAtACap(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: 30 * time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_MAX-SENDS-PER-THREAD"] = "1"
	w.vars["INPUT_WAIT"] = "false"
	w.vars["INPUT_DOCS-CHECK"] = "approved"
	w.gh.SeedPull(docsPull("open"))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	w.clk.Advance(31 * time.Minute)
	w.moveHead(head1, head2, codeFiles[:1], codeFiles)
	w.setEvent("pull_request", push(head1, head2))
	from := len(w.statuses())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 0)
	want := []string{"1111 pending: Waits for an approving review of docs pull request #101 https://github.com/acme/docs/pull/101",
		"2222 error: Docs job cap reached, so no approved docs for this push: #7 has had 1 create or follow-up (max-sends-per-thread: 1) https://github.com/acme/docs/actions/runs/4242"}
	if got := w.statuses()[from:]; !slices.Equal(got, want) {
		t.Errorf("statuses:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
