package conversation

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
)

func TestRenderBacklinkGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		b    BacklinkText
	}{
		{"backlink-comment.md", BacklinkText{JobID: "job_0001", Source: FromComment,
			SourceURL: "https://github.com/acme/docs/issues/12#issuecomment-9001", TriggerPhrase: "/docs"}},
		{"backlink-issue-no-phrase.md", BacklinkText{JobID: "job_0001", Source: FromIssue, SourceURL: "https://github.com/acme/docs/issues/12"}},
		{"backlink-pull-request.md", BacklinkText{JobID: "job_0001", Source: FromPullRequest, SourceURL: "https://github.com/acme/docs/pull/3", TriggerPhrase: "@docs-agent"}},
		{"backlink-workflow-run.md", BacklinkText{JobID: "job_0001", Source: FromWorkflowRun,
			SourceURL: "https://github.com/acme/docs/actions/runs/42", TriggerPhrase: "/docs"}},
		{"backlink-elsewhere.md", BacklinkText{JobID: "job_0001", Source: FromPullRequest,
			SourceURL: "https://github.com/acme/app/pull/3", TriggerPhrase: "/docs", Elsewhere: true, Login: "docs-bot"}},
		{"backlink-elsewhere-unknown-login.md", BacklinkText{JobID: "job_0001", Source: FromPullRequest,
			SourceURL: "https://github.com/acme/app/pull/3", TriggerPhrase: "/docs", Elsewhere: true}},
		{"backlink-unsafe.md", BacklinkText{JobID: "job_0001", Source: FromComment,
			SourceURL: "javascript:alert(1)//https://github.com/", TriggerPhrase: "`/docs`<b>"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			got := RenderBacklink(tt.b)
			goldenFile(t, tt.file, got)
			if !IsBacklink(got) || !IsOwn(got) || backlinkOf(got) != tt.b.JobID {
				t.Errorf("the backlink does not carry its markers:\n%s", got)
			}
		})
	}
	if IsBacklink(Render(State{Phase: Done, Record: record.Record{JobID: "job_0001"}})) || IsBacklink(record.Format(record.Record{JobID: "job_0001", Backlink: true})) {
		t.Error("IsBacklink accepts a run comment, or a marker without the action's header")
	}
}

func newBacklink(gh GitHub, selfLogin string) *Backlink {
	return &Backlink{GH: gh, Owner: "acme", Repo: "docs", Number: 7, Self: selfLogin}
}

func text(job, url string) BacklinkText {
	return BacklinkText{JobID: job, Source: FromComment, SourceURL: url, TriggerPhrase: "/docs"}
}

func TestBacklinkCreateThenEdit(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self}
	ctx := context.Background()
	rec.Seed(7, "mallory", RenderBacklink(text("job_1", "https://github.com/evil")))     // forged
	rec.Seed(7, self, Render(State{Phase: Done, Record: record.Record{JobID: "job_1"}})) // the run comment of a run in the PR

	first, err := newBacklink(rec, self).Write(ctx, text("job_1", "https://github.com/acme/docs/issues/12#issuecomment-1"))
	if err != nil {
		t.Fatalf("first Write() error = %v", err)
	}
	// A later run for the same job, answering another request.
	second, err := newBacklink(rec, self).Write(ctx, text("job_1", "https://github.com/acme/docs/pull/7#issuecomment-2"))
	if err != nil {
		t.Fatalf("second Write() error = %v", err)
	}
	// Nothing new to say: nothing sent but the lookup.
	third, err := newBacklink(rec, self).Write(ctx, text("job_1", "https://github.com/acme/docs/pull/7#issuecomment-2"))
	if err != nil {
		t.Fatalf("third Write() error = %v", err)
	}
	// Another job gets its own.
	other, err := newBacklink(rec, self).Write(ctx, text("job_2", "https://github.com/acme/docs/issues/13"))
	if err != nil {
		t.Fatalf("other job's Write() error = %v", err)
	}
	if second.ID != first.ID || third.ID != first.ID || other.ID == first.ID {
		t.Errorf("ids = %d, %d, %d, %d; want the first three equal and the last apart", first.ID, second.ID, third.ID, other.ID)
	}
	want := []string{
		"ListCommentsPage acme/docs#7 page 1", "CreateComment acme/docs#7",
		"ListCommentsPage acme/docs#7 page 1", fmt.Sprintf("UpdateComment acme/docs %d", first.ID),
		"ListCommentsPage acme/docs#7 page 1",
		"ListCommentsPage acme/docs#7 page 1", "CreateComment acme/docs#7",
	}
	if got := rec.Calls(); !slices.Equal(got, want) {
		t.Errorf("calls = %q\nwant  %q", got, want)
	}
	cs := rec.Comments(7)
	if len(cs) != 4 {
		t.Fatalf("comments = %d, want 4", len(cs))
	}
	if cs[2].Body != RenderBacklink(text("job_1", "https://github.com/acme/docs/pull/7#issuecomment-2")) {
		t.Errorf("backlink body = %q", cs[2].Body)
	}
	if !strings.Contains(cs[0].Body, "https://github.com/evil") || cs[1].Body != Render(State{Phase: Done, Record: record.Record{JobID: "job_1"}}) {
		t.Error("a comment that is not the action's own backlink was edited")
	}
}

func TestBacklinkUnknownIdentity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	// Nothing carries the marker: creating cannot repeat anything, and the
	// created comment tells who the token is.
	rec := &Recorder{Self: self}
	b := newBacklink(rec, "")
	c, err := b.Write(ctx, text("job_1", "https://github.com/acme/docs/issues/1"))
	if err != nil || c.Author != self || b.Self != self {
		t.Fatalf("Write() = %+v, %v; Self = %q", c, err, b.Self)
	}
	if _, err := b.Write(ctx, text("job_1", "https://github.com/acme/docs/issues/2")); err != nil {
		t.Fatalf("second Write() error = %v", err)
	}
	if cs := rec.Comments(7); len(cs) != 1 || !strings.Contains(cs[0].Body, "issues/2") {
		t.Errorf("comments = %+v, want the one backlink, edited", cs)
	}

	// A marker is there, by someone: it may be this action's own, or not.
	for _, author := range []string{self, "mallory"} {
		rec := &Recorder{Self: self}
		id := rec.Seed(7, author, RenderBacklink(text("job_1", "https://github.com/acme/docs/issues/1")))
		_, err := newBacklink(rec, "").Write(ctx, text("job_1", "https://github.com/acme/docs/issues/2"))
		if !errors.Is(err, ErrUnknownIdentity) || !strings.HasPrefix(err.Error(), "write the backlink on acme/docs#7: ") {
			t.Errorf("author %s: Write() error = %v, want ErrUnknownIdentity", author, err)
		}
		if got, want := rec.Calls(), []string{"ListCommentsPage acme/docs#7 page 1"}; !slices.Equal(got, want) {
			t.Errorf("author %s: calls = %q, want %q", author, got, want)
		}
		if cs := rec.Comments(7); len(cs) != 1 || cs[0].ID != id || !strings.Contains(cs[0].Body, "issues/1") {
			t.Errorf("author %s: comments changed: %+v", author, cs)
		}
	}
}

func TestBacklinkErrors(t *testing.T) {
	t.Parallel()
	fail := func(prefix string) func(string) error {
		return func(call string) error {
			if strings.HasPrefix(call, prefix) {
				return errors.New("HTTP 502")
			}
			return nil
		}
	}
	cases := []struct {
		name      string
		fail      func(string) error
		seed      bool
		job       string
		wantErr   string
		wantCalls int
	}{
		{name: "list fails", fail: fail("ListCommentsPage"), job: "job_1", wantErr: "write the backlink on acme/docs#7: HTTP 502", wantCalls: 1},
		{name: "create fails", fail: fail("CreateComment"), job: "job_1", wantErr: "write the backlink on acme/docs#7: HTTP 502", wantCalls: 2},
		{name: "edit fails", fail: fail("UpdateComment"), seed: true, job: "job_1", wantErr: "write the backlink on acme/docs#7: HTTP 502", wantCalls: 2},
		{name: "job id that cannot be marked", job: "x -->", wantErr: `write the backlink on acme/docs#7: job id "x -->" cannot be marked`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &Recorder{Self: self, Fail: tc.fail}
			if tc.seed {
				rec.Seed(7, self, RenderBacklink(text(tc.job, "")))
			}
			c, err := newBacklink(rec, self).Write(context.Background(), text(tc.job, "https://github.com/acme/docs/issues/1"))
			if c != nil || err == nil || err.Error() != tc.wantErr {
				t.Errorf("Write() = %v, %v; want %q", c, err, tc.wantErr)
			}
			if n := len(rec.Calls()); n != tc.wantCalls {
				t.Errorf("calls = %q, want %d", rec.Calls(), tc.wantCalls)
			}
		})
	}
}

// TestBacklinkThroughGitHub writes backlinks through the real client and
// the fake GitHub, which checks each request against GitHub's description.
func TestBacklinkThroughGitHub(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		opt     fakegithub.Options
		repo    string
		wantErr string
	}{
		{name: "written", repo: "docs"},
		{name: "token without pull-requests: write", opt: fakegithub.Options{ForbidComments: true}, repo: "docs",
			wantErr: "write the backlink on acme/docs#7: create comment on #7: HTTP 403: Resource not accessible by integration: the token cannot comment on that pull request (it needs pull-requests: write on acme/docs)"},
		{name: "repository the token cannot see", repo: "docs", opt: fakegithub.Options{Fault: func(w http.ResponseWriter, r *http.Request) bool {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"message":"Not Found"}`)
			return true
		}}, wantErr: "write the backlink on acme/docs#7: list comments on #7: HTTP 404: Not Found: the token cannot comment on that pull request (it needs pull-requests: write on acme/docs)"},
		{name: "hostile repository name", repo: "docs/../../user",
			wantErr: `write the backlink on acme/docs/../../user#7: list comments on #7: docs/../../user is not a GitHub owner or repository name`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gh, srv := newFake(t, tc.opt)
			b := &Backlink{GH: gh, Owner: "acme", Repo: tc.repo, Number: 7, Self: fakegithub.BotLogin}
			for i := range 2 {
				_, err := b.Write(context.Background(), text("job_1", fmt.Sprintf("https://github.com/acme/docs/issues/%d", i+1)))
				if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr) {
					t.Fatalf("Write() error = %v, want %q", err, tc.wantErr)
				}
			}
			cs := srv.Comments(7)
			if tc.wantErr != "" {
				if len(cs) != 0 {
					t.Errorf("comments = %+v, want none", cs)
				}
				return
			}
			if len(cs) != 1 || cs[0].Edits != 1 || srv.CommentsCreated() != 1 || !strings.Contains(cs[0].Body, "issues/2") {
				t.Errorf("comments = %+v, want one backlink edited once", cs)
			}
		})
	}
}

// newFake starts a fake GitHub and a client for it; the test fails on any
// request the fake does not serve or GitHub's description does not allow.
func newFake(t testing.TB, opt fakegithub.Options) (*ghclient.Client, *fakegithub.Server) {
	t.Helper()
	opt.Check = ghspec.Checker()
	srv := fakegithub.New(opt)
	t.Cleanup(func() {
		srv.Close()
		if u := srv.Unexpected(); len(u) > 0 {
			t.Errorf("unexpected requests: %q", u)
		}
	})
	gh, err := ghclient.New(srv.Client(), srv.Client(), srv.APIURL(), fakegithub.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	return gh, srv
}

func TestClosedText(t *testing.T) {
	t.Parallel()
	merged := ClosedText(7, "https://github.com/acme/api/pull/7", true, "")
	closed := ClosedText(7, "javascript:alert(1)", false, "")
	if !IsOwn(merged) || !strings.Contains(merged, "[#7](https://github.com/acme/api/pull/7) was merged: the code this pull request documents has landed.") {
		t.Errorf("merged:\n%s", merged)
	}
	if !IsOwn(closed) || !strings.Contains(closed, "The code pull request #7 was closed without being merged") || strings.Contains(closed, "javascript") {
		t.Errorf("closed:\n%s", closed)
	}
	// What the run did with the docs pull request replaces the advice.
	landed := ClosedText(7, "https://github.com/acme/api/pull/7", true, "This pull request is merged with it (squash), as the workflow asks (docs-merge).")
	if !IsOwn(landed) || !strings.Contains(landed, "[#7](https://github.com/acme/api/pull/7) was merged. This pull request is merged with it (squash)") || strings.Contains(landed, "has landed") {
		t.Errorf("merged with it:\n%s", landed)
	}
	shut := ClosedText(7, "https://github.com/acme/api/pull/7", false, "This pull request is closed with it, as the workflow asks (docs-close).")
	if !strings.Contains(shut, "gets nothing more from it. This pull request is closed with it") || strings.Contains(shut, "unless its change stands") {
		t.Errorf("closed with it:\n%s", shut)
	}
}
