package action_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

// landsWith7 is the check of the agent's docs pull request #101 while
// its code pull request #7's docs check does not pass.
const landsWith7 = "pending: Waits for code pull request #7's docs check: these docs land with the code https://github.com/acme/docs/pull/7"

// TestAgentsDocsPRInTheCodeRepositoryMergesWithItsCode: with the docs in
// the code's own repository, under the ruleset init prints (docs /
// agent-job required on the default branch), the agent's docs pull
// request gets the check too: it may merge exactly when its code pull
// request's check lets the code merge. Before the docs are approved
// neither merges; once they are, both may; a push to the code takes both
// back; and when the code merges, docs-merge lands the docs pull request,
// which the ruleset would otherwise refuse.
func TestAgentsDocsPRInTheCodeRepositoryMergesWithItsCode(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/docs", DefaultBranch: "main", Required: []string{"docs / agent-job"}})
	mergeable := func(n int) bool {
		ok, _ := w.gh.Mergeable("acme/docs", n)
		return ok
	}
	// The job ended with #101, which waits for an approving review: the
	// code waits for it, and it waits for the code's check.
	if mergeable(7) || mergeable(101) {
		t.Errorf("before any approval: #7 may merge %v, #101 may merge %v; want neither", mergeable(7), mergeable(101))
	}
	if got := w.shownOn(docsHead); got != landsWith7 {
		t.Errorf("#101's check before any approval: %q, want %q", got, landsWith7)
	}

	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	w.settleOnReview("writer", "APPROVED", false)
	if !mergeable(7) || !mergeable(101) {
		_, why7 := w.gh.Mergeable("acme/docs", 7)
		_, why101 := w.gh.Mergeable("acme/docs", 101)
		t.Fatalf("after the approval: #7 %q, #101 %q; want both to merge", why7, why101)
	}
	if got, want := w.shownOn(docsHead), "success: Lands with code pull request #7, whose docs check passed https://github.com/acme/docs/pull/7"; got != want {
		t.Errorf("#101's check after the approval: %q, want %q", got, want)
	}

	// A settle run with nothing new writes no status on either head.
	statuses := len(w.gh.Statuses())
	w.settleOnReview("writer", "COMMENTED", false)
	if got := w.gh.Statuses()[statuses:]; len(got) != 0 {
		t.Errorf("a settle run with nothing new set %+v", got)
	}

	// The code merges (the ruleset lets it); its closed run lands #101.
	w.vars["INPUT_DOCS-MERGE"] = "squash"
	delete(w.vars, "INPUT_SETTLE")
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: head2, State: "closed", Merged: true})
	w.setEvent("pull_request", codePR("closed", head2, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", true }))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("closed: %v\n%s", err, w.stdout.String())
	}
	if pr, _ := w.gh.PullRequest("acme/docs", 101); !pr.Merged {
		t.Errorf("#101 after its code merged with docs-merge: squash: not merged\n%s", w.stdout.String())
	}
}

// TestAPushTakesBackTheDocsPRsCheck: a push to the code after the docs
// were approved holds the code's check, and so the docs pull request's:
// neither merges before the agent has written the new change and the
// docs are approved again.
func TestAPushTakesBackTheDocsPRsCheck(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/docs", DefaultBranch: "main", Required: []string{"docs / agent-job"}})
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
	w.settleOnReview("writer", "APPROVED", false)
	if ok, why := w.gh.Mergeable("acme/docs", 101); !ok {
		t.Fatalf("#101 after the approval: %s", why)
	}
	w.moveHead(head2, head3, codeFiles[:1], codeFiles)
	delete(w.vars, "INPUT_SETTLE")
	w.setEvent("pull_request", push(head2, head3))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	for _, n := range []int{7, 101} {
		if ok, _ := w.gh.Mergeable("acme/docs", n); ok {
			t.Errorf("#%d may merge after a push the docs were not written for", n)
		}
	}
	if got := w.shownOn(docsHead); got != landsWith7 {
		t.Errorf("#101's check after the push: %q, want %q", got, landsWith7)
	}
}

// TestRequestsDocsPRGetsTheCheck: a /docs request in issue #12 starts a
// job that opens the agent's pull request #101 in the code's own
// repository, with no code pull request behind it. Under the ruleset it
// gets the check too: pending while the agent writes it, and once the job
// ended, success that says a person asked for it and its reviews decide.
// Neither waits for ever.
func TestRequestsDocsPRGetsTheCheck(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: 4 * time.Minute, PRAhead: 3 * time.Minute}, fakepreview.Options{}, "src/**", issueComment("writer", "/docs add a page about rate limits"))
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/docs", DefaultBranch: "main", Required: []string{"docs / agent-job"}})
	w.vars["INPUT_WAIT"], w.vars["INPUT_PREVIEW"], w.vars["INPUT_TRIGGER-PHRASE"] = "false", "false", "/docs"
	w.setEvent("issue_comment", issueComment("writer", "/docs add a page about rate limits"))
	w.mustRun("the /docs request")
	w.wantRequests(1, 0)
	w.gh.SeedPull(docsPull("open"))

	w.clk.Advance(2 * time.Minute) // the job has opened #101, and works on
	w.settleOnReview("writer", "COMMENTED", false)
	const working = "pending: The docs agent works on it for the request in #12 https://github.com/acme/docs/issues/12"
	if got := w.shownOn(docsHead); got != working {
		t.Errorf("#101's check while its job works: %q, want %q", got, working)
	}
	w.clk.Advance(10 * time.Minute)
	w.settleOnReview("writer", "COMMENTED", false)
	const want = "success: Opened for the request in #12, whose docs job ended: its reviews decide https://github.com/acme/docs/issues/12"
	if got := w.shownOn(docsHead); got != want {
		t.Errorf("#101's check after its job ended: %q, want %q", got, want)
	}
	if ok, why := w.gh.Mergeable("acme/docs", 101); !ok {
		t.Errorf("#101 may not merge: %s", why)
	}
}
