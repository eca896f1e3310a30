package action_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/testbed/step"
)

const testToken = step.Token

// withGitHub adds a fake GitHub and an event to the harness (step.GitHub).
func (h *harness) withGitHub(opt fakegithub.Options, eventName string, payload any) *fakegithub.Server {
	h.t.Helper()
	h.gh = step.GitHub(h.t, h.vars, opt, eventName, payload)
	return h.gh
}

// user is a payload's user; issueComment an issue_comment event on issue
// 12 (package step).
var (
	user         = step.User
	issueComment = step.IssueComment
)

func (h *harness) assertNoToken() {
	h.t.Helper()
	step.AssertNoToken(h.t, h.vars, h.stdout.String(), h.gh)
}
func TestCommentTriggeredRun(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: 4 * time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs add a FAQ page about rate limits"))
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	h.assertNoToken()
	h.wantRequests(1, 0)
	prompt := h.api.Requests()[0].Prompt()
	wantPrompt := "add a FAQ page about rate limits\n\n---\nContext: repository acme/docs, issue #12 \"Rate limits are undocumented\" (https://github.com/acme/docs/issues/12)."
	if prompt != wantPrompt {
		t.Errorf("prompt:\n%q\nwant\n%q", prompt, wantPrompt)
	}
	if r := gh.Reactions(); len(r) != 1 || r[0].CommentID != 9001 || r[0].Content != "eyes" {
		t.Errorf("reactions %+v, want one eyes on comment 9001", r)
	}
	if n := len(gh.Comments(12)); n != 1 {
		t.Errorf("%d comments created on #12, want 1", n)
	}
	if gh.CommentEdits() < 2 {
		t.Errorf("%d comment edits, want the job's start and its end at least", gh.CommentEdits())
	}
	comments := gh.Comments(12)
	if len(comments) != 1 {
		t.Fatalf("%d comments on #12", len(comments))
	}
	goldenFile(t, "comment-completed.md", comments[0].Body)
	h.wantOutputs(map[string]string{"status": "completed", "pr-number": "101", "comment-url": fmt.Sprintf("https://github.com/acme/docs/issues/12#issuecomment-%d", comments[0].ID)})
	for _, r := range gh.Requests() {
		if r.Header.Get("Authorization") != "Bearer "+testToken {
			t.Errorf("%s %s without the token", r.Method, r.Path)
		}
	}
}

func TestCommentRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, login, body, why string
		allowedBots            string
		perms                  map[string]string
	}{
		{name: "no phrase", login: "writer", body: "thanks, looks good", why: "does not contain the trigger phrase /docs"},
		{name: "phrase inside a word", login: "writer", body: "see /docsify", why: "does not contain the trigger phrase"},
		{name: "reader", login: "reader", body: "/docs add a page", why: "reader has read permission on acme/docs; required-permission is write"},
		{name: "triage", login: "triager", body: "/docs add a page", why: "triager has triage permission"},
		{name: "not a collaborator", login: "stranger", body: "/docs add a page", why: "stranger has none permission"},
		{name: "bot", login: "renovate[bot]", body: "/docs add a page", why: "\"renovate[bot]\" is a bot and is not in allowed-bots"},
		{name: "other bot allowed", login: "renovate[bot]", body: "/docs add a page", allowedBots: "dependabot[bot]", why: "is a bot and is not in allowed-bots"},
		{name: "own comment", login: "github-actions[bot]", body: "<!-- agent-job-action -->\n/docs", allowedBots: "github-actions[bot]", why: "written by this action"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
			gh := h.withGitHub(fakegithub.Options{Permissions: tt.perms}, "issue_comment", issueComment(tt.login, tt.body))
			h.vars["INPUT_ALLOWED-BOTS"] = tt.allowedBots
			if err := h.run(context.Background()); err != nil {
				t.Fatalf("a refusal must exit 0: %v\n%s", err, h.stdout.String())
			}
			if n := len(h.api.Requests()); n != 0 {
				t.Errorf("%d Agent Job API requests for a refused run", n)
			}
			if gh.CommentsCreated() != 0 || len(gh.Reactions()) != 0 {
				t.Errorf("a refused run commented or reacted")
			}
			h.wantOutputs(map[string]string{"status": "skipped", "job-id": "", "timed-out": "false"})
			if !strings.Contains(h.stdout.String(), "skipped: ") || !strings.Contains(h.stdout.String(), tt.why) {
				t.Errorf("log does not say why (%q):\n%s", tt.why, h.stdout.String())
			}
		})
	}
}

func TestCommentAllowedBot(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("docs-helper[bot]", "/docs refresh the changelog"))
	h.vars["INPUT_ALLOWED-BOTS"] = "renovate[bot], docs-helper[bot]"
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	h.wantRequests(1, 0)
	if n := len(gh.Comments(12)); n != 1 {
		t.Errorf("%d comments on #12", n)
	}
}

func TestCommentContinuesEarlierJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs also mention the Retry-After header"))
	h.api.AddJob("job_0777", "completed")
	// A person's comment with a marker must not count: anyone can type one.
	gh.SeedComment(12, "mallory", false, recorded(record.Record{JobID: "job_evil"}))
	gh.SeedComment(12, fakegithub.BotLogin, true, recorded(record.Record{JobID: "job_0777"}))
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	h.wantRequests(0, 1)
	msg := h.api.Requests()[0]
	if msg.Path != "/v2/agent/proj-1/job/job_0777/message" || !strings.HasPrefix(msg.Prompt(), "also mention the Retry-After header") {
		t.Errorf("follow-up: %s %q", msg.Path, msg.Prompt())
	}
	if n := len(gh.Comments(12)); n != 3 {
		t.Errorf("%d comments on #12, want the two seeded and this run's", n)
	}
	comments := gh.Comments(12)
	goldenFile(t, "comment-follow-up.md", comments[len(comments)-1].Body)
	h.wantOutputs(map[string]string{"job-id": "job_0777", "status": "completed"})
}

func TestCommentRefusedFollowUpStartsNewJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs one more thing"))
	h.api.AddJob("job_0777", "archived")
	gh.SeedComment(12, fakegithub.BotLogin, true, recorded(record.Record{JobID: "job_0777"}))
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	h.wantRequests(1, 1)
	h.wantOutputs(map[string]string{"job-id": "job_0001", "status": "completed"})
	comments := gh.Comments(12)
	goldenFile(t, "comment-fallback.md", comments[len(comments)-1].Body)
}

func TestExplicitJobIDNeverFallsBack(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs one more thing"))
	h.api.AddJob("job_0777", "archived")
	h.vars["INPUT_JOB-ID"] = "job_0777"
	if err := h.run(context.Background()); err == nil {
		t.Fatal("run succeeded although the follow-up was refused")
	}
	h.wantRequests(0, 1)
	comments := gh.Comments(12)
	goldenFile(t, "comment-error.md", comments[len(comments)-1].Body)
}

func TestCommentForbiddenIsAWarning(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{ForbidComments: true, ForbidReactions: true}, "issue_comment", issueComment("writer", "/docs add a page"))
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("a comment the token may not write failed the step: %v\n%s", err, h.stdout.String())
	}
	h.wantRequests(1, 0)
	h.wantOutputs(map[string]string{"status": "completed", "comment-url": ""})
	warnings := strings.Count(h.stdout.String(), "::warning::")
	if warnings != 1 || !strings.Contains(h.stdout.String(), "issues: write and pull-requests: write") {
		t.Errorf("want one warning naming the missing permission, got %d:\n%s", warnings, h.stdout.String())
	}
	if gh.CommentsCreated() != 0 {
		t.Errorf("comments created despite 403")
	}
}

func TestCommentReportsFailureAndTimeout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		sc     fakeapi.Scenario
		golden string
	}{
		{"failed", fakeapi.Scenario{Runtime: time.Minute, Outcome: "failed"}, "comment-failed.md"},
		{"timed out", fakeapi.Scenario{Runtime: time.Hour}, "comment-timed-out.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tt.sc)
			gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs add a page"))
			h.vars["INPUT_TIMEOUT"] = "10m"
			if err := h.run(context.Background()); err == nil {
				t.Fatal("run succeeded")
			}
			comments := gh.Comments(12)
			if len(comments) != 1 {
				t.Fatalf("%d comments", len(comments))
			}
			goldenFile(t, tt.golden, comments[0].Body)
		})
	}
}

func TestCommentFalse(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs add a page"))
	h.vars["INPUT_COMMENT"] = "false"
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	for _, r := range gh.Requests() {
		if !strings.Contains(r.Path, "/collaborators/writer/permission") {
			t.Errorf("comment: false sent %s %s", r.Method, r.Path)
		}
	}
	if len(gh.Requests()) != 1 {
		t.Errorf("the permission check is still required, got %d GitHub requests", len(gh.Requests()))
	}
	h.wantRequests(1, 0)
}

func TestWorkflowDispatchWithIssueNumber(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "workflow_dispatch", map[string]any{"sender": user("writer"), "inputs": map[string]any{}})
	h.vars["INPUT_PROMPT"] = "Weekly docs maintenance: fix broken links."
	h.vars["INPUT_ISSUE-NUMBER"] = "34"
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	if got := h.api.Requests()[0].Prompt(); got != "Weekly docs maintenance: fix broken links." {
		t.Errorf("a set prompt must be used as given, got %q", got)
	}
	if len(gh.Comments(34)) != 1 {
		t.Errorf("no comment on #34")
	}
	for _, r := range gh.Requests() {
		if strings.Contains(r.Path, "/permission") || strings.Contains(r.Path, "/reactions") {
			t.Errorf("unneeded %s %s", r.Method, r.Path)
		}
	}
}

func TestCommentTrueWithoutIssueIsAnInputError(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{})
	gh := h.withGitHub(fakegithub.Options{}, "schedule", map[string]any{})
	h.vars["INPUT_PROMPT"] = "Nightly"
	h.vars["INPUT_COMMENT"] = "true"
	if err := h.run(context.Background()); err == nil || !strings.Contains(h.stdout.String(), "::error::input comment is true but") {
		t.Fatalf("want an input error, got %v\n%s", err, h.stdout.String())
	}
	if len(h.api.Requests())+len(gh.Requests()) != 0 {
		t.Error("requests sent despite an input error")
	}
}

func TestIssuesEventPrompt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "issues", map[string]any{
		"action": "labeled",
		"issue": map[string]any{"number": 5, "title": "Document webhooks", "body": "Explain retries.\n::error::x",
			"html_url": "https://github.com/acme/docs/issues/5", "user": user("writer")},
		"sender": user("writer"),
	})
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	want := "Document webhooks\n\nExplain retries.\n::error::x\n\n---\nContext: repository acme/docs, issue #5 \"Document webhooks\" (https://github.com/acme/docs/issues/5)."
	if got := h.api.Requests()[0].Prompt(); got != want {
		t.Errorf("prompt:\n%q\nwant\n%q", got, want)
	}
	if len(gh.Comments(5)) != 1 || len(gh.Reactions()) != 0 {
		t.Errorf("want one comment on #5 and no reaction (no triggering comment)")
	}
}

func TestGHESBaseURL(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{Prefix: "/api/v3"}, "issue_comment", issueComment("admin", "/docs add a page"))
	if !strings.HasSuffix(h.vars["GITHUB_API_URL"], "/api/v3") {
		t.Fatalf("GITHUB_API_URL %s", h.vars["GITHUB_API_URL"])
	}
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	if len(gh.Comments(12)) != 1 {
		t.Errorf("no comment through /api/v3")
	}
	for _, r := range gh.Requests() {
		if !strings.HasPrefix(r.Path, "/api/v3/") {
			t.Errorf("request outside /api/v3: %s", r.Path)
		}
	}
}

func TestCommentWithWorkflowCommandsDoesNotActOnLog(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	body := "/docs fix it\n::add-mask::writer\n::error::pwned\n::stop-commands::x\n%0A::warning::y"
	h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", body))
	h.vars["INPUT_DRY-RUN"] = "true"
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	for _, cmd := range []string{"::add-mask::writer", "::error::pwned", "::stop-commands::x", "::warning::y"} {
		assertNoCommands(t, h.stdout.String(), cmd)
	}
	for _, line := range strings.Split(h.stdout.String(), "\n") {
		if strings.HasPrefix(line, "::error::") || strings.HasPrefix(line, "::warning::") {
			t.Errorf("an annotation in the log: %q", line)
		}
	}
	// The same text reaches the API untouched, in JSON.
	h.vars["INPUT_DRY-RUN"] = "false"
	h.stdout.Reset()
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	if got := h.api.Requests()[0].Prompt(); !strings.HasPrefix(got, "fix it\n::add-mask::writer\n::error::pwned") {
		t.Errorf("prompt %q", got)
	}
	for _, cmd := range []string{"::add-mask::writer", "::error::pwned", "::warning::y"} {
		assertNoCommands(t, h.stdout.String(), cmd)
	}
}

func TestPermissionCheckFailureRefusesToAct(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	h.withGitHub(fakegithub.Options{Fault: func(w http.ResponseWriter, r *http.Request) bool {
		if strings.Contains(r.URL.Path, "/permission") {
			w.WriteHeader(http.StatusUnauthorized)
			return true
		}
		return false
	}}, "issue_comment", issueComment("writer", "/docs add a page"))
	if err := h.run(context.Background()); err == nil {
		t.Fatal("run acted although the permission could not be read")
	}
	if len(h.api.Requests()) != 0 {
		t.Error("Agent Job API called without a permission check")
	}
}

func TestCommentWithOnlyThePhrase(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "  /docs  "))
	if err := h.run(context.Background()); err == nil {
		t.Fatal("run succeeded with nothing to do")
	}
	if !strings.Contains(h.stdout.String(), "::error::the comment holds no instruction besides the trigger phrase: write what the agent should do after /docs") {
		t.Errorf("log:\n%s", h.stdout.String())
	}
	// The author's permission is read before their text is: nothing else.
	if len(h.api.Requests()) != 0 {
		t.Error("Agent Job API requests for an empty instruction")
	}
	for _, r := range gh.Requests() {
		if r.Method != http.MethodGet || r.Path != "/repos/acme/docs/collaborators/writer/permission" {
			t.Errorf("GitHub request for an empty instruction: %s %s", r.Method, r.Path)
		}
	}
}

func TestSecretsNeverReachTheComment(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs add a page"))
	// An API that echoes the request's credentials in its error text.
	h.api.FailOn(1, faults.JSON(http.StatusBadRequest, map[string]string{"error": "bad header Authorization: Bearer " + testKey + " and " + testToken}))
	if err := h.run(context.Background()); err == nil {
		t.Fatal("run succeeded")
	}
	h.assertNoToken()
	comments := gh.Comments(12)
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "Bearer &#42;&#42;&#42;") {
		t.Errorf("comment: %+v", comments)
	}
}

func TestPermissionIsCheckedForEveryOtherEvent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, event string
		payload     map[string]any
		why         string
	}{
		{"discussion comment by an outsider", "discussion_comment", map[string]any{"action": "created", "sender": user("stranger")}, "stranger has none permission"},
		{"workflow_run from a fork", "workflow_run", map[string]any{"action": "completed", "sender": user("reader")}, "reader has read permission"},
		{"comment event without a sender", "issue_comment", func() map[string]any {
			p := issueComment("writer", "/docs add a page")
			delete(p, "sender")
			p["comment"].(map[string]any)["user"] = nil
			return p
		}(), "names nobody whose permission could be checked"},
		{"deleted comment", "issue_comment", func() map[string]any {
			p := issueComment("writer", "/docs add a page")
			p["action"] = "deleted"
			return p
		}(), "the comment was deleted, not created"},
		{"human named like an allowed bot", "issue_comment", issueComment("renovate", "/docs add a page"), "renovate has none permission"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
			h.withGitHub(fakegithub.Options{}, tt.event, tt.payload)
			h.vars["INPUT_PROMPT"] = "Do the thing."
			h.vars["INPUT_ALLOWED-BOTS"] = "renovate"
			if err := h.run(context.Background()); err != nil {
				t.Fatalf("run: %v\n%s", err, h.stdout.String())
			}
			h.wantRequests(0, 0)
			h.wantOutputs(map[string]string{"status": "skipped"})
			if !strings.Contains(h.stdout.String(), tt.why) {
				t.Errorf("log lacks %q:\n%s", tt.why, h.stdout.String())
			}
		})
	}
}

func TestMarkersFromOtherAuthorsAreIgnored(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs again"))
	h.api.AddJob("job_other", "completed")
	// Another bot (another App or workflow) quoting a marker.
	gh.SeedComment(12, "other-app[bot]", true, recorded(record.Record{JobID: "job_other"}))
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	h.wantRequests(1, 0)
}

func TestNoWaitComment(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Hour})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs add a page"))
	h.vars["INPUT_WAIT"] = "false"
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	goldenFile(t, "comment-not-waiting.md", gh.Comments(12)[0].Body)
}

func TestCommentUncertainFollowUpStartsNoNewJob(t *testing.T) {
	t.Parallel()
	for name, fault := range map[string]faults.Fault{"502": faults.Status(http.StatusBadGateway), "reset": faults.ResetAfterRead()} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
			gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs one more thing"))
			h.api.AddJob("job_0777", "active")
			gh.SeedComment(12, fakegithub.BotLogin, true, recorded(record.Record{JobID: "job_0777"}))
			h.api.FailOn(1, fault)
			if err := h.run(context.Background()); err == nil {
				t.Fatalf("run succeeded\n%s", h.stdout.String())
			}
			h.wantRequests(0, 1) // a follow-up that may have arrived is not followed by a new job
		})
	}
}

func TestCancelledFinalEditIsBounded(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var script faults.Script // GitHub: 5 = edit with the job id, 6 = last edit
	script.On(5, func(w http.ResponseWriter, r *http.Request) bool { cancel(); return faults.Hang()(w, r) })
	script.On(6, faults.Hang())
	h.withGitHub(fakegithub.Options{Fault: script.Serve}, "issue_comment", issueComment("writer", "/docs add a page"))
	// GitHub never answers the last edit: the run gives it 1.5 s.
	if err := h.runGuarded(ctx); err == nil {
		t.Fatal("run succeeded after cancellation")
	}
	h.wantOutputs(map[string]string{"job-id": "job_0001", "timed-out": "false"})
}

// TestBigThreadContinuesTheJob: an outsider posts 70
// comments of 65,000 characters on a public issue, so the thread's page of
// 100 comments is over the 4 MiB cap on a response. The thread is read
// again in pages of ten: a maintainer's request continues the thread's job,
// and the agent's pull request gets the backlink and the review request.
func TestBigThreadContinuesTheJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs also mention the Retry-After header"))
	h.api.AddJob("job_0777", "completed")
	gh.SeedComment(12, fakegithub.BotLogin, true, recorded(record.Record{JobID: "job_0777"}))
	big := strings.Repeat("spam ", 13000) // 65,000 characters
	for range 70 {
		gh.SeedComment(12, "outsider", false, big)
	}
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	h.wantRequests(0, 1)
	if msg := h.api.Requests()[0]; msg.Path != "/v2/agent/proj-1/job/job_0777/message" {
		t.Errorf("follow-up sent to %s, want job_0777", msg.Path)
	}
	var lists, backlink, review int
	for _, r := range gh.Requests() {
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/issues/12/comments"):
			lists++
		case r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/issues/101/comments"):
			backlink++
		case r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/pulls/101/requested_reviewers"):
			review++
		}
	}
	if backlink != 1 || review != 1 {
		t.Errorf("backlink %d, review request %d; want one each", backlink, review)
	}
	// One page of 100 that was too large, then its parts of ten: the 71
	// comments the run reads before it writes its own (the marker's and
	// the outsider's 70) fill eight.
	if lists != 9 {
		t.Errorf("%d list requests on #12, want 9", lists)
	}
	if strings.Contains(h.stdout.String(), "::warning::") {
		t.Errorf("a warning:\n%s", h.stdout.String())
	}
}
