package plan

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/request"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
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
		Event: "issue_comment", Action: "created", Owner: "acme", Repo: "handbook", Number: 12, Sender: sender, SenderIsBot: bot,
		Own: &request.Request{Key: request.Key{Kind: request.Comment, ID: 9001}, Author: sender, Bot: bot, Body: body},
	}
}

// issue is an issues event by sender, the event itself its request.
func issue(action, sender string) *event.Trigger {
	t := &event.Trigger{Event: "issues", Action: action, Owner: "acme", Repo: "handbook", Number: 5, Title: "Document limits",
		URL: "https://github.com/acme/handbook/issues/5", Sender: sender, Label: "docs", Assignee: "docs-bot"}
	t.Own = &request.Request{Key: request.Key{Kind: request.Event, ID: 5}, Author: sender, Title: t.Title, URL: t.URL}
	return t
}

func review(sender string, bot bool) *event.Trigger {
	return &event.Trigger{Event: "pull_request_review", Action: "submitted", Owner: "acme", Repo: "handbook", Number: 101, IsPR: true, Sender: sender, SenderIsBot: bot,
		Own: &request.Request{Key: request.Key{Kind: request.Review, ID: 555}, Author: sender, Bot: bot, Body: "/docs tighten the intro",
			URL: "https://github.com/acme/handbook/pull/101#pullrequestreview-555"}}
}

func TestDecide(t *testing.T) {
	t.Parallel()
	withPrompt := func(c *inputs.Config) { c.Prompt = "Fix the typo." }
	tests := []struct {
		name string
		cfg  inputs.Config
		trig *event.Trigger
		// want
		skip     string // substring of Skip; "" means the run acts
		err      string // substring of the error
		check    string // whose permission is read first; "" for none
		own      bool   // the event's request is judged
		job      JobAction
		jobID    string
		workflow string // the workflow's prompt
		thread   bool   // the thread's unanswered requests are answered too
		answer   int    // thread number, 0 for none
		react    bool
		github   bool
	}{
		{name: "dispatch with a prompt creates and does not comment, but talks to GitHub for the backlink",
			cfg: cfg(withPrompt), trig: &event.Trigger{Event: "workflow_dispatch", Owner: "acme", Repo: "handbook", Sender: "octo"},
			job: Create, workflow: "Fix the typo.", github: true},
		{name: "dispatch without a token does not talk to GitHub",
			cfg: cfg(withPrompt, func(c *inputs.Config) { c.GitHubToken = "" }), trig: &event.Trigger{Event: "workflow_dispatch", Owner: "acme", Repo: "handbook", Sender: "octo"},
			job: Create, workflow: "Fix the typo."},
		{name: "dispatch that does not wait has no pull request to link",
			cfg: cfg(withPrompt, func(c *inputs.Config) { c.Wait = false }), trig: &event.Trigger{Event: "workflow_dispatch", Owner: "acme", Repo: "handbook", Sender: "octo"},
			job: Create, workflow: "Fix the typo."},
		{name: "schedule with issue-number comments there without a check, continuing the thread's job",
			cfg: cfg(withPrompt, func(c *inputs.Config) { c.IssueNumber = 7 }), trig: &event.Trigger{Event: "schedule", Owner: "acme", Repo: "handbook"},
			job: Continue, workflow: "Fix the typo.", answer: 7, github: true},
		{name: "push does not check the pusher",
			cfg: cfg(withPrompt), trig: &event.Trigger{Event: "push", Owner: "acme", Repo: "handbook", Sender: "octo"},
			job: Create, workflow: "Fix the typo.", github: true},
		{name: "comment with phrase: check, then continue the thread's job with its requests, react, comment",
			cfg: cfg(), trig: comment("/docs add a FAQ", "maint", false),
			check: "maint", own: true, job: Continue, thread: true, answer: 12, react: true, github: true},
		{name: "comment with the workflow's prompt: it only triggers, the thread is not answered",
			cfg: cfg(withPrompt), trig: comment("/docs add a FAQ", "maint", false),
			check: "maint", own: true, job: Continue, workflow: "Fix the typo.", answer: 12, react: true, github: true},
		{name: "comment without the phrase is skipped before any check",
			cfg: cfg(), trig: comment("looks good to me", "maint", false),
			skip: "does not contain the trigger phrase /docs"},
		{name: "a look-alike phrase is judged after the check, not parsed here",
			cfg: cfg(), trig: comment("/docsify the page", "maint", false),
			check: "maint", own: true, job: Continue, thread: true, answer: 12, react: true, github: true},
		{name: "edited comment is not a request",
			cfg: cfg(), trig: func() *event.Trigger { e := comment("/docs x", "maint", false); e.Action = "edited"; return e }(),
			skip: "the comment was edited, not created"},
		{name: "the action's own comment is skipped",
			cfg: cfg(), trig: comment("<!-- agent-job-action -->\n/docs x", "github-actions[bot]", true),
			skip: "written by this action"},
		{name: "a bot's permission is not read: allowed-bots decides",
			cfg: cfg(), trig: comment("/docs x", "renovate[bot]", true),
			own: true, job: Continue, thread: true, answer: 12, react: true, github: true},
		{name: "allowed-bots does not let a person skip the check",
			cfg: cfg(func(c *inputs.Config) { c.AllowedBots = []string{"maint"} }), trig: comment("/docs x", "maint", false),
			check: "maint", own: true, job: Continue, thread: true, answer: 12, react: true, github: true},
		{name: "an event that names nobody is refused",
			cfg: cfg(), trig: comment("/docs x", "", false),
			skip: "names nobody whose permission could be checked"},
		{name: "job-id follows up and never continues from the thread",
			cfg: cfg(func(c *inputs.Config) { c.JobID = "job_7" }), trig: comment("/docs more", "maint", false),
			check: "maint", own: true, job: FollowUp, jobID: "job_7", answer: 12, react: true, github: true},
		{name: "comment false: a comment-triggered run still checks, but does not answer",
			cfg: cfg(func(c *inputs.Config) { c.Comment = "false" }), trig: comment("/docs x", "maint", false),
			check: "maint", own: true, job: Create, github: true},
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
			own: true, job: Continue},
		{name: "issue opened: the event is the request, checked and answered",
			cfg: cfg(), trig: issue("opened", "maint"),
			check: "maint", own: true, job: Continue, answer: 5, github: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Decide(tt.cfg, tt.trig)
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
			check := ""
			if p.Check != nil {
				check = p.Check.Login
			}
			if check != tt.check {
				t.Errorf("Check = %+v, want %q's", p.Check, tt.check)
			}
			if got := p.Own != nil; got != tt.own {
				t.Errorf("Own = %+v, want judged %v", p.Own, tt.own)
			}
			if p.Own != nil && (p.Own.Seen || p.Own.Text != "") {
				t.Errorf("Decide read the request's text: %+v", p.Own)
			}
			if p.Job != tt.job || p.JobID != tt.jobID {
				t.Errorf("Job = %v %q, want %v %q", p.Job, p.JobID, tt.job, tt.jobID)
			}
			if p.Workflow != tt.workflow || p.Thread != tt.thread {
				t.Errorf("Workflow %q, Thread %v; want %q, %v", p.Workflow, p.Thread, tt.workflow, tt.thread)
			}
			if p.Rules.Instruction != (p.Workflow == "" && tt.trig.IsComment()) || p.Rules.Phrase != tt.cfg.TriggerPhrase || p.Rules.Required != tt.cfg.RequiredPermission {
				t.Errorf("Rules = %+v", p.Rules)
			}
			number := 0
			if p.Answer != nil {
				number = p.Answer.Number
			}
			if number != tt.answer {
				t.Errorf("Answer = %+v, want thread %d", p.Answer, tt.answer)
			}
			if p.React != tt.react {
				t.Errorf("React = %v, want %v", p.React, tt.react)
			}
			if p.GitHub != tt.github {
				t.Errorf("GitHub = %v, want %v", p.GitHub, tt.github)
			}
		})
	}
}

// TestDecideRequestsAndReviewers: which events are requests when the prompt
// comes from the event, and who reviews the agent's pull request.
func TestDecideRequestsAndReviewers(t *testing.T) {
	t.Parallel()
	rv := review("maint", false)
	tests := []struct {
		name      string
		cfg       inputs.Config
		trig      *event.Trigger
		skip      string
		reviewers []string
		asked     string // the backlink's source URL
	}{
		{name: "issue opened", cfg: cfg(), trig: issue("opened", "maint"), reviewers: []string{"maint"}, asked: "https://github.com/acme/handbook/issues/5"},
		{name: "issue closed is not a request", cfg: cfg(), trig: issue("closed", "maint"), skip: "the issue action closed is not a request"},
		{name: "issue closed with the workflow's own prompt acts", cfg: cfg(func(c *inputs.Config) { c.Prompt = "x" }), trig: issue("closed", "maint"), reviewers: []string{"maint"}},
		{name: "the named label acts", cfg: cfg(func(c *inputs.Config) { c.TriggerLabel = "Docs" }), trig: issue("labeled", "maint"), reviewers: []string{"maint"}},
		{name: "another label does not", cfg: cfg(func(c *inputs.Config) { c.TriggerLabel = "agent" }), trig: issue("labeled", "maint"), skip: "not trigger-label agent"},
		{name: "another assignee does not", cfg: cfg(func(c *inputs.Config) { c.TriggerAssignee = "ann" }), trig: issue("assigned", "maint"), skip: "not trigger-assignee ann"},
		{name: "a submitted review continues the job with its line comments", cfg: cfg(), trig: rv, reviewers: []string{"maint"}, asked: rv.Own.URL},
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
			p, err := Decide(tt.cfg, tt.trig)
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
			if tt.trig == rv && (!p.Lines || p.Job != Continue || p.React || p.Answer == nil || p.Answer.Number != 101) {
				t.Errorf("review plan = %+v", p)
			}
		})
	}
}

// TestDecideReviewIsReadWithTheToken: a review's line comments are read
// from GitHub, so a plan that reads them talks to GitHub even when nothing
// else does (an allowed bot's review, comment: false); without a token the
// review's body alone is the request; with the workflow's prompt they are
// not read at all.
func TestDecideReviewIsReadWithTheToken(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, token, prompt string
		lines, github       bool
	}{
		{"with a token", "ghs_x", "", true, true},
		{"without a token", "", "", false, false},
		{"with the workflow's prompt", "ghs_x", "Fix it.", false, false},
	} {
		c := cfg(func(c *inputs.Config) {
			c.GitHubToken, c.Comment, c.AllowedBots, c.Prompt = tt.token, "false", []string{"docs-bot[bot]"}, tt.prompt
		})
		p, err := Decide(c, review("docs-bot[bot]", true))
		if err != nil || p.Skip != "" {
			t.Fatalf("%s: Decide = %+v, %v", tt.name, p, err)
		}
		if p.Lines != tt.lines || p.GitHub != tt.github || p.Check != nil || p.Backlink {
			t.Errorf("%s: Lines %v, GitHub %v, Check %v, Backlink %v; want Lines %v, GitHub %v, no check, no backlink",
				tt.name, p.Lines, p.GitHub, p.Check, p.Backlink, tt.lines, tt.github)
		}
	}
}

// TestDecideWatch: job-id without a prompt reads and waits for that job,
// sending nothing.
func TestDecideWatch(t *testing.T) {
	t.Parallel()
	c := cfg()
	c.Prompt, c.JobID = "", "job_0042"
	p, err := Decide(c, &event.Trigger{Event: "workflow_dispatch"})
	if err != nil || p.Job != Watch || p.JobID != "job_0042" {
		t.Errorf("Decide(job-id, no prompt) = %+v, %v; want Watch of job_0042", p, err)
	}
	c.JobID = ""
	var ie *inputs.Error
	if _, err := Decide(c, &event.Trigger{Event: "workflow_dispatch"}); !errors.As(err, &ie) {
		t.Errorf("no prompt and no job-id: %v, want an *inputs.Error", err)
	}
}

// TestDecideCodePROpener: a code pull request's opener is judged too when
// another account sends its event; a person's permission is read, a
// bot's place in allowed-bots decides.
func TestDecideCodePROpener(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, opener string
		bot          bool
		wantOpener   bool
		wantCheck    string // the opener's login whose permission is read
	}{
		{name: "the sender opened it", opener: "writer"},
		{name: "the sender opened it, in other case", opener: "Writer"},
		{name: "a person opened it", opener: "reader", wantOpener: true, wantCheck: "reader"},
		{name: "a bot opened it", opener: "dependabot[bot]", bot: true, wantOpener: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr := &event.Trigger{Event: "pull_request", Action: "synchronize", Owner: "acme", Repo: "api", Number: 7, IsPR: true,
				Sender: "writer", Opener: tt.opener, OpenerIsBot: tt.bot, HeadSHA: "abc"}
			tr.Own = &request.Request{Key: request.Key{Kind: request.Event, ID: 7}, Author: "writer"}
			p, err := Decide(cfg(func(c *inputs.Config) { c.Prompt = "Update the docs." }), tr)
			if err != nil || p.Skip != "" {
				t.Fatalf("Decide: %v, skip %q", err, p.Skip)
			}
			if (p.Opener != nil) != tt.wantOpener || p.Opener != nil && (p.Opener.Author != tt.opener || p.Opener.Bot != tt.bot) {
				t.Errorf("Opener = %+v, want judged %v", p.Opener, tt.wantOpener)
			}
			check := ""
			if p.OpenerCheck != nil {
				check = p.OpenerCheck.Login
			}
			if check != tt.wantCheck || p.Check == nil || p.Check.Login != "writer" {
				t.Errorf("checks: sender %+v, opener %q; want writer's and %q", p.Check, check, tt.wantCheck)
			}
		})
	}
}

// TestCapsOver: the caps decide from the counts a run read; a maintainer's
// request passes the thread's cap and never the day's; a count cut before
// the thread's first comment, or before the start of the day, under its
// cap is the cap reached.
func TestCapsOver(t *testing.T) {
	t.Parallel()
	c := &Caps{Thread: 3, Day: 10, Pass: true}
	const uncounted = "the sends from #12 could not all be counted (it has more comments than one run reads, its oldest 100 and newest 900 or so), so the cap counts as reached (max-sends-per-thread: 3)"
	for _, tt := range []struct {
		sent   int
		cut    bool
		level  string
		why    string
		passed bool
	}{
		{sent: 2, level: "write"},
		{sent: 3, level: "write", why: "#12 has had 3 creates and follow-ups (max-sends-per-thread: 3)"},
		{sent: 4, level: "maintain", why: "#12 has had 4 creates and follow-ups (max-sends-per-thread: 3)", passed: true},
		{sent: 4, cut: true, level: "write", why: "#12 has had 4 creates and follow-ups (max-sends-per-thread: 3)"},
		{sent: 0, cut: true, level: "write", why: uncounted},
		{sent: 2, cut: true, level: "admin", why: uncounted, passed: true},
	} {
		why, passed := c.OverThread(12, tt.sent, tt.cut, tt.level)
		if why != tt.why || passed != tt.passed {
			t.Errorf("OverThread(%d, %v, %s) = %q, %v; want %q, %v", tt.sent, tt.cut, tt.level, why, passed, tt.why, tt.passed)
		}
	}
	if why, _ := (&Caps{Day: 3}).OverThread(12, 0, true, "write"); why != "" {
		t.Errorf("OverThread without max-sends-per-thread = %q, want nothing", why)
	}
	for _, tt := range []struct {
		sent, read int
		cut        bool
		why        string
	}{
		{sent: 9, read: 40},
		{sent: 10, read: 40, why: "the repository has had 10 creates and follow-ups today, UTC (max-sends-per-day: 10)"},
		{sent: 12, read: 1000, cut: true, why: "the repository has had 12 creates and follow-ups today, UTC (max-sends-per-day: 10)"},
		{sent: 2, read: 1000, cut: true, why: "today's sends could not all be counted (the repository's 1000 most recently written comments are all from today, UTC), so the cap counts as reached (max-sends-per-day: 10)"},
	} {
		if got := c.OverDay(tt.sent, tt.read, tt.cut); got != tt.why {
			t.Errorf("OverDay(%d, %d, %v) = %q, want %q", tt.sent, tt.read, tt.cut, got, tt.why)
		}
	}
	if got := (&Caps{Thread: 3}).OverDay(0, 1000, true); got != "" {
		t.Errorf("OverDay without max-sends-per-day = %q, want nothing", got)
	}
	if got, want := Sends(1), "1 create or follow-up"; got != want {
		t.Errorf("Sends(1) = %q", got)
	}
}

// TestDecideRelease: the release label, compared as GitHub compares label
// names (ASCII case only), makes a code pull request's run a release; any
// other label, a look-alike, or a bot's label does not.
func TestDecideRelease(t *testing.T) {
	t.Parallel()
	labeled := func(label, sender string, bot bool) *event.Trigger {
		return &event.Trigger{Event: "pull_request", Action: "labeled", Owner: "acme", Repo: "handbook", Number: 7, IsPR: true,
			HeadSHA: "c0ffee", Label: label, Sender: sender, SenderIsBot: bot}
	}
	withRelease := func(c *inputs.Config) { c.ReleaseLabel = "docs-not-needed" }
	tests := []struct {
		name    string
		trig    *event.Trigger
		release bool
		skip    string
	}{
		{"the label, by a person", labeled("docs-not-needed", "ada", false), true, ""},
		{"the label in other ASCII case", labeled("Docs-Not-Needed", "ada", false), true, ""},
		{"a look-alike by Unicode folding", labeled("doc\u017f-not-needed", "ada", false), false, ""},
		{"a bot's label", labeled("docs-not-needed", "helper[bot]", true), false, "a bot cannot release the docs check"},
	}
	for _, tt := range tests {
		p, err := Decide(cfg(withRelease), tt.trig)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := p.Code != nil && p.Code.Release; got != tt.release {
			t.Errorf("%s: release %v, want %v (plan %+v)", tt.name, got, tt.release, p)
		}
		if !strings.Contains(p.Skip, tt.skip) || tt.skip == "" && p.Skip != "" && tt.release {
			t.Errorf("%s: skip %q, want %q", tt.name, p.Skip, tt.skip)
		}
	}
}
