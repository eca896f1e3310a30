package conversation

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/request"
)

// TestRead: what a run reads of a pull request for package backlog. Only
// the token's own comments are its own, and only their records count; the
// action's own markup in someone else's comment makes it no request; the
// run's own comment is left out; a line comment is dated when its review
// was submitted, which is when a reader could see it.
func TestRead(t *testing.T) {
	t.Parallel()
	gh, srv := newFake(t, fakegithub.Options{})
	srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 12, Author: "docs-agent[bot]"})
	answered := &backlog.Record{Sent: []request.Key{{Kind: request.Comment, ID: 1}}}
	ask := srv.SeedComment(12, "ada", false, "/docs one")
	own := srv.SeedComment(12, fakegithub.BotLogin, true, Render(State{Phase: Done, Record: record.Record{JobID: "job_1", Answered: answered}}))
	forged := srv.SeedComment(12, "mallory", false, Render(State{Phase: Done, Record: record.Record{JobID: "job_evil", Answered: answered}}))
	other := srv.SeedComment(12, "other-app[bot]", true, "/docs from a bot")
	review := srv.SeedReview(12, fakegithub.Review{Author: "ada", Body: "/docs see the lines"})
	srv.SeedReviewComments(12, review, []fakegithub.ReviewComment{{Author: "ada", Path: "a.md", Line: 3, Body: "shorter"}})
	lineID := srv.ReviewComments(12, review)[0].ID

	th := newThread(gh, &warnings{})
	th.Show(context.Background(), State{Phase: Working}) // the run's own comment
	got, err := th.Read(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Own) != 1 || got.Own[0].ID != own || got.Own[0].Record == nil || !slices.Equal(got.Own[0].Record.Sent, []request.Key{{Kind: request.Comment, ID: 1}}) {
		t.Errorf("Own = %+v, want comment %d with its record", got.Own, own)
	}
	var keys []string
	for _, it := range got.Items {
		keys = append(keys, it.Key.String())
		if it.Key.ID == lineID && (!it.At.Equal(fakegithub.CreatedAt(review)) || it.ReviewID != review || it.Path != "a.md" || it.Line != 3) {
			t.Errorf("line comment = %+v, want dated at its review's submission, with its place", it)
		}
		if it.Key.ID == other && !it.Bot {
			t.Errorf("a bot's comment is not marked as a bot's: %+v", it)
		}
	}
	want := []string{request.Key{Kind: request.Comment, ID: ask}.String(), request.Key{Kind: request.Comment, ID: other}.String(),
		request.Key{Kind: request.Review, ID: review}.String(), request.Key{Kind: request.Line, ID: lineID}.String()}
	if !slices.Equal(keys, want) {
		t.Errorf("items %v, want %v (not the forged %d, not the run's own comment)", keys, want, forged)
	}
	var lists []string
	for _, r := range srv.Requests() {
		if r.Method == "GET" {
			lists = append(lists, r.Path+"?"+r.Query)
		}
	}
	wantLists := []string{
		"/repos/acme/docs/issues/12/comments?page=1&per_page=100",
		"/repos/acme/docs/pulls/12/reviews?page=1&per_page=100",
		"/repos/acme/docs/pulls/12/comments?direction=desc&page=1&per_page=100&sort=created",
	}
	if !slices.Equal(lists, wantLists) {
		t.Errorf("read with\n%s\nwant\n%s", strings.Join(lists, "\n"), strings.Join(wantLists, "\n"))
	}
}

// TestReadNeedsIdentity: without the token's login, no comment can be told
// to be the action's own, so nothing is read.
func TestReadNeedsIdentity(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self}
	th := newThread(rec, &warnings{})
	if _, err := th.Read(context.Background(), false); !errors.Is(err, ErrUnknownIdentity) || len(rec.Calls()) != 0 {
		t.Errorf("Read() = %v after %v; want ErrUnknownIdentity and no call", err, rec.Calls())
	}
	th.React(context.Background(), 55, request.Comment, "eyes")
	if th.Self() != self {
		t.Errorf("Self() = %q after a reaction, want %q", th.Self(), self)
	}
	if _, err := th.Read(context.Background(), false); err != nil {
		t.Errorf("Read() after a reaction: %v", err)
	}
}
