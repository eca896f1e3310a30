package action

import (
	"testing"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/poll"
)

// TestEndingNames: a settle run waits only for the job whose pull request
// is the one its event names, on the run's GitHub, its names compared as
// GitHub compares them; an event that names no pull request there has
// none to wait for.
func TestEndingNames(t *testing.T) {
	t.Parallel()
	if e := endingOf("https://github.com.evil.example/acme/docs/pull/101", "https://github.com", poll.Waiter{}); e != nil {
		t.Errorf("EndingOf another host = %+v, want none", e)
	}
	if e := endingOf("https://github.com/acme/docs/issues/101", "", poll.Waiter{}); e != nil {
		t.Errorf("EndingOf an issue = %+v, want none", e)
	}
	e := endingOf("https://github.com/acme/docs/pull/101", "", poll.Waiter{})
	if e == nil {
		t.Fatal("EndingOf a pull request = nil")
	}
	for link, want := range map[string]bool{
		"https://github.com/acme/docs/pull/101":     true,
		"https://github.com/ACME/Docs/pull/101":     true,
		"https://github.com/acme/docs/pull/102":     false,
		"https://github.com/acme/handbook/pull/101": false,
		"https://ghe.example/acme/docs/pull/101":    false,
		"":                                          false,
	} {
		job := &agentapi.Job{ID: "job_1", Status: "active"}
		if link != "" {
			job.PRLink = &link
		}
		if got := e.names(job); got != want {
			t.Errorf("names(%q) = %v, want %v", link, got, want)
		}
	}
}
