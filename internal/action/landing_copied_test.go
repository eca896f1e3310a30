package action_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/setup"
	"github.com/agentjob/agent-job-action/internal/testbed/workflows"
)

// landingPage is the page whose workflows make the docs land with the
// code, and their names.
const landingPage = "../../docs/landing.md"

var (
	landingCode = []string{"Docs land with the code", "Docs jobs settle, with approvals"}
	landingDocs = []string{"Docs pull request moved, with reviews"}
)

// agentHead is the agent's pull request's latest commit, as its events
// name it (agentPREvent).
const agentHead = "abababababababababababababababababababab"

// TestDocsLandWithTheCodeAsCopied plays docs/landing.md's workflows as a
// team copies them, for code pull request #7, with the docs in the same
// repository and in another: the pull request is opened, its job ends
// with the docs pull request, whose check then waits for an approval; a
// writer approves it; a merge queue asks for the group's check; the queue
// merges the code, and the docs pull request is merged with it. It holds
// what each server received, that no run but the first sent the agent
// anything, and the runner minutes each step costs, which the page shows.
func TestDocsLandWithTheCodeAsCopied(t *testing.T) {
	t.Parallel()
	var rows []string
	var review, group [2]int // runner minutes, docs here and elsewhere
	for i, elsewhere := range []bool{false, true} {
		steps := landWithTheCode(t, copiedFrom{page: landingPage, code: landingCode, docs: landingDocs}, elsewhere)
		// init's files for the same choices: the same sends and writes
		// (landWithTheCode holds them), the same runner minutes.
		c := setup.Defaults
		c.Merge, c.Close, c.MergeQueue, c.AgentApp, c.Paths = "squash", true, true, agentApp, []string{"src/**", "!src/**/*_test.go"}
		for j, s := range landWithTheCode(t, copiedFrom{init: &c}, elsewhere) {
			if s.cost != steps[j].cost {
				t.Errorf("init's files, docs elsewhere %v: %q costs %s, the page's %s", elsewhere, s.what, s.cost, steps[j].cost)
			}
		}
		review[i], group[i] = steps[1].minutes, steps[2].minutes
		for i, s := range steps {
			if !elsewhere {
				rows = append(rows, fmt.Sprintf("| %s | %s |", s.what, s.cost))
				continue
			}
			rows[i] += " " + s.cost + " |"
		}
	}
	table := "| Step | Runs, runner minutes (docs in the code's repository) | The same, docs in another repository |\n|---|---|---|\n" + strings.Join(rows, "\n") + "\n"
	wantIn(t, landingPage, table)
	wantIn(t, "../../README.md", fmt.Sprintf("Each review of the docs pull request starts one settle run, %s (%d with the docs in another\nrepository); each merge group one run of the code workflow, %s;",
		report.Count(review[0], "runner minute"), review[1], report.Count(group[0], "runner minute")))
	if group[1] != group[0] {
		t.Errorf("a merge group costs %d runner minutes with the docs elsewhere, %d here: the README says one figure", group[1], group[0])
	}
}

// landed is one step of a code pull request's life, and what it cost.
type landed struct {
	what, cost string
	minutes    int
}

// queueMerges is a merge queue merging code pull request #7 at head,
// whose run merges its docs pull request at docsURL: with the docs apart,
// that merge is an event of the docs repository, which its workflow
// passes on; GITHUB_TOKEN's merge, in the code's repository, starts no
// workflow.
func (w *copiedWorld) queueMerges(head, docsURL string) {
	ev := codePR("closed", head, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", true })
	ev["sender"] = user("github-merge-queue[bot]")
	w.pullRequest(ev)
	if w.elsewhere {
		merged := agentPREvent("closed", docsURL)
		merged["pull_request"].(map[string]any)["merged"] = true
		w.event("docs", workflows.Event{Name: "pull_request", Payload: merged})
	}
}

func landWithTheCode(t *testing.T, from copiedFrom, elsewhere bool) []landed {
	t.Helper()
	w := from.world(t, fakeapi.Scenario{Runtime: 4 * time.Minute}, true, -10*time.Second, elsewhere)
	docsRepo, docsURL := "acme/docs", "https://github.com/acme/docs/pull/101"
	if elsewhere {
		docsRepo, docsURL = "acme/handbook", "https://github.com/acme/handbook/pull/101"
	}
	w.gh.SeedPull(fakegithub.Pull{Repo: docsRepo, Number: 101, Author: agentApp, HeadRef: "docs/agent-job_0001", HeadSHA: agentHead})
	docsEvents := "code"
	if elsewhere {
		docsEvents = "docs"
	}
	var steps []landed
	step := func(what string, at time.Duration, fire func()) {
		t.Helper()
		from := len(w.runs)
		w.at(at, what, fire)
		w.play(at + 30*time.Minute)
		started, minutes := 0, 0
		for _, r := range w.runs[from:] {
			if r.runs {
				started++
				minutes += workflows.Billed(r.took)
			}
		}
		steps = append(steps, landed{what, fmt.Sprintf("%s, %d", report.Count(started, "run"), minutes), minutes})
	}

	step("The code pull request is opened; its job ends with the docs pull request", 0, func() { w.pullRequest(codePR("opened", head1, nil)) })
	waits := "1111 pending: Waits for an approving review of docs pull request #101 " + docsURL
	if got := w.statuses(); got[len(got)-1] != waits {
		t.Fatalf("docs %s: statuses after the job's end:\n%s\nwant the last: %s", docsRepo, strings.Join(got, "\n"), waits)
	}

	step("A writer approves the docs pull request", time.Hour, func() {
		w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: agentHead})
		ev := agentPREvent("opened", docsURL)
		ev["action"], ev["sender"] = "submitted", user("writer")
		ev["review"] = map[string]any{"id": 777, "user": user("writer"), "body": "", "state": "approved", "commit_id": agentHead, "html_url": docsURL + "#pullrequestreview-777"}
		w.event(docsEvents, workflows.Event{Name: "pull_request_review", Payload: ev})
	})
	if got := w.statuses(); got[len(got)-1] != "1111 success: Docs approved in pull request #101 "+docsURL {
		t.Errorf("docs %s: statuses after the approval:\n%s", docsRepo, strings.Join(got, "\n"))
	}

	step("A merge queue asks for the check of the group of #7", 2*time.Hour, func() {
		ev := mergeGroupEvent(7)
		w.gh.SeedComparison("acme/docs", groupBase, groupHead, fakegithub.Comparison{Commits: []fakegithub.Commit{{SHA: groupHead, Parents: []string{groupBase}}}})
		w.event("code", workflows.Event{Name: "merge_group", Payload: ev})
	})
	if got := w.statuses(); !slices.Contains(got, "c0ff success: Docs settled for #7, the merge group's one pull request https://github.com/acme/docs/actions/runs/4242") {
		t.Errorf("docs %s: statuses after the merge group:\n%s", docsRepo, strings.Join(got, "\n"))
	}

	step("The queue merges #7; its docs pull request is merged with it", 3*time.Hour, func() { w.queueMerges(head1, docsURL) })
	if pr, _ := w.gh.PullRequest(docsRepo, 101); !pr.Merged || pr.MergeMethod != "squash" {
		t.Errorf("docs %s: the docs pull request after the code's merge: %+v, want merged by squash", docsRepo, pr)
	}
	// The merged head keeps a check that says what happened: the docs
	// landed with it, never an error the closed run could not judge.
	if got := w.statuses(); got[len(got)-1] != "1111 success: Docs merged in pull request #101 "+docsURL {
		t.Errorf("docs %s: the last status after the merge %q, want the docs merged", docsRepo, got[len(got)-1])
	}
	if c := w.gh.Comments(7); len(c) != 1 || !strings.Contains(c[0].Body, "is merged with this one (squash).") || strings.Contains(c[0].Body, "merged before this pull request") {
		t.Errorf("docs %s: the comment on #7: %+v", docsRepo, c)
	}
	for _, r := range w.api.Requests()[1:] {
		if r.Method != "GET" {
			t.Errorf("docs %s: the Agent API got %s %s after the create", docsRepo, r.Method, r.Path)
		}
	}
	return steps
}
