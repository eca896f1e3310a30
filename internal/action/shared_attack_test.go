package action_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

// TestSpamHidesNoWaitingPullRequest: an outsider opens 300 fork pull
// requests, each at a commit of its own. The team's #900, from
// rate-headers into main, is opened after them, its docs job working on
// head1; #7, the same branch into release, changes nothing under paths.
// Its run asks GitHub for the pull requests that hold head1, which no
// fork's spam is among: #900 waits, and head1 is not turned green.
func TestSpamHidesNoWaitingPullRequest(t *testing.T) {
	t.Parallel()
	ev := codePR("opened", head1, func(pr map[string]any) { pr["number"], pr["html_url"] = 900, "https://github.com/acme/docs/pull/900" })
	ev["number"] = 900
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, fakepreview.Options{}, "src/**", ev)
	w.vars["INPUT_WAIT"], w.vars["INPUT_PREVIEW"] = "false", "false"
	for i := range 300 {
		w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 500 + i, Author: "mallory", HeadRef: fmt.Sprintf("spam%d", i), HeadRepo: "mallory/docs", HeadSHA: fmt.Sprintf("%040x", 500+i)})
	}
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 900, Author: "writer", HeadRef: "rate-headers", HeadSHA: head1, Files: codeFiles})
	w.mustRun("#900 opened")
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", HeadRef: "rate-headers", HeadSHA: head1, BaseRef: "release",
		Files: []fakegithub.File{{Name: "README.md", Additions: 1, Patch: "@@ -1 +1,2 @@\n+Rate limits."}}})
	w.setEvent("pull_request", codePR("opened", head1, func(pr map[string]any) { pr["base"].(map[string]any)["ref"] = "release" }))
	w.mustRun("#7 opened into release")
	if got := w.shownOn(head1); !strings.HasPrefix(got, "pending: #900 heads this commit too") {
		t.Errorf("head1, where #900's docs job works, after #7's run past 300 outsider pull requests: %q", got)
	}
}

// TestOutsidersPullRequestsAtTheHeadCostOneRead: anyone may open a pull
// request from a branch of the repository: mallory opens 100 from
// rate-headers (#7's branch) into other bases, and floods each. Her pull
// requests can have no docs job, so no record: the run that writes #7's
// success reads her permission once, and none of her threads.
func TestOutsidersPullRequestsAtTheHeadCostOneRead(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_PREVIEW"] = "false"
	for i := range 100 {
		w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 200 + i, Author: "mallory", HeadRef: "rate-headers", HeadSHA: head1, BaseRef: fmt.Sprintf("b%d", i)})
		for j := range 200 {
			w.gh.SeedComment(200+i, "mallory", false, fmt.Sprintf("spam %d", j))
		}
	}
	from := len(w.gh.Requests())
	w.mustRun("#7 opened; its job ends well")
	if got := w.shownOn(head1); !strings.HasPrefix(got, "success: ") {
		t.Errorf("head1 after #7's job ended well: %q, want success", got)
	}
	threads, permissions := 0, 0
	for _, c := range w.ghCalls(from) {
		var n int
		if _, err := fmt.Sscanf(c, "GET /repos/acme/docs/issues/%d/comments", &n); err == nil && n >= 200 {
			threads++
		}
		if strings.HasPrefix(c, "GET /repos/acme/docs/collaborators/mallory/permission") {
			permissions++
		}
	}
	if threads != 0 || permissions != 1 {
		t.Errorf("#7's run read %d of mallory's threads and her permission %d times, want none and once", threads, permissions)
	}
}

// TestPullRequestFromABotsBranchHoldsNothing: Dependabot's #13
// (release-bots) is released on each head it pushes; mallory opens #15
// from Dependabot's branch into another base, at the same head. Hers has
// no docs job, nor a record: #13 still gets its success, and may merge.
func TestPullRequestFromABotsBranchHoldsNothing(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/docs", DefaultBranch: "main", Required: []string{"docs / agent-job"}})
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 13, Author: "dependabot[bot]", HeadRef: "dependabot/go/x", HeadSHA: botHead})
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 15, Author: "mallory", HeadRef: "dependabot/go/x", HeadSHA: botHead, BaseRef: "release"})
	w.outsideRun(outsidePR(13, "synchronize", botHead, "dependabot[bot]", "acme/docs", "dependabot[bot]"))
	if ok, why := w.gh.Mergeable("acme/docs", 13); !ok {
		t.Errorf("Dependabot's #13 may not merge while mallory's #15 shares its branch: %s; head shows %q", why, w.shownOn(botHead))
	}
}

// TestSharedHeadOnTheDefaultBranch: #7 and #8 both come from main's head
// commit, into two other bases. GitHub lists, for a commit of the default
// branch, only the merged pull request that brought it, so the run that
// does not find its own pull request in that list reads every open one:
// #8's success is held for #7, whose job works there.
func TestSharedHeadOnTheDefaultBranch(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	w.gh.SeedBranch("acme/docs", "main", head1)
	w.secondBase()
	w.mustRun("#8 opened into release")
	if got := w.shownOn(head1); !strings.HasPrefix(got, "pending: #7 heads this commit too") {
		t.Errorf("head1, main's commit, after #8's run: %q, want it held for #7", got)
	}
}

// TestOutsideJobReadsRecordsWithoutALogin: the outside job (pull-requests:
// read, statuses: write) writes nothing but statuses, so it learns no
// login of its own. Dependabot's #13 (release-bots), from #7's branch into
// release, is at head1, where #7's docs job works: the job reads #7's
// record as any bot's (a record there can only hold a success back), and
// holds #13's success for #7, with no reaction written.
func TestOutsideJobReadsRecordsWithoutALogin(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_WAIT"], w.vars["INPUT_PREVIEW"] = "false", "false"
	w.mustRun("#7 opened; its job works")
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 13, Author: "dependabot[bot]", HeadRef: "rate-headers", HeadSHA: head1, BaseRef: "release"})
	from := len(w.gh.Requests())
	w.outsideRun(outsidePR(13, "opened", head1, "dependabot[bot]", "acme/docs", "dependabot[bot]"))
	if got := w.shownOn(head1); !strings.HasPrefix(got, "pending: #7 heads this commit too") {
		t.Errorf("head1, where #7's job works, after #13's outside run: %q, want it held for #7", got)
	}
	for _, c := range w.githubWrites(from) {
		if !strings.HasPrefix(c, "POST /repos/acme/docs/statuses/") {
			t.Errorf("the outside job wrote %s, want statuses only", c)
		}
	}
}

// TestFloodedWaitingThreadHoldsItsHead: an outsider comments on the team's
// #7 (anyone may): 150 comments before its record, 1,000 after. #7's docs
// job works on head1, and #8, the same branch into release, changes
// nothing under paths: a record hidden past what a run reads may wait, so
// #8's run claims no success on head1.
func TestFloodedWaitingThreadHoldsItsHead(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_WAIT"], w.vars["INPUT_PREVIEW"] = "false", "false"
	for i := range 150 {
		w.gh.SeedComment(7, "mallory", false, fmt.Sprintf("before %d", i))
	}
	w.mustRun("#7 opened")
	for i := range 1000 {
		w.gh.SeedComment(7, "mallory", false, fmt.Sprintf("after %d", i))
	}
	w.secondBase()
	w.mustRun("#8 opened into release")
	if got := w.shownOn(head1); strings.HasPrefix(got, "success: ") {
		t.Errorf("head1, where #7's docs job works, after an outsider flooded #7 and #8 opened: %q", got)
	}
}

// TestForkBorrowsNoOtherForksRelease: mallory opens two fork pull requests
// at one commit, #8 into develop and #9 into main. A writer releases #8:
// the release holds for #8's base, and #9, nobody released, still waits,
// so the commit is not turned green while #9 is open.
func TestForkBorrowsNoOtherForksRelease(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/docs", DefaultBranch: "main", Required: []string{"docs / agent-job"}})
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 8, Author: "mallory", HeadRef: "patch-1", HeadRepo: "mallory/docs", HeadSHA: forkHead, BaseRef: "develop"})
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 9, Author: "mallory", HeadRef: "patch-1", HeadRepo: "mallory/docs", HeadSHA: forkHead, BaseRef: "main"})
	w.outsideRun(outsidePR(8, "opened", forkHead, "mallory", "mallory/docs", "mallory"))
	w.outsideRun(outsidePR(9, "opened", forkHead, "mallory", "mallory/docs", "mallory"))
	w.outsideRun(outsideLabeled(outsidePR(8, "labeled", forkHead, "mallory", "mallory/docs", "writer")))
	if ok, _ := w.gh.Mergeable("acme/docs", 9); ok {
		t.Errorf("mallory's #9 (into main) may merge on the release a writer gave her #8 (into develop): head shows %q", w.shownOn(forkHead))
	}
}

// TestReleasedForkHoldsNoOtherForksRelease: mallory's #9 (into main) and
// #8 (into develop) share a commit; #9 has the release label already (a
// maintainer released it there): a writer's release of #8 is not held for
// #9, and the commit turns green.
func TestReleasedForkHoldsNoOtherForksRelease(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 8, Author: "mallory", HeadRef: "patch-1", HeadRepo: "mallory/docs", HeadSHA: forkHead, BaseRef: "develop"})
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 9, Author: "mallory", HeadRef: "patch-1", HeadRepo: "mallory/docs", HeadSHA: forkHead, Labels: []string{"docs-not-needed"}})
	w.outsideRun(outsideLabeled(outsidePR(8, "labeled", forkHead, "mallory", "mallory/docs", "writer")))
	if got := w.shownOn(forkHead); !strings.HasPrefix(got, "success: Docs check released by writer") {
		t.Errorf("the commit after the release of #8, #9 released already: %q", got)
	}
}
