package action_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/record"
)

// TestCodePRClosed: closing the code pull request stops its docs job. The
// Agent API has no cancel, so the run sends the job nothing, reads it once,
// tells the docs pull request that the code landed (merged) or will not
// (closed unmerged: it is left for a person to close or keep), and the
// comment in the code pull request says the job is stopped. A pull request
// closed with no job sends nothing anywhere.
func TestCodePRClosed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		merged bool
		want   string
	}{
		{"merged", true, "🏁 The code pull request [#7](https://github.com/acme/docs/pull/7) was merged: the code this pull request documents has landed."},
		{"closed unmerged", false, "🏁 The code pull request [#7](https://github.com/acme/docs/pull/7) was closed without being merged: the docs job gets nothing more from it. Close this pull request unless its change stands on its own."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("opened: %v\n%s", err, w.stdout.String())
			}
			apiBefore, previewBefore := len(w.api.Requests()), len(w.preview.Requests())
			w.setEvent("pull_request", codePR("closed", head1, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", tt.merged }))
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("closed: %v\n%s", err, w.stdout.String())
			}
			w.wantRequests(1, 0)
			var api []string
			for _, r := range w.api.Requests()[apiBefore:] {
				api = append(api, r.Method+" "+r.Path)
			}
			if !slices.Equal(api, []string{"GET /v2/agent/proj-1/job/job_0001"}) {
				t.Errorf("the Agent API got %q, want one read of the job", api)
			}
			if n := len(w.preview.Requests()) - previewBefore; n != 0 {
				t.Errorf("the preview API got %d requests", n)
			}
			docs := w.gh.Comments(101)
			if len(docs) == 0 || !strings.Contains(docs[len(docs)-1].Body, tt.want) || !strings.HasPrefix(docs[len(docs)-1].Body, "<!-- agent-job-action -->") {
				t.Errorf("the docs pull request's comments: %+v\nwant the last to say:\n%s", docs, tt.want)
			}
			c := w.gh.Comments(7)
			if len(c) != 1 || !strings.Contains(c[0].Body, "🏁 **Stopped.** This pull request is closed: job `job_0001` gets nothing more from this workflow. Its pull request was told: https://github.com/acme/docs/pull/101") ||
				recordIn(c[0].Body).Unsettled {
				t.Errorf("comments on #7: %+v", c)
			}
			if got := w.statuses(); len(got) != 3 || !strings.HasPrefix(got[2], "1111 success: ") {
				t.Errorf("statuses:\n%s", strings.Join(got, "\n"))
			}
		})
	}

	t.Run("no job", func(t *testing.T) {
		t.Parallel()
		w := newCodeWorld(t, fakeapi.Scenario{}, fakepreview.Options{}, "src/**", codePR("closed", head1, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", true }))
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("closed: %v\n%s", err, w.stdout.String())
		}
		w.wantLog("skipped: pull request #7 was closed and has no docs job: nothing to stop")
		if n := len(w.api.Requests()); n != 0 {
			t.Errorf("the Agent API got %d requests", n)
		}
		if c := w.gh.Comments(7); len(c) != 0 {
			t.Errorf("comments on #7: %+v", c)
		}
		if got := w.statuses(); len(got) != 0 {
			t.Errorf("statuses: %q", got)
		}
	})

	t.Run("the job still working", func(t *testing.T) {
		t.Parallel()
		w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Hour}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
		w.vars["INPUT_WAIT"] = "false"
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("opened: %v\n%s", err, w.stdout.String())
		}
		w.setEvent("pull_request", codePR("closed", head1, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", false }))
		if err := w.run(context.Background()); err != nil {
			t.Fatalf("closed: %v\n%s", err, w.stdout.String())
		}
		w.wantRequests(1, 0)
		c := w.gh.Comments(7)
		if len(c) != 1 || !strings.Contains(c[0].Body, "🏁 **Stopped.**") || !strings.Contains(c[0].Body, "a `settle: true` run reports its end here") ||
			!recordIn(c[0].Body).Unsettled || !slices.Contains(recordIn(c[0].Body).Owed, head1) {
			t.Errorf("comments on #7: %+v, want stopped, the record kept for a settle run", c)
		}
		// The head shows the job working since the opened run: the closed
		// run, which decides the same, writes it no second time.
		if got := w.statuses(); len(got) != 1 || !strings.HasPrefix(got[0], "1111 pending: ") {
			t.Errorf("statuses:\n%s", strings.Join(got, "\n"))
		}
	})
}

// TestCodePRDoesNotAdoptADocsRequest: only the code workflow's record is
// the pull request's docs job. A /docs request answered in the pull
// request before (in a draft, say) has its own job and comment; the code
// workflow's first run creates the pull request's job, with its own
// instruction and the change, rather than sending a follow-up to that one.
func TestCodePRDoesNotAdoptADocsRequest(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("ready_for_review", head1, nil))
	w.api.AddJob("job_docs", "completed")
	w.gh.SeedComment(7, "github-actions[bot]", true, recorded(record.Record{JobID: "job_docs"}))
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("ready: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 0)
	for _, r := range w.api.Requests() {
		if strings.Contains(r.Path, "job_docs") {
			t.Errorf("the Agent API got %s %s", r.Method, r.Path)
		}
	}
	if p := w.api.Requests()[0].Prompt(); !strings.HasPrefix(p, "Update the documentation for this change.") {
		t.Errorf("prompt:\n%s", p)
	}
	c := w.gh.Comments(7)
	if len(c) != 2 || recordIn(c[0].Body).JobID != "job_docs" || recordIn(c[1].Body).JobID != "job_0001" || recordIn(c[1].Body).Head != head1 {
		t.Errorf("comments on #7: %+v, want the /docs comment as it was and the code workflow's own", c)
	}
}

// TestClosedWithAFollowedDocsPRSaysTheJobEnded: with docs-check: approved,
// #7's job completed at head2 and its docs pull request waits for a
// review; #7 is closed unmerged. The record follows the docs pull request
// still, for a settle run, but the comment says nothing of a job still
// working: it had completed.
func TestClosedWithAFollowedDocsPRSaysTheJobEnded(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.setEvent("pull_request", codePR("closed", head2, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", false }))
	w.mustRun("closed")
	c := w.gh.Comments(7)
	if len(c) != 1 || !strings.Contains(c[0].Body, "🏁 **Stopped.**") {
		t.Fatalf("comments on #7: %+v", c)
	}
	if strings.Contains(c[0].Body, "still working") {
		t.Errorf("#7's comment says a completed job was still working:\n%s", c[0].Body)
	}
}
