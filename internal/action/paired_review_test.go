package action_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
)

// A review's findings on the docs pull request's check (issue 47).

// TestDocsCommentOnACodePRKeepsItsDocsWaiting: a /docs comment on code
// pull request #7, whose docs #101 wait for an approval, continues #7's
// job; #101's check stays its code's, never a request's success: neither
// may merge before the approval.
func TestDocsCommentOnACodePRKeepsItsDocsWaiting(t *testing.T) {
	t.Parallel()
	w := approvalWorld(t, false)
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/docs", DefaultBranch: "main", Required: []string{"docs / agent-job"}})
	w.settleOnReview("writer", "COMMENTED", false)
	delete(w.vars, "INPUT_SETTLE")
	w.vars["INPUT_WAIT"], w.vars["INPUT_TRIGGER-PHRASE"] = "true", "/docs"
	w.setEvent("issue_comment", map[string]any{
		"action": "created",
		"issue": map[string]any{"number": 7, "title": "Send rate-limit headers", "html_url": "https://github.com/acme/docs/pull/7",
			"user": user("writer"), "comments": 3,
			"pull_request": map[string]any{"url": "https://api.github.com/repos/acme/docs/pulls/7", "html_url": "https://github.com/acme/docs/pull/7"}},
		"comment":    map[string]any{"id": 7101, "body": "/docs also mention the retry header", "user": user("writer"), "html_url": "https://github.com/acme/docs/pull/7#issuecomment-7101"},
		"repository": map[string]any{"name": "docs", "full_name": "acme/docs", "owner": map[string]any{"login": "acme"}},
		"sender":     user("writer"),
	})
	w.mustRun("/docs on #7")
	for _, n := range []int{7, 101} {
		if ok, _ := w.gh.Mergeable("acme/docs", n); ok {
			t.Errorf("#%d may merge before #101's approval: #101 shows %q", n, w.shownOn(docsHead))
		}
	}
}

// requestWorld is a /docs request in issue #12 whose job opened #101 in
// the code's repository and ended, as a settle run reported it.
func requestWorld(t *testing.T) *codeWorld {
	t.Helper()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: 4 * time.Minute, PRAhead: 3 * time.Minute}, fakepreview.Options{}, "src/**", issueComment("writer", "/docs add a page about rate limits"))
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/docs", DefaultBranch: "main", Required: []string{"docs / agent-job"}})
	w.vars["INPUT_WAIT"], w.vars["INPUT_PREVIEW"], w.vars["INPUT_TRIGGER-PHRASE"] = "false", "false", "/docs"
	w.setEvent("issue_comment", issueComment("writer", "/docs add a page about rate limits"))
	w.mustRun("the /docs request")
	w.gh.SeedPull(docsPull("open"))
	w.clk.Advance(10 * time.Minute)
	w.settleOnReview("writer", "COMMENTED", false)
	if got := w.shownOn(docsHead); !strings.HasPrefix(got, "success: ") {
		t.Fatalf("#101 after its job ended: %q", got)
	}
	delete(w.vars, "INPUT_SETTLE")
	return w
}

// followUp is a second /docs request in issue #12.
func followUp() map[string]any {
	ev := issueComment("writer", "/docs also mention the retry header")
	ev["comment"].(map[string]any)["id"] = 9002
	ev["comment"].(map[string]any)["html_url"] = "https://github.com/acme/docs/issues/12#issuecomment-9002"
	return ev
}

// TestRequestsDocsPRUnreadJobIsNoEnd: after a follow-up, #101 waits for
// its job again; a settle run that cannot read the job claims no end of
// it: #101 stays pending.
func TestRequestsDocsPRUnreadJobIsNoEnd(t *testing.T) {
	t.Parallel()
	w := requestWorld(t)
	w.setEvent("issue_comment", followUp())
	w.mustRun("the second /docs request")
	if got := w.shownOn(docsHead); !strings.HasPrefix(got, "pending: ") {
		t.Fatalf("#101 after the follow-up: %q, want pending", got)
	}
	n := len(w.api.Requests())
	for i := 1; i <= 10; i++ {
		w.api.FailOn(n+i, faults.Status(http.StatusBadGateway))
	}
	w.clk.Advance(time.Minute)
	w.settleOnReview("writer", "COMMENTED", false)
	if got := w.shownOn(docsHead); !strings.HasPrefix(got, "pending: ") {
		t.Errorf("#101 after a settle run that could not read its job: %q, want it pending still", got)
	}
}

// TestRequestsDocsPRNewHeadGetsTheCheck: the agent pushes to #101 while
// a waiting /docs run works: the run's end puts the check on #101's head
// as it is then, not on the one it read before.
func TestRequestsDocsPRNewHeadGetsTheCheck(t *testing.T) {
	t.Parallel()
	w := requestWorld(t)
	w.vars["INPUT_WAIT"] = "true"
	const docsHead3 = "d0c5d0c5d0c5d0c5d0c5d0c5d0c5d0c5d0c5d0c6"
	var once sync.Once
	read := false
	w.gh.SetFault(func(rw http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/pulls/101") {
			read = true
		}
		if read && r.Method == http.MethodPatch && strings.Contains(r.URL.Path, "/issues/comments/") {
			once.Do(func() {
				p := docsPull("open")
				p.HeadSHA = docsHead3
				w.gh.SeedPull(p) // the agent pushes its follow-up's change
			})
		}
		return false
	})
	w.setEvent("issue_comment", followUp())
	w.mustRun("the second /docs request")
	if got := w.shownOn(docsHead3); !strings.HasPrefix(got, "success: ") {
		t.Errorf("#101's new head after the waiting run: %q, want its check", got)
	}
}
