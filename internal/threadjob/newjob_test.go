package threadjob

import (
	"testing"

	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// TestNewJobFor: a thread's job goes on while its docs pull request is
// open or not known, and a new one starts once it was merged or closed.
func TestNewJobFor(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		pr   *ghclient.PullRequest
		want string
	}{
		{nil, ""},
		{&ghclient.PullRequest{Number: 101, Open: true}, ""},
		{&ghclient.PullRequest{Number: 101, Merged: true}, "the docs pull request of job job_1, #101, is merged: starting a new job"},
		{&ghclient.PullRequest{Number: 101}, "the docs pull request of job job_1, #101, is closed: starting a new job"},
	} {
		if got := newJobFor("job_1", tt.pr); got != tt.want {
			t.Errorf("newJobFor(%+v) = %q, want %q", tt.pr, got, tt.want)
		}
	}
}
