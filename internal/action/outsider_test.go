package action_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/setup"
	"github.com/agentjob/agent-job-action/internal/testbed/workflows"
)

// The outsider's attacks found by a review of the outside job (issue 47):
// each plays init's files against a fake GitHub that enforces init's
// ruleset.

// outsiderWorld is init's landing files (docs in the code's repository,
// docs-check: approved) against a fake GitHub that enforces init's
// ruleset, as TestEveryKindMergesWhenItsRulesAllow plays them, with the
// helpers an outsider's events need.
type outsiderWorld struct {
	*copiedWorld
	at time.Duration
}

func newOutsiderWorld(t *testing.T) *outsiderWorld {
	t.Helper()
	return newOutsiderWorldOf(t, *initLanding())
}

func newOutsiderWorldOf(t *testing.T, c setup.Choices) *outsiderWorld {
	t.Helper()
	w := newInitWorld(t, fakeapi.Scenario{Runtime: 4 * time.Minute}, true, -10*time.Second, false, c)
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/docs", DefaultBranch: "main", Required: []string{"docs / agent-job"}, MergeQueue: true})
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: agentApp, HeadRef: "docs/agent-job_0001", HeadSHA: agentHead})
	return &outsiderWorld{copiedWorld: w}
}

// step fires fire an hour after the last step and plays its runs out.
func (w *outsiderWorld) step(what string, fire func()) {
	w.at += time.Hour
	w.copiedWorld.at(w.at, what, fire)
	w.play(w.at + 30*time.Minute)
}

// other is a pull_request event of pull request number, opened by author
// from headRepo's branch at head into base, sent by sender.
func other(action string, number int, head, author, headRepo, base, sender string) map[string]any {
	ev := codePR(action, head, func(pr map[string]any) {
		pr["number"], pr["user"], pr["html_url"] = number, user(author), fmt.Sprintf("https://github.com/acme/docs/pull/%d", number)
		pr["head"].(map[string]any)["repo"] = map[string]any{"full_name": headRepo}
		pr["head"].(map[string]any)["ref"] = fmt.Sprintf("b%d", number)
		pr["base"].(map[string]any)["ref"] = base
	})
	ev["number"], ev["sender"] = number, user(sender)
	return ev
}

func (w *outsiderWorld) mayMerge(n int) (bool, string) { return w.gh.Mergeable("acme/docs", n) }

// approveDocs is a writer's approval of the agent's #101, which settles
// #7's check (and #101's, which lands with it).
func (w *outsiderWorld) approveDocs() {
	const docsURL = "https://github.com/acme/docs/pull/101"
	w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: agentHead})
	ev := agentPREvent("submitted", docsURL)
	ev["sender"] = user("writer")
	ev["review"] = map[string]any{"id": 1, "user": user("writer"), "body": "", "state": "approved", "commit_id": agentHead, "html_url": docsURL + "#pullrequestreview-1"}
	w.event("code", workflows.Event{Name: "pull_request_review", Payload: ev})
}

// TestForkMovedToAnotherBaseLosesItsRelease: a writer releases a fork's
// pull request #8 into develop (docs-not-needed: the change into develop
// needs no docs). The fork's author, who may edit their own pull request,
// moves it to main. The release was given for the change into develop
// (the session's own rule for a code pull request: "a release holds for
// the base it was given on", TestReleaseIsBoundToItsBase), but init's
// outside job does not hear pull_request_target edited, so nothing takes
// the success back: #8 may merge into main on a release nobody gave for
// main, by the outsider's own action.
func TestForkMovedToAnotherBaseLosesItsRelease(t *testing.T) {
	t.Parallel()
	w := newOutsiderWorld(t)
	const forkHead = "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0"
	w.step("an outsider opens #8 from a fork into develop", func() {
		w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 8, Author: "mallory", HeadRef: "b8", HeadRepo: "mallory/docs", HeadSHA: forkHead, BaseRef: "develop"})
		w.pullRequest(other("opened", 8, forkHead, "mallory", "mallory/docs", "develop", "mallory"))
	})
	w.step("a writer adds docs-not-needed to #8 (into develop)", func() {
		ev := other("labeled", 8, forkHead, "mallory", "mallory/docs", "develop", "writer")
		ev["label"] = map[string]any{"name": "docs-not-needed"}
		w.pullRequest(ev)
	})
	if got := w.shownOn(forkHead); !strings.HasPrefix(got, "success: Docs check released by writer") {
		t.Fatalf("#8 after the writer's release: %q", got)
	}
	w.step("the outsider moves #8 to main", func() {
		w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 8, Author: "mallory", HeadRef: "b8", HeadRepo: "mallory/docs", HeadSHA: forkHead, BaseRef: "main"})
		ev := other("edited", 8, forkHead, "mallory", "mallory/docs", "main", "mallory")
		ev["changes"] = map[string]any{"base": map[string]any{"ref": map[string]any{"from": "develop"}, "sha": map[string]any{"from": mergeBase}}}
		w.pullRequest(ev)
	})
	w.step("the schedule", func() {
		w.event("code", workflows.Event{Name: "schedule", Payload: map[string]any{"schedule": "17 * * * *"}})
	})
	if ok, _ := w.mayMerge(8); ok {
		t.Errorf("#8, moved by its outsider author from develop to main, may merge into main on the release given for develop: head shows %q", w.shownOn(forkHead))
	}
}

// TestReleasingAForkAtACodeHeadReleasesNeither: #7's docs wait for an
// approval (pending on head1, #101 pending with it). An outsider opens a
// fork pull request #8 whose head is #7's head1. A writer, judging #8
// alone (a fork's pull request, where no docs job runs), adds
// docs-not-needed to it: the release is written on head1, which is #7's
// head too, so #7 turns green with its docs never approved, and #101,
// whose check pairs #7's, may merge too. The release was a person's word
// on #8, not on #7, whose docs the team asked to be approved. (The next
// scheduled settle run judges #101 again and sets #7 back to pending: the
// window is up to an hour, in which a merge or the merge queue takes #7.)
func TestReleasingAForkAtACodeHeadReleasesNeither(t *testing.T) {
	t.Parallel()
	w := newOutsiderWorld(t)
	w.step("a person opens #7; its job ends with #101, which waits for an approval", func() { w.pullRequest(codePR("opened", head1, nil)) })
	if ok, _ := w.mayMerge(7); ok {
		t.Fatalf("#7 may merge before its docs are approved")
	}
	w.step("an outsider opens #8 from a fork, at #7's head", func() {
		w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 8, Author: "mallory", HeadRef: "b8", HeadRepo: "mallory/docs", HeadSHA: head1})
		w.pullRequest(other("opened", 8, head1, "mallory", "mallory/docs", "main", "mallory"))
	})
	w.step("a writer adds docs-not-needed to the fork's #8", func() {
		ev := other("labeled", 8, head1, "mallory", "mallory/docs", "main", "writer")
		ev["label"] = map[string]any{"name": "docs-not-needed"}
		w.pullRequest(ev)
	})
	for _, n := range []int{7, 101} {
		if ok, _ := w.mayMerge(n); ok {
			t.Errorf("#%d may merge with #7's docs never approved, on a release given on the fork's #8: head1 shows %q", n, w.shownOn(head1))
		}
	}
}
