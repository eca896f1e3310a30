package action_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/setup"
	"github.com/agentjob/agent-job-action/internal/testbed/workflows"
)

// GitHub's published per-minute rates for its standard hosted runners in
// private repositories, from 1 January 2026 (docs.github.com, billing,
// "Actions runner pricing"), in tenths of a cent: ubuntu-slim is Linux
// 1-core, ubuntu-latest Linux 2-core. Public repositories pay nothing on
// these runners.
var ratePerMinute = map[string]int{"ubuntu-slim": 2, "ubuntu-latest": 6}

// docsRequestLife is the runner minutes, by runner, of one /docs request
// in an issue on init's files for c: the request's run, and the settle
// run of the agent's pull request that follows its job.
func docsRequestLife(t *testing.T, c setup.Choices, elsewhere bool) map[string]int {
	t.Helper()
	w := newInitWorld(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, true, -10*time.Second, elsewhere, c)
	w.at(0, "a /docs request", func() {
		ev := threadCommentEvent(12, false, 9901, request{who: "writer", body: "/docs Document the rate limits."})
		w.event("code", workflows.Event{Name: "issue_comment", Payload: ev})
	})
	w.play(24 * time.Hour)
	if w.api.Creates() != 1 {
		t.Fatalf("a /docs request: %d creates, want 1", w.api.Creates())
	}
	if final := w.gh.Comments(12); len(final) != 1 || recordIn(final[0].Body).Unsettled {
		t.Errorf("a /docs request: the issue's comments %+v, want its one comment, settled", final)
	}
	return w.billedOn(0)
}

// TestRunnerMoneyPerMonth: docs/cost.md's month of runner minutes and
// money for the reference team (40 code pull requests, each opened and
// pushed three times after its jobs ended; 30 /docs requests in issues;
// the hourly settle schedule), on init's files, for each setup a team
// picks: docs here or apart, waiting or not. Each figure is played on the
// simulated clock, by runner, priced at GitHub's published rates.
func TestRunnerMoneyPerMonth(t *testing.T) {
	t.Parallel()
	const prs, requests = 40, 30
	perMonth := 0
	for at := step0(); ; perMonth++ {
		next, err := workflows.Next("17 * * * *", at)
		if err != nil {
			t.Fatal(err)
		}
		if next.After(step0().AddDate(0, 0, 30)) {
			break
		}
		at = next
	}
	var rows []string
	for _, s := range []struct {
		name            string
		wait, elsewhere bool
	}{
		{"No wait, docs in the code's repository", false, false},
		{"No wait, docs in another repository", false, true},
		{"Waiting (`--wait`), docs in the code's repository", true, false},
		{"Waiting (`--wait`), docs in another repository", true, true},
	} {
		c := initNoWait()
		c.Wait = s.wait
		pr := codePRLife(t, copiedFrom{init: c}, true, -10*time.Second, s.elsewhere, nil, 0).byRunner
		rq := docsRequestLife(t, *c, s.elsewhere)
		month := map[string]int{}
		for runner, m := range pr {
			month[runner] += prs * m
		}
		for runner, m := range rq {
			month[runner] += requests * m
		}
		// Each scheduled settle run with nothing to settle bills its
		// whole minute on ubuntu-slim.
		month["ubuntu-slim"] += perMonth
		cents := 0
		for runner, m := range month {
			rate, ok := ratePerMinute[runner]
			if !ok {
				t.Fatalf("%s: a run on %s, whose rate is not modelled", s.name, runner)
			}
			cents += m * rate
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | $%d.%02d |", s.name, thousands(month["ubuntu-slim"]), thousands(month["ubuntu-latest"]),
			cents/1000, (cents%1000+5)/10))
		t.Logf("%s: a code pull request %v, a /docs request %v, the month %v", s.name, pr, rq, month)
	}
	table := "| Setup, as init writes it | Minutes on `ubuntu-slim` | Minutes on `ubuntu-latest` | Dollars in a private repository |\n|---|---|---|---|\n" +
		strings.Join(rows, "\n") + "\n"
	wantIn(t, "../../docs/cost.md", table)
}

// step0 is when the simulated month starts.
func step0() time.Time { return time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) }

// reviewedLife plays, on init's files for c, a code pull request opened,
// pushed three times, each push after the job before it ended, approved,
// then pushed again and approved again as many times as more says, and
// merged: its creates and follow-ups, and its runner minutes by runner.
func reviewedLife(t *testing.T, c setup.Choices, more int) (sends int, minutes map[string]int) {
	t.Helper()
	w := newInitWorld(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, true, -10*time.Second, false, c)
	heads := []string{head1, head2, head3, head4, head5, head6, head7}
	files := slices.Clone(codeFiles)
	at, pushed := time.Duration(0), 1
	step := func(fire func()) {
		at += time.Hour
		w.at(at, "", fire)
	}
	push := func() {
		step(func() {
			pushed++
			f := fakegithub.File{Name: fmt.Sprintf("src/push%d.go", pushed), Status: "added", Additions: 1, Patch: "@@ +1 @@"}
			files = append(files, f)
			w.moveHead(heads[pushed-2], heads[pushed-1], []fakegithub.File{f}, files)
			ev := codePR("synchronize", heads[pushed-1], nil)
			ev["before"], ev["after"] = heads[pushed-2], heads[pushed-1]
			w.pullRequest(ev)
		})
	}
	approve := func() {
		step(func() {
			head := heads[pushed-1]
			w.gh.SeedReview(7, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: head})
			ev := codePR("submitted", head, nil)
			ev["sender"] = user("writer")
			ev["review"] = map[string]any{"id": 900 + pushed, "user": user("writer"), "body": "", "state": "approved", "commit_id": head,
				"html_url": fmt.Sprintf("https://github.com/acme/docs/pull/7#pullrequestreview-%d", 900+pushed)}
			w.event("code", workflows.Event{Name: "pull_request_review", Payload: ev})
		})
	}
	w.at(0, "opened", func() { w.pullRequest(codePR("opened", head1, nil)) })
	push()
	push()
	push()
	approve()
	for range more {
		push()
		approve()
	}
	step(func() {
		w.pullRequest(codePR("closed", heads[pushed-1], func(pr map[string]any) { pr["state"], pr["merged"] = "closed", true }))
	})
	w.play(48 * time.Hour)
	if final, _ := w.final(heads[pushed-1]); !strings.Contains(final.status, " success: Docs updated") {
		t.Errorf("the merged head's check %q, want the docs updated", final.status)
	}
	return w.api.Creates() + w.api.Messages(), w.billedOn(0)
}

// The provider's published averages of what one run of its agent costs,
// in credits, mid-2026 (Mintlify's pricing, https://mintlify.com/pricing):
// a run on a code change, and an editor run (a request in words).
const (
	creditsCodeRun   = 180
	creditsEditorRun = 115
	// planCredits are a Pro plan's credits a month; each past them costs
	// a cent.
	planCredits = 10000
)

// TestMonthOfSends: docs/cost.md's month of sends, credits and money for
// the reference team under each choice of docs-when, on init's files: of
// its 40 code pull requests (each opened and pushed three times, each push
// after its job ended, then merged), 30 are approved once after their
// three pushes, and 10 get one more push after the approval and are
// approved again; 30 /docs requests and 4 weekly runs add an editor run
// each. With docs-when: approved it is at most 1.25 sends per merged code
// pull request.
func TestMonthOfSends(t *testing.T) {
	t.Parallel()
	const once, twice, requests, weekly = 30, 10, 30, 4
	var rows []string
	for _, s := range []struct {
		name     string
		approved bool
	}{{"`push` (the default)", false}, {"`approved`", true}} {
		c := initNoWait()
		c.WhenApproved = s.approved
		s1, m1 := reviewedLife(t, *c, 0)
		s2, m2 := reviewedLife(t, *c, 1)
		code := once*s1 + twice*s2
		per := float64(code) / (once + twice)
		if s.approved && per > 1.25 {
			t.Errorf("%s: %.2f sends per merged code pull request, want at most 1.25", s.name, per)
		}
		editor := requests + weekly
		credits := code*creditsCodeRun + editor*creditsEditorRun
		past := max(0, credits-planCredits)
		minutes := once*m1["ubuntu-slim"] + twice*m2["ubuntu-slim"]
		rows = append(rows, fmt.Sprintf("| %s | %d and %d | %d (%.2f a merged code pull request) | %s | $%d.%02d | %s |",
			s.name, s1, s2, code+editor, per, thousands(credits), past/100, past%100, thousands(minutes)))
		t.Logf("%s: lives %d and %d sends, %v and %v minutes", s.name, s1, s2, m1, m2)
	}
	table := "| docs-when | Sends of a code pull request approved once, and twice | Sends a month | Credits a month, estimated | Past a Pro plan's 10,000 credits | Runner minutes of the code pull requests |\n|---|---|---|---|---|---|\n" +
		strings.Join(rows, "\n") + "\n"
	wantIn(t, "../../docs/cost.md", table)
}
