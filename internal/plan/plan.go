// Package plan decides what a run will do, from the inputs and the event
// alone, once, before anything is read or sent: whether to act or why not,
// whose permission to read and by which rules the request is then judged
// (package admit), what the prompt is made of, whether to create a job or
// continue one, and where to answer. It is one pure function, so every
// rule about who may trigger a run and what reaches the agent is tested as
// a table, with no network.
package plan

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/admit"
	"github.com/agentjob/agent-job-action/internal/codepr"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/queue"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/terms"
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
	// thread, found by its record; a new job is started when there is
	// none, when that job's pull request is merged or closed, or when it
	// takes no more messages.
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

// Check is the permission read a run must make before it writes anything
// to GitHub or sends anything to the Agent Job API: its result is what the
// run's own request is judged with (package admit).
type Check struct {
	Owner, Repo string
	Login       string
}

// Plan is everything a run will do, decided once, before anything is
// read or sent.
type Plan struct {
	// Skip says why the run does nothing; "" when it acts.
	Skip string

	// Own is the request the run answers, as its event makes it; nil for
	// a dispatch, a schedule, a push or a run outside Actions. It is
	// judged by Rules once Check is read, before any of its text is.
	Own   *request.Request
	Rules admit.Rules
	// Check is the permission to read first; nil when nobody's is read
	// (no Own, or a bot, which allowed-bots decides, or a dry run, which
	// reads nothing).
	Check *Check
	// Opener is who opened the code pull request when that is another
	// account than Own's author: a push by a maintainer runs the workflow
	// of every open pull request with that head, so the sender's
	// permission alone would let anyone with read access have their
	// description sent. The run acts only when both may ask, judged by
	// Rules before any text is read; nil when the sender opened it, or
	// for other runs. OpenerCheck is the opener's permission to read (nil
	// for a bot, which allowed-bots decides, and in a dry run).
	Opener      *request.Request
	OpenerCheck *Check

	// Workflow is the workflow's own prompt (prompt or prompt-file); ""
	// when the requests are the prompt. With it, a request only triggers
	// the run: its text reaches the agent neither as the instruction nor as
	// context.
	Workflow string
	// Thread says the run answers the unanswered requests of its thread
	// with its own, in one prompt (package backlog).
	Thread bool
	// Lines says a review's line comments are read to join its request.
	Lines bool

	Job   JobAction
	JobID string // for FollowUp and Watch

	// Answer is where the run comments; nil when it does not.
	Answer *Thread
	// React says the run's own request gets a 👀 (a comment or a line
	// comment: a review has no reactions).
	React bool

	// Backlink says that a job ending with a pull request gets a comment
	// there naming what asked for it (Asked, AskedURL), with a request for
	// review from Reviewers.
	Backlink  bool
	Asked     conversation.Source
	AskedURL  string // "" for a workflow run: the caller knows its address
	Reviewers []string

	// Code is the code pull request whose docs job the run starts or
	// continues (package codepr); nil for other runs. Its prompt is built
	// from the changes the run reads, with Workflow as the instruction.
	Code *codepr.PullRequest

	// Settle says the run starts no job and sends the agent nothing: it
	// reports the end of the jobs earlier runs left working in the
	// repository's threads (Thread holds the repository; see package
	// action).
	Settle bool
	// Await is, for a settle run, the pull request whose job it waits for
	// (within timeout) when it finds that job still working: the one its
	// event says the agent just opened or pushed (a pull_request event's,
	// or a repository_dispatch's client_payload.pull_request). The agent
	// pushes as it finishes, so the job is about to end. "" when the event
	// names none, or wait is false.
	Await string
	// Backlinked is, for a settle run, the pull request its event is on in
	// its repository (a review, a close of the agent's docs pull
	// request), 0 for none: the backlink there names the record that asked
	// for its job. Only its number is read of the event.
	Backlinked int

	// Outside is, for a settle run on a pull_request_target event, the
	// pull request of that event when no code job follows it: a fork's
	// or another bot's. The run sets its check (check.DecideOutside) and
	// nothing else; nil for other runs.
	Outside *Outside

	// Group is the merge group whose check the run sets (package queue):
	// it reads the group's pull requests and their docs checks, and sets
	// the check on the group's head commit. It starts no job, sends the
	// agent nothing and writes no comment; nil for other runs.
	Group *queue.Group

	// Approval says a code pull request's check waits for its docs pull
	// request's approval (docs-check: approved), by Land.Approval's
	// rules; false when the check asks only that it exists, and for runs
	// that set no check.
	Approval bool
	// Land is what a closed code pull request's run does with its docs
	// pull request: merge it with the code (docs-merge), close it
	// (docs-close), or neither.
	Land Land

	// Caps are the caps on what the run sends, read before it sends;
	// nil when none applies.
	Caps *Caps

	// GitHub is true when the run talks to GitHub at all.
	GitHub bool
	DryRun bool
	Wait   bool
}

// Land is what a closed code pull request does to its docs pull request.
type Land struct {
	// Merge is the method a merged code pull request's approved docs pull
	// request is merged with (merge, squash, rebase); "" for none.
	Merge string
	// Close says a code pull request closed unmerged closes its docs
	// pull request.
	Close bool
	// Approval is what the approval of a docs pull request merged with
	// its code must pass, whatever docs-check asks of the check: a
	// reviewer with required-permission, or a bot in allowed-bots.
	Approval admit.Rules
}

// Lands reports whether a code pull request closed so (merged or not)
// does anything to its docs pull request.
func (l Land) Lands(merged bool) bool {
	return merged && l.Merge != "" || !merged && l.Close
}

// Caps are the caps a run reads before it sends a create or a follow-up:
// the creates and follow-ups the action's own comments count, in the
// thread (conversation.Thread.SentHere) and in the repository on the day
// (conversation.SentOn). A run at a cap sends nothing.
type Caps struct {
	Owner, Repo string
	// Thread is the most sends from the thread the run answers in
	// (Answer); 0 for no cap.
	Thread int
	// Day is the most sends from the repository per day (UTC); 0 for no
	// cap.
	Day int
	// Pass says the run's own request is a person's explicit one (a
	// comment, review or line comment): its author passes Thread with
	// maintain or admin permission, read by Check. Day is never passed.
	Pass bool
}

// MayPass reports whether a request whose author has permission level
// passes the cap per thread.
func (c *Caps) MayPass(level string) bool {
	return c.Pass && (level == "maintain" || level == "admin")
}

// OverThread decides from the sends counted in the thread number: why the
// run sends nothing (""), or, for a request whose author passes the cap
// (level, see MayPass), passed. cut says the count stopped at its budget
// of list requests before the thread's first comment: the action's
// comments it did not read may hold the sends that reach the cap, so it
// counts as reached.
func (c *Caps) OverThread(number, sent int, cut bool, level string) (why string, passed bool) {
	switch {
	case c.Thread <= 0:
		return "", false
	case sent >= c.Thread:
		why = fmt.Sprintf("#%d has had %s (max-sends-per-thread: %d)", number, Sends(sent), c.Thread)
	case cut:
		why = fmt.Sprintf("the sends from #%d could not all be counted (it has more comments than one run reads, its oldest 100 and newest 900 or so), so the cap counts as reached (max-sends-per-thread: %d)", number, c.Thread)
	default:
		return "", false
	}
	if c.MayPass(level) {
		return why, true
	}
	return why, false
}

// OverDay decides from the sends counted in the repository today: why the
// run sends nothing, or "". cut says the count stopped at its budget of
// pages before it reached the start of the day, having read read comments
// all written today: what it did not read may hold the sends that reach
// the cap, so it counts as reached (a flood of comments must not lift a
// cap the team chose).
func (c *Caps) OverDay(sent, read int, cut bool) string {
	switch {
	case c.Day <= 0:
		return ""
	case sent >= c.Day:
		return fmt.Sprintf("the repository has had %s today, UTC (max-sends-per-day: %d)", Sends(sent), c.Day)
	case cut:
		return fmt.Sprintf("today's sends could not all be counted (the repository's %d most recently written comments are all from today, UTC), so the cap counts as reached (max-sends-per-day: %d)", read, c.Day)
	}
	return ""
}

// Sends is n creates and follow-ups, in words.
func Sends(n int) string {
	if n == 1 {
		return "1 create or follow-up"
	}
	return fmt.Sprintf("%d creates and follow-ups", n)
}

// Decide returns the plan for cfg and the event t. An error is a problem
// with the inputs or the event that the user must fix; a plan with Skip is
// a run that rightly does nothing. It reads no request's text as Markdown:
// the run's own request is judged later, with its author's permission.
func Decide(cfg inputs.Config, t *event.Trigger) (Plan, error) {
	p := Plan{DryRun: cfg.DryRun, Wait: cfg.Wait}
	if t.Event == "merge_group" {
		return mergeGroup(cfg, t)
	}
	if cfg.Settle {
		return settling(cfg, t)
	}
	code, ok := CodePR(t, cfg.ReleaseLabel)
	if !ok {
		code, ok = CodeApproval(t, cfg.DocsWhenApproved)
	}
	if ok {
		// A push's change waits for the code's approval, as the team
		// asks: nothing is sent until it comes.
		code.Held = cfg.DocsWhenApproved && !code.Approved && !code.Release && code.Action != "closed"
		if act, why := codepr.Decide(code); !act {
			p.Skip = why
			return p, nil
		}
		if code.Release && t.SenderIsBot {
			// allowed-bots may ask for docs; waiving the required check is
			// a person's word.
			p.Skip = fmt.Sprintf("%s added %s, but a bot cannot release the docs check: only a person with %s permission can", escape.Log(t.Sender), escape.Log(t.Label), cfg.RequiredPermission)
			return p, nil
		}
		if code.Action == "synchronize" && cfg.Comment == "false" {
			p.Skip = "comment is false: a push has no record of the pull request's docs job to continue (the run's comment is that record)"
			return p, nil
		}
		p.Code = &code
		p.Approval = cfg.Approval
		p.Land = Land{Merge: cfg.DocsMerge, Close: cfg.DocsClose, Approval: Trusted(cfg)}
	}
	if p.Skip = refusal(cfg, t, p.Code != nil); p.Skip != "" {
		return p, nil
	}
	if strings.TrimSpace(cfg.Prompt) != "" {
		p.Workflow = cfg.Prompt
	}
	p.Own = Asker(t)
	if p.Code != nil && p.Code.Approved {
		// The approval asks as its reviewer, whose permission is read; its
		// text asks nothing (the reviews decide, read by the hall).
		p.Own = &request.Request{Key: request.Key{Kind: request.Event, ID: int64(t.Number)}, Author: t.Sender, Bot: t.SenderIsBot,
			Title: t.Title, URL: t.URL}
	}
	p.Rules = admit.Rules{Phrase: cfg.TriggerPhrase, AllowedBots: cfg.AllowedBots, Required: cfg.RequiredPermission,
		Instruction: p.Workflow == "" && t.IsComment()}
	// Nothing can give a prompt: no workflow prompt, no comment, no issue.
	watch := p.Workflow == "" && !t.IsComment() && t.Number == 0
	if watch && cfg.JobID == "" {
		return p, inputs.ErrEmptyPrompt
	}

	number := t.Number
	if number == 0 {
		number = cfg.IssueNumber
	}
	commenting := cfg.Comment == "true" || cfg.Comment == "auto" && number != 0
	if p.Code != nil && t.Opener != "" && !strings.EqualFold(t.Opener, t.Sender) {
		p.Opener = &request.Request{Key: request.Key{Kind: request.Event, ID: int64(t.Number)}, Author: t.Opener, Bot: t.OpenerIsBot}
	}
	checkOwn := p.Own != nil && p.Rules.NeedsPermission(p.Own)
	checkOpener := p.Opener != nil && p.Rules.NeedsPermission(p.Opener)
	checking := checkOwn || checkOpener
	switch {
	case cfg.Comment == "true" && number == 0:
		return p, &inputs.Error{Input: "comment", InTerms: func(t terms.Terms) string {
			return "is true but this event has no issue or pull request: set " + t.Name("issue-number")
		}}
	case (commenting || checking) && cfg.GitHubToken == "":
		return p, &inputs.Error{Input: "github-token", InTerms: func(t terms.Terms) string {
			if t.CommandLine {
				return "is empty: it is needed to comment and to check who triggered the run: set " + t.Name("github-token")
			}
			return "is empty: it is needed to comment and to check who triggered the run (the default, ${{ github.token }}, works)"
		}}
	case (commenting || checking) && t.Owner == "":
		return p, fmt.Errorf("GITHUB_REPOSITORY is not set: it is needed to comment and to check permissions")
	}
	// A run that does not wait leaves the backlink to the run that
	// settles its job from the record its comment keeps: without a
	// comment, nothing will.
	p.Backlink = (cfg.Wait || commenting) && cfg.Comment != "false" && cfg.GitHubToken != "" && t.Owner != ""
	// A review's line comments are read with the token: without one, its
	// body alone is the request.
	// A code pull request's approval is read from its reviews (the
	// hall), never from this review's text.
	p.Lines = p.Workflow == "" && p.Own != nil && p.Own.Kind == request.Review && cfg.GitHubToken != "" && p.Code == nil
	p.GitHub = (commenting || checking || p.Backlink || p.Lines) && !cfg.DryRun
	p.Asked, p.AskedURL, p.Reviewers = origin(cfg, t)

	switch {
	case watch:
		p.Job, p.JobID = Watch, cfg.JobID
	case cfg.JobID != "":
		p.Job, p.JobID = FollowUp, cfg.JobID
	case commenting:
		// One open docs pull request per thread: a run that answers in a
		// thread continues the job an earlier run there left, while that
		// job's pull request is open (see Continue).
		p.Job = Continue
	default:
		p.Job = Create
	}
	capped := (cfg.MaxSendsPerThread > 0 || cfg.MaxSendsPerDay > 0) && p.Job != Watch
	if capped && !commenting {
		return p, uncounted(cfg)
	}
	if cfg.DryRun {
		// A dry run sends nothing anywhere, GitHub included.
		p.Lines = false
		return p, nil
	}
	if commenting {
		p.Answer = &Thread{Owner: t.Owner, Repo: t.Repo, Number: number, CommentCount: t.CommentCount}
		p.React = t.IsComment() && t.Own.Kind.Reacts()
		p.Thread = p.Job == Continue && p.Workflow == "" && t.IsComment()
	}
	if checkOwn {
		p.Check = &Check{Owner: t.Owner, Repo: t.Repo, Login: t.Sender}
	}
	if capped {
		p.Caps = &Caps{Owner: t.Owner, Repo: t.Repo, Thread: cfg.MaxSendsPerThread, Day: cfg.MaxSendsPerDay, Pass: t.IsComment()}
	}
	if checkOpener {
		p.OpenerCheck = &Check{Owner: t.Owner, Repo: t.Repo, Login: t.Opener}
	}
	return p, nil
}

// uncounted is the error of a capped run that writes no comment: the caps
// count the action's comments, so what it sent would count for nothing.
func uncounted(cfg inputs.Config) error {
	input := "max-sends-per-thread"
	if cfg.MaxSendsPerThread == 0 {
		input = "max-sends-per-day"
	}
	return &inputs.Error{Input: input, InTerms: func(t terms.Terms) string {
		if cfg.Comment == "false" {
			return "is set, but comment is false: the caps count what the action's comments record, so a run that writes none would not be counted: set " + t.Name("comment") + " to auto"
		}
		return "is set, but this run has no issue or pull request to comment in: the caps count what the action's comments record, so its sends would not be counted: set " + t.Name("issue-number")
	}}
}

// Trusted is whom the team trusts as a request's author (a person with
// required-permission, or a bot in allowed-bots): an approval of a docs
// pull request, for the check or a merge, and a docs job's pull request.
func Trusted(cfg inputs.Config) admit.Rules {
	return admit.Rules{Required: cfg.RequiredPermission, AllowedBots: cfg.AllowedBots}
}

// settling is the plan of a settle run: whatever its event, it answers no
// request, so nobody's permission is read and no text of the event is;
// it needs the token, and starts nothing, so neither a prompt nor a job
// may be given to it.
func settling(cfg inputs.Config, t *event.Trigger) (Plan, error) {
	notWith := func(other string) error {
		return &inputs.Error{Input: "settle", InTerms: func(tm terms.Terms) string {
			return "is true, which starts no job and sends nothing to the agent: remove " + tm.Name(other)
		}}
	}
	switch {
	case strings.TrimSpace(cfg.Prompt) != "":
		return Plan{}, notWith("prompt")
	case cfg.JobID != "":
		return Plan{}, notWith("job-id")
	case cfg.DryRun:
		return Plan{}, notWith("dry-run")
	case cfg.GitHubToken == "":
		return Plan{}, &inputs.Error{Input: "github-token", InTerms: func(tm terms.Terms) string {
			return "is empty: a settle run reads and edits the repository's comments and commit statuses with it"
		}}
	case t.Owner == "":
		return Plan{}, fmt.Errorf("GITHUB_REPOSITORY is not set: a settle run needs the repository whose threads it settles")
	}
	if p, ok := outside(cfg, t); ok {
		return p, nil
	}
	var caps *Caps
	if cfg.MaxSendsPerThread > 0 || cfg.MaxSendsPerDay > 0 {
		// A change that waits, which a settle run sends, counts as any
		// follow-up does.
		caps = &Caps{Owner: t.Owner, Repo: t.Repo, Thread: cfg.MaxSendsPerThread, Day: cfg.MaxSendsPerDay}
	}
	await := ""
	switch {
	case !cfg.Wait:
	case t.Event == "pull_request" || t.Event == "pull_request_target":
		await = t.URL
	case t.Event == "repository_dispatch", t.Event == "workflow_dispatch":
		await = t.Moved
	}
	backlinked := 0
	if t.IsPR {
		backlinked = t.Number
	}
	// The phrase is what a backlink a settle run writes tells to write.
	return Plan{Settle: true, Await: await, Backlinked: backlinked, GitHub: true, Wait: cfg.Wait, Backlink: cfg.Comment != "false", Caps: caps, Rules: admit.Rules{Phrase: cfg.TriggerPhrase},
		Answer: &Thread{Owner: t.Owner, Repo: t.Repo}, Asked: conversation.FromComment, Reviewers: cfg.Reviewers, Approval: cfg.Approval,
		// A record that follows a docs pull request is judged as the code
		// workflow asked, whatever docs-check this workflow sets.
		Land: Land{Approval: Trusted(cfg)}}, nil
}

// Outside is a pull request no code job follows (a fork's, whose
// pull_request runs get no secrets, or a bot's allowed-bots does not name),
// as its pull_request_target event shows it.
type Outside struct {
	Owner, Repo string
	Number      int
	HeadSHA     string // its latest commit, which the check goes on
	Bot         string // the bot that opened it, "" for a person's
	BotReleased bool   // release-bots names Bot (never for a fork's)
	// Release says the event adds the release label: Sender's permission
	// is read (Plan.Check); required-permission releases HeadSHA.
	Release bool
	Sender  string
}

// OutsidePages bounds the pages of open pull requests (100 each) a
// scheduled settle run lists to find those no code job follows.
const OutsidePages = 3

// OutsideOf says whether opener's pull request (a fork's or not) is one no
// code job follows (ok): a fork's, or a bot's not agent-app's nor allowed;
// bot is its login when a bot, released whether release-bots names it.
func OutsideOf(cfg inputs.Config, opener string, isBot, fork bool) (bot string, released, ok bool) {
	named := func(list []string) bool {
		return slices.ContainsFunc(list, func(b string) bool { return strings.EqualFold(b, opener) })
	}
	switch {
	case fork:
	case isBot && !strings.EqualFold(opener, cfg.AgentApp) && !named(cfg.AllowedBots):
	default:
		return "", false, false
	}
	if isBot {
		bot = opener
	}
	return bot, bot != "" && !fork && named(cfg.ReleaseBots), true
}

// outside returns the plan of a settle run whose event is a
// pull_request_target event of a pull request no code job follows (a
// fork's, or a bot's that is neither the agent app's nor one allowed-bots
// names), and false for any other event: the run sets that pull request's
// check and nothing else. A closed one is left as it is.
func outside(cfg inputs.Config, t *event.Trigger) (Plan, bool) {
	if t.Event != "pull_request_target" || !t.IsPR || t.HeadSHA == "" {
		return Plan{}, false
	}
	bot, released, ok := OutsideOf(cfg, t.Opener, t.OpenerIsBot, t.Fork)
	if !ok {
		return Plan{}, false
	}
	if t.Action == "closed" {
		return Plan{Skip: fmt.Sprintf("pull request #%d is closed: its check is left as it is", t.Number)}, true
	}
	o := &Outside{Owner: t.Owner, Repo: t.Repo, Number: t.Number, HeadSHA: t.HeadSHA, Bot: bot, Sender: t.Sender, BotReleased: released,
		Release: t.Action == "labeled" && cfg.ReleaseLabel != "" && asciiFold(t.Label) == asciiFold(cfg.ReleaseLabel)}
	// The label's sender releases the head only with required-permission,
	// and never as a bot (Rules names none).
	return Plan{Settle: true, GitHub: true, Outside: o, Rules: admit.Rules{Required: cfg.RequiredPermission},
		Own:   &request.Request{Key: request.Key{Kind: request.Event, ID: int64(t.Number)}, Author: t.Sender, Bot: t.SenderIsBot, Title: t.Title, URL: t.URL},
		Check: &Check{Owner: t.Owner, Repo: t.Repo, Login: t.Sender}}, true
}

// mergeGroup is the plan of a merge_group run, whatever the other inputs
// say (the code pull request's prompt and paths, settle, wait): the check
// of a group is whether each of its pull requests has its docs settled,
// which each one's own check already says, paths included. No person's
// request is judged, so nobody's permission is read: the queue asks, and
// only those who may merge can queue; the run merges, closes and sends
// nothing, and the status it sets is computed from GitHub's own records.
func mergeGroup(cfg inputs.Config, t *event.Trigger) (Plan, error) {
	switch {
	case t.Action != "checks_requested":
		return Plan{Skip: fmt.Sprintf("the merge_group action %s does not ask for checks: only checks_requested does", escape.Log(t.Action))}, nil
	case cfg.DryRun:
		return Plan{DryRun: true, Skip: "dry-run is true: a merge group's check reads and sets commit statuses, which a dry run does not"}, nil
	case cfg.GitHubToken == "":
		return Plan{}, &inputs.Error{Input: "github-token", InTerms: func(tm terms.Terms) string {
			return "is empty: a merge group's check reads its pull requests' commit statuses and sets its own with it (the default, ${{ github.token }}, works)"
		}}
	case t.Owner == "":
		return Plan{}, fmt.Errorf("GITHUB_REPOSITORY is not set: a merge group's check needs the repository of the merge queue")
	}
	g := t.Group
	return Plan{GitHub: true, Group: &queue.Group{Owner: t.Owner, Repo: t.Repo, HeadSHA: g.HeadSHA, BaseSHA: g.BaseSHA, Branch: g.Branch(), HeadRef: g.HeadRef}}, nil
}

// refusal returns why the run must not act, judging from the event alone,
// or "". It reads no text as Markdown: a request whose phrase is not in
// its body at all is none, and whether a reader sees it there is judged
// with its author's permission (package admit). A code pull request's
// event is a request when codepr.Decide says so.
func refusal(cfg inputs.Config, t *event.Trigger, code bool) string {
	if byPerson(t.Event) && t.Sender == "" {
		return fmt.Sprintf("the %s event names nobody whose permission could be checked", escape.Log(t.Event))
	}
	// A comment or a review is a request in itself; for other events, the
	// workflow's on: filter decides when it passes a prompt of its own.
	if !code && (t.IsComment() || strings.TrimSpace(cfg.Prompt) == "") {
		if ok, why := t.Request(cfg.TriggerLabel, cfg.TriggerAssignee); !ok {
			return why
		}
	}
	if t.IsComment() && !code {
		// A code pull request's approval (docs-when: approved) is a
		// review, whose state asks and whose text asks nothing.
		what := t.Own.Kind.Noun()
		if conversation.IsOwn(t.Own.Body) {
			return fmt.Sprintf("the %s was written by this action", what)
		}
		if !strings.Contains(t.Own.Body, cfg.TriggerPhrase) {
			return fmt.Sprintf("the %s does not contain the trigger phrase %s", what, escape.Log(cfg.TriggerPhrase))
		}
	}
	return ""
}

// CodePR returns the code pull request of a pull_request event whose
// action is one of codepr.Actions (it opens one, makes it ready for
// review, pushes to it, edits or closes it): its docs job follows its
// changes, and codepr.Decide judges the event. Other actions (labeled,
// assigned) and pull_request_target are requests as for an issue.
func CodePR(t *event.Trigger, releaseLabel string) (codepr.PullRequest, bool) {
	if t.Event != "pull_request" || t.Number == 0 {
		return codepr.PullRequest{}, false
	}
	release := Releases(t, releaseLabel)
	if !codepr.Acts(t.Action) && !release {
		return codepr.PullRequest{}, false
	}
	return codepr.PullRequest{Action: t.Action, Owner: t.Owner, Repo: t.Repo, Number: t.Number,
		Draft: t.Draft, Fork: t.Fork, HeadSHA: t.HeadSHA, Before: t.Before,
		BaseSHA: t.BaseSHA, Retargeted: t.Retargeted, Merged: t.Merged, Release: release, Sender: t.Sender}, true
}

// CodeApproval is the code pull request that t, a review submitted
// approving it, approves, when the team writes the docs once the code is
// approved (docs-when: approved, whenApproved). The run judges the
// approval from the pull request's reviews, by docs-check: approved's
// rules, before it sends anything.
func CodeApproval(t *event.Trigger, whenApproved bool) (codepr.PullRequest, bool) {
	if !whenApproved || t.Event != "pull_request_review" || t.Action != "submitted" || t.ReviewState != "approved" || t.Number == 0 {
		return codepr.PullRequest{}, false
	}
	return codepr.PullRequest{Action: "approved", Owner: t.Owner, Repo: t.Repo, Number: t.Number, Draft: t.Draft, Fork: t.Fork,
		HeadSHA: t.HeadSHA, BaseSHA: t.BaseSHA, Approved: true, Sender: t.Sender}, true
}

// Releases reports whether t adds the release label (release-label, ""
// for none) to a pull request: a maintainer's word that it needs no docs
// job, which releases its check. A label is the signal, not a comment: no
// request's text can be mistaken for it (/docs release notes for v2 is a
// request), the pull_request event it makes runs the code workflow, which
// may set the status, and GitHub names who added it, whose permission the
// run checks before it writes anything.
func Releases(t *event.Trigger, releaseLabel string) bool {
	return t.Event == "pull_request" && t.Action == "labeled" && releaseLabel != "" && asciiFold(t.Label) == asciiFold(releaseLabel)
}

// asciiFold is s lower-cased in ASCII only, as GitHub compares label
// names: Unicode's folding would take ſ for s and the Kelvin sign for k.
func asciiFold(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
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
	case t.IsComment():
		return conversation.FromComment, t.Own.URL, reviewers
	case t.Number != 0 && t.IsPR:
		return conversation.FromPullRequest, t.URL, reviewers
	case t.Number != 0:
		return conversation.FromIssue, t.URL, reviewers
	}
	return conversation.FromWorkflowRun, "", reviewers
}

// Asker returns the request of whoever caused t, whose permission (or
// place in allowed-bots) decides whether the run acts; nil when what asked
// is the workflow's choice, not a person's request (see byPerson).
func Asker(t *event.Trigger) *request.Request {
	if !byPerson(t.Event) {
		return nil
	}
	return t.Own
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

// The decisions a run takes from what it read, as the plan names the
// reads: each returns why the run does nothing, or "" when it acts.

// OpenerRefused decides from the code pull request opener's permission
// level (read as p.OpenerCheck names; "" for a bot): its runs are a fork's
// when the opener may not ask, whoever sends the event.
func (p Plan) OpenerRefused(level string, t *event.Trigger) string {
	if p.Opener == nil || p.Rules.Permitted(p.Opener, level) {
		return ""
	}
	who := fmt.Sprintf("%s, who has %s permission on %s/%s (required-permission is %s)",
		escape.Log(p.Opener.Author), escape.Log(level), escape.Log(t.Owner), escape.Log(t.Repo), p.Rules.Required)
	if p.Opener.Bot {
		who = escape.Log(p.Opener.Author) + ", a bot not in allowed-bots"
	}
	return fmt.Sprintf("pull request #%d was opened by %s: it is treated as a fork's, so no docs job is started and nothing of it is sent", t.Number, who)
}

// Admit decides from the permission level of the author of the run's own
// request (read as p.Check names; "" when none is read), by the rules
// (package admit, the one place that admits a request): why the run does
// nothing (skip: refused, or no request at all), or the error of a request
// that holds nothing to send (invalid: only the phrase, or text too
// complex to read safely), which the person who asked fixes; both empty
// when it is admitted. owner and repo are the run's repository.
func (p Plan) Admit(level, owner, repo string) (skip string, invalid error) {
	d := p.Rules.Judge(p.Own, level)
	switch d.Verdict {
	case admit.Refused, admit.Unseen:
		return d.Skip(p.Rules, p.Own, owner, repo), nil
	case admit.TooComplex:
		return "", fmt.Errorf("the %s is %w", p.Own.Kind.Noun(), admit.ErrTooComplex)
	case admit.Empty:
		return "", fmt.Errorf("the %s holds no instruction besides the trigger phrase: write what the agent should do after %s", p.Own.Kind.Noun(), escape.Log(p.Rules.Phrase))
	}
	return "", nil
}

// Text is what the run sends, built once: the workflow's prompt, or the
// requests it answers (send; t is the event, which the prompt names). An
// empty one is the user's to fix (inputs.ErrEmptyPrompt); a run that
// only watches a job sends none.
func (p Plan) Text(send []*request.Request, t *event.Trigger) (string, error) {
	switch {
	case p.Workflow != "":
		return p.Workflow, nil
	case p.Job == Watch:
		return "", nil
	}
	if text := prompt.Build(send, t); text != "" {
		return text, nil
	}
	return "", inputs.ErrEmptyPrompt
}

// DryAdmit decides a dry run's own request, which reads nothing,
// permissions included: as a run would for an author with the required
// permission, and for a bot opener by allowed-bots. Its results are
// Admit's.
func (p Plan) DryAdmit(t *event.Trigger) (skip string, invalid error) {
	if p.Own == nil {
		return "", nil
	}
	level := ""
	if p.Rules.NeedsPermission(p.Own) {
		level = p.Rules.Required
	}
	if p.Opener != nil && p.Opener.Bot {
		if why := p.OpenerRefused("", t); why != "" {
			return why, nil
		}
	}
	return p.Admit(level, t.Owner, t.Repo)
}

// NothingNew decides from the changes a code pull request's run read:
// with nothing under paths and no job yet (record false), there is nothing
// to do; with a job, the run reports it as it stands (""), logging why it
// sends nothing.
func NothingNew(c *codepr.Changes, record bool) string {
	if record {
		return ""
	}
	return c.NothingToSend()
}

// NothingToStop decides a closed code pull request's run from the record
// it read (record: one names the pull request's docs job): without a job,
// there is nothing to stop.
func NothingToStop(number int, record bool) string {
	if record {
		return ""
	}
	return fmt.Sprintf("pull request #%d was closed and has no docs job: nothing to stop", number)
}

// Withheld decides a run whose inputs could not be read whole (cfg holds
// what could, err says what could not): GitHub gives the run of a pull
// request from a fork no secrets, and a run that Dependabot causes only
// Dependabot's, so their inputs lack api-key. That is no error of the
// workflow's when the run would not act anyway: for a fork's pull request,
// or for a bot that allowed-bots does not name. A bot it names gets the
// error, which says what is missing.
//
// A settle run answers no request, so it judges nobody: its run on a pull
// request's event (the agent's, or Dependabot's, which the settle workflow
// runs on alike) is skipped only for the key GitHub withheld, which the
// workflow's next run has; any other input is the workflow's to fix.
func Withheld(cfg inputs.Config, err error, t *event.Trigger) string {
	if cfg.Settle {
		if (t.Event == "pull_request" || t.Event == "pull_request_review") && cfg.APIKey == "" && onlyInput(err, "api-key") {
			return "this " + t.Event + " run has no api-key (GitHub gives the runs of a fork's pull request, and those Dependabot causes, no secrets), " +
				"so it settles nothing: the settle workflow's next run with the key does"
		}
		return ""
	}
	if code, ok := CodePR(t, cfg.ReleaseLabel); ok && code.Fork {
		_, why := codepr.Decide(code)
		return why
	}
	if own := Asker(t); own != nil && own.Bot {
		rules := admit.Rules{AllowedBots: cfg.AllowedBots}
		if !rules.Permitted(own, "") {
			return admit.Decision{Verdict: admit.Refused}.Skip(rules, own, t.Owner, t.Repo)
		}
	}
	return ""
}

// onlyInput reports whether every problem err joins is one with input name.
func onlyInput(err error, name string) bool {
	parts := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		parts = j.Unwrap()
	}
	for _, e := range parts {
		var in *inputs.Error
		if !errors.As(e, &in) || in.Input != name {
			return false
		}
	}
	return len(parts) > 0
}
