package event

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/ghclient"
)

func TestRead(t *testing.T) {
	t.Parallel()
	unreadable := t.TempDir() // a directory: os.ReadFile fails on it
	cases := []struct {
		name    string
		event   string
		file    string // under testdata; "" leaves GITHUB_EVENT_PATH unset
		path    string // overrides file with a literal path
		repo    string
		want    *Trigger
		wantErr string
	}{
		{
			name: "issue comment on an issue", event: "issue_comment", file: "issue_comment_issue.json", repo: "acme/docs",
			want: &Trigger{
				Event: "issue_comment", Owner: "acme", Repo: "docs", Number: 12,
				Title: "Document the webhooks API", URL: "https://github.com/acme/docs/issues/12",
				CommentID: 1900000001, CommentKind: "issue", CommentBody: "/docs add a page for webhooks",
				CommentURL: "https://github.com/acme/docs/issues/12#issuecomment-1900000001",
				IssueBody:  "The webhooks page is missing.", Sender: "octocat", Action: "created",
			},
		},
		{
			name: "issue comment on a pull request", event: "issue_comment", file: "issue_comment_pr.json", repo: "acme/docs",
			want: &Trigger{
				Event: "issue_comment", Owner: "acme", Repo: "docs", Number: 34, IsPR: true,
				Title: "Add quickstart", URL: "https://github.com/acme/docs/pull/34",
				CommentID: 1900000002, CommentKind: "issue", CommentBody: "please /docs fix the typos",
				CommentURL: "https://github.com/acme/docs/pull/34#issuecomment-1900000002",
				Sender:     "hubot", Action: "created",
			},
		},
		{
			name: "comment by a bot", event: "issue_comment", file: "issue_comment_bot.json", repo: "acme/docs",
			want: &Trigger{
				Event: "issue_comment", Owner: "acme", Repo: "docs", Number: 12,
				Title: "Document the webhooks API", URL: "https://github.com/acme/docs/issues/12",
				CommentID: 1900000003, CommentKind: "issue", CommentBody: "Agent job started. /docs",
				Sender: "github-actions[bot]", SenderIsBot: true, Action: "created",
			},
		},
		{
			name: "review comment", event: "pull_request_review_comment", file: "pull_request_review_comment.json", repo: "acme/docs",
			want: &Trigger{
				Event: "pull_request_review_comment", Owner: "acme", Repo: "docs", Number: 34, IsPR: true,
				Title: "Add quickstart", URL: "https://github.com/acme/docs/pull/34",
				CommentID: 1800000001, CommentKind: "review", CommentBody: "/docs reword this step",
				CommentURL: "https://github.com/acme/docs/pull/34#discussion_r1800000001",
				IssueBody:  "First draft.", Sender: "octocat", Action: "created",
				Path: "guides/quickstart.mdx", Line: 14,
			},
		},
		{
			name: "issue opened", event: "issues", file: "issues_opened.json", repo: "acme/docs",
			want: &Trigger{
				Event: "issues", Owner: "acme", Repo: "docs", Number: 56,
				Title: "Explain rate limits", URL: "https://github.com/acme/docs/issues/56",
				IssueBody: "Users ask what the limits are.\nAdd a section to the API reference.",
				Sender:    "octocat", Action: "opened",
			},
		},
		{
			name: "pull request opened by a bot without type", event: "pull_request", file: "pull_request_opened.json", repo: "acme/docs",
			want: &Trigger{
				Event: "pull_request", Owner: "acme", Repo: "docs", Number: 78, IsPR: true,
				Title: "Rename the SDK", URL: "https://github.com/acme/docs/pull/78",
				IssueBody: "Update the docs for the new package name.",
				Sender:    "dependabot[bot]", SenderIsBot: true, Action: "opened",
				HeadRef: "rename-sdk",
			},
		},
		{
			name: "pull_request_target reads like pull_request", event: "pull_request_target", file: "pull_request_opened.json", repo: "acme/docs",
			want: &Trigger{
				Event: "pull_request_target", Owner: "acme", Repo: "docs", Number: 78, IsPR: true,
				Title: "Rename the SDK", URL: "https://github.com/acme/docs/pull/78",
				IssueBody: "Update the docs for the new package name.",
				Sender:    "dependabot[bot]", SenderIsBot: true, Action: "opened",
				HeadRef: "rename-sdk",
			},
		},
		{
			name: "workflow_dispatch keeps the sender", event: "workflow_dispatch", file: "workflow_dispatch.json", repo: "acme/docs",
			want: &Trigger{Event: "workflow_dispatch", Owner: "acme", Repo: "docs", Sender: "octocat"},
		},
		{
			name: "schedule without a payload", event: "schedule", repo: "acme/docs",
			want: &Trigger{Event: "schedule", Owner: "acme", Repo: "docs"},
		},
		{
			name: "push with an unreadable payload", event: "push", path: unreadable, repo: "acme/docs",
			want: &Trigger{Event: "push", Owner: "acme", Repo: "docs"},
		},
		{
			name: "no event at all, outside Actions",
			want: &Trigger{},
		},
		{
			name: "comment event with no payload path", event: "issue_comment", repo: "acme/docs",
			wantErr: "read issue_comment event: GITHUB_EVENT_PATH is not set",
		},
		{
			name: "comment event with a missing file", event: "issue_comment", path: "testdata/nope.json", repo: "acme/docs",
			wantErr: "read issue_comment event: event payload: stat testdata/nope.json: no such file",
		},
		{
			name: "review comment with an unreadable file", event: "pull_request_review_comment", path: unreadable, repo: "acme/docs",
			wantErr: "is not a regular file: GITHUB_EVENT_PATH must name the file the runner wrote",
		},
		{
			name: "truncated payload", event: "issue_comment", file: "truncated.json", repo: "acme/docs",
			wantErr: "read issue_comment event: event payload: unexpected end of JSON input",
		},
		{
			name: "comment event without a comment", event: "issue_comment", file: "issue_comment_no_comment.json", repo: "acme/docs",
			wantErr: "event payload has no issue or no comment",
		},
		{
			name: "issues event without an issue", event: "issues", file: "workflow_dispatch.json", repo: "acme/docs",
			wantErr: "read issues event: event payload has no issue",
		},
		{
			name: "pull_request event without a pull request", event: "pull_request", file: "issues_opened.json", repo: "acme/docs",
			wantErr: "read pull_request event: event payload has no pull_request",
		},
		{
			name: "issues event needs the repository", event: "issues", file: "issues_opened.json",
			wantErr: "read issues event: GITHUB_REPOSITORY is not set",
		},
		{
			name: "malformed repository", event: "workflow_dispatch", repo: "acme",
			wantErr: `GITHUB_REPOSITORY "acme" is not owner/repo`,
		},
		{
			name: "repository with too many parts", event: "issues", file: "issues_opened.json", repo: "acme/docs/x",
			wantErr: `GITHUB_REPOSITORY "acme/docs/x" is not owner/repo`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := tc.path
			if tc.file != "" {
				path = filepath.Join("testdata", tc.file)
			}
			got, err := Read(context.Background(), tc.event, path, tc.repo)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Read(context.Background(), ) error = %v, want one containing %q", err, tc.wantErr)
				}
				if got != nil {
					t.Errorf("Read(context.Background(), ) = %+v with an error, want nil", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Read(context.Background(), ) error = %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Read(context.Background(), ) =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

// TestReadSenderFallback covers trimmed payloads (some proxies and replays
// drop sender): the comment's author stands in.
func TestReadSenderFallback(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "event.json")
	payload := `{"action":"created","issue":{"number":3,"title":"t"},"comment":{"id":9,"body":"/docs","user":{"login":"renovate[bot]"}}}`
	if err := os.WriteFile(p, []byte(payload), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Read(context.Background(), "issue_comment", p, "o/r")
	if err != nil {
		t.Fatalf("Read(context.Background(), ) error = %v", err)
	}
	if got.Sender != "renovate[bot]" || !got.SenderIsBot {
		t.Errorf("Sender = %q, SenderIsBot = %v; want renovate[bot], true", got.Sender, got.SenderIsBot)
	}
}

func TestIsBot(t *testing.T) {
	t.Parallel()
	cases := []struct {
		login, typ string
		want       bool
	}{
		{"github-actions[bot]", "Bot", true},
		{"docs-app", "Bot", true},
		{"renovate[bot]", "", true},
		{"renovate[bot]", "User", true},
		{"octocat", "User", false},
		{"octocat", "", false},
		{"bot", "User", false},
		{"[bot]user", "User", false},
		{"acme", "Organization", false},
	}
	for _, tc := range cases {
		if got := ghclient.IsBot(tc.login, tc.typ); got != tc.want {
			t.Errorf("IsBot(%q, %q) = %v, want %v", tc.login, tc.typ, got, tc.want)
		}
	}
}
