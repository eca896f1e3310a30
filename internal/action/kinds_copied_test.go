package action_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/testbed/workflows"
)

// TestEveryKindMergesWhenItsRulesAllow plays init's files for the landing
// setup, docs in the code's repository, against a fake GitHub that
// enforces the ruleset init prints (a merge into main is refused while
// docs / agent-job is not success on the head), with every kind of pull
// request open at once: a person's (#7), the agent's docs pull request
// (#101), a fork's (#8), Dependabot's (#9), another bot's (#10), and two at
// one commit (#7's branch into release as well, #11). After
// each event, each pull request may merge exactly when its rules allow,
// and never before: the table below, a column per pull request.
func TestEveryKindMergesWhenItsRulesAllow(t *testing.T) {
	t.Parallel()
	w := newInitWorld(t, fakeapi.Scenario{Runtime: 4 * time.Minute}, true, -10*time.Second, false, *initLanding())
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/docs", DefaultBranch: "main", Required: []string{"docs / agent-job"}, MergeQueue: true})
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: agentApp, HeadRef: "docs/agent-job_0001", HeadSHA: agentHead})
	const docsURL = "https://github.com/acme/docs/pull/101"
	const forkHead, forkHead2, depHead, botHead = "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0", "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f2", "d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3", "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
	other := func(action string, number int, head, author, headRepo, sender string) map[string]any {
		ev := codePR(action, head, func(pr map[string]any) {
			pr["number"], pr["user"], pr["html_url"] = number, user(author), fmt.Sprintf("https://github.com/acme/docs/pull/%d", number)
			pr["head"].(map[string]any)["repo"] = map[string]any{"full_name": headRepo}
		})
		ev["number"], ev["sender"] = number, user(sender)
		return ev
	}
	seed := func(number int, head, author, headRepo string) {
		w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: number, Author: author, HeadRef: fmt.Sprintf("b%d", number), HeadRepo: headRepo, HeadSHA: head})
	}
	at := time.Duration(0)
	mergeable := map[int]bool{}
	for _, step := range []struct {
		what string
		fire func()
		// may are the pull requests whose mergeability the step changes.
		may map[int]bool
	}{
		{"a person opens #7; its job ends with #101, which waits for an approval", func() { w.pullRequest(codePR("opened", head1, nil)) },
			map[int]bool{7: false, 101: false}},
		{"a person opens #11, #7's branch into release, where nothing under paths changes", func() {
			w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 11, Author: "writer", HeadRef: "rate-headers", HeadSHA: head1, BaseRef: "release",
				Files: []fakegithub.File{{Name: "README.md", Additions: 1, Patch: "@@ -1 +1,2 @@\n+Rate limits."}}})
			ev := other("opened", 11, head1, "writer", "acme/docs", "writer")
			ev["pull_request"].(map[string]any)["base"].(map[string]any)["ref"] = "release"
			w.pullRequest(ev)
		}, map[int]bool{11: true}}, // release has no rules; #7, at the same commit, still waits
		{"a fork opens #8", func() {
			seed(8, forkHead, "mallory", "mallory/docs")
			w.pullRequest(other("opened", 8, forkHead, "mallory", "mallory/docs", "mallory"))
		}, map[int]bool{8: false}},
		{"Dependabot opens #9", func() {
			seed(9, depHead, "dependabot[bot]", "acme/docs")
			w.pullRequest(other("opened", 9, depHead, "dependabot[bot]", "acme/docs", "dependabot[bot]"))
		}, map[int]bool{9: true}},
		{"another bot opens #10", func() {
			seed(10, botHead, "some-app[bot]", "acme/docs")
			w.pullRequest(other("opened", 10, botHead, "some-app[bot]", "acme/docs", "some-app[bot]"))
		}, map[int]bool{10: false}},
		{"the fork's author adds docs-not-needed to #8", func() {
			ev := other("labeled", 8, forkHead, "mallory", "mallory/docs", "mallory")
			ev["label"] = map[string]any{"name": "docs-not-needed"}
			w.pullRequest(ev)
		}, nil},
		{"the bot adds docs-not-needed to #10", func() {
			ev := other("labeled", 10, botHead, "some-app[bot]", "acme/docs", "some-app[bot]")
			ev["label"] = map[string]any{"name": "docs-not-needed"}
			w.pullRequest(ev)
		}, nil},
		{"a writer approves #101", func() {
			w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: agentHead})
			ev := agentPREvent("submitted", docsURL)
			ev["sender"] = user("writer")
			ev["review"] = map[string]any{"id": 1, "user": user("writer"), "body": "", "state": "approved", "commit_id": agentHead, "html_url": docsURL + "#pullrequestreview-1"}
			w.event("code", workflows.Event{Name: "pull_request_review", Payload: ev})
		}, map[int]bool{7: true, 101: true}},
		{"a merge queue asks for the check of a group holding #101", func() {
			w.gh.SeedComparison("acme/docs", groupBase, groupHead, fakegithub.Comparison{Commits: []fakegithub.Commit{{SHA: groupHead, Parents: []string{groupBase}}}})
			w.event("code", workflows.Event{Name: "merge_group", Payload: mergeGroupEvent(101)})
		}, nil},
		{"a writer adds docs-not-needed to #8", func() {
			ev := other("labeled", 8, forkHead, "mallory", "mallory/docs", "writer")
			ev["label"] = map[string]any{"name": "docs-not-needed"}
			w.pullRequest(ev)
		}, map[int]bool{8: true}},
		{"the fork pushes to #8", func() {
			seed(8, forkHead2, "mallory", "mallory/docs")
			ev := other("synchronize", 8, forkHead2, "mallory", "mallory/docs", "mallory")
			ev["before"], ev["after"] = forkHead, forkHead2
			w.pullRequest(ev)
		}, map[int]bool{8: false}},
		{"the schedule", func() {
			w.event("code", workflows.Event{Name: "schedule", Payload: map[string]any{"schedule": "17 * * * *"}})
		}, nil},
		{"a writer adds docs-not-needed to #10", func() {
			ev := other("labeled", 10, botHead, "some-app[bot]", "acme/docs", "writer")
			ev["label"] = map[string]any{"name": "docs-not-needed"}
			w.pullRequest(ev)
		}, map[int]bool{10: true}},
	} {
		at += time.Hour
		w.at(at, step.what, step.fire)
		w.play(at + 30*time.Minute)
		maps.Copy(mergeable, step.may)
		for _, n := range slices.Sorted(maps.Keys(mergeable)) {
			if got, why := w.gh.Mergeable("acme/docs", n); got != mergeable[n] {
				t.Errorf("after %s: #%d may merge %v (%s), want %v; statuses:\n%s", step.what, n, got, why, mergeable[n], strings.Join(w.statuses(), "\n"))
			}
		}
	}

	if got := w.statuses(); !slices.Contains(got, "c0ff success: Docs settled for #101, the merge group's one pull request https://github.com/acme/docs/actions/runs/4242") {
		t.Errorf("the merge group holding #101: statuses\n%s\nwant it passed", strings.Join(got, "\n"))
	}
	// The queue merges #7 and, with it, #101 (docs-merge), which the
	// ruleset lets through: its check is its code's.
	w.at(at+time.Hour, "the merge queue merges #7", func() { w.queueMerges(head1, docsURL) })
	w.play(at + 2*time.Hour)
	if pr, _ := w.gh.PullRequest("acme/docs", 101); !pr.Merged {
		t.Errorf("#101 after its code merged: not merged")
	}
	if n := w.api.Creates() + w.api.Messages(); n != 1 {
		t.Errorf("the Agent Job API got %d creates and follow-ups, want the one create of #7's job", n)
	}
}
