package report

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/poll"
)

// statusValues are the values the status output takes: the job statuses
// the API documents and a run's own (docs_test.go holds the docs to them).
var statusValues = []string{
	agentapi.StatusActive, agentapi.StatusCompleted, agentapi.StatusArchived, agentapi.StatusFailed,
	StatusDryRun, StatusSkipped, StatusSettled, StatusError,
}

// TestStatusIsListed: every way a run ends writes a status output that
// statusValues lists (which the docs are held to), but a job status the API
// adds later, which is passed through as it is.
func TestStatusIsListed(t *testing.T) {
	t.Parallel()
	job := func(status string) *agentapi.Job { return &agentapi.Job{ID: "job_1", Status: status} }
	failed := errors.New("boom")
	for _, tt := range []struct {
		name   string
		o      Outcome
		end    End
		status string
	}{
		{"skipped", Outcome{Skipped: "a draft"}, Skipped, StatusSkipped},
		{"dry run", Outcome{DryRun: true}, DryRun, StatusDryRun},
		{"settled", Outcome{Settled: "1 thread"}, Settled, StatusSettled},
		{"settle failed", Outcome{Settled: "1 thread", Err: failed}, Errored, StatusError},
		{"job failed", Outcome{Job: job(agentapi.StatusFailed)}, JobFailed, agentapi.StatusFailed},
		{"completed", Outcome{Job: job(agentapi.StatusCompleted)}, Completed, agentapi.StatusCompleted},
		{"archived", Outcome{Job: job(agentapi.StatusArchived)}, Completed, agentapi.StatusArchived},
		{"not waiting", Outcome{Job: job(agentapi.StatusActive)}, NotWaiting, agentapi.StatusActive},
		{"invalid", Outcome{Err: failed, Invalid: true}, Invalid, StatusError},
		{"timed out", Outcome{Err: poll.ErrTimedOut, Job: job(agentapi.StatusActive)}, TimedOut, agentapi.StatusActive},
		{"cancelled", Outcome{Err: context.Canceled}, Cancelled, StatusError},
		{"errored", Outcome{Err: failed}, Errored, StatusError},
	} {
		if end, status := tt.o.End(), tt.o.Status(); end != tt.end || status != tt.status || !slices.Contains(statusValues, status) {
			t.Errorf("%s: end %d, status %q; want %d, %q, one of %q", tt.name, end, status, tt.end, tt.status, statusValues)
		}
	}
	o := Outcome{Job: job("paused")}
	if got := o.Status(); got != "paused" || slices.Contains(statusValues, got) {
		t.Errorf("a status the API adds: %q, want it passed through as it is", got)
	}
}
