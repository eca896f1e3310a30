//go:build conformance

package event

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/request"
)

// WebhooksEnv names the folder of the @octokit/webhooks-examples package
// (7.6.1), GitHub's own example payloads, which .ci/run fetches at a pinned
// version and checksum. A conformance run without it fails; it never skips.
const WebhooksEnv = "OCTOKIT_WEBHOOKS_DIR"

// handled are the events the action reads.
var handled = []string{"issue_comment", "issues", "merge_group", "pull_request", "pull_request_review", "pull_request_review_comment", "pull_request_review_thread", "push", "repository_dispatch", "workflow_dispatch"}

// examples writes every example payload of the handled events to dir, one
// file each, named EVENT.ACTION.N.json (EVENT.N.json when the payload has
// no action), N being its place among the event's examples; it returns the
// names.
func examples(t *testing.T, dir string) []string {
	t.Helper()
	root := os.Getenv(WebhooksEnv)
	if root == "" {
		t.Fatalf("%s is not set: conformance tests need @octokit/webhooks-examples (run .ci/run, or see CONTRIBUTING.md)", WebhooksEnv)
	}
	data, err := os.ReadFile(filepath.Join(root, "api.github.com", "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var events []struct {
		Name     string            `json:"name"`
		Examples []json.RawMessage `json:"examples"`
	}
	if err := json.Unmarshal(data, &events); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range events {
		if !strings.Contains(" "+strings.Join(handled, " ")+" ", " "+e.Name+" ") {
			continue
		}
		for i, ex := range e.Examples {
			var a struct {
				Action string `json:"action"`
			}
			if err := json.Unmarshal(ex, &a); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s.%d.json", e.Name, i)
			if a.Action != "" {
				name = fmt.Sprintf("%s.%s.%d.json", e.Name, a.Action, i)
			}
			if err := os.WriteFile(filepath.Join(dir, name), ex, 0o600); err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		t.Fatalf("no example payloads of %v in %s", handled, root)
	}
	return names
}

// TestReadWebhooks reads every real payload of GitHub's examples through Read and checks who
// sent it, which issue or pull request and comment it is about, and
// whether it is a request, with the reason when it is not. Every file in
// the directory must have a row, and every row a file.
func TestReadWebhooks(t *testing.T) {
	t.Parallel()
	want := []struct {
		file      string
		sender    string
		bot       bool
		number    int
		commentID int64
		action    string
		reason    string // "" for a request
	}{
		{"issue_comment.created.0.json", "Codertocat", false, 1, 492700400, "created", ""},
		{"issue_comment.created.1.json", "Codertocat", false, 1, 492700400, "created", ""},
		{"issue_comment.created.2.json", "Codertocat", false, 1, 492700400, "created", ""},
		{"issue_comment.created.3.json", "Codertocat", false, 1, 492700400, "created", ""},
		{"issue_comment.created.4.json", "Codertocat", false, 1, 492700400, "created", ""},
		{"issue_comment.deleted.5.json", "Codertocat", false, 1, 492700400, "deleted", "the comment was deleted, not created: only new comments are requests"},
		{"issue_comment.deleted.6.json", "Codertocat", false, 1, 492700400, "deleted", "the comment was deleted, not created: only new comments are requests"},
		{"issue_comment.edited.7.json", "Codertocat", false, 1, 492700400, "edited", "the comment was edited, not created: only new comments are requests"},
		{"issue_comment.edited.8.json", "Codertocat", false, 1, 492700400, "edited", "the comment was edited, not created: only new comments are requests"},
		{"issues.assigned.1.json", "Codertocat", false, 1, 0, "assigned", ""},
		{"issues.assigned.2.json", "Codertocat", false, 1, 0, "assigned", ""},
		{"issues.assigned.3.json", "Codertocat", false, 1, 0, "assigned", ""},
		{"issues.deleted.4.json", "Codertocat", false, 1, 0, "deleted", "the issue action deleted is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.demilestoned.5.json", "Codertocat", false, 2, 0, "demilestoned", "the pull request action demilestoned is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.demilestoned.6.json", "Codertocat", false, 2, 0, "demilestoned", "the pull request action demilestoned is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.edited.0.json", "Codertocat", false, 1, 0, "edited", "the issue action edited is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.edited.7.json", "Codertocat", false, 1, 0, "edited", "the issue action edited is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.edited.8.json", "Codertocat", false, 1, 0, "edited", "the issue action edited is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.labeled.10.json", "Codertocat", false, 1, 0, "labeled", ""},
		{"issues.labeled.9.json", "Codertocat", false, 1, 0, "labeled", ""},
		{"issues.locked.11.json", "Codertocat", false, 1, 0, "locked", "the issue action locked is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.locked.12.json", "Codertocat", false, 1, 0, "locked", "the issue action locked is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.milestoned.13.json", "Codertocat", false, 2, 0, "milestoned", "the pull request action milestoned is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.milestoned.14.json", "Codertocat", false, 2, 0, "milestoned", "the pull request action milestoned is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.opened.15.json", "Codertocat", false, 1, 0, "opened", ""},
		{"issues.opened.16.json", "Codertocat", false, 1, 0, "opened", ""},
		{"issues.opened.17.json", "Codertocat", false, 1, 0, "opened", ""},
		{"issues.opened.18.json", "Codertocat", false, 1, 0, "opened", ""},
		{"issues.pinned.19.json", "Codertocat", false, 1, 0, "pinned", "the issue action pinned is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.reopened.20.json", "Codertocat", false, 1, 0, "reopened", ""},
		{"issues.transferred.21.json", "Codertocat", false, 1, 0, "transferred", "the issue action transferred is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.unassigned.22.json", "Codertocat", false, 1, 0, "unassigned", "the issue action unassigned is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.unassigned.23.json", "Codertocat", false, 1, 0, "unassigned", "the issue action unassigned is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.unlabeled.24.json", "Codertocat", false, 1, 0, "unlabeled", "the issue action unlabeled is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.unlabeled.25.json", "Codertocat", false, 1, 0, "unlabeled", "the issue action unlabeled is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.unlocked.26.json", "Codertocat", false, 1, 0, "unlocked", "the issue action unlocked is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.unlocked.27.json", "Codertocat", false, 1, 0, "unlocked", "the issue action unlocked is not a request: only opened, reopened, labeled and assigned are"},
		{"issues.unpinned.28.json", "Codertocat", false, 1, 0, "unpinned", "the issue action unpinned is not a request: only opened, reopened, labeled and assigned are"},
		{"merge_group.checks_requested.0.json", "Codertocat", false, 0, 0, "checks_requested", ""},
		{"merge_group.checks_requested.1.json", "Codertocat", false, 0, 0, "checks_requested", ""},
		{"pull_request.assigned.1.json", "Codertocat", false, 2, 0, "assigned", ""},
		{"pull_request.assigned.2.json", "Codertocat", false, 2, 0, "assigned", ""},
		{"pull_request.closed.3.json", "Codertocat", false, 2, 0, "closed", "the pull request action closed is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.closed.4.json", "Codertocat", false, 2, 0, "closed", "the pull request action closed is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.converted_to_draft.5.json", "Codertocat", false, 2, 0, "converted_to_draft", "the pull request action converted_to_draft is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.converted_to_draft.6.json", "Codertocat", false, 2, 0, "converted_to_draft", "the pull request action converted_to_draft is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.converted_to_draft.7.json", "Codertocat", false, 2, 0, "converted_to_draft", "the pull request action converted_to_draft is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.labeled.8.json", "Codertocat", false, 2, 0, "labeled", ""},
		{"pull_request.labeled.9.json", "Codertocat", false, 2, 0, "labeled", ""},
		{"pull_request.locked.10.json", "Codertocat", false, 2, 0, "locked", "the pull request action locked is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.locked.11.json", "Codertocat", false, 2, 0, "locked", "the pull request action locked is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.opened.0.json", "Codertocat", false, 2, 0, "opened", ""},
		{"pull_request.opened.12.json", "Codertocat", false, 2, 0, "opened", ""},
		{"pull_request.opened.13.json", "Codertocat", false, 2, 0, "opened", ""},
		{"pull_request.opened.14.json", "Codertocat", false, 2, 0, "opened", ""},
		{"pull_request.ready_for_review.15.json", "Codertocat", false, 2, 0, "ready_for_review", "the pull request action ready_for_review is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.ready_for_review.16.json", "Codertocat", false, 2, 0, "ready_for_review", "the pull request action ready_for_review is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.ready_for_review.17.json", "Codertocat", false, 2, 0, "ready_for_review", "the pull request action ready_for_review is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.reopened.18.json", "Codertocat", false, 2, 0, "reopened", ""},
		{"pull_request.reopened.19.json", "Codertocat", false, 2, 0, "reopened", ""},
		{"pull_request.review_request_removed.20.json", "Codertocat", false, 2, 0, "review_request_removed", "the pull request action review_request_removed is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.review_requested.21.json", "Codertocat", false, 2, 0, "review_requested", "the pull request action review_requested is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.synchronize.22.json", "Codertocat", false, 2, 0, "synchronize", "the pull request action synchronize is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.unassigned.23.json", "Codertocat", false, 2, 0, "unassigned", "the pull request action unassigned is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.unassigned.24.json", "Codertocat", false, 2, 0, "unassigned", "the pull request action unassigned is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.unlabeled.25.json", "Codertocat", false, 2, 0, "unlabeled", "the pull request action unlabeled is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.unlabeled.26.json", "Codertocat", false, 2, 0, "unlabeled", "the pull request action unlabeled is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.unlocked.27.json", "Codertocat", false, 2, 0, "unlocked", "the pull request action unlocked is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request.unlocked.28.json", "Codertocat", false, 2, 0, "unlocked", "the pull request action unlocked is not a request: only opened, reopened, labeled and assigned are"},
		{"pull_request_review.dismissed.1.json", "Codertocat", false, 2, 0, "dismissed", "the review was dismissed, not submitted: only submitted reviews are requests"},
		{"pull_request_review.submitted.0.json", "Codertocat", false, 2, 0, "submitted", ""},
		{"pull_request_review.submitted.2.json", "Codertocat", false, 2, 0, "submitted", ""},
		{"pull_request_review.submitted.3.json", "Codertocat", false, 2, 0, "submitted", ""},
		{"pull_request_review_comment.created.0.json", "Codertocat", false, 2, 284312630, "created", ""},
		{"pull_request_review_comment.created.1.json", "Codertocat", false, 2, 284312630, "created", ""},
		{"pull_request_review_comment.created.2.json", "Codertocat", false, 2, 284312630, "created", ""},
		{"pull_request_review_comment.deleted.3.json", "Codertocat", false, 2, 284312630, "deleted", "the comment was deleted, not created: only new comments are requests"},
		{"pull_request_review_comment.edited.4.json", "Codertocat", false, 2, 284312630, "edited", "the comment was edited, not created: only new comments are requests"},
		{"pull_request_review_thread.resolved.0.json", "octocat", false, 118, 0, "resolved", "a review thread was resolved: only new comments and submitted reviews are requests"},
		{"pull_request_review_thread.resolved.1.json", "Codertocat", false, 2, 0, "resolved", "a review thread was resolved: only new comments and submitted reviews are requests"},
		{"pull_request_review_thread.unresolved.2.json", "Codertocat", false, 2, 0, "unresolved", "a review thread was unresolved: only new comments and submitted reviews are requests"},
		{"push.0.json", "Codertocat", false, 0, 0, "", ""},
		{"push.1.json", "Codertocat", false, 0, 0, "", ""},
		{"push.2.json", "Codertocat", false, 0, 0, "", ""},
		{"push.3.json", "Codertocat", false, 0, 0, "", ""},
		{"push.4.json", "Codertocat", false, 0, 0, "", ""},
		{"push.5.json", "Codertocat", false, 0, 0, "", ""},
		{"push.6.json", "Codertocat", false, 0, 0, "", ""},
		{"repository_dispatch.on-demand-test.0.json", "Codertocat", false, 0, 0, "on-demand-test", ""},
		{"repository_dispatch.on-demand-test.1.json", "Codertocat", false, 0, 0, "on-demand-test", ""},
		{"workflow_dispatch.0.json", "octocat", false, 0, 0, "", ""},
		{"workflow_dispatch.1.json", "Codertocat", false, 0, 0, "", ""},
	}
	webhooks := t.TempDir()
	files := examples(t, webhooks)
	rows := map[string]bool{}
	for _, w := range want {
		rows[w.file] = true
	}
	for _, f := range files {
		if !rows[f] {
			t.Errorf("%s has no row in this table: add what it must read as", f)
		}
	}
	if len(files) != len(want) {
		t.Errorf("%d example payloads, %d rows: every row must have a payload", len(files), len(want))
	}
	for _, w := range want {
		t.Run(w.file, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(webhooks, w.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("payload missing: %v", err)
			}
			var p struct {
				Repository struct {
					FullName string `json:"full_name"`
				} `json:"repository"`
			}
			if err := json.Unmarshal(data, &p); err != nil {
				t.Fatal(err)
			}
			name, _, _ := strings.Cut(w.file, ".")
			got, err := Read(context.Background(), name, path, p.Repository.FullName)
			if err != nil {
				t.Fatalf("Read(context.Background(), ) error = %v", err)
			}
			if got.Event != name || got.Owner+"/"+got.Repo != p.Repository.FullName {
				t.Errorf("event %q in %s/%s, want %q in %s", got.Event, got.Owner, got.Repo, name, p.Repository.FullName)
			}
			if got.Sender != w.sender || got.SenderIsBot != w.bot {
				t.Errorf("sender %q (bot %v), want %q (bot %v)", got.Sender, got.SenderIsBot, w.sender, w.bot)
			}
			commentID := int64(0)
			if got.IsComment() && got.Own.Kind != request.Review {
				commentID = got.Own.ID
			}
			if got.Number != w.number || commentID != w.commentID || got.Action != w.action {
				t.Errorf("number %d, comment %d, action %q; want %d, %d, %q", got.Number, commentID, got.Action, w.number, w.commentID, w.action)
			}
			ok, reason := got.Request("", "")
			if ok != (w.reason == "") || reason != w.reason {
				t.Errorf("Request() = %v, %q; want %v, %q", ok, reason, w.reason == "", w.reason)
			}
			if name == "merge_group" && (got.Group == nil || got.Group.Branch() != "main" || !strings.HasPrefix(got.Group.HeadRef, "refs/heads/gh-readonly-queue/main/pr-") ||
				len(got.Group.HeadSHA) != 40 || len(got.Group.BaseSHA) != 40) {
				t.Errorf("the merge group read as %+v", got.Group)
			}
		})
	}
}

// TestReadFactsOfExamples reads the facts that answering in a pull request
// needs from GitHub's own example payloads.
func TestReadFactsOfExamples(t *testing.T) {
	t.Parallel()
	webhooks := t.TempDir()
	examples(t, webhooks)
	hello := "https://github.com/Codertocat/Hello-World/pull/2"
	cases := []struct {
		name, event, path string
		check             func(*Trigger) bool
		want              string
	}{
		{
			name: "review comment on one line", event: "pull_request_review_comment",
			path: filepath.Join(webhooks, "pull_request_review_comment.created.1.json"),
			check: func(g *Trigger) bool {
				return g.Own.Path == "README.md" && g.Own.Line == 265 && g.Own.StartLine == 0 && g.Own.Side == "RIGHT" &&
					g.Own.DiffHunk == "@@ -1 +1 @@\n-# Hello-World" && g.Own.URL == hello+"#discussion_r284312630" &&
					g.Own.Kind == request.Line && g.HeadRef == "changes"
			},
			want: "README.md line 265 RIGHT, its hunk and URL, head branch changes",
		},
		{
			name: "submitted review", event: "pull_request_review",
			path: filepath.Join(webhooks, "pull_request_review.submitted.0.json"),
			check: func(g *Trigger) bool {
				return g.Own.Kind == request.Review && g.Own.ID == 237895671 && g.Own.Body == "" &&
					g.Own.URL == hello+"#pullrequestreview-237895671" &&
					g.Number == 2 && g.IsPR && g.HeadRef == "changes"
			},
			want: "review 237895671, no body, on PR 2, head branch changes",
		},
		{
			name: "issue labeled", event: "issues", path: filepath.Join(webhooks, "issues.labeled.9.json"),
			check: func(g *Trigger) bool { return g.Label == "bug" && g.Assignee == "" && !g.IsPR },
			want:  "label bug",
		},
		{
			name: "issue assigned", event: "issues", path: filepath.Join(webhooks, "issues.assigned.1.json"),
			check: func(g *Trigger) bool { return g.Assignee == "Codertocat" && g.Label == "" },
			want:  "assignee Codertocat",
		},
		{
			name: "pull request labeled", event: "pull_request", path: filepath.Join(webhooks, "pull_request.labeled.8.json"),
			check: func(g *Trigger) bool { return g.Label == "bug" && g.HeadRef == "changes" },
			want:  "label bug, head branch changes",
		},
		{
			name: "issue comment", event: "issue_comment", path: filepath.Join(webhooks, "issue_comment.created.0.json"),
			check: func(g *Trigger) bool {
				return g.Own.URL == "https://github.com/Codertocat/Hello-World/issues/1#issuecomment-492700400" && !g.IsPR
			},
			want: "the comment's URL, not a pull request",
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
