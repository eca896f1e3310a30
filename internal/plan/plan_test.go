package plan

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/inputs"
)

// cfg returns the inputs of a comment-triggered workflow; tweak changes them.
func cfg(tweak ...func(*inputs.Config)) inputs.Config {
	c := inputs.Config{
		ProjectID: "proj", APIKey: "mint_x", Wait: true, GitHubToken: "ghs_x",
		Comment: "auto", TriggerPhrase: "/docs", RequiredPermission: "write",
	}
	for _, f := range tweak {
		f(&c)
	}
	return c
}

func comment(body, sender string, bot bool) *event.Trigger {
	return &event.Trigger{
		Event: "issue_comment", Action: "created", Owner: "acme", Repo: "handbook", Number: 12,
		CommentID: 9001, CommentKind: "issue", CommentBody: body, Sender: sender, SenderIsBot: bot,
	}
}

func TestDecide(t *testing.T) {
	t.Parallel()
	withPrompt := func(c *inputs.Config) { c.Prompt = "Fix the typo." }
	tests := []struct {
		name       string
		cfg        inputs.Config
		trig       *event.Trigger
		permission string
		// want
		skip    string // substring of Skip; "" means the run acts
		err     string // substring of the error
		check   bool   // a permission check is pending
		job     JobAction
		jobID   string
		prompt  string
		answer  int // thread number, 0 for none
		react   bool
		github  bool
		checkBy string
	}{
		{name: "dispatch with a prompt creates and does not comment, but talks to GitHub for the backlink",
			cfg: cfg(withPrompt), trig: &event.Trigger{Event: "workflow_dispatch", Owner: "acme", Repo: "handbook", Sender: "octo"},
			job: Create, prompt: "Fix the typo.", github: true},
		{name: "dispatch without a token does not talk to GitHub",
			cfg: cfg(withPrompt, func(c *inputs.Config) { c.GitHubToken = "" }), trig: &event.Trigger{Event: "workflow_dispatch", Owner: "acme", Repo: "handbook", Sender: "octo"},
			job: Create, prompt: "Fix the typo."},
		{name: "dispatch that does not wait has no pull request to link",
			cfg: cfg(withPrompt, func(c *inputs.Config) { c.Wait = false }), trig: &event.Trigger{Event: "workflow_dispatch", Owner: "acme", Repo: "handbook", Sender: "octo"},
			job: Create, prompt: "Fix the typo."},
		{name: "schedule with issue-number comments there without a check",
			cfg: cfg(withPrompt, func(c *inputs.Config) { c.IssueNumber = 7 }), trig: &event.Trigger{Event: "schedule", Owner: "acme", Repo: "handbook"},
			job: Create, prompt: "Fix the typo.", answer: 7, github: true},
		{name: "push does not check the pusher",
			cfg: cfg(withPrompt), trig: &event.Trigger{Event: "push", Owner: "acme", Repo: "handbook", Sender: "octo"},
			job: Create, prompt: "Fix the typo.", github: true},
		{name: "comment with phrase, permission unknown: check first, nothing else yet",
			cfg: cfg(), trig: comment("/docs add a FAQ", "maint", false),
			check: true, checkBy: "maint", job: Continue, prompt: "add a FAQ", answer: 12, react: true, github: true},
		{name: "comment with phrase, write permission: continue the thread's job, react, comment",
			cfg: cfg(), trig: comment("/docs add a FAQ", "maint", false), permission: "write",
			job: Continue, prompt: "add a FAQ", answer: 12, react: true, github: true},
		{name: "comment by an admin passes a write requirement",
			cfg: cfg(), trig: comment("/docs add a FAQ", "maint", false), permission: "admin",
			job: Continue, prompt: "add a FAQ", answer: 12, react: true, github: true},
		{name: "comment by a reader is refused",
			cfg: cfg(), trig: comment("/docs add a FAQ", "reader", false), permission: "read",
			skip: "reader has read permission on acme/handbook; required-permission is write"},
		{name: "triage is below maintain",
			cfg: cfg(func(c *inputs.Config) { c.RequiredPermission = "maintain" }), trig: comment("/docs x", "tri", false), permission: "triage",
			skip: "required-permission is maintain"},
		{name: "comment without the phrase is skipped before any check",
			cfg: cfg(), trig: comment("looks good to me", "maint", false),
			skip: "does not contain the trigger phrase /docs"},
		{name: "lookalike phrase does not trigger",
			cfg: cfg(), trig: comment("/docsify the page", "maint", false),
			skip: "does not contain the trigger phrase"},
		{name: "edited comment is not a request",
			cfg: cfg(), trig: func() *event.Trigger { e := comment("/docs x", "maint", false); e.Action = "edited"; return e }(),
			skip: "the comment was edited, not created"},
		{name: "the action's own comment is skipped",
			cfg: cfg(), trig: comment("<!-- agent-job-action -->\n/docs x", "github-actions[bot]", true),
			skip: "written by this action"},
		{name: "a bot not in allowed-bots is refused",
			cfg: cfg(), trig: comment("/docs x", "renovate[bot]", true),
			skip: "renovate[bot]\" is a bot and is not in allowed-bots"},
		{name: "an allowed bot acts without a permission check",
			cfg: cfg(func(c *inputs.Config) { c.AllowedBots = []string{"Docs-Bot[bot]"} }), trig: comment("/docs x", "docs-bot[bot]", true),
			job: Continue, prompt: "x", answer: 12, react: true, github: true},
		{name: "allowed-bots does not let a person skip the check",
			cfg: cfg(func(c *inputs.Config) { c.AllowedBots = []string{"maint"} }), trig: comment("/docs x", "maint", false),
			check: true, checkBy: "maint", job: Continue, prompt: "x", answer: 12, react: true, github: true},
		{name: "an event that names nobody is refused",
			cfg: cfg(), trig: comment("/docs x", "", false),
			skip: "names nobody whose permission could be checked"},
		{name: "phrase alone is an error that says what to write",
			cfg: cfg(), trig: comment("/docs", "maint", false),
			err: "holds no instruction besides the trigger phrase"},
		{name: "job-id follows up and never continues from the thread",
			cfg: cfg(func(c *inputs.Config) { c.JobID = "job_7" }), trig: comment("/docs more", "maint", false), permission: "write",
			job: FollowUp, jobID: "job_7", prompt: "more", answer: 12, react: true, github: true},
		{name: "comment false: a comment-triggered run still checks, but does not answer",
			cfg: cfg(func(c *inputs.Config) { c.Comment = "false" }), trig: comment("/docs x", "maint", false), permission: "write",
			job: Create, prompt: "x", github: true},
		{name: "comment true without a thread is an error",
			cfg: cfg(withPrompt, func(c *inputs.Config) { c.Comment = "true" }), trig: &event.Trigger{Event: "workflow_dispatch"},
			err: "input comment is true but this event has no issue or pull request"},
		{name: "no token where one is needed is an error",
			cfg: cfg(func(c *inputs.Config) { c.GitHubToken = "" }), trig: comment("/docs x", "maint", false),
			err: "input github-token is empty"},
		{name: "no repository where one is needed is an error",
			cfg: cfg(withPrompt, func(c *inputs.Config) { c.IssueNumber = 3 }), trig: &event.Trigger{Event: "schedule"},
			err: "GITHUB_REPOSITORY is not set"},
		{name: "no prompt anywhere is the prompt input's error",
			cfg: cfg(), trig: &event.Trigger{Event: "workflow_dispatch"},
			err: "input prompt is empty"},
		{name: "dry run checks nobody and talks to nobody",
			cfg: cfg(func(c *inputs.Config) { c.DryRun = true }), trig: comment("/docs x", "maint", false),
			job: Continue, prompt: "x"},
		{name: "issue opened: the prompt is the issue, checked and answered",
			cfg: cfg(), trig: &event.Trigger{Event: "issues", Action: "opened", Owner: "acme", Repo: "handbook", Number: 5, Title: "Document rate limits", Sender: "maint"},
			permission: "write", job: Create, prompt: "Document rate limits", answer: 5, github: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Decide(tt.cfg, tt.trig, tt.permission)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error = %v", err)
			}
			if tt.skip != "" {
				if !strings.Contains(p.Skip, tt.skip) {
					t.Fatalf("Skip = %q, want one containing %q", p.Skip, tt.skip)
				}
				return
			}
			if p.Skip != "" {
				t.Fatalf("Skip = %q, want the run to act", p.Skip)
			}
			if got := p.Check != nil; got != tt.check {
				t.Fatalf("Check = %+v, want pending %v", p.Check, tt.check)
			}
			if tt.check && (p.Check.Sender != tt.checkBy || p.Check.Required != tt.cfg.RequiredPermission || p.Verified != "") {
				t.Errorf("Check = %+v, Verified = %q", p.Check, p.Verified)
			}
			if !tt.check && tt.permission != "" && !strings.Contains(p.Verified, "permission") {
				t.Errorf("Verified = %q, want the verified permission", p.Verified)
			}
			if p.Job != tt.job || p.JobID != tt.jobID {
				t.Errorf("Job = %v %q, want %v %q", p.Job, p.JobID, tt.job, tt.jobID)
			}
			if !strings.Contains(p.Prompt, tt.prompt) || strings.Contains(p.Prompt, "/docs") {
				t.Errorf("Prompt = %q, want it to hold %q without the phrase", p.Prompt, tt.prompt)
			}
			number := 0
			if p.Answer != nil {
				number = p.Answer.Number
			}
			if number != tt.answer {
				t.Errorf("Answer = %+v, want thread %d", p.Answer, tt.answer)
			}
			if got := p.React != nil; got != tt.react {
				t.Errorf("React = %+v, want %v", p.React, tt.react)
			}
			if p.GitHub != tt.github {
				t.Errorf("GitHub = %v, want %v", p.GitHub, tt.github)
			}
		})
	}
}

// TestDecideTwice checks the contract the run relies on: deciding again
// with the verified permission gives the same plan, minus the check.
func TestDecideTwice(t *testing.T) {
	t.Parallel()
	c, trig := cfg(), comment("/docs add a FAQ", "maint", false)
	first, err := Decide(c, trig, "")
	if err != nil || first.Check == nil {
		t.Fatalf("first = %+v, %v; want a pending check", first, err)
	}
	second, err := Decide(c, trig, "maintain")
	if err != nil || second.Check != nil || second.Skip != "" {
		t.Fatalf("second = %+v, %v", second, err)
	}
	first.Check, second.Verified = nil, ""
	if first.Prompt != second.Prompt || first.Job != second.Job || *first.Answer != *second.Answer || *first.React != *second.React {
		t.Errorf("plans differ:\n%+v\n%+v", first, second)
	}
	if _, err := Decide(c, trig, "bogus"); err != nil {
		t.Errorf("unknown level: %v", err)
	}
	if p, _ := Decide(c, trig, "bogus"); p.Skip == "" {
		t.Error("an unknown permission level acted")
	}
	var ie *inputs.Error
	if _, err := Decide(cfg(), &event.Trigger{Event: "workflow_dispatch"}, ""); !errors.As(err, &ie) {
		t.Errorf("empty prompt: %v, want an *inputs.Error", err)
	}
}

// TestDecideRequestsAndReviewers: which events are requests when the prompt
// comes from the event, and who reviews the agent's pull request.
func TestDecideRequestsAndReviewers(t *testing.T) {
	t.Parallel()
	issue := func(action string) *event.Trigger {
		return &event.Trigger{Event: "issues", Action: action, Owner: "acme", Repo: "handbook", Number: 5, Title: "Document limits",
			URL: "https://github.com/acme/handbook/issues/5", Sender: "maint", Label: "docs", Assignee: "docs-bot"}
	}
	review := &event.Trigger{Event: "pull_request_review", Action: "submitted", Owner: "acme", Repo: "handbook", Number: 101, IsPR: true,
		ReviewID: 555, ReviewBody: "/docs tighten the intro", CommentURL: "https://github.com/acme/handbook/pull/101#pullrequestreview-555", Sender: "maint"}
	tests := []struct {
		name      string
		cfg       inputs.Config
		trig      *event.Trigger
		skip      string
		reviewers []string
		asked     string // the backlink's source URL
	}{
		{name: "issue opened", cfg: cfg(), trig: issue("opened"), reviewers: []string{"maint"}, asked: "https://github.com/acme/handbook/issues/5"},
		{name: "issue closed is not a request", cfg: cfg(), trig: issue("closed"), skip: "the issue action closed is not a request"},
		{name: "issue closed with the workflow's own prompt acts", cfg: cfg(func(c *inputs.Config) { c.Prompt = "x" }), trig: issue("closed"), reviewers: []string{"maint"}},
		{name: "the named label acts", cfg: cfg(func(c *inputs.Config) { c.TriggerLabel = "Docs" }), trig: issue("labeled"), reviewers: []string{"maint"}},
		{name: "another label does not", cfg: cfg(func(c *inputs.Config) { c.TriggerLabel = "agent" }), trig: issue("labeled"), skip: "not trigger-label agent"},
		{name: "another assignee does not", cfg: cfg(func(c *inputs.Config) { c.TriggerAssignee = "ann" }), trig: issue("assigned"), skip: "not trigger-assignee ann"},
		{name: "a submitted review continues the job with its line comments", cfg: cfg(), trig: review, reviewers: []string{"maint"}, asked: review.CommentURL},
		{name: "a schedule asks the workflow's reviewers",
			cfg:  cfg(func(c *inputs.Config) { c.Prompt = "x"; c.Reviewers = []string{"lead", "writer"} }),
			trig: &event.Trigger{Event: "schedule", Owner: "acme", Repo: "handbook"}, reviewers: []string{"lead", "writer"}},
		{name: "a person's run asks that person, not the workflow's reviewers",
			cfg:  cfg(func(c *inputs.Config) { c.Reviewers = []string{"lead"} }),
			trig: comment("/docs x", "maint", false), reviewers: []string{"maint"}, asked: ""},
		{name: "an allowed bot is asked nothing",
			cfg:  cfg(func(c *inputs.Config) { c.AllowedBots = []string{"docs-bot[bot]"} }),
			trig: comment("/docs x", "docs-bot[bot]", true)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Decide(tt.cfg, tt.trig, "write")
			if err != nil {
				t.Fatal(err)
			}
			if tt.skip != "" {
				if !strings.Contains(p.Skip, tt.skip) {
					t.Fatalf("Skip = %q, want %q", p.Skip, tt.skip)
				}
				return
			}
			if p.Skip != "" {
				t.Fatalf("Skip = %q", p.Skip)
			}
			if !slices.Equal(p.Reviewers, tt.reviewers) {
				t.Errorf("Reviewers = %v, want %v", p.Reviewers, tt.reviewers)
			}
			if !p.Backlink {
				t.Errorf("no backlink planned")
			}
			if tt.asked != "" && p.AskedURL != tt.asked {
				t.Errorf("AskedURL = %q, want %q", p.AskedURL, tt.asked)
			}
			if tt.trig.ReviewID != 0 && (p.Review != tt.trig.ReviewID || p.Job != Continue || p.React != nil || p.Answer == nil || p.Answer.Number != 101) {
				t.Errorf("review plan = %+v", p)
			}
		})
	}
}

// TestDecideReviewIsReadWithTheToken: a review's line comments are read
// from GitHub, so a plan that reads them talks to GitHub even when nothing
// else does (an allowed bot's review, comment: false); without a token the
// review's body alone is the request.
func TestDecideReviewIsReadWithTheToken(t *testing.T) {
	t.Parallel()
	review := &event.Trigger{Event: "pull_request_review", Action: "submitted", Owner: "acme", Repo: "handbook", Number: 101, IsPR: true,
		ReviewID: 555, ReviewBody: "/docs tighten the intro", Sender: "docs-bot[bot]", SenderIsBot: true}
	for _, tt := range []struct {
		name   string
		token  string
		review int64
		github bool
	}{
		{"with a token", "ghs_x", 555, true},
		{"without a token", "", 0, false},
	} {
		c := cfg(func(c *inputs.Config) {
			c.GitHubToken, c.Comment, c.AllowedBots = tt.token, "false", []string{"docs-bot[bot]"}
		})
		p, err := Decide(c, review, "")
		if err != nil || p.Skip != "" {
			t.Fatalf("%s: Decide = %+v, %v", tt.name, p, err)
		}
		if p.Review != tt.review || p.GitHub != tt.github || p.Check != nil || p.Backlink {
			t.Errorf("%s: Review %d, GitHub %v, Check %v, Backlink %v; want Review %d, GitHub %v, no check, no backlink",
				tt.name, p.Review, p.GitHub, p.Check, p.Backlink, tt.review, tt.github)
		}
		if !strings.Contains(p.Prompt, "tighten the intro") {
			t.Errorf("%s: prompt %q lacks the review's body", tt.name, p.Prompt)
		}
	}
}

// TestDecideWatch: job-id without a prompt reads and waits for that job,
// sending nothing; a comment with no instruction is still an error.
func TestDecideWatch(t *testing.T) {
	t.Parallel()
	c := cfg()
	c.Prompt, c.JobID = "", "job_0042"
	p, err := Decide(c, &event.Trigger{Event: "workflow_dispatch"}, "")
	if err != nil || p.Job != Watch || p.JobID != "job_0042" {
		t.Errorf("Decide(job-id, no prompt) = %+v, %v; want Watch of job_0042", p, err)
	}
	c.JobID = ""
	if _, err := Decide(c, &event.Trigger{Event: "workflow_dispatch"}, ""); err == nil {
		t.Error("no prompt and no job-id: no error")
	}
}
