package action_test

import (
	"context"
	"math"
	"os"
	"slices"
	"strings"
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
		// Without waiting, a settle run starts on the agent's pull
		// request's event as the job ends (the settle workflow of
		// docs/no-wait.md).
		settle := func() {
			if wait {
				return
			}
			event, vars := w.vars["GITHUB_EVENT_NAME"], map[string]string{"INPUT_SETTLE": "", "INPUT_WAIT": w.vars["INPUT_WAIT"]}
			data, _ := os.ReadFile(w.vars["GITHUB_EVENT_PATH"])
			w.settleRun()
			run("settle")
			w.vars["GITHUB_EVENT_NAME"] = event
			for k, v := range vars {
				w.vars[k] = v
			}
			if err := os.WriteFile(w.vars["GITHUB_EVENT_PATH"], data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		run("opened")
		for i := 1; i < len(heads); i++ {
			// The next push comes once the job has ended.
			w.clk.Advance(job + time.Minute)
			settle()
			f := fakegithub.File{Name: "src/push" + string(rune('0'+i)) + ".go", Status: "added", Additions: 1, Patch: "@@ +1 @@"}
			files = append(files, f)
			w.moveHead(heads[i-1], heads[i], fakegithub.Comparison{Files: []fakegithub.File{f}}, files)
			w.setEvent("pull_request", push(heads[i-1], heads[i]))
			run("push")
		}
		w.clk.Advance(job + time.Minute)
		settle()
		if got := w.statuses(); !strings.Contains(got[len(got)-1], "4444 success: ") {
			t.Errorf("wait: %v: statuses end %q, want the last head's success", wait, got[len(got)-1])
		}
		t.Logf("wait: %v: %d runs of %v on the simulated clock: %d runner minutes billed; %d creates and %d follow-ups, %d Agent API requests in all, %d GitHub requests",
			wait, len(runs), runs, minutes, w.api.Creates(), w.api.Messages(), len(w.api.Requests()), len(w.gh.Requests()))
	}
}
