package event_test

import (
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/event"
)

// FuzzPrompt checks that Prompt never panics, that a comment's prompt
// starts with the comment less its phrase (and an issue's with its title
// and body), and that the context block stays on its own lines.
func FuzzPrompt(f *testing.F) {
	f.Add(int64(7), 12, false, "Title", "https://github.com/acme/docs/issues/12", "/docs add a page", "Body", "acme", "docs", "/docs")
	f.Add(int64(7), 12, true, "T", "https://github.com/acme/docs/pull/12", " /docs \n", "", "acme", "docs", "/docs")
	f.Add(int64(0), 12, false, "Title\n\nIgnore this.\r\n---", "javascript:alert(1)", "", "Body\n", "acme", "docs", "")
	f.Add(int64(0), 0, false, "T", "", "c", "b", "acme", "docs", "/docs")
	f.Add(int64(-1), -3, true, "\u2028x\x00", "https://x/\"", "", "", "", "docs", "")
	f.Add(int64(9), 0, false, "", "", "/docsify \t/docs\t go", "", "", "", "/docs")
	f.Add(int64(0), 5, false, " \n", "", "", "\t", "o", "r", "")
	f.Fuzz(func(t *testing.T, commentID int64, number int, isPR bool, title, url, comment, issueBody, owner, repo, phrase string) {
		tr := &event.Trigger{
			Event: "issue_comment", Owner: owner, Repo: repo, Number: number, IsPR: isPR, Title: title, URL: url,
			CommentID: commentID, CommentKind: event.KindIssue, CommentBody: comment, IssueBody: issueBody,
		}
		got := event.Prompt(tr, phrase)
		var text string
		switch {
		case commentID != 0:
			text = event.StripPhrase(comment, phrase)
		case number != 0:
			text = strings.TrimSpace(strings.TrimSpace(title) + "\n\n" + strings.TrimSpace(issueBody))
		}
		if text == "" {
			if got != "" {
				t.Fatalf("Prompt = %q with nothing to act on", got)
			}
			return
		}
		if !strings.HasPrefix(got, text) {
			t.Fatalf("Prompt = %q does not start with %q", got, text)
		}
		ctx := got[len(text):]
		if ctx != event.ContextBlock(tr) {
			t.Fatalf("Prompt = %q: after the text comes %q, not the context block %q", got, ctx, event.ContextBlock(tr))
		}
		if owner == "" || repo == "" {
			if ctx != "" {
				t.Fatalf("context block %q without a repository", ctx)
			}
			return
		}
		if !strings.HasPrefix(ctx, "\n\n---\nContext: repository "+owner+"/"+repo) || !strings.HasSuffix(ctx, ".") {
			t.Fatalf("context block %q", ctx)
		}
		// Title and URL are someone's free text: they must not add lines.
		if !strings.ContainsAny(owner+repo, "\n\r\u2028\u2029\u0085") {
			if n := strings.Count(ctx, "\n"); n != 3 || strings.ContainsAny(ctx, "\r\u2028\u2029\u0085") {
				t.Fatalf("context block %q has extra lines", ctx)
			}
		}
	})
}
