package action_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
	"github.com/agentjob/agent-job-action/internal/record"
	req "github.com/agentjob/agent-job-action/internal/request"
)

// Issue 42, item 3: records no flood can hide. Outsiders' comments, as
// many as they like, must not hide a thread's job from a maintainer's
// request, nor a record that still owes something from a settle run; and
// where they do hide it, the maintainer is told, and nothing is lost. Each
// test states the bound of GitHub requests its path costs, which does not
// grow with the flood.

// threadLists are the list requests of issue or pull request number's
// comments among reqs.
func threadLists(reqs []fakegithub.Request, number int) int {
	n := 0
	for _, r := range reqs {
		if r.Method == http.MethodGet && r.Path == fmt.Sprintf("/repos/acme/docs/issues/%d/comments", number) {
			n++
		}
	}
	return n
}

// floodedThread is issue 12 with the action's comment that names job
// job_0777 after before outsiders' comments, and after more after it,
// and a maintainer's /docs request as the event, the thread's comment
// count as the payload says.
func floodedThread(t *testing.T, before, after int) (*harness, *fakegithub.Server) {
	t.Helper()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	payload := issueComment("lead", "/docs and the FAQ")
	gh := h.withGitHub(fakegithub.Options{Permissions: map[string]string{"lead": "maintain"}}, "issue_comment", payload)
	h.api.AddJob("job_0777", "completed")
	for i := range before {
		gh.SeedComment(12, "stranger", false, fmt.Sprintf("first %d", i))
	}
	gh.SeedComment(12, fakegithub.BotLogin, true, recorded(record.Record{JobID: "job_0777", Sent: record.Sends{Total: 1, Day: "2026-11-21", OnDay: 1}}))
	for i := range after {
		gh.SeedComment(12, "stranger", false, fmt.Sprintf("me too %d", i))
	}
	payload["issue"].(map[string]any)["comments"] = before + 1 + after
	h.setEvent("issue_comment", payload)
	return h, gh
}

// ownRequest is the key of the maintainer's request in floodedThread.
var ownRequest = req.Key{Kind: req.Comment, ID: 9001}

// TestFloodAfterTheRecordStillAnswers: 2,000 outsiders' comments (and
// 6,000) after the action's comment in an issue thread push its record out
// of the newest pages a run reads, but not off the thread's oldest page: a
// maintainer's /docs is answered once, by a follow-up to the job the
// thread had, with no second job created, and the run's comment records
// the request as answered. Finding the job costs at most 10 list requests
// of the thread's comments (its newest 9 pages, then its oldest), and the
// whole run 19 GitHub requests (with the permission, the 👀, the comment
// and its edits, and the backlink and review request on the job's pull
// request), whatever the flood's size.
func TestFloodAfterTheRecordStillAnswers(t *testing.T) {
	t.Parallel()
	var costs []int
	for _, after := range []int{2000, 6000} {
		h, gh := floodedThread(t, 0, after)
		g := h.got(context.Background())
		if g.Err != nil {
			t.Fatalf("%d after: run: %v\n%s", after, g.Err, g.Log)
		}
		if got, want := g.apiCalls(), []string{"POST /v2/agent/proj-1/job/job_0777/message"}; !slices.Equal(slices.DeleteFunc(got, func(c string) bool { return strings.HasPrefix(c, "GET ") }), want) {
			t.Errorf("%d after: the Agent API got %q, want one follow-up to job_0777 and no create", after, g.apiCalls())
		}
		h.wantOutputs(map[string]string{"job-id": "job_0777"})
		cs := gh.Comments(12)
		own := cs[len(cs)-1]
		r := recordIn(own.Body)
		if own.Author != fakegithub.BotLogin || r.JobID != "job_0777" || r.Answered == nil || !slices.Contains(r.Answered.Sent, ownRequest) {
			t.Errorf("%d after: the run's comment %+v, want it to name job_0777 and record the request as answered", after, own)
		}
		if lists := threadLists(g.GitHub, 12); lists > 10 {
			t.Errorf("%d after: %d list requests of the thread's comments, want at most 10", after, lists)
		}
		if len(g.GitHub) > 20 { // 19, and the read of the job's pull request for its own check
			t.Errorf("%d after: %d GitHub requests, want at most 20", after, len(g.GitHub))
		}
		costs = append(costs, len(g.GitHub))
	}
	if costs[0] != costs[1] {
		t.Errorf("GitHub requests %v for floods of 2,000 and 6,000: the cost grows with the flood", costs)
	}
}

// TestFloodOnBothSidesAnswersVisibly: 150 outsiders' comments before the
// action's comment and 2,000 after it hide it from every page a run reads
// (the newest nine and the oldest). The maintainer's /docs gets a visible
// answer: the run's comment says that others' comments hide the thread's
// job and how to go on (job-id), nothing reaches the Agent API, and the
// comment's record lists the request as not answered (unsent), so that a
// run again takes it up rather than skip it as answered. Each run costs at
// most 10 list requests of the thread, and 15 GitHub requests in all.
func TestFloodOnBothSidesAnswersVisibly(t *testing.T) {
	t.Parallel()
	h, gh := floodedThread(t, 150, 2000)
	for run := range 2 {
		g := h.got(context.Background())
		if g.Err == nil {
			t.Errorf("run %d: no error, want the run to fail, saying the thread's job is hidden\n%s", run, g.Log)
		}
		if sends := slices.DeleteFunc(g.apiCalls(), func(c string) bool { return strings.HasPrefix(c, "GET ") }); len(sends) != 0 {
			t.Errorf("run %d: the Agent API got %q, want nothing", run, sends)
		}
		if strings.Contains(g.Log, "an earlier run already sent this request") {
			t.Errorf("run %d skipped the request as answered:\n%s", run, g.Log)
		}
		cs := gh.Comments(12)
		own := cs[len(cs)-1]
		r := recordIn(own.Body)
		if own.Author != fakegithub.BotLogin || r.JobID != "" || r.Answered == nil || slices.Contains(r.Answered.Sent, ownRequest) || !slices.Contains(r.Answered.Unsent, ownRequest) {
			t.Errorf("run %d: the run's comment %+v, want no job named and the request recorded as not answered", run, own)
		}
		for _, want := range []string{"a record of its job may be among those not read", "not answered yet", "`job-id`"} {
			if !strings.Contains(own.Body, want) {
				t.Errorf("run %d: the run's comment lacks %q:\n%s", run, want, own.Body)
			}
		}
		if run == 0 {
			goldenFile(t, "comment-flood-hidden.md", own.Body)
		}
		if lists := threadLists(g.GitHub, 12); lists > 10 {
			t.Errorf("run %d: %d list requests of the thread's comments, want at most 10", run, lists)
		}
		if len(g.GitHub) > 15 {
			t.Errorf("run %d: %d GitHub requests, want at most 15", run, len(g.GitHub))
		}
	}
}

// repoPages counts the list requests of the repository's comments among
// calls (codeWorld.ghCalls): a settle run's read of the newest, which
// stops at 10 pages whatever the flood.
func repoPages(calls []string) int {
	n := 0
	for _, c := range calls {
		if strings.HasPrefix(c, "GET /repos/acme/docs/issues/comments?") {
			n++
		}
	}
	return n
}

// floodRepository writes n outsiders' comments across other issues of the
// repository, after everything seeded so far: the newest comments a settle
// run lists.
func floodRepository(gh *fakegithub.Server, n int) {
	for i := range n {
		gh.SeedComment(50+i%7, "stranger", false, fmt.Sprintf("spam %d", i))
	}
}

// TestApprovalFoundBehindAFlood: with docs-check: approved, the code pull
// request #7's record waits for an approving review of its docs pull
// request #101, and is never rewritten while it waits; 5,000 outsiders'
// comments elsewhere in the repository then push it out of the 1,000 most
// recently written comments a settle run lists. The settle run that the
// approval of #101 starts still finds it, and settles the check: success
// on #7's latest head, the record approved, nothing sent to the agent.
// It costs at most 30 GitHub requests, whatever the flood's size (5 of
// them keep the check of #101, which lands with #7: the two pull
// requests, each head's check, the write). The
// same holds when another check on #7's latest head has failed, so that
// GitHub counts its commit status failing, not pending, and no search by
// status finds #7: the backlink the action wrote on #101, the event's own
// pull request, names the comment that keeps the record.
func TestApprovalFoundBehindAFlood(t *testing.T) {
	t.Parallel()
	for _, failing := range []bool{false, true} {
		t.Run(map[bool]string{false: "its status pending", true: "another check failing"}[failing], func(t *testing.T) {
			t.Parallel()
			w := approvalWorld(t, false)
			if failing {
				w.gh.SeedStatus(fakegithub.Status{Repo: "acme/docs", SHA: head2, State: "failure", Context: "ci / test"})
			}
			floodRepository(w.gh, 5000)
			w.gh.SeedReview(101, fakegithub.Review{Author: "writer", State: "APPROVED", CommitID: docsHead})
			statuses, from, apiFrom := len(w.statuses()), len(w.gh.Requests()), len(w.api.Requests())
			w.settleOnReview("writer", "APPROVED", false)
			if got := w.statuses()[statuses:]; !slices.Equal(got, []string{"2222 success: Docs approved in pull request #101 https://github.com/acme/docs/pull/101"}) {
				t.Errorf("statuses after the approval: %q, want success on head2, #7's latest head", got)
			}
			if r := recordIn(w.gh.Comments(7)[0].Body); r.Docs != record.DocsApproved {
				t.Errorf("the record after the approval: %+v, want it approved", r)
			}
			if sends := w.sends(apiFrom); len(sends) != 0 {
				t.Errorf("the settle run sent the agent %q", sends)
			}
			if n := len(w.gh.Requests()) - from; n > 30 || repoPages(w.ghCalls(from)) != 10 {
				t.Errorf("the settle run sent GitHub %d requests, want at most 30, 10 pages of the repository's comments among them: %q", n, w.ghCalls(from))
			}
		})
	}
}

// TestScheduledSettleFindsAJobBehindAFlood: code pull request #7's job,
// which its run did not wait for, ends with no pull request; 5,000
// outsiders' comments elsewhere in the repository then push its record
// out of the comments a settle run lists. The scheduled settle run still
// finds it: the head that was pending gets the job's end, the comment
// says it, and the agent gets nothing but one read of the job. It costs
// at most 25 GitHub requests, whatever the flood's size.
func TestScheduledSettleFindsAJobBehindAFlood(t *testing.T) {
	t.Parallel()
	w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute, NoPR: true})
	if got := w.statuses(); len(got) != 1 || !strings.HasPrefix(got[0], "1111 pending: ") {
		t.Fatalf("statuses after opening: %q, want the head pending", got)
	}
	floodRepository(w.gh, 5000)
	w.clk.Advance(10 * time.Minute)
	w.settleRun()
	from, apiFrom := len(w.gh.Requests()), len(w.api.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("settle: %v\n%s", err, w.stdout.String())
	}
	if s := w.finalStatuses()["1111"]; !strings.HasPrefix(s, "1111 success: No docs change needed") {
		t.Errorf("head1 ends %q, want the job's end", s)
	}
	c := w.gh.Comments(7)
	if r := recordIn(c[0].Body); len(c) != 1 || r.Unsettled || len(r.Owed) > 0 || !strings.Contains(c[0].Body, "✅ **Done, no changes.**") {
		t.Errorf("the comment on #7 after the settle run: %+v, want the job's end", c)
	}
	if got := w.apiCalls(apiFrom); !slices.Equal(got, []string{"GET /v2/agent/proj-1/job/job_0001"}) {
		t.Errorf("the settle run sent the Agent API %q, want one read", got)
	}
	if n := len(w.gh.Requests()) - from; n > 25 || repoPages(w.ghCalls(from)) != 10 {
		t.Errorf("the settle run sent GitHub %d requests, want at most 25, 10 pages of the repository's comments among them: %q", n, w.ghCalls(from))
	}
}

// TestSettleWhenThePendingSearchFails: when the repository's comments
// outnumber what a settle run reads and GitHub refuses the search of the
// pull requests whose commit status is pending, the run warns, settles
// what the newest comments hold, and says that it searched those only.
func TestSettleWhenThePendingSearchFails(t *testing.T) {
	t.Parallel()
	h, gh := settling(t, fakeapi.Scenario{})
	for range 1001 {
		gh.SeedComment(12, "writer", false, "Any news?")
	}
	gh.SetFault(func(w http.ResponseWriter, r *http.Request) bool {
		return r.URL.Path == "/search/issues" && faults.JSON(http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})(w, r)
	})
	g := h.got(context.Background())
	if g.Err != nil {
		t.Fatalf("settle: %v\n%s", g.Err, g.Log)
	}
	h.wantLog("::warning::could not search the pull requests whose commit status is pending")
	h.wantLog("::notice::settled 0 threads; 0 jobs still working; searched the newest 1000 comments only: a record further back is settled by the next run in its thread")
}

// TestSettleReadsTheOldestPendingPulls: of more open pull requests whose
// commit status is pending than a settle run reads (settle.Leads, 20),
// it reads the oldest, each on one page (none has more than a page of
// comments): the record of the oldest is settled, whatever the comments
// written since, and the run's GitHub requests stay bounded: 10 pages of
// the repository's comments, the search, 20 pages, and the settling (its
// success read the open pull requests at the head first).
func TestSettleReadsTheOldestPendingPulls(t *testing.T) {
	t.Parallel()
	h, gh := settling(t, fakeapi.Scenario{})
	h.api.AddJob("job_0001", "completed")
	for n := 1; n <= 30; n++ {
		sha := fmt.Sprintf("%040x", n)
		gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: n, Author: "writer", HeadSHA: sha})
		gh.SeedStatus(fakegithub.Status{Repo: "acme/docs", SHA: sha, State: "pending", Context: "ci"})
	}
	gh.SeedStatus(fakegithub.Status{Repo: "acme/docs", SHA: fmt.Sprintf("%040x", 1), State: "pending", Context: "docs / agent-job"})
	gh.SeedComment(1, fakegithub.BotLogin, true, conversation.Render(conversation.State{Phase: conversation.NotWaiting,
		Record: record.Record{JobID: "job_0001", Head: fmt.Sprintf("%040x", 1), Owed: []string{fmt.Sprintf("%040x", 1)}, Unsettled: true}}))
	floodRepository(gh, 5000)
	g := h.got(context.Background())
	if g.Err != nil {
		t.Fatalf("settle: %v\n%s", g.Err, g.Log)
	}
	h.wantLog("30 open pull requests have a pending commit status: reading the oldest 20")
	if c := gh.Comments(1); len(c) != 1 || recordIn(c[0].Body).Unsettled {
		t.Errorf("#1's record is not settled: %+v", c)
	}
	lists := 0
	for n := 1; n <= 30; n++ {
		lists += threadLists(g.GitHub, n)
	}
	if lists != 20 || threadLists(g.GitHub, 21) != 0 {
		t.Errorf("%d list requests of the pull requests' comments, want 20, one each of the oldest 20", lists)
	}
	if n := len(g.GitHub); n > 10+1+20+7 {
		t.Errorf("%d GitHub requests, want at most 38", n)
	}
}
