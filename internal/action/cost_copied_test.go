package action_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
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
