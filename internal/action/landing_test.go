package action_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

// TestCodeClosedLandsItsDocs: when the code pull request #7 is closed,
// its run does with the docs pull request #101 what the workflow asks.
// Merged, with docs-merge, an approved docs pull request is merged on the
// commit its approval saw; one not approved, or that GitHub will not
// merge, is left open, and both pull requests say why. Closed unmerged,
// with docs-close, it is closed. A close by someone without
// required-permission does nothing to it. No run sends the agent anything
// but the one create.
func TestCodeClosedLandsItsDocs(t *testing.T) {
	t.Parallel()
	const (
		docsLink = "[acme/docs#101](https://github.com/acme/docs/pull/101)"
		mergeReq = "PUT /repos/acme/docs/pulls/101/merge"
	)
	for _, tc := range []struct {
		name        string
		inputs      map[string]string
		approver    string // "" for no approval
		unmergeable string
		merged      bool
		docsMerged  bool // the docs pull request was merged before the code
		sender      string
		// another says the code pull request's record names another docs
		// pull request than the job does.
		another   bool
		wantCalls []string // the writes to the docs pull request, besides its comments
		wantDocs  string   // in the docs pull request's last comment; "" for none
		wantCode  string   // in the code pull request's comment
		wantState string   // the docs pull request's, after
	}{
		{name: "merged, approved", inputs: map[string]string{"INPUT_DOCS-MERGE": "squash"}, approver: "writer", merged: true, sender: "writer",
			wantCalls: []string{mergeReq}, wantState: "merged",
			wantDocs: "🏁 The code pull request [#7](https://github.com/acme/docs/pull/7) was merged. This pull request is merged with it (squash), as the workflow asks (docs-merge).",
			wantCode: "✅ The docs pull request " + docsLink + " is merged with this one (squash)."},
		{name: "merged, approved by a reader only", inputs: map[string]string{"INPUT_DOCS-MERGE": "merge"}, approver: "reader", merged: true, sender: "writer",
			wantState: "open",
			wantDocs:  "This pull request was not merged with it: it has no approving review on its latest commit by someone with write permission. Review it, then merge it.",
			wantCode:  "⚠️ The docs pull request " + docsLink + " was not merged with this one: it has no approving review on its latest commit by someone with write permission. Review it, then merge it."},
		{name: "merged, approved, GitHub refuses", inputs: map[string]string{"INPUT_DOCS-MERGE": "merge"}, approver: "writer", unmergeable: "Pull Request is not mergeable", merged: true, sender: "writer",
			wantCalls: []string{mergeReq}, wantState: "open",
			wantDocs: "This pull request was not merged with it: GitHub did not allow the merge (Pull Request is not mergeable). Merge it once GitHub allows.",
			wantCode: "⚠️ The docs pull request " + docsLink + " was not merged with this one: GitHub did not allow the merge (Pull Request is not mergeable). Merge it once GitHub allows."},
		// The record alone pairs them: its #102 (which GitHub does not
		// know here) is the one landed, never the job's approved #101.
		{name: "merged, approved, the record names another docs pull request", inputs: map[string]string{"INPUT_DOCS-MERGE": "squash"}, approver: "writer", merged: true, sender: "writer", another: true,
			wantState: "open",
			wantCode:  "⚠️ The docs pull request [acme/docs#102](https://github.com/acme/docs/pull/102) was not merged with this one: it could not be read"},
		{name: "merged, the docs merged before", inputs: map[string]string{"INPUT_DOCS-MERGE": "squash"}, docsMerged: true, merged: true, sender: "writer",
			wantState: "merged", wantDocs: "🏁 The code pull request [#7](https://github.com/acme/docs/pull/7) was merged: the code this pull request documents has landed.",
			wantCode: "The docs pull request " + docsLink + " was merged before this one."},
		{name: "merged, docs-merge not set", approver: "writer", merged: true, sender: "writer", wantState: "open",
			wantDocs: "was merged: the code this pull request documents has landed."},
		{name: "closed unmerged, docs-close", inputs: map[string]string{"INPUT_DOCS-CLOSE": "true"}, sender: "writer",
			wantCalls: []string{"PATCH /repos/acme/docs/pulls/101"}, wantState: "closed",
			wantDocs: "was closed without being merged: the docs job gets nothing more from it. This pull request is closed with it, as the workflow asks (docs-close).",
			wantCode: "🗙 The docs pull request " + docsLink + " is closed with this one."},
		{name: "closed unmerged, docs-close, by a reader", inputs: map[string]string{"INPUT_DOCS-CLOSE": "true"}, sender: "reader", wantState: "open"},
		{name: "closed unmerged, docs-close not set", sender: "writer", wantState: "open",
			wantDocs: "Close this pull request unless its change stands on its own."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newCodeWorld(t, fakeapi.Scenario{Runtime: time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
			w.vars["INPUT_PREVIEW"] = "false"
			for k, v := range tc.inputs {
				w.vars[k] = v
			}
			w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", HeadSHA: docsHead, Unmergeable: tc.unmergeable})
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("opened: %v\n%s", err, w.stdout.String())
			}
			if tc.another {
				c := w.gh.Comments(7)[0]
				w.editAsAnotherRun(c.ID, strings.ReplaceAll(c.Body, "/pull/101", "/pull/102"))
			}
			if tc.docsMerged {
				w.gh.SeedPull(docsPull("merged"))
			}
			if tc.approver != "" {
				w.gh.SeedReview(101, fakegithub.Review{Author: tc.approver, State: "APPROVED", CommitID: docsHead})
			}
			docsBefore := len(w.gh.Comments(101))
			from := len(w.gh.Requests())
			ev := codePR("closed", head1, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", tc.merged })
			ev["sender"] = user(tc.sender)
			w.setEvent("pull_request", ev)
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("closed: %v\n%s", err, w.stdout.String())
			}
			var docsWrites []string
			for _, c := range w.writes(from) {
				if strings.Contains(c, "/pulls/101") {
					docsWrites = append(docsWrites, c)
				}
			}
			if !slices.Equal(docsWrites, tc.wantCalls) {
				t.Errorf("writes to the docs pull request: %q, want %q", docsWrites, tc.wantCalls)
			}
			for _, r := range w.gh.Requests()[from:] {
				if r.Method == "PUT" && !strings.Contains(string(r.Body), `"sha":"`+docsHead+`"`) {
					t.Errorf("the merge %s does not name the approved commit: %s", r.Path, r.Body)
				}
				if r.Method == "PUT" && !strings.Contains(string(r.Body), `"merge_method":"`+tc.inputs["INPUT_DOCS-MERGE"]+`"`) {
					t.Errorf("the merge's method: %s", r.Body)
				}
			}
			pr, _ := w.gh.PullRequest("acme/docs", 101)
			state := cmpOr(pr.State, "open")
			if pr.Merged {
				state = "merged"
			}
			if state != tc.wantState {
				t.Errorf("the docs pull request is %s, want %s", state, tc.wantState)
			}
			docs := w.gh.Comments(101)[docsBefore:]
			switch {
			case tc.wantDocs == "" && len(docs) != 0:
				t.Errorf("comments on the docs pull request: %+v", docs)
			case tc.wantDocs != "" && (len(docs) != 1 || !strings.Contains(docs[0].Body, tc.wantDocs)):
				t.Errorf("comments on the docs pull request: %+v\nwant one that says:\n%s", docs, tc.wantDocs)
			}
			if c := w.gh.Comments(7); tc.wantCode != "" && (len(c) != 1 || !strings.Contains(c[0].Body, tc.wantCode)) {
				t.Errorf("the comment on #7:\n%+v\nwant it to say:\n%s", c, tc.wantCode)
			}
			for _, r := range w.api.Requests()[1:] {
				if r.Method != "GET" {
					t.Errorf("the Agent API got %s %s after the create", r.Method, r.Path)
				}
			}
		})
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
