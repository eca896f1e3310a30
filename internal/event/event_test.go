package event

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/request"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestRead(t *testing.T) {
	t.Parallel()
	unreadable := t.TempDir() // a directory: os.ReadFile fails on it
	cases := []struct {
		name  string
		event string
		file  string // under testdata; "" leaves GITHUB_EVENT_PATH unset
		path  string // overrides file with a literal path
		repo  string
		want  *Trigger
		// own is the request the event makes, when it is a comment; for
		// other events it is the event itself, by its sender.
		own     *request.Request
		wantErr string
	}{
		{
			name: "issue comment on an issue", event: "issue_comment", file: "issue_comment_issue.json", repo: "acme/docs",
			want: &Trigger{
				Event: "issue_comment", Owner: "acme", Repo: "docs", Number: 12,
				Title: "Document the webhooks API", URL: "https://github.com/acme/docs/issues/12",
				IssueBody: "The webhooks page is missing.", Sender: "octocat", Action: "created",
			},
			own: &request.Request{Key: request.Key{Kind: request.Comment, ID: 1900000001}, Author: "octocat", Body: "/docs add a page for webhooks",
				URL: "https://github.com/acme/docs/issues/12#issuecomment-1900000001"},
		},
		{
			name: "issue comment on a pull request", event: "issue_comment", file: "issue_comment_pr.json", repo: "acme/docs",
			want: &Trigger{
				Event: "issue_comment", Owner: "acme", Repo: "docs", Number: 34, IsPR: true,
				Title: "Add quickstart", URL: "https://github.com/acme/docs/pull/34",
				Sender: "hubot", Action: "created",
			},
			own: &request.Request{Key: request.Key{Kind: request.Comment, ID: 1900000002}, Author: "hubot", Body: "please /docs fix the typos",
				URL: "https://github.com/acme/docs/pull/34#issuecomment-1900000002"},
		},
		{
			name: "comment by a bot", event: "issue_comment", file: "issue_comment_bot.json", repo: "acme/docs",
			want: &Trigger{
				Event: "issue_comment", Owner: "acme", Repo: "docs", Number: 12,
				Title: "Document the webhooks API", URL: "https://github.com/acme/docs/issues/12",
				Sender: "github-actions[bot]", SenderIsBot: true, Action: "created",
			},
			own: &request.Request{Key: request.Key{Kind: request.Comment, ID: 1900000003}, Author: "github-actions[bot]", Bot: true, Body: "Agent job started. /docs"},
		},
		{
			name: "review comment", event: "pull_request_review_comment", file: "pull_request_review_comment.json", repo: "acme/docs",
			want: &Trigger{
				Event: "pull_request_review_comment", Owner: "acme", Repo: "docs", Number: 34, IsPR: true,
				Title: "Add quickstart", URL: "https://github.com/acme/docs/pull/34",
				IssueBody: "First draft.", Sender: "octocat", Action: "created",
			},
			own: &request.Request{Key: request.Key{Kind: request.Line, ID: 1800000001}, Author: "octocat", Body: "/docs reword this step",
				URL: "https://github.com/acme/docs/pull/34#discussion_r1800000001", Place: request.Place{Path: "guides/quickstart.mdx", Line: 14}, ReviewID: 1700000001},
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
				HeadRef: "rename-sdk", HeadSHA: "6dcb09b5b57875f334f61aebed695e2e4193db5e", BaseSHA: "c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc",
				Opener: "dependabot[bot]", OpenerIsBot: true,
			},
		},
		{
			// docs-when: approved hears the code's approval: its head, its
			// base, who opened it and the review's state.
			name: "a review approving a code pull request", event: "pull_request_review", file: "pull_request_review_approved.json", repo: "acme/api",
			want: &Trigger{
				Event: "pull_request_review", Owner: "acme", Repo: "api", Number: 9, IsPR: true,
				Title: "Retry on 503", URL: "https://github.com/acme/api/pull/9",
				Sender: "reviewer", Action: "submitted", Opener: "octocat", ReviewState: "approved",
				HeadRef: "retry", HeadSHA: "89abcdef0123456789abcdef0123456789abcdef", BaseSHA: "c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc",
			},
			own: &request.Request{Key: request.Key{Kind: request.Review, ID: 777}, Author: "reviewer",
				URL: "https://github.com/acme/api/pull/9#pullrequestreview-777"},
		},
		{
			name: "a draft pushed to from a fork", event: "pull_request", file: "pull_request_fork_synchronize.json", repo: "acme/api",
			want: &Trigger{
				Event: "pull_request", Owner: "acme", Repo: "api", Number: 9, IsPR: true,
				Title: "Retry on 503", URL: "https://github.com/acme/api/pull/9",
				Sender: "octocat", Action: "synchronize", Opener: "octocat",
				HeadRef: "retry", HeadSHA: "89abcdef0123456789abcdef0123456789abcdef", Before: "0123456789abcdef0123456789abcdef01234567",
				BaseSHA: "c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc", Draft: true, Fork: true,
			},
		},
		{
			name: "pull request moved to another base", event: "pull_request", file: "pull_request_edited_base.json", repo: "acme/docs",
			want: &Trigger{
				Event: "pull_request", Owner: "acme", Repo: "docs", Number: 78, IsPR: true,
				Title: "Rename the SDK", URL: "https://github.com/acme/docs/pull/78",
				IssueBody: "Update the docs for the new package name.", Sender: "ada", Action: "edited",
				HeadRef: "rename-sdk", HeadSHA: "6dcb09b5b57875f334f61aebed695e2e4193db5e", BaseSHA: "c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc",
				Retargeted: true, Opener: "ada",
			},
		},
		{
			name: "pull request merged", event: "pull_request", file: "pull_request_closed_merged.json", repo: "acme/docs",
			want: &Trigger{
				Event: "pull_request", Owner: "acme", Repo: "docs", Number: 78, IsPR: true,
				Title: "Rename the SDK", URL: "https://github.com/acme/docs/pull/78",
				IssueBody: "Update the docs for the new package name.", Sender: "ada", Action: "closed",
				HeadRef: "rename-sdk", HeadSHA: "6dcb09b5b57875f334f61aebed695e2e4193db5e", BaseSHA: "c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc",
				Merged: true, Opener: "ada",
			},
		},
		{
			name: "pull_request_target reads like pull_request", event: "pull_request_target", file: "pull_request_opened.json", repo: "acme/docs",
			want: &Trigger{
				Event: "pull_request_target", Owner: "acme", Repo: "docs", Number: 78, IsPR: true,
				Title: "Rename the SDK", URL: "https://github.com/acme/docs/pull/78",
				IssueBody: "Update the docs for the new package name.",
				Sender:    "dependabot[bot]", SenderIsBot: true, Action: "opened",
				HeadRef: "rename-sdk", HeadSHA: "6dcb09b5b57875f334f61aebed695e2e4193db5e", BaseSHA: "c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc",
				Opener: "dependabot[bot]", OpenerIsBot: true,
			},
		},
		{
			name: "workflow_dispatch keeps the sender", event: "workflow_dispatch", file: "workflow_dispatch.json", repo: "acme/docs",
			want: &Trigger{Event: "workflow_dispatch", Owner: "acme", Repo: "docs", Sender: "octocat"},
		},
		{
			// The docs repository's workflow names the agent's pull request.
			name: "repository_dispatch keeps the pull request it names", event: "repository_dispatch", file: "repository_dispatch.json", repo: "acme/docs",
			want: &Trigger{Event: "repository_dispatch", Owner: "acme", Repo: "docs", Sender: "octocat", Action: "docs-agent-settle",
				Moved: "https://github.com/acme/handbook/pull/101"},
		},
		{
			name: "repository_dispatch whose pull request is no string names none", event: "repository_dispatch", file: "repository_dispatch_object.json", repo: "acme/docs",
			want: &Trigger{Event: "repository_dispatch", Owner: "acme", Repo: "docs", Sender: "octocat", Action: "docs-agent-settle"},
		},
		{
			name: "a workflow_dispatch is read for no client_payload", event: "workflow_dispatch", file: "repository_dispatch.json", repo: "acme/docs",
			want: &Trigger{Event: "workflow_dispatch", Owner: "acme", Repo: "docs", Sender: "octocat", Action: "docs-agent-settle"},
		},
		{
			// The docs repository's file, as init writes it, names the
			// agent's pull request in the dispatch's inputs.
			name: "workflow_dispatch keeps the pull request its inputs name", event: "workflow_dispatch", file: "workflow_dispatch_moved.json", repo: "acme/app",
			want: &Trigger{Event: "workflow_dispatch", Owner: "acme", Repo: "app", Sender: "docs-bot", Moved: "https://github.com/acme/handbook/pull/101"},
		},
		{
			name: "a repository_dispatch is read for no inputs", event: "repository_dispatch", file: "workflow_dispatch_moved.json", repo: "acme/app",
			want: &Trigger{Event: "repository_dispatch", Owner: "acme", Repo: "app", Sender: "docs-bot"},
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
			own := tc.own
			if own == nil && tc.want.Sender != "" {
				own = &request.Request{Key: request.Key{Kind: request.Event, ID: int64(tc.want.Number)}, Author: tc.want.Sender, Bot: tc.want.SenderIsBot,
					Title: tc.want.Title, Body: tc.want.IssueBody, URL: tc.want.URL}
			}
			gotOwn := got.Own
			got.Own = nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Read(context.Background(), ) =\n%+v\nwant\n%+v", got, tc.want)
			}
			if gotOwn != nil {
				gotOwn.At = time.Time{} // as the fixture has it, or not
			}
			if !reflect.DeepEqual(gotOwn, own) {
				t.Errorf("Read(context.Background(), ).Own =\n%+v\nwant\n%+v", gotOwn, own)
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
