package action_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

// TestScheduleGivesEveryOpenPullRequestItsCheck: the scheduled settle run
// reconciles every open pull request no code job follows, as GitHub lists
// them: of 201 open pull requests, 195 people's (their checks are their
// code job's), five owe a check (four forks' and a bot's whose event was
// missed: opened before the workflow, or a write that was lost) and one
// fork's shows a maintainer's release. The five get theirs, the release
// stays, no person's pull request is read past the list, and the run's
// GitHub requests grow with the five, not with the 201: the list's three
// pages, then for each pull request no code job follows a read of its
// head's check, and for each that owes one the write.
// The next scheduled run writes nothing.
func TestScheduleGivesEveryOpenPullRequestItsCheck(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	sha := func(n int) string { return fmt.Sprintf("%040x", 0xabc000+n) }
	owe := map[int]string{}
	for n := 1; n <= 200; n++ {
		p := fakegithub.Pull{Repo: "acme/docs", Number: 1000 + n, Author: "ada", HeadRef: fmt.Sprintf("b%d", n), HeadSHA: sha(n)}
		switch {
		case n%50 == 0: // 4 forks
			p.Author, p.HeadRepo = "mallory", "mallory/docs"
			owe[p.Number] = "pending: From a fork, where no docs job runs"
		case n == 77:
			p.Author = "dependabot[bot]"
			owe[p.Number] = "success: Opened by dependabot[bot], whose pull requests need no docs job"
		case n == 99:
			p.Author, p.HeadRepo = "eve", "eve/docs"
			w.gh.SeedStatus(fakegithub.Status{Repo: "acme/docs", SHA: sha(n), State: "success", Context: "docs / agent-job", Description: "Docs check released by writer: no docs job needed for this commit"})
		}
		w.gh.SeedPull(p)
	}
	w.settleRun()
	from := len(w.gh.Requests())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("schedule: %v\n%s", err, w.stdout.String())
	}
	for n, want := range owe {
		if got := w.shownOn(sha(n - 1000)); !strings.HasPrefix(got, want) {
			t.Errorf("#%d's head: %q, want %q", n, got, want)
		}
	}
	if got := w.shownOn(sha(99)); !strings.HasPrefix(got, "success: Docs check released by writer") {
		t.Errorf("the released fork's head: %q, want the release kept", got)
	}
	calls := w.ghCalls(from)
	lists, statusReads, writes := 0, 0, 0
	for _, c := range calls {
		switch {
		case strings.HasPrefix(c, "GET /repos/acme/docs/pulls?"):
			lists++
		case strings.HasPrefix(c, "GET /repos/acme/docs/commits/") && strings.Contains(c, "/status"):
			statusReads++
		case strings.HasPrefix(c, "POST /repos/acme/docs/statuses/"):
			writes++
		}
	}
	if lists != 3 || statusReads != 6 || writes != 5 {
		t.Errorf("the schedule listed %d pages, read %d checks and wrote %d; want 3, 6 (one for each pull request no code job follows) and 5 (those that owe one):\n%s", lists, statusReads, writes, strings.Join(calls, "\n"))
	}
	if n := len(calls); n > 30 {
		t.Errorf("the schedule sent GitHub %d requests, want at most 30 whatever the people's pull requests:\n%s", n, strings.Join(calls, "\n"))
	}
	w.settleRun()
	statuses := len(w.gh.Statuses())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("second schedule: %v\n%s", err, w.stdout.String())
	}
	if got := w.gh.Statuses()[statuses:]; len(got) != 0 {
		t.Errorf("the next scheduled run wrote %+v", got)
	}
}
