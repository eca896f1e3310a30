package main

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

// TestRunnerMinutesPerCodePR measures, on the simulated clock, what a code
// pull request opened and pushed three times costs in runner time with
// 8-minute jobs, in the two setups the README shows: runs that wait for
// the job, and runs that do not (wait: false) with a settle run. GitHub
// bills each job rounded up to a whole minute; a run that does not wait
// takes seconds of real time, billed as one minute. The figures are
// logged (go test -v -run TestRunnerMinutesPerCodePR .) for
// docs/no-wait.md; the test holds that no run of the no-wait setup sleeps
// at all, and that each waiting run waits for a whole job.
func TestRunnerMinutesPerCodePR(t *testing.T) {
	t.Parallel()
	const job = 8 * time.Minute
	billed := func(d time.Duration) int { return max(1, int(math.Ceil(d.Minutes()))) }
	for _, wait := range []bool{true, false} {
		w := newCodeWorld(t, fakeapi.Scenario{Runtime: job}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
		w.vars["INPUT_PREVIEW"] = "false"
		if !wait {
			w.vars["INPUT_WAIT"] = "false"
		}
		heads := []string{head1, head2, head3, head4}
		files := slices.Clone(codeFiles)
		var runs []time.Duration
		minutes := 0
		run := func(what string) {
			t.Helper()
			naps, start := len(w.clk.Naps()), w.clk.Now()
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("%s: %v\n%s", what, err, w.stdout.String())
			}
			took := w.clk.Now().Sub(start)
			runs, minutes = append(runs, took), minutes+billed(took)
			switch {
			case !wait && len(w.clk.Naps()) != naps:
				t.Errorf("wait: false, %s: the run slept %v", what, w.clk.Naps()[naps:])
			case wait && took < job:
				t.Errorf("wait: true, %s: the run took %s, less than the job", what, took)
			}
		}
		run("opened")
		for i := 1; i < len(heads); i++ {
			// The next push comes once the job has ended.
			w.clk.Advance(job + time.Minute)
			f := fakegithub.File{Name: "src/push" + string(rune('0'+i)) + ".go", Status: "added", Additions: 1, Patch: "@@ +1 @@"}
			files = append(files, f)
			w.moveHead(heads[i-1], heads[i], fakegithub.Comparison{Files: []fakegithub.File{f}}, files)
			w.setEvent("pull_request", push(heads[i-1], heads[i]))
			run("push")
		}
		if !wait {
			w.clk.Advance(job + time.Minute)
			w.settleRun()
			run("settle")
		}
		t.Logf("wait: %v: %d runs of %v on the simulated clock: %d runner minutes billed; %d creates and %d follow-ups",
			wait, len(runs), runs, minutes, w.api.Creates(), w.api.Messages())
	}
}
