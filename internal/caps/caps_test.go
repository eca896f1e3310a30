package caps

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/runlog"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// thread is a thread whose count is sent, or err; self is the token's
// login as learned.
type thread struct {
	sent  conversation.Tally
	err   error
	self  string
	reads int
}

func (t *thread) SentHere(context.Context) (conversation.Tally, error) {
	t.reads++
	return t.sent, t.err
}

func (t *thread) Self() string { return t.self }

// repo is the repository's recent comments, one page: the token's own
// records of today's sends, or err; it counts its list requests.
type repo struct {
	today []int // sends recorded today, one comment each
	err   error
	lists int
	// more says every page links to a next one, of comments written
	// today: a flood.
	more bool
}

var now = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

func (r *repo) ListRepoCommentsPage(_ context.Context, owner, name string, page int, keep ghclient.Keep) (*ghclient.CommentPage, error) {
	r.lists++
	if r.err != nil {
		return nil, r.err
	}
	out := &ghclient.CommentPage{}
	if r.more {
		out.Next = page + 1
	}
	for i, n := range r.today {
		body := conversation.Render(conversation.State{Phase: conversation.Done, Record: record.Record{JobID: "j", Sent: record.Sends{Total: n, Day: record.Day(now), OnDay: n}}})
		out.Comments = append(out.Comments, &ghclient.Comment{ID: int64(i + 1), Author: "github-actions[bot]", Body: keep(int64(i+1), "github-actions[bot]", body), UpdatedAt: now})
	}
	return out, nil
}

// TestReached: what the caps say from the counts, and which counts are
// read: the thread's for max-sends-per-thread, the repository's today's
// for max-sends-per-day, none past a cap already reached.
func TestReached(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		caps  plan.Caps
		th    *thread
		repo  *repo
		level string
		want  string
		// uncounted says the cap only counts as reached.
		uncounted bool
		err       string
		lists     int
		reads     int
		logged    string
	}{
		{name: "under both", caps: plan.Caps{Thread: 3, Day: 5, Owner: "acme", Repo: "docs"}, th: &thread{sent: conversation.Tally{Sent: 2}, self: "github-actions[bot]"},
			repo: &repo{today: []int{1, 2}}, reads: 1, lists: 1},
		{name: "the thread's cap", caps: plan.Caps{Thread: 3, Day: 5, Owner: "acme", Repo: "docs"}, th: &thread{sent: conversation.Tally{Sent: 3}},
			repo: &repo{}, want: "#12 has had 3 creates and follow-ups (max-sends-per-thread: 3)", reads: 1},
		{name: "a maintainer passes the thread's cap", caps: plan.Caps{Thread: 3, Pass: true, Owner: "acme", Repo: "docs"}, th: &thread{sent: conversation.Tally{Sent: 3}},
			repo: &repo{}, level: "maintain", reads: 1, logged: "#12 has had 3 creates and follow-ups (max-sends-per-thread: 3); passed: the request is by ada, who has maintain permission"},
		{name: "the day's cap", caps: plan.Caps{Day: 3, Owner: "acme", Repo: "docs"}, th: &thread{self: "github-actions[bot]"},
			repo: &repo{today: []int{1, 2}}, want: "the repository has had 3 creates and follow-ups today, UTC (max-sends-per-day: 3)", lists: 1},
		{name: "a thread's count cut before its first comment", caps: plan.Caps{Thread: 3, Owner: "acme", Repo: "docs"}, th: &thread{sent: conversation.Tally{Sent: 1, Read: 1000, Cut: true}},
			repo: &repo{}, want: "the sends from #12 could not all be counted (it has more comments than one run reads, its oldest 100 and newest 900 or so), so the cap counts as reached (max-sends-per-thread: 3)", uncounted: true, reads: 1},
		{name: "a day's count cut before the start of the day", caps: plan.Caps{Day: 20, Owner: "acme", Repo: "docs"}, th: &thread{self: "github-actions[bot]"},
			repo: &repo{today: []int{1}, more: true}, want: "today's sends could not all be counted (the repository's 10 most recently written comments are all from today, UTC), so the cap counts as reached (max-sends-per-day: 20)", uncounted: true, lists: conversation.DayPages},
		{name: "a thread count that cannot be read", caps: plan.Caps{Thread: 3, Owner: "acme", Repo: "docs"}, th: &thread{err: errors.New("HTTP 502")},
			repo: &repo{}, err: "count what was sent from #12 for max-sends-per-thread: HTTP 502; nothing was sent", reads: 1},
		{name: "the day's count without the token's login", caps: plan.Caps{Day: 3, Owner: "acme", Repo: "docs"}, th: &thread{},
			repo: &repo{}, err: "count what was sent today for max-sends-per-day: the token's own login is not known"},
		{name: "a day's count that cannot be read", caps: plan.Caps{Day: 3, Owner: "acme", Repo: "docs"}, th: &thread{self: "github-actions[bot]"},
			repo: &repo{err: errors.New("HTTP 500")}, err: "count what was sent today for max-sends-per-day: read the repository's comments to count what was sent today: HTTP 500; nothing was sent", lists: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			start := now.Add(-time.Minute)
			k := Counter{Repo: tt.repo, Progress: runlog.Progress{Log: runlog.NewPlain(&out), Clock: clock.NewFake(now), Start: start}}
			c := tt.caps
			why, err := k.Reached(context.Background(), &c, tt.th, 12, tt.level, "ada")
			if why.Why != tt.want || why.Uncounted != tt.uncounted || (err == nil) != (tt.err == "") || err != nil && !strings.HasPrefix(err.Error(), tt.err) {
				t.Errorf("Reached() = %+v, %v; want %q (uncounted %v), %q", why, err, tt.want, tt.uncounted, tt.err)
			}
			if tt.th.reads != tt.reads || tt.repo.lists != tt.lists {
				t.Errorf("%d reads of the thread and %d lists of the repository, want %d and %d", tt.th.reads, tt.repo.lists, tt.reads, tt.lists)
			}
			if !strings.Contains(out.String(), tt.logged) {
				t.Errorf("log lacks %q:\n%s", tt.logged, out.String())
			}
		})
	}
}
