package action

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/docspr"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/prlink"
	"github.com/agentjob/agent-job-action/internal/report"
)

const (
	sha1 = "1111111111111111111111111111111111111111"
	sha2 = "2222222222222222222222222222222222222222"
)

// shown is each status d sets, as "sha state: description" (the sha's
// first four).
func shown(d check.Decision) []string {
	var out []string
	for _, set := range d.Sets {
		for _, sha := range set.Heads {
			out = append(out, fmt.Sprintf("%s %s: %s", sha[:4], set.Status.State, set.Status.Description))
		}
	}
	return out
}

// TestHeadsDecide: the statuses a code pull request's heads get, by where
// the run and its job stand, and which heads the job's end settles.
func TestHeadsDecide(t *testing.T) {
	t.Parallel()
	job := func(status, pr string) *agentapi.Job {
		j := &agentapi.Job{ID: "job_1", Status: status}
		if pr != "" {
			j.PRLink = &pr
		}
		return j
	}
	working := job("active", "")
	docs := func(st docspr.State) *docspr.Verdict {
		return &docspr.Verdict{State: st, PR: prlink.PullRequest{Owner: "acme", Repo: "docs", Number: 101}, URL: "https://github.com/acme/docs/pull/101"}
	}
	done := func(v *docspr.Verdict) *report.Outcome {
		return &report.Outcome{JobID: "job_1", Job: job("completed", "https://github.com/acme/docs/pull/101"), Docs: v}
	}
	tests := []struct {
		name     string
		o        *report.Outcome
		recorded bool // the run has a comment, whose record a later run settles
		ended    bool
		cut      bool
		want     []string
		owed     []string
	}{
		{name: "while the job works", o: &report.Outcome{JobID: "job_1", Job: working}, want: []string{"2222 pending: The docs agent is updating the docs for this change"},
			owed: []string{sha1, sha2}},
		{name: "the job completed: every head it covered", ended: true, o: &report.Outcome{JobID: "job_1", Job: job("completed", "https://github.com/acme/docs/pull/101")},
			want: []string{"1111 success: Docs updated in a pull request", "2222 success: Docs updated in a pull request"}},
		{name: "approval asked, waiting: every head it covered waits", ended: true, o: done(docs(docspr.Waiting)),
			want: []string{"1111 pending: Waits for an approving review of docs pull request #101", "2222 pending: Waits for an approving review of docs pull request #101"}},
		{name: "approval asked, approved: the newest head only", ended: true, o: done(docs(docspr.Approved)),
			want: []string{"1111 pending: Waits for an approving review of docs pull request #101", "2222 success: Docs approved in pull request #101"}},
		{name: "approval asked, merged: the newest head only", ended: true, o: done(docs(docspr.Merged)),
			want: []string{"1111 pending: Waits for an approving review of docs pull request #101", "2222 success: Docs merged in pull request #101"}},
		{name: "the job failed", ended: true, o: &report.Outcome{JobID: "job_1", Job: job("failed", "")},
			want: []string{"1111 failure: The docs job failed: see the run", "2222 failure: The docs job failed: see the run"}},
		{name: "the run ends, the job goes on, recorded", ended: true, recorded: true, o: &report.Outcome{JobID: "job_1", Job: working},
			want: []string{"2222 pending: The docs agent is updating the docs for this change"}, owed: []string{sha1, sha2}},
		{name: "the run ends, the job goes on, no record", ended: true, o: &report.Outcome{JobID: "job_1", Job: working},
			want: []string{"1111 error: The run stopped before the docs job ended: re-run it", "2222 error: The run stopped before the docs job ended: re-run it"}},
		{name: "no job could start", ended: true, o: &report.Outcome{Err: errors.New("HTTP 401")},
			want: []string{"1111 error: The docs job could not be started: see the run", "2222 error: The docs job could not be started: see the run"}},
		{name: "a cap: this head only", ended: true, o: &report.Outcome{Skipped: "max-sends-per-day is 1", Capped: true},
			want: []string{"2222 success: Docs job cap reached: max-sends-per-day is 1"}, owed: []string{sha1}},
		{name: "a cut listing: said once", cut: true, o: &report.Outcome{JobID: "job_1", Job: working},
			want: []string{fmt.Sprintf("2222 error: GitHub listed only %d files: the rest went unseen, so no success is claimed; see the run", ghclient.MaxPullFiles)}, owed: []string{sha1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := heads{RunURL: "https://github.com/acme/docs/actions/runs/42", ServerURL: "https://github.com"}
			k := &report.Code{PR: report.Commit{Owner: "acme", Repo: "docs", HeadSHA: sha2}, Owed: []string{sha1}, Cut: tt.cut}
			if got := shown(h.decide(k, tt.o, tt.recorded, tt.ended)); !slices.Equal(got, tt.want) {
				t.Errorf("statuses\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if !slices.Equal(k.Owed, tt.owed) {
				t.Errorf("owed %q, want %q", k.Owed, tt.owed)
			}
			if again := shown(h.decide(k, tt.o, tt.recorded, tt.ended)); tt.cut && len(again) != 0 {
				t.Errorf("a cut listing said again: %q", again)
			}
		})
	}
}
