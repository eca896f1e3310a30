package event

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/request"
)

// TestReadFacts checks the facts that answering in a pull request needs,
// from payloads written here with the fields GitHub sends (the
// conformance tests read the same facts from GitHub's own examples).
func TestReadFacts(t *testing.T) {
	t.Parallel()
	written := func(payload string) string {
		p := filepath.Join(t.TempDir(), "event.json")
		if err := os.WriteFile(p, []byte(payload), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, event, path string
		check             func(*Trigger) bool
		want              string
	}{
		{
			name: "review comment on one line", event: "pull_request_review_comment",
			path: written(`{"action":"created","pull_request":{"number":4,"head":{"ref":"tone"}},
				"comment":{"id":777,"body":"/docs simpler","path":"guide.md","line":41,"side":"RIGHT","diff_hunk":"@@ -40,2 +40,2 @@\n-Old","html_url":"https://github.com/acme/docs/pull/4#discussion_r777"},
				"sender":{"login":"ann","type":"User"},"repository":{"full_name":"acme/docs"}}`),
			check: func(g *Trigger) bool {
				return g.Own.Path == "guide.md" && g.Own.Line == 41 && g.Own.StartLine == 0 && g.Own.Side == "RIGHT" &&
					g.Own.DiffHunk == "@@ -40,2 +40,2 @@\n-Old" && g.Own.URL == "https://github.com/acme/docs/pull/4#discussion_r777" &&
					g.Own.Kind == request.Line && g.HeadRef == "tone"
			},
			want: "guide.md line 41 RIGHT, its hunk and URL, head branch tone",
		},
		{
			name: "submitted review", event: "pull_request_review",
			path: written(`{"action":"submitted","pull_request":{"number":4,"head":{"ref":"tone"}},
				"review":{"id":888,"body":null,"state":"commented","html_url":"https://github.com/acme/docs/pull/4#pullrequestreview-888","user":{"login":"ann"}},
				"sender":{"login":"ann","type":"User"},"repository":{"full_name":"acme/docs"}}`),
			check: func(g *Trigger) bool {
				return g.Own.Kind == request.Review && g.Own.ID == 888 && g.Own.Body == "" &&
					g.Own.URL == "https://github.com/acme/docs/pull/4#pullrequestreview-888" &&
					g.Number == 4 && g.IsPR && g.HeadRef == "tone"
			},
			want: "review 888, no body, on PR 4, head branch tone",
		},
		{
			name: "issue labeled", event: "issues",
			path:  written(`{"action":"labeled","issue":{"number":3,"user":{"login":"ann"}},"label":{"name":"docs"},"sender":{"login":"ann"}}`),
			check: func(g *Trigger) bool { return g.Label == "docs" && g.Assignee == "" && !g.IsPR },
			want:  "label docs",
		},
		{
			name: "issue assigned", event: "issues",
			path:  written(`{"action":"assigned","issue":{"number":3,"user":{"login":"ann"}},"assignee":{"login":"docs-bot"},"sender":{"login":"ann"}}`),
			check: func(g *Trigger) bool { return g.Assignee == "docs-bot" && g.Label == "" },
			want:  "assignee docs-bot",
		},
		{
			name: "pull request labeled", event: "pull_request",
			path:  written(`{"action":"labeled","pull_request":{"number":4,"head":{"ref":"tone"},"user":{"login":"ann"}},"label":{"name":"docs"},"sender":{"login":"ann"}}`),
			check: func(g *Trigger) bool { return g.Label == "docs" && g.HeadRef == "tone" },
			want:  "label docs, head branch tone",
		},
		{
			name: "issue comment", event: "issue_comment",
			path: written(`{"action":"created","issue":{"number":3,"user":{"login":"ann"}},
				"comment":{"id":999,"body":"/docs go","html_url":"https://github.com/acme/docs/issues/3#issuecomment-999","user":{"login":"ann"}},"sender":{"login":"ann"}}`),
			check: func(g *Trigger) bool {
				return g.Own.URL == "https://github.com/acme/docs/issues/3#issuecomment-999" && !g.IsPR
			},
			want: "the comment's URL, not a pull request",
		},
		{
			name: "comment count of a pull request", event: "issue_comment",
			path: written(`{"action":"created","issue":{"number":7,"comments":1234,"user":{"login":"agent-bot[bot]"},"pull_request":{"url":"x"}},
				"comment":{"id":5,"body":"/docs go","html_url":"https://github.com/o/r/pull/7#issuecomment-5"},"sender":{"login":"ann"}}`),
			check: func(g *Trigger) bool { return g.CommentCount == 1234 && g.IsPR && g.HeadRef == "" },
			want:  "1234 comments on a PR, no head branch in an issue_comment",
		},
		{
			name: "multi-line review comment on the old side", event: "pull_request_review_comment",
			path: written(`{"action":"created","pull_request":{"number":8,"comments":3,"head":{"ref":"fix","repo":{"full_name":"fork/r"}}},
				"comment":{"id":6,"body":"/docs shorten","path":"a.md","start_line":10,"line":12,"side":"LEFT","diff_hunk":"@@ -10,3 +10,3 @@"},"sender":{"login":"ann"}}`),
			check: func(g *Trigger) bool {
				return g.Own.StartLine == 10 && g.Own.Line == 12 && g.Own.Side == "LEFT" && g.Own.Path == "a.md" && g.HeadRef == "fix" && g.CommentCount == 3
			},
			want: "lines 10 to 12 of a.md, LEFT, head branch fix, 3 comments",
		},
		{
			name: "review with a body", event: "pull_request_review",
			path: written(`{"action":"submitted","pull_request":{"number":8},"review":{"id":9,"body":"/docs tighten","state":"changes_requested","user":{"login":"bo"}}}`),
			check: func(g *Trigger) bool {
				return g.Own.Kind == request.Review && g.Own.Body == "/docs tighten" && g.Own.ID == 9 && g.Sender == "bo"
			},
			want: "body /docs tighten, review 9, sent by the reviewer when sender is missing",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Read(context.Background(), tc.event, tc.path, "o/r")
			if err != nil {
				t.Fatalf("Read(context.Background(), ) error = %v", err)
			}
			if !tc.check(got) {
				t.Errorf("Read(context.Background(), ) = %+v\nwant %s", got, tc.want)
			}
		})
	}
}

func TestReadReviewErrors(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(p, []byte(`{"action":"submitted","pull_request":{"number":1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, event := range []string{"pull_request_review", "pull_request_review_thread"} {
		_, err := Read(context.Background(), event, filepath.Join("testdata", "issues_opened.json"), "o/r")
		if err == nil {
			t.Errorf("Read(context.Background(), %s) of an issues payload: no error", event)
		}
	}
	if _, err := Read(context.Background(), "pull_request_review", p, "o/r"); err == nil {
		t.Error("Read(context.Background(), ) of a review event without a review: no error")
	}
}

func TestRequest(t *testing.T) {
	t.Parallel()
	issue := func(action string) *Trigger { return &Trigger{Event: "issues", Number: 1, Action: action} }
	pr := func(event, action string) *Trigger {
		return &Trigger{Event: event, Number: 2, IsPR: true, Action: action}
	}
	labeled := func(tr *Trigger, label string) *Trigger { tr.Label = label; return tr }
	assigned := func(tr *Trigger, login string) *Trigger { tr.Assignee = login; return tr }
	cases := []struct {
		name            string
		t               *Trigger
		label, assignee string
		reason          string // "" for a request
	}{
		{name: "new comment", t: &Trigger{Event: "issue_comment", Action: "created", Own: comment(1)}},
		{name: "edited comment", t: &Trigger{Event: "issue_comment", Action: "edited", Own: comment(1)},
			reason: "the comment was edited, not created: only new comments are requests"},
		{name: "comment without an action", t: &Trigger{Event: "issue_comment", Own: comment(1)},
			reason: `the comment was "", not created: only new comments are requests`},
		{name: "deleted review comment", t: &Trigger{Event: "pull_request_review_comment", Action: "deleted"},
			reason: "the comment was deleted, not created: only new comments are requests"},
		{name: "submitted review", t: pr("pull_request_review", "submitted")},
		{name: "edited review", t: pr("pull_request_review", "edited"),
			reason: "the review was edited, not submitted: only submitted reviews are requests"},
		{name: "opened issue", t: issue("opened")},
		{name: "reopened pull request", t: pr("pull_request", "reopened")},
		{name: "opened under pull_request_target", t: pr("pull_request_target", "opened"), label: "docs"},
		{name: "closed issue", t: issue("closed"),
			reason: "the issue action closed is not a request: only opened, reopened, labeled and assigned are"},
		{name: "synchronized pull request", t: pr("pull_request", "synchronize"),
			reason: "the pull request action synchronize is not a request: only opened, reopened, labeled and assigned are"},
		{name: "any label", t: labeled(issue("labeled"), "bug")},
		{name: "the named label, in another case", t: labeled(pr("pull_request", "labeled"), "Docs"), label: " docs "},
		{name: "another label", t: labeled(issue("labeled"), "bug"), label: "docs",
			reason: "the label added to the issue is bug, not trigger-label docs"},
		{name: "a label with spaces and a hash", t: labeled(issue("labeled"), "needs #docs"), label: "docs",
			reason: "the label added to the issue is " + escape.Log("needs #docs") + ", not trigger-label docs"},
		{name: "unlabeled with the named label", t: labeled(issue("unlabeled"), "docs"), label: "docs",
			reason: "the issue action unlabeled is not a request: only opened, reopened, labeled and assigned are"},
		{name: "anyone assigned", t: assigned(issue("assigned"), "ann")},
		{name: "the named assignee, with @", t: assigned(pr("pull_request", "assigned"), "Docs-Bot"), assignee: "@docs-bot"},
		{name: "another assignee", t: assigned(pr("pull_request", "assigned"), "ann"), assignee: "docs-bot",
			reason: "the pull request was assigned to ann, not trigger-assignee docs-bot"},
		{name: "the label input does not filter assignments", t: assigned(issue("assigned"), "ann"), label: "docs"},
		{name: "unassigned", t: assigned(issue("unassigned"), "docs-bot"), assignee: "docs-bot",
			reason: "the issue action unassigned is not a request: only opened, reopened, labeled and assigned are"},
		{name: "review thread", t: pr("pull_request_review_thread", "resolved"),
			reason: "a review thread was resolved: only new comments and submitted reviews are requests"},
		{name: "dispatch", t: &Trigger{Event: "workflow_dispatch"}},
		{name: "schedule", t: &Trigger{Event: "schedule"}},
		{name: "outside Actions", t: &Trigger{}},
		{name: "an action with a newline is one line", t: issue("x\n::error::y"),
			reason: `the issue action "x\n::error::y" is not a request: only opened, reopened, labeled and assigned are`},
		{name: "a label that is a workflow command", t: labeled(issue("labeled"), "::stop-commands::x"), label: "docs",
			reason: "the label added to the issue is " + escape.Log("::stop-commands::x") + ", not trigger-label docs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ok, reason := tc.t.Request(tc.label, tc.assignee)
			if strings.ContainsAny(reason, "\r\n") || strings.HasPrefix(reason, "::") || strings.Contains(reason, " ::") {
				t.Errorf("reason %q is not one safe log line", reason)
			}
			if ok != (tc.reason == "") || reason != tc.reason {
				t.Errorf("Request(%q, %q) = %v, %q; want %v, %q", tc.label, tc.assignee, ok, reason, tc.reason == "", tc.reason)
			}
		})
	}
}

func comment(id int64) *request.Request {
	return &request.Request{Key: request.Key{Kind: request.Comment, ID: id}}
}
