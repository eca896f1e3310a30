package action_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/record"
)

// TestSettleKeepsARecordWrittenSinceItRead: a settle run reads a record
// (job_0001 left working, owing head1), and while it sets head1's status a
// push run in the same pull request (another workflow, another
// concurrency group) writes the record anew: a new job, job_0002, that
// works and owes head2. The settle run then writes job_0001's end over
// it. The record loses job_0002 (the next push starts a third job and a
// second docs pull request) and head2's pending status, which nothing
// settles any more. A settle run must not write over a record it did not
// read.
func TestSettleKeepsARecordWrittenSinceItRead(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	c := w.gh.Comments(7)
	if len(c) != 1 {
		t.Fatalf("comments: %+v", c)
	}
	id := c[0].ID
	newer := conversation.Render(conversation.State{Phase: conversation.NotWaiting, Status: "active", Record: record.Record{JobID: "job_0002", Head: head2,
		Sent: record.Sends{Total: 2, Day: "2026-11-22", OnDay: 2}, Unsettled: true, Owed: []string{head2}}})

	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	var once sync.Once
	w.gh.SetFault(func(_ http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/statuses/") {
			// The push run's write, between the settle's read and its write.
			once.Do(func() { w.editAsAnotherRun(id, newer) })
		}
		return false
	})
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	c = w.gh.Comments(7)
	if len(c) != 1 || recordIn(c[0].Body).JobID != "job_0002" || !slices.Contains(recordIn(c[0].Body).Owed, head2) {
		t.Errorf("the settle run wrote over the record the push run wrote since it read it: job_0002 and head2's status are lost:\n%s", c[0].Body)
	}
}

// editAsAnotherRun edits the comment id to body as another run of the
// action in the thread does (a push's, in another concurrency group): with
// the token, straight to the fake GitHub, while the run under test works.
func (w *codeWorld) editAsAnotherRun(id int64, body string) {
	// It runs in a fake's handler, off the test's goroutine: it reports
	// with Errorf, never Fatal.
	w.t.Helper()
	data, err := json.Marshal(map[string]string{"body": body})
	if err != nil {
		w.t.Errorf("the other run's write: %v", err)
		return
	}
	req, err := http.NewRequest(http.MethodPatch, fmt.Sprintf("%s/repos/acme/docs/issues/comments/%d", w.gh.APIURL(), id), bytes.NewReader(data))
	if err != nil {
		w.t.Errorf("the other run's write: %v", err)
		return
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		w.t.Errorf("the other run's write failed: %v %v", err, res)
	}
	if res != nil {
		res.Body.Close()
	}
}
