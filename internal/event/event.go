// Package event reads what triggered the workflow run: the event name and
// the webhook payload the runner saved to a file, within bounds. It reduces
// the payload to the few facts the action needs: the thread it happened in
// (which issue or pull request, who sent it) and the request it makes, in
// the shape package request gives every request, and whether its action
// is one that asks (Request). It reads no text as Markdown: whether a
// reader sees a request is judged later, by package admit.
package event

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/go-github/v62/github"

	"github.com/agentjob/agent-job-action/internal/request"
)

// Trigger is the part of the event the action uses: the thread it
// happened in, and the request it makes (Own).
type Trigger struct {
	Event  string // GITHUB_EVENT_NAME
	Owner  string
	Repo   string
	Number int  // issue or pull request number; 0 when the event has none
	IsPR   bool // Number is a pull request
	Title  string
	URL    string // html_url of the issue or pull request
	// CommentCount is the issue's or pull request's number of comments in
	// the conversation, as the payload states it; 0 when it does not.
	CommentCount int
	IssueBody    string
	Sender       string // login of the account that caused the event
	SenderIsBot  bool
	Action       string // the payload's action: created, opened, ...
	Label        string // the label added, in a labeled event
	Assignee     string // the login assigned, in an assigned event

	// The pull request's head branch, when IsPR; an issue_comment payload
	// does not hold it.
	HeadRef string
	// Of a pull_request event's pull request: its head commit, whether it
	// is a draft, and whether its head is in another repository (a fork,
	// or one deleted since); Before is the head before a synchronize.
	HeadSHA string
	Draft   bool
	Fork    bool
	Before  string
	// BaseSHA is the base branch's commit the payload names; Retargeted
	// says an edited event moved the pull request to another base
	// (changes.base); Merged says a closed one was merged.
	BaseSHA    string
	Retargeted bool
	Merged     bool
	// Opener is who opened the pull request of a pull_request event, who
	// may be someone other than Sender: a push by one person runs the
	// workflow of every open pull request with that head, whoever opened
	// it.
	Opener      string
	OpenerIsBot bool
	// ReviewState is a pull_request_review's state, in lower case as
	// webhooks send it: approved, changes_requested, commented.
	ReviewState string
	// Moved is the pull request a repository_dispatch names in its
	// client_payload.pull_request, or a workflow_dispatch in its
	// inputs.pull_request, as sent: the docs repository's workflow says
	// so when the agent opened or pushed its pull request there.
	// Nothing is trusted of it: a settle run only compares it with the
	// pull requests its jobs name.
	Moved string
	// Group is the merge group of a merge_group event, the commit a merge
	// queue asks the required checks on; nil for other events.
	Group *MergeGroup

	// Own is the request the event makes: a comment, a line comment or a
	// review (whatever its action; Request says whether it asks), or for
	// an issue or pull request event the event itself (kind
	// request.Event). It is nil for the events nobody makes as a request
	// (a dispatch, a schedule, a push) and when the payload names nobody.
	Own *request.Request
}

// MergeGroup is what a merge_group event says of the group a merge
// queue builds: the temporary branch GitHub made (HeadRef, such as
// refs/heads/gh-readonly-queue/main/pr-12-<sha>) and its newest commit,
// on which the required checks are reported, and the base branch's
// commit the group is built on. The group's pull requests are the
// commits from BaseSHA to HeadSHA: the payload names none of them.
type MergeGroup struct {
	HeadSHA, BaseSHA string
	HeadRef, BaseRef string // full refs
}

// Branch is the base branch the group merges into, as a pull request's
// base names it.
func (g *MergeGroup) Branch() string { return strings.TrimPrefix(g.BaseRef, "refs/heads/") }

// IsComment reports whether the event is a comment or a review, whose text
// is the request.
func (t *Trigger) IsComment() bool {
	return t.Own != nil && t.Own.Kind != request.Event
}

// Read returns the trigger of a run: name is the event's name
// (GITHUB_EVENT_NAME), path the file the runner saved its payload to
// (GITHUB_EVENT_PATH) and repository owner/name (GITHUB_REPOSITORY); each
// may be "" outside Actions.
//
// Comment, review, issue and pull request events need their payload, so a
// missing or unreadable event file is an error for them. Other events (a
// manual dispatch, a schedule, a push) have no issue to talk to: their
// payload is read only for the sender, and the action can run without it.
//
// The payload is read within bounds, under ctx: a regular file of at most
// MaxPayloadBytes. A named pipe, a device or a larger file is an error at
// once, and a read that does not end (a file replaced by a pipe) ends with
// ctx, so the timeout and signals stop it.
func Read(ctx context.Context, name, path, repository string) (*Trigger, error) {
	t := &Trigger{Event: name}
	if repository != "" {
		owner, repo, ok := strings.Cut(repository, "/")
		if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
			return nil, fmt.Errorf("GITHUB_REPOSITORY %q is not owner/repo", repository)
		}
		t.Owner, t.Repo = owner, repo
	}

	var payload []byte
	if path != "" {
		var err error
		if payload, err = readPayload(ctx, path); err != nil && knownEvent(t.Event) {
			return nil, fmt.Errorf("read %s event: %w", t.Event, err)
		}
	}
	var err error
	switch t.Event {
	case "issue_comment":
		err = readIssueComment(payload, t)
	case "pull_request_review_comment":
		err = readReviewComment(payload, t)
	case "pull_request_review":
		err = readReview(payload, t)
	case "pull_request_review_thread":
		err = readReviewThread(payload, t)
	case "issues":
		err = readIssues(payload, t)
	case "pull_request", "pull_request_target":
		err = readPullRequest(payload, t)
	case "merge_group":
		err = readMergeGroup(payload, t)
	default:
		readOther(payload, t)
		return t, nil
	}
	if err == nil {
		err = t.checkLengths()
	}
	if err != nil {
		return nil, fmt.Errorf("read %s event: %w", t.Event, err)
	}
	if t.Owner == "" {
		return nil, fmt.Errorf("read %s event: GITHUB_REPOSITORY is not set", t.Event)
	}
	return t, nil
}

// checkLengths refuses a text longer than GitHub allows.
func (t *Trigger) checkLengths() error {
	texts := []struct{ what, text string }{{"issue or pull request body", t.IssueBody}, {"title", t.Title}}
	if t.IsComment() {
		texts = append(texts, struct{ what, text string }{t.Own.Kind.Name(), t.Own.Body})
	}
	for _, b := range texts {
		if !request.WithinLimit(b.text) {
			return fmt.Errorf("the %s is %d characters, over the %d GitHub allows", b.what, utf8.RuneCountInString(b.text), request.MaxBodyChars)
		}
	}
	return nil
}

// MaxPayloadBytes bounds the event payload: GitHub caps a webhook
// payload at 25 MB.
const MaxPayloadBytes = 25 << 20

// knownEvent reports whether the run needs the event's payload.
func knownEvent(name string) bool {
	switch name {
	case "issue_comment", "pull_request_review_comment", "pull_request_review", "pull_request_review_thread",
		"issues", "pull_request", "pull_request_target", "merge_group":
		return true
	}
	return false
}

// readPayload reads the event file at path within bounds, under ctx.
func readPayload(ctx context.Context, path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("event payload: %w", err)
	}
	switch {
	case !fi.Mode().IsRegular():
		// A pipe, a device, a directory: the runner writes a file.
		return nil, fmt.Errorf("event payload %s is not a regular file: GITHUB_EVENT_PATH must name the file the runner wrote", path)
	case fi.Size() > MaxPayloadBytes:
		return nil, fmt.Errorf("event payload %s is %d bytes, over the %d MB GitHub allows a webhook payload", path, fi.Size(), MaxPayloadBytes>>20)
	}
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			done <- read{nil, err}
			return
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, MaxPayloadBytes+1))
		done <- read{data, err}
	}()
	select {
	case <-ctx.Done():
		return nil, fmt.Errorf("event payload %s: %w", path, context.Cause(ctx))
	case r := <-done:
		switch {
		case r.err != nil:
			return nil, fmt.Errorf("event payload: %w", r.err)
		case len(r.data) > MaxPayloadBytes:
			return nil, fmt.Errorf("event payload %s is over the %d MB GitHub allows a webhook payload", path, MaxPayloadBytes>>20)
		}
		return r.data, nil
	}
}

// decode reads payload as an event E, which has (what names it when it
// does not) what the run reads of it.
func decode[E any](payload []byte, has func(*E) bool, what string) (*E, error) {
	var e E
	switch err := json.Unmarshal(payload, &e); {
	case payload == nil:
		return nil, fmt.Errorf("GITHUB_EVENT_PATH is not set")
	case err != nil:
		return nil, fmt.Errorf("event payload: %w", err)
	case !has(&e):
		return nil, fmt.Errorf("event payload has no %s", what)
	}
	return &e, nil
}

func readIssueComment(payload []byte, t *Trigger) error {
	e, err := decode(payload, func(e *github.IssueCommentEvent) bool { return e.Issue != nil && e.Comment != nil }, "issue or no comment")
	if err != nil {
		return err
	}
	t.Action = e.GetAction()
	setIssue(t, e.Issue)
	setSender(t, e.Sender, e.Comment.User)
	t.own(request.Comment, e.Comment.GetID(), e.Comment.GetBody(), e.Comment.GetHTMLURL(), e.Comment.GetCreatedAt().Time)
	return nil
}

func readReviewComment(payload []byte, t *Trigger) error {
	e, err := decode(payload, func(e *github.PullRequestReviewCommentEvent) bool { return e.PullRequest != nil && e.Comment != nil }, "pull_request or no comment")
	if err != nil {
		return err
	}
	t.Action = e.GetAction()
	setPullRequest(t, e.PullRequest)
	setSender(t, e.Sender, e.Comment.User)
	c := e.Comment
	t.own(request.Line, c.GetID(), c.GetBody(), c.GetHTMLURL(), c.GetCreatedAt().Time)
	t.Own.Place = request.Place{Path: c.GetPath(), Line: c.GetLine(), StartLine: c.GetStartLine(), Side: c.GetSide(), DiffHunk: c.GetDiffHunk()}
	t.Own.ReviewID = c.GetPullRequestReviewID()
	return nil
}

func readReview(payload []byte, t *Trigger) error {
	e, err := decode(payload, func(e *github.PullRequestReviewEvent) bool { return e.PullRequest != nil && e.Review != nil }, "pull_request or no review")
	if err != nil {
		return err
	}
	t.Action = e.GetAction()
	setPullRequest(t, e.PullRequest)
	setHeads(t, e.PullRequest)
	t.ReviewState = strings.ToLower(e.Review.GetState())
	setSender(t, e.Sender, e.Review.User)
	t.own(request.Review, e.Review.GetID(), e.Review.GetBody(), e.Review.GetHTMLURL(), e.Review.GetSubmittedAt().Time)
	return nil
}

// setHeads keeps what a pull request's event says of its commits and
// where its head comes from: its head and base, whether it is a draft or
// from a fork, and who opened it.
func setHeads(t *Trigger, pr *github.PullRequest) {
	head, base := pr.GetHead(), pr.GetBase()
	t.HeadSHA, t.Draft, t.BaseSHA, t.Merged = head.GetSHA(), pr.GetDraft(), base.GetSHA(), pr.GetMerged()
	// A fork deleted since has no head repository left.
	from, to := head.GetRepo().GetFullName(), base.GetRepo().GetFullName()
	t.Fork = to != "" && !strings.EqualFold(from, to)
	if u := pr.GetUser(); u.GetLogin() != "" {
		t.Opener, t.OpenerIsBot = u.GetLogin(), request.IsBot(u.GetLogin(), u.GetType())
	}
}

// readReviewThread reads a thread resolved or unresolved: never a request,
// but its pull request and sender are still reported.
func readReviewThread(payload []byte, t *Trigger) error {
	e, err := decode(payload, func(e *github.PullRequestReviewThreadEvent) bool { return e.PullRequest != nil }, "pull_request")
	if err != nil {
		return err
	}
	t.Action = e.GetAction()
	setPullRequest(t, e.PullRequest)
	setSender(t, e.Sender, nil)
	return nil
}

func readIssues(payload []byte, t *Trigger) error {
	e, err := decode(payload, func(e *github.IssuesEvent) bool { return e.Issue != nil }, "issue")
	if err != nil {
		return err
	}
	t.Action = e.GetAction()
	setIssue(t, e.Issue)
	t.Label = e.GetLabel().GetName()
	t.Assignee = e.GetAssignee().GetLogin()
	setSender(t, e.Sender, e.Issue.User)
	t.ownEvent()
	return nil
}

func readPullRequest(payload []byte, t *Trigger) error {
	e, err := decode(payload, func(e *github.PullRequestEvent) bool { return e.PullRequest != nil }, "pull_request")
	if err != nil {
		return err
	}
	t.Action = e.GetAction()
	setPullRequest(t, e.PullRequest)
	t.Label = e.GetLabel().GetName()
	t.Assignee = e.GetAssignee().GetLogin()
	setHeads(t, e.PullRequest)
	t.Before = e.GetBefore()
	t.Retargeted = t.Action == "edited" && e.GetChanges().GetBase() != nil
	setSender(t, e.Sender, e.PullRequest.User)
	t.ownEvent()
	return nil
}

// readMergeGroup reads a merge queue's request for checks. It is no
// request of a person's (Own stays nil): the queue asks, and the run
// only reads commit statuses and sets one.
func readMergeGroup(payload []byte, t *Trigger) error {
	e, err := decode(payload, func(e *github.MergeGroupEvent) bool {
		return e.GetMergeGroup().GetHeadSHA() != "" && e.GetMergeGroup().GetBaseSHA() != ""
	}, "merge_group with a head_sha and a base_sha")
	if err != nil {
		return err
	}
	g := e.GetMergeGroup()
	t.Action = e.GetAction()
	t.Group = &MergeGroup{HeadSHA: g.GetHeadSHA(), BaseSHA: g.GetBaseSHA(), HeadRef: g.GetHeadRef(), BaseRef: g.GetBaseRef()}
	setSender(t, e.Sender, nil)
	return nil
}

// maxMovedBytes bounds a dispatch's pull request address: a longer one is
// none GitHub gives.
const maxMovedBytes = 512

// readOther keeps what every payload has. Errors are dropped on purpose:
// these events do not need the payload, and a run outside Actions (the demo)
// has none.
func readOther(payload []byte, t *Trigger) {
	var e struct {
		Action        *string      `json:"action"`
		Sender        *github.User `json:"sender"`
		ClientPayload struct {
			PullRequest json.RawMessage `json:"pull_request"`
		} `json:"client_payload"`
		Inputs struct {
			PullRequest json.RawMessage `json:"pull_request"`
		} `json:"inputs"`
	}
	if payload == nil || json.Unmarshal(payload, &e) != nil {
		return
	}
	if e.Action != nil {
		t.Action = *e.Action
	}
	moved := map[string]json.RawMessage{"repository_dispatch": e.ClientPayload.PullRequest, "workflow_dispatch": e.Inputs.PullRequest}[t.Event]
	var link string
	if moved != nil && json.Unmarshal(moved, &link) == nil && len(link) <= maxMovedBytes {
		t.Moved = link
	}
	setSender(t, e.Sender, nil)
	t.ownEvent()
}

func setIssue(t *Trigger, i *github.Issue) {
	t.Number = i.GetNumber()
	// On a pull request's conversation tab the event is still issue_comment;
	// only the issue's pull_request links tell the two apart.
	t.IsPR = i.PullRequestLinks != nil
	t.Title = i.GetTitle()
	t.URL = i.GetHTMLURL()
	t.IssueBody = i.GetBody()
	t.CommentCount = i.GetComments()
}

func setPullRequest(t *Trigger, pr *github.PullRequest) {
	t.Number = pr.GetNumber()
	t.IsPR = true
	t.Title = pr.GetTitle()
	t.URL = pr.GetHTMLURL()
	t.IssueBody = pr.GetBody()
	t.CommentCount = pr.GetComments()
	t.HeadRef = pr.GetHead().GetRef()
}

// setSender prefers the payload's sender; the author of the comment or issue
// stands in when a trimmed payload lacks it.
func setSender(t *Trigger, sender, author *github.User) {
	u := sender
	if u == nil {
		u = author
	}
	if u == nil {
		return
	}
	t.Sender = u.GetLogin()
	t.SenderIsBot = request.IsBot(u.GetLogin(), u.GetType())
}

// own sets the request a comment or a review makes: its author is the
// event's sender.
func (t *Trigger) own(kind request.Kind, id int64, body, url string, at time.Time) {
	t.Own = &request.Request{Key: request.Key{Kind: kind, ID: id}, Author: t.Sender, Bot: t.SenderIsBot, Body: body, URL: url, At: at}
}

// ownEvent sets the request an event other than a comment or a review
// makes, when it names who caused it.
func (t *Trigger) ownEvent() {
	if t.Sender == "" {
		return
	}
	t.Own = &request.Request{Key: request.Key{Kind: request.Event, ID: int64(t.Number)}, Author: t.Sender, Bot: t.SenderIsBot,
		Title: t.Title, Body: t.IssueBody, URL: t.URL}
}
