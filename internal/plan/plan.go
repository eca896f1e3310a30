// Package plan decides what a run will do, from the inputs and the event
// alone, before anything is sent: whether to act or why not, whose
// permission to verify, the prompt, whether to create a job or continue one,
// and where to answer. It is one pure function, so every rule about who may
// trigger a run and what reaches the agent is tested as a table, with no
// network.
package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/prompt"
)

// JobAction is what the run does with the Agent Job API.
type JobAction int

// The ways a run reaches a job.
const (
	// Create starts a new job with the prompt.
	Create JobAction = iota
	// FollowUp sends the prompt to the job named by the job-id input. It
	// never falls back to a new job.
	FollowUp
	// Continue sends the prompt to the job an earlier run named in the
	// thread, found by its marker; a new job is started when there is none,
	// or when that job takes no more messages.
	Continue
	// Watch sends nothing: with job-id and no prompt, the run reads the job
	// and waits for it (or, with wait: false, reports where it stands). It
	// is how a timed-out or cancelled run is resumed.
	Watch
)

// Thread is the issue or pull request a run answers in.
type Thread struct {
	Owner, Repo string
	Number      int
	// CommentCount is the thread's comment count from the event, 0 when
	// unknown: it says where the newest page of comments is.
	CommentCount int
}

// Reaction is the 👀 on the comment that asked.
type Reaction struct {
	CommentID int64
	Kind      string // ghclient.KindIssue or ghclient.KindReview
}

// Check is the permission check a run must pass before it writes anything
// to GitHub or sends anything to the Agent Job API.
type Check struct {
	Owner, Repo string
	Sender      string
	Required    string // the least level: read, triage, write, maintain, admin
}

// Plan is everything a run will do.
type Plan struct {
	// Skip says why the run does nothing; "" when it acts.
	Skip string
	// Check is the permission to verify first; nil when nobody needs to be
	// verified (a dispatch, schedule or push, an allowed bot, or a
	// permission already verified: the Permission passed to Decide).
	Check *Check
	// Verified says whose permission was verified, for the log; "" when none.
	Verified string

	Prompt string
	Job    JobAction
	JobID  string // for FollowUp

	// Answer is where the run comments; nil when it does not. While a Check
	// is pending, it is where the run will comment once the check passes.
	Answer *Thread
	// React is the comment to acknowledge; nil when none.
	React *Reaction

	// Review is the submitted review whose line comments join the prompt;
	// 0 when the run was not started by a review.
	Review int64
	// Backlink says that a job ending with a pull request gets a comment
	// there naming what asked for it (Asked, AskedURL), with a request for
	// review from Reviewers.
	Backlink  bool
	Asked     conversation.Source
	AskedURL  string // "" for a workflow run: the caller knows its address
	Reviewers []string

	// GitHub is true when the run talks to GitHub at all.
	GitHub bool
	DryRun bool
	Wait   bool
}

// Decide returns the plan for cfg and the event t. permission is the
// sender's verified permission level, or "" when it has not been read: then
// a plan that needs it carries a Check, and the caller reads the level and
// decides again with it. An error is a problem with the inputs or the event
// that the user must fix; a plan with Skip is a run that rightly does
// nothing.
func Decide(cfg inputs.Config, t *event.Trigger, permission string) (Plan, error) {
	p := Plan{DryRun: cfg.DryRun, Wait: cfg.Wait}
	if p.Skip = refusal(cfg, t); p.Skip != "" {
		return p, nil
	}

	p.Prompt = cfg.Prompt
	if strings.TrimSpace(p.Prompt) == "" {
		p.Prompt = prompt.Prompt(t, cfg.TriggerPhrase)
		p.Review = t.ReviewID
	}
	watch := false
	if strings.TrimSpace(p.Prompt) == "" {
		switch {
		case t.CommentID != 0:
			return p, fmt.Errorf("the comment holds no instruction besides the trigger phrase: write what the agent should do after %s", escape.Log(cfg.TriggerPhrase))
		case cfg.JobID == "":
			return p, inputs.ErrEmptyPrompt
		}
		watch = true
	}

	number := t.Number
	if number == 0 {
		number = cfg.IssueNumber
	}
	commenting := cfg.Comment == "true" || cfg.Comment == "auto" && number != 0
	checking := byPerson(t.Event) && !allowedBot(cfg, t)
	switch {
	case cfg.Comment == "true" && number == 0:
		return p, &inputs.Error{Input: "comment", Problem: "is true but this event has no issue or pull request: set issue-number"}
	case (commenting || checking) && cfg.GitHubToken == "":
		return p, &inputs.Error{Input: "github-token", Problem: "is empty: it is needed to comment and to check who triggered the run (the default, ${{ github.token }}, works)"}
	case (commenting || checking) && t.Owner == "":
		return p, fmt.Errorf("GITHUB_REPOSITORY is not set: it is needed to comment and to check permissions")
	}
	p.Backlink = cfg.Wait && cfg.Comment != "false" && cfg.GitHubToken != "" && t.Owner != ""
	if cfg.GitHubToken == "" {
		// A review's line comments are read with the token: without one,
		// its body alone is the request.
		p.Review = 0
	}
	p.GitHub = (commenting || checking || p.Backlink || p.Review != 0) && !cfg.DryRun
	p.Asked, p.AskedURL, p.Reviewers = origin(cfg, t)

	switch {
	case watch:
		p.Job, p.JobID = Watch, cfg.JobID
	case cfg.JobID != "":
		p.Job, p.JobID = FollowUp, cfg.JobID
	case isComment(t) && commenting:
		p.Job = Continue
	default:
		p.Job = Create
	}
	if cfg.DryRun {
		// A dry run sends nothing anywhere, GitHub included.
		return p, nil
	}
	if commenting {
		p.Answer = &Thread{Owner: t.Owner, Repo: t.Repo, Number: number, CommentCount: t.CommentCount}
		if t.CommentID != 0 {
			// A review has no reactions: only its comments do.
			p.React = &Reaction{CommentID: t.CommentID, Kind: t.CommentKind}
		}
	}
	if !checking {
		return p, nil
	}
	switch {
	case permission == "":
		p.Check = &Check{Owner: t.Owner, Repo: t.Repo, Sender: t.Sender, Required: cfg.RequiredPermission}
	case !ghclient.PermissionAtLeast(permission, cfg.RequiredPermission):
		p.Skip = fmt.Sprintf("%s has %s permission on %s/%s; required-permission is %s",
			escape.Log(t.Sender), escape.Log(permission), escape.Log(t.Owner), escape.Log(t.Repo), cfg.RequiredPermission)
	default:
		p.Verified = fmt.Sprintf("%s has %s permission (%s needed): acting on the %s event",
			escape.Log(t.Sender), escape.Log(permission), cfg.RequiredPermission, escape.Log(t.Event))
	}
	return p, nil
}

// refusal returns why the run must not act, judging from the event alone,
// or "".
func refusal(cfg inputs.Config, t *event.Trigger) string {
	if byPerson(t.Event) && t.Sender == "" {
		return fmt.Sprintf("the %s event names nobody whose permission could be checked", escape.Log(t.Event))
	}
	// A comment or a review is a request in itself; for other events, the
	// workflow's on: filter decides when it passes a prompt of its own.
	if isComment(t) || strings.TrimSpace(cfg.Prompt) == "" {
		if ok, why := t.Request(cfg.TriggerLabel, cfg.TriggerAssignee); !ok {
			return why
		}
	}
	if isComment(t) {
		what, body := "comment", t.CommentBody
		if t.ReviewID != 0 {
			what, body = "review", t.ReviewBody
		}
		if conversation.IsOwn(body) {
			return fmt.Sprintf("the %s was written by this action", what)
		}
		if !event.MatchPhrase(body, cfg.TriggerPhrase) {
			return fmt.Sprintf("the %s does not contain the trigger phrase %s", what, escape.Log(cfg.TriggerPhrase))
		}
	}
	if byPerson(t.Event) && t.SenderIsBot && !allowedBot(cfg, t) {
		return fmt.Sprintf("%s is a bot and is not in allowed-bots", escape.Log(t.Sender))
	}
	return ""
}

// isComment reports whether the event is a comment or a review, whose text is
// the request.
func isComment(t *event.Trigger) bool {
	return t.CommentID != 0 || t.ReviewID != 0
}

// origin returns what asked for the job, for the backlink on its pull
// request, and who should review that pull request: the person who asked
// when a person did, else the reviewers the workflow names.
func origin(cfg inputs.Config, t *event.Trigger) (conversation.Source, string, []string) {
	var reviewers []string
	switch {
	case !byPerson(t.Event):
		reviewers = cfg.Reviewers
	case !t.SenderIsBot && t.Sender != "":
		reviewers = []string{t.Sender}
	}
	switch {
	case isComment(t):
		return conversation.FromComment, t.CommentURL, reviewers
	case t.Number != 0 && t.IsPR:
		return conversation.FromPullRequest, t.URL, reviewers
	case t.Number != 0:
		return conversation.FromIssue, t.URL, reviewers
	}
	return conversation.FromWorkflowRun, "", reviewers
}

// byPerson reports whether the permission of whoever caused the event must
// be checked: for every event but those that need write access to happen at
// all (a dispatch, a push) or that nobody causes (a schedule). A run outside
// Actions has no event.
func byPerson(eventName string) bool {
	switch eventName {
	case "", "workflow_dispatch", "repository_dispatch", "schedule", "push":
		return false
	}
	return true
}

// allowedBot reports whether the sender is a bot listed in allowed-bots.
func allowedBot(cfg inputs.Config, t *event.Trigger) bool {
	return t.SenderIsBot && slices.ContainsFunc(cfg.AllowedBots, func(b string) bool {
		return strings.EqualFold(b, t.Sender)
	})
}
