package action_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// cancelAfter is a transport that ends the run's context the moment a
// request that match accepts has its answer, whole: what the run does
// next, it does cancelled.
type cancelAfter struct {
	match  func(*http.Request) bool
	cancel context.CancelFunc
	once   sync.Once
}

func (c *cancelAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || !c.match(r) {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	c.once.Do(c.cancel)
	return res, nil
}

// TestSettleRecordsASendThatWentWhenCancelled: a settle run cancelled
// (or at its timeout) right after the Agent API took the change that
// waited still writes that in the record: the job heard the new head,
// and the send counts for the caps. The next settle run sends the same
// change no second time.
func TestSettleRecordsASendThatWentWhenCancelled(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	pushWhileWorking(t, w)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w.env.Transport = &cancelAfter{cancel: cancel, match: func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/message")
	}}
	_ = w.run(ctx)
	w.env.Transport = nil
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
