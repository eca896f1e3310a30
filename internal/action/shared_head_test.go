package action_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

// intoRelease is a pull_request event of #8: the code pull request #7's
// branch, at head, opened into another base, release, where it changes
// nothing under paths.
func intoRelease(action, head string) map[string]any {
	ev := codePR(action, head, func(pr map[string]any) {
		pr["number"], pr["html_url"] = 8, "https://github.com/acme/docs/pull/8"
		pr["base"].(map[string]any)["ref"] = "release"
	})
	ev["number"] = 8
	return ev
}

// secondBase seeds #8, the branch of #7 at head1 into release, where it
// changes the README only, and makes the next run #8's opened run.
func (w *codeWorld) secondBase() {
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 8, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: head1,
		BaseRef: "release", Files: []fakegithub.File{{Name: "README.md", Additions: 1, Patch: "@@ -1 +1,2 @@\n+Rate limits."}}})
	w.setEvent("pull_request", intoRelease("opened", head1))
}

// TestSharedHeadTakesTheStrictestCheck: the branch of code pull request
// #7, whose docs job works on head1, is opened again into another base
// (#8), where nothing under paths changes. A status belongs to the
// commit, so #8's "No change under paths" success would turn #7's check
// green while its docs wait: #8's run reads the open pull requests at
// head1 and #7's record, and leaves head1 waiting, naming #7. Once #7's
// job ends, the run that finds it reads #8 (no record: nothing waits
// there) and head1 turns green.
func TestSharedHeadTakesTheStrictestCheck(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
	w.secondBase()
	from := len(w.gh.Requests())
	w.mustRun("#8 opened into release")
	w.wantRequests(1, 0) // #8 needed no job
	if got := w.shownOn(head1); !strings.HasPrefix(got, "pending: #7 heads this commit too") {
		t.Fatalf("head1 after #8's run: %q, want it waiting for #7's docs", got)
	}
	calls := w.ghCalls(from)
	for _, want := range []string{"GET /repos/acme/docs/commits/" + head1 + "/pulls", "GET /repos/acme/docs/issues/7/comments"} {
		if !slices.ContainsFunc(calls, func(c string) bool { return strings.HasPrefix(c, want) }) {
			t.Errorf("#8's run did not read %s: %q", want, calls)
		}
	}
	if slices.ContainsFunc(w.statuses(), func(s string) bool { return strings.Contains(s, "success") }) {
		t.Errorf("a success was written on the shared head while #7's docs waited: %q", w.statuses())
	}

	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	w.mustRun("the schedule finds #7's job ended")
	if got := w.shownOn(head1); !strings.HasPrefix(got, "success: ") {
		t.Errorf("head1 once #7's docs are written: %q, want success", got)
	}
}

// TestSharedHeadUnreadClaimsNoSuccess: GitHub refuses the list of the
// pull requests at the commit (a token without contents: read may be
// refused it): the run reads every open one instead, and holds #8's
// success for #7. When that list fails too, it claims no success: an
// error that says why, and what to do.
func TestSharedHeadUnreadClaimsNoSuccess(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, want string
		refused    func(r *http.Request) bool
	}{
		{"the list at the commit refused", "pending: #7 heads this commit too", func(r *http.Request) bool {
			return strings.HasSuffix(r.URL.Path, "/commits/"+head1+"/pulls")
		}},
		{"every list refused", "error: The pull requests at this commit could not be read", func(r *http.Request) bool {
			return strings.HasSuffix(r.URL.Path, "/pulls") && r.Method == http.MethodGet
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
			w.secondBase()
			w.gh.SetFault(func(rw http.ResponseWriter, r *http.Request) bool {
				if tc.refused(r) {
					http.Error(rw, `{"message":"Resource not accessible by integration"}`, http.StatusForbidden)
					return true
				}
				return false
			})
			w.mustRun("#8 opened into release")
			if got := w.shownOn(head1); !strings.HasPrefix(got, tc.want) {
				t.Errorf("head1 after #8's run: %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSharedHeadKeepsWhatTheOtherDidNotSettle: a commit at which #7's
// docs job failed, or whose docs pull request was closed unmerged, is not
// turned green by #8, #7's branch into release, where nothing under paths
// changes: the strictest of their checks stands.
func TestSharedHeadKeepsWhatTheOtherDidNotSettle(t *testing.T) {
	t.Parallel()
	t.Run("a failed job", func(t *testing.T) {
		t.Parallel()
		w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute, Outcome: "failed"}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
		w.vars["INPUT_PREVIEW"] = "false"
		_ = w.run(context.Background()) // the job failed: exit 1
		if got := w.shownOn(head1); !strings.HasPrefix(got, "failure: ") {
			t.Fatalf("head1 after #7's run: %q", got)
		}
		w.secondBase()
		w.mustRun("#8 opened into release")
		if got := w.shownOn(head1); !strings.HasPrefix(got, "pending: #7 heads this commit too") {
			t.Errorf("head1 after #8's run: %q, want it held for #7", got)
		}
	})
	t.Run("docs closed unmerged", func(t *testing.T) {
		t.Parallel()
		w := approvalWorld(t, false)
		w.docsClosed()
		w.mustRun("#101 closed")
		if got := w.shownOn(head2); !strings.HasPrefix(got, "error: Docs pull request #101 was closed") {
			t.Fatalf("head2 after #101 closed: %q", got)
		}
		w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 8, Author: "writer", HeadRef: "rate-headers", HeadSHA: head2,
			BaseRef: "release", Files: []fakegithub.File{{Name: "README.md", Additions: 1, Patch: "@@ -1 +1,2 @@\n+Rate limits."}}})
		delete(w.vars, "INPUT_SETTLE")
		w.setEvent("pull_request", intoRelease("opened", head2))
		w.mustRun("#8 opened into release")
		if got := w.shownOn(head2); strings.HasPrefix(got, "success: ") {
			t.Errorf("head2 after #8's run: %q, want #7's error kept", got)
		}
	})
}

// TestSharedHeadReadsOnlyWhatItCanTrust: what can hold no docs job holds
// nothing. With comment: false no run keeps a record: #8's success goes on
// head1, as #7's did. A pull request of an author without
// required-permission (anyone may open one from #7's branch, and flood
// it) has no docs job, and its thread is not read: #7's success goes on
// head1.
func TestSharedHeadReadsOnlyWhatItCanTrust(t *testing.T) {
	t.Parallel()
	t.Run("comment: false", func(t *testing.T) {
		t.Parallel()
		w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
		w.vars["INPUT_COMMENT"], w.vars["INPUT_PREVIEW"] = "false", "false"
		w.mustRun("opened")
		w.secondBase()
		w.mustRun("#8 opened into release")
		if got := w.shownOn(head1); !strings.HasPrefix(got, "success: ") {
			t.Errorf("head1 after #8's run: %q, want success (nothing waits)", got)
		}
	})
	t.Run("a flooded thread", func(t *testing.T) {
		t.Parallel()
		w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
		w.vars["INPUT_PREVIEW"] = "false"
		w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 8, Author: "someone", HeadRef: "rate-headers", HeadSHA: head1, BaseRef: "release"})
		for i := range 2500 {
			w.gh.SeedComment(8, "someone", false, fmt.Sprintf("comment %d", i))
		}
		w.mustRun("#7 opened")
		if got := w.shownOn(head1); !strings.HasPrefix(got, "success: ") {
			t.Errorf("head1 after #7's job ended well: %q, want success", got)
		}
	})
}
