package action

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/job"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/testbed/step"
)

// shownComment is the run's comment: it keeps what is shown.
type shownComment struct{ shown []conversation.State }

func (c *shownComment) Show(_ context.Context, s conversation.State) { c.shown = append(c.shown, s) }
func (c *shownComment) Settle(context.Context, *conversation.Earlier, conversation.State) bool {
	return true
}
func (c *shownComment) Spend(time.Time) {}
func (c *shownComment) URL() string     { return "https://github.com/acme/docs/issues/12#issuecomment-77" }

// TestWatching: a wait for the run's own job shows each change of status
// in the log and, while the job works, in the run's comment; its end is
// for the run's last words, not for the wait.
func TestWatching(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	rep, _ := step.Reporter(t, &log)
	c := &shownComment{}
	rep.Comment = c
	o := &report.Outcome{JobID: "job_1"}
	w := watching{job.Logged{Progress: rep.Progress}, rep, context.Background(), o}
	w.StatusChanged(&agentapi.Job{ID: "job_1", Status: "working"}, "active")
	w.StatusChanged(&agentapi.Job{ID: "job_1", Status: "completed"}, "working")
	if !strings.Contains(log.String(), "job job_1: active -> working") || !strings.Contains(log.String(), "job job_1: working -> completed") {
		t.Errorf("the log lacks a change:\n%s", log.String())
	}
	if len(c.shown) != 1 || c.shown[0].Phase != conversation.Working || c.shown[0].Status != "working" || o.Job.Status != "working" {
		t.Errorf("the comment was shown %+v, the outcome's job %+v; want it working once", c.shown, o.Job)
	}
}
