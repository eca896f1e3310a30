package action_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/record"
)

// ownSent is one of the action's own comments on a job that counts n
// sends, the newest on day.
func ownSent(job string, n int, day string, onDay int) string {
	return recorded(record.Record{JobID: job, Sent: record.Sends{Total: n, Day: day, OnDay: onDay}})
}

// TestCapPerThread: the thread's sends are counted from the action's own
// comments there; at max-sends-per-thread nothing reaches the Agent API,
// one line says so, the comment says so, and the run succeeds. A person's
// copy of a marker counts nothing, and a maintainer's request passes.
func TestCapPerThread(t *testing.T) {
	t.Parallel()
	seed := func(gh *fakegithub.Server) {
		h := gh
		h.SeedComment(12, fakegithub.BotLogin, true, ownSent("job_0777", 2, "2026-11-20", 2))
		h.SeedComment(12, "mallory", false, ownSent("job_evil", 90, "2026-11-22", 90))
		h.SeedComment(12, fakegithub.BotLogin, true, ownSent("job_0777", 1, "2026-11-21", 1))
	}
	t.Run("at the cap", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
		gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs also mention the Retry-After header"))
		h.api.AddJob("job_0777", "completed")
		seed(gh)
		h.vars["INPUT_MAX-SENDS-PER-THREAD"] = "3"
		if err := h.run(context.Background()); err != nil {
			t.Fatalf("run: %v\n%s", err, h.stdout.String())
		}
		if n := len(h.api.Requests()); n != 0 {
			t.Errorf("%d requests reached the Agent API at the cap, want none", n)
		}
		want := "docs job cap reached, nothing sent: #12 has had 3 creates and follow-ups (max-sends-per-thread: 3)"
		if got := strings.Count(h.stdout.String(), want); got != 1 {
			t.Errorf("the log says %q %d times, want once:\n%s", want, got, h.stdout.String())
		}
		cs := gh.Comments(12)
		if len(cs) != 4 {
			t.Fatalf("%d comments on #12, want the three seeded and this run's", len(cs))
		}
		goldenFile(t, "comment-capped-thread.md", cs[3].Body)
		h.wantOutputs(map[string]string{"status": "skipped", "job-id": ""})
		if !strings.Contains(h.file("GITHUB_STEP_SUMMARY"), "**Cost:** Agent Job API: 0 creates, 0 follow-ups, 0 reads;") {
			t.Errorf("summary:\n%s", h.file("GITHUB_STEP_SUMMARY"))
		}
	})
	t.Run("under the cap, whatever a person's copy of a marker says", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
		gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs also mention the Retry-After header"))
		h.api.AddJob("job_0777", "completed")
		seed(gh)
		h.vars["INPUT_MAX-SENDS-PER-THREAD"] = "4"
		if err := h.run(context.Background()); err != nil {
			t.Fatalf("run: %v\n%s", err, h.stdout.String())
		}
		h.wantRequests(0, 1)
		cs := gh.Comments(12)
		if recordIn(cs[len(cs)-1].Body).Sent != (record.Sends{Total: 1, Day: "2026-11-22", OnDay: 1}) {
			t.Errorf("this run's comment does not count its follow-up:\n%s", cs[len(cs)-1].Body)
		}
	})
	t.Run("a maintainer's request passes", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
		gh := h.withGitHub(fakegithub.Options{Permissions: map[string]string{"lead": "maintain"}}, "issue_comment", issueComment("lead", "/docs also mention the Retry-After header"))
		h.api.AddJob("job_0777", "completed")
		seed(gh)
		h.vars["INPUT_MAX-SENDS-PER-THREAD"] = "3"
		if err := h.run(context.Background()); err != nil {
			t.Fatalf("run: %v\n%s", err, h.stdout.String())
		}
		h.wantRequests(0, 1)
		if want := "#12 has had 3 creates and follow-ups (max-sends-per-thread: 3); passed: the request is by lead, who has maintain permission"; !strings.Contains(h.stdout.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, h.stdout.String())
		}
	})
}

// TestCapPerDay: a weekly run with a tracking issue counts the sends the
// action's own comments recorded today (UTC) across the repository; at
// max-sends-per-day it sends nothing and says so in the tracking issue.
func TestCapPerDay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		max  string
		sent bool
	}{
		{name: "at the cap", max: "3"},
		{name: "under the cap", max: "4", sent: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
			gh := h.withGitHub(fakegithub.Options{}, "schedule", map[string]any{})
			h.vars["INPUT_PROMPT"] = "Update the changelog page."
			h.vars["INPUT_ISSUE-NUMBER"] = "30"
			h.vars["INPUT_MAX-SENDS-PER-DAY"] = tc.max
			gh.SeedComment(3, fakegithub.BotLogin, true, ownSent("job_0100", 4, "2026-11-22", 2))
			gh.SeedComment(5, fakegithub.BotLogin, true, ownSent("job_0200", 9, "2026-11-21", 9)) // yesterday's
			gh.SeedComment(5, "mallory", false, ownSent("job_evil", 50, "2026-11-22", 50))
			gh.SeedComment(8, fakegithub.BotLogin, true, ownSent("job_0300", 1, "2026-11-22", 1))
			if err := h.run(context.Background()); err != nil {
				t.Fatalf("run: %v\n%s", err, h.stdout.String())
			}
			var listed bool
			for _, r := range gh.Requests() {
				listed = listed || r.Method == "GET" && r.Path == "/repos/acme/docs/issues/comments" && strings.Contains(r.Query, "sort=updated") && strings.Contains(r.Query, "direction=desc")
			}
			if !listed {
				t.Error("the repository's comments were not read, the most recently written first")
			}
			cs := gh.Comments(30)
			if len(cs) != 1 {
				t.Fatalf("%d comments on the tracking issue, want 1", len(cs))
			}
			if tc.sent {
				h.wantRequests(1, 0)
				if recordIn(cs[0].Body).Sent != (record.Sends{Total: 1, Day: "2026-11-22", OnDay: 1}) {
					t.Errorf("the comment does not count its create:\n%s", cs[0].Body)
				}
				return
			}
			if n := len(h.api.Requests()); n != 0 {
				t.Errorf("%d requests reached the Agent API at the cap, want none", n)
			}
			want := "docs job cap reached, nothing sent: the repository has had 3 creates and follow-ups today, UTC (max-sends-per-day: 3)"
			if got := strings.Count(h.stdout.String(), want); got != 1 {
				t.Errorf("the log says %q %d times, want once:\n%s", want, got, h.stdout.String())
			}
			goldenFile(t, "comment-capped-day.md", cs[0].Body)
			h.wantOutputs(map[string]string{"status": "skipped"})
		})
	}
}

// TestCapCodePR: a code pull request's comment counts its job's sends,
// push after push; at max-sends-per-thread a push sends nothing, and its
// commit status is a success that says why, on its own head only.
func TestCapCodePR(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: 30 * time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_MAX-SENDS-PER-THREAD"] = "1"
	w.vars["INPUT_WAIT"] = "false"
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("opened: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 0)

	// The job has ended (a push while it works would wait, sending
	// nothing, which no cap stops).
	w.clk.Advance(31 * time.Minute)
	w.moveHead(head1, head2, codeFiles[:1], codeFiles)
	w.setEvent("pull_request", push(head1, head2))
	from := len(w.statuses())
	if err := w.run(context.Background()); err != nil {
		t.Fatalf("push: %v\n%s", err, w.stdout.String())
	}
	w.wantRequests(1, 0)
	w.wantLog("docs job cap reached, nothing sent: #7 has had 1 create or follow-up (max-sends-per-thread: 1)")
	got := w.statuses()[from:]
	// The opening head gets the ended job's status first (the run settles
	// what the opening run left: a run that does not wait links the
	// preview without waiting for its build), then the push's head the
	// cap.
	want := []string{"1111 success: Docs updated in a pull request; its preview is not ready https://github.com/acme/docs/pull/101",
		"2222 success: Docs job cap reached: #7 has had 1 create or follow-up (max-sends-per-thread: 1) https://github.com/acme/docs/actions/runs/4242"}
	if !slices.Equal(got, want) {
		t.Errorf("statuses:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	c := w.gh.Comments(7)
	if len(c) != 1 {
		t.Fatalf("%d comments, want the one comment of the pull request", len(c))
	}
	r := recordIn(c[0].Body)
	for m, ok := range map[string]bool{"the job": r.JobID == "job_0001", "the head it heard of": r.Head == head1,
		"what was sent": r.Sent == (record.Sends{Total: 1, Day: "2026-11-22", OnDay: 1}), "Not sent: the docs job cap is reached": strings.Contains(c[0].Body, "Not sent: the docs job cap is reached")} {
		if !ok {
			t.Errorf("the comment lacks %q (the job, the head it heard of, what was sent, why nothing more was):\n%s", m, c[0].Body)
		}
	}
}

// floodedDay is a code pull request's first push, which does not wait, in
// a repository with max-sends-per-day: 3, whose action's comment recorded
// sent sends today, followed by a thousand outsiders' comments written
// today: every page the day's count reads.
func floodedDay(t *testing.T, sent int) *codeWorld {
	t.Helper()
	w := newCodeWorld(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.vars["INPUT_WAIT"] = "false"
	w.vars["INPUT_PREVIEW"] = "false"
	w.vars["INPUT_MAX-SENDS-PER-DAY"] = "3"
	today := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	w.gh.SeedCommentAt(3, fakegithub.BotLogin, true, ownSent("job_0100", sent, "2026-11-22", sent), today)
	for i := range 1000 {
		w.gh.SeedCommentAt(5, "someone", false, fmt.Sprintf("me too %d", i), today.Add(30*time.Minute+time.Duration(i)*time.Second))
	}
	return w
}

// TestCapPerDayFlooded: a count of today's sends that cannot reach the
// start of the day is the cap reached, not a count of 0. A thousand
// comments written today after the action's own, which record today's
// sends, fill every page the count reads (the repository's 1,000 most
// recently written comments): the code pull request's run sends the Agent
// API nothing, and its log, comment and commit status say the count could
// not be completed, and the check claims no success: failing closed for
// the bill must not fail open for a required check. GitHub got the 10
// pages and no more.
func TestCapPerDayFlooded(t *testing.T) {
	t.Parallel()
	w := floodedDay(t, 3)

	g := w.got(context.Background())
	if g.Err != nil {
		t.Fatalf("run: %v\n%s", g.Err, g.Log)
	}
	if got := g.apiCalls(); len(got) != 0 {
		t.Errorf("the Agent API got %q, want nothing", got)
	}
	const why = "today's sends could not all be counted (the repository's 1000 most recently written comments are all from today, UTC), so the cap counts as reached (max-sends-per-day: 3)"
	w.wantLog("docs job cap reached, nothing sent: " + why)
	w.wantOutputs(map[string]string{"status": "skipped", "job-id": ""})
	if got := w.statuses(); len(got) != 1 || !strings.HasPrefix(got[0], "1111 error: The docs job's sends could not all be counted, so nothing was sent and no success is claimed") {
		t.Errorf("statuses %q, want the cap reached, the count not completed", got)
	}
	c := w.gh.Comments(7)
	if len(c) != 1 || !strings.Contains(c[0].Body, "Not sent: the docs job cap is reached.** Today&#39;s sends could not all be counted") {
		t.Errorf("comments %+v, want one saying the count could not be completed", c)
	}
	var pages []string
	for _, r := range g.GitHub {
		if r.Method == "GET" && r.Path == "/repos/acme/docs/issues/comments" {
			pages = append(pages, r.Query)
		}
	}
	if len(pages) != 10 || !strings.Contains(pages[9], "page=10&") {
		t.Errorf("GitHub got %d reads of the repository's comments (%q), want pages 1 to 10", len(pages), pages)
	}
}
