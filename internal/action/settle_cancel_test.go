package action_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// TestSettleRecordsASendThatWentWhenCancelled: a settle run cancelled as
// the runner cancels it, at any moment, here the moment the Agent API has
// received the follow-up with the change that waited and before it
// answers, still hears the answer and writes in the record that the job
// heard the new head, and the send counts for the caps. The next settle
// run sends the same change no second time. (The process, cancelled with
// the runner's signals, is TestSettleCancelledByTheRunnerKeepsWhatItSent.)
func TestSettleRecordsASendThatWentWhenCancelled(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	pushWhileWorking(t, w)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The settle run's requests to the API: 1 read of the job, 2 the
	// follow-up.
	w.api.FailOn(len(w.api.Requests())+2, func(_ http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/message") {
			t.Errorf("cancelled on %s %s, want the follow-up", r.Method, r.URL.Path)
		}
		cancel()
		return false
	})
	_ = w.runGuarded(ctx)
	w.wantRequests(1, 1)
	c := w.gh.Comments(7)
	if r := recordIn(c[0].Body); len(c) != 1 || r.Head != head2 || r.Waiting != "" || r.Sent.Total != 2 || !r.Unsettled {
		t.Fatalf("the record after a settle run cancelled once its follow-up went: %+v, want the job to have heard %s, the send counted:\n%s", r, head2, w.stdout.String())
	}

	// The job ends; the next settle run reports it, and sends nothing.
	w.clk.Advance(10 * time.Minute)
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("second settle: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 1)
	if r := recordIn(w.gh.Comments(7)[0].Body); r.Unsettled || r.Head != head2 {
		t.Errorf("the record after the second settle run: %+v, want the job's end reported", r)
	}
}
