package action

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/inputs"
)

// The GitHub client must offer what a conversation needs.
var _ conversation.GitHub = (*ghclient.Client)(nil)

// byPerson reports whether the permission of whoever caused the event must
// be checked: for every event but those that need write access to happen at
// all (a dispatch, a push) or that nobody causes (a schedule). A run outside
// Actions has no event.
func (r *run) byPerson() bool {
	switch r.trig.Event {
	case "", "workflow_dispatch", "repository_dispatch", "schedule", "push":
		return false
	}
	return true
}

// allowedBot reports whether the sender is a bot listed in allowed-bots.
func (r *run) allowedBot() bool {
	return r.trig.SenderIsBot && slices.ContainsFunc(r.cfg.AllowedBots, func(b string) bool {
		return strings.EqualFold(b, r.trig.Sender)
	})
}

// refusal returns why the run must not act, judging from the event alone,
// or "".
func (r *run) refusal() string {
	t := r.trig
	if r.byPerson() && t.Sender == "" {
		return fmt.Sprintf("the %s event names nobody whose permission could be checked", escape.Log(t.Event))
	}
	if t.CommentID != 0 {
		if t.Action != "" && t.Action != "created" {
			return fmt.Sprintf("the comment was %s, not created: only new comments are requests", escape.Log(t.Action))
		}
		if conversation.IsOwn(t.CommentBody) {
			return "the comment was written by this action"
		}
		if !event.MatchPhrase(t.CommentBody, r.cfg.TriggerPhrase) {
			return fmt.Sprintf("the comment does not contain the trigger phrase %s", escape.Log(r.cfg.TriggerPhrase))
		}
	}
	if r.byPerson() && t.SenderIsBot && !r.allowedBot() {
		return fmt.Sprintf("%s is a bot and is not in allowed-bots", escape.Log(t.Sender))
	}
	return ""
}

// target is the issue or pull request to comment on, or 0.
func (r *run) target() int {
	if r.trig.Number != 0 {
		return r.trig.Number
	}
	return r.cfg.IssueNumber
}

func (r *run) commenting() bool {
	return r.cfg.Comment == "true" || r.cfg.Comment == "auto" && r.target() != 0
}

func (r *run) checkCommentInputs() error {
	switch {
	case r.cfg.Comment == "true" && r.target() == 0:
		return &inputs.Error{Input: "comment", Problem: "is true but this event has no issue or pull request: set issue-number"}
	case (r.commenting() || r.byPerson()) && r.cfg.GitHubToken == "":
		return &inputs.Error{Input: "github-token", Problem: "is empty: it is needed to comment and to check who triggered the run (the default, ${{ github.token }}, works)"}
	case (r.commenting() || r.byPerson()) && r.trig.Owner == "":
		return fmt.Errorf("GITHUB_REPOSITORY is not set: it is needed to comment and to check permissions")
	}
	return nil
}

// github returns a GitHub client when the run talks to GitHub, or nil.
func (r *run) github(hc *httpclient.Client) (*ghclient.Client, error) {
	if !r.commenting() && !r.byPerson() {
		return nil, nil
	}
	gh, err := ghclient.New(hc.HTTPClient(), r.env.Getenv("GITHUB_API_URL"), r.cfg.GitHubToken)
	if err != nil {
		return nil, fmt.Errorf("GITHUB_API_URL: %w", err)
	}
	if r.commenting() {
		r.thread = &conversation.Thread{GH: gh, Owner: r.trig.Owner, Repo: r.trig.Repo, Number: r.target(),
			Warn: r.log.Warning, Redact: r.log.Redact}
	}
	return gh, nil
}

// refusedBy checks the permission of whoever triggered the run. It returns
// why the run must not act, or an error when the permission cannot be read:
// then nobody is trusted.
func (r *run) refusedBy(ctx context.Context, gh *ghclient.Client) (string, error) {
	t := r.trig
	if !r.byPerson() || r.allowedBot() {
		return "", nil
	}
	have, err := gh.Permission(ctx, t.Owner, t.Repo, t.Sender)
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("check who triggered the run: %w", ctx.Err())
		}
		return "", fmt.Errorf("check who triggered the run: %w; nobody is trusted without it (the token needs metadata: read)", err)
	}
	if !ghclient.PermissionAtLeast(have, r.cfg.RequiredPermission) {
		return fmt.Sprintf("%s has %s permission on %s/%s; required-permission is %s",
			escape.Log(t.Sender), escape.Log(have), escape.Log(t.Owner), escape.Log(t.Repo), r.cfg.RequiredPermission), nil
	}
	r.logf("%s has %s permission (%s needed): acting on the %s event", escape.Log(t.Sender), escape.Log(have), r.cfg.RequiredPermission, t.Event)
	return "", nil
}

// acknowledge shows the request was seen: 👀 on the comment, then the
// run's comment.
func (r *run) acknowledge(ctx context.Context) {
	if r.thread == nil {
		return
	}
	if r.trig.CommentID != 0 {
		r.thread.React(ctx, r.trig.CommentID, r.trig.CommentKind, "eyes")
	}
	r.thread.Show(ctx, r.state(conversation.Working))
	if url := r.thread.URL(); url != "" {
		r.logf("answering in #%d: %s", r.target(), escape.Log(url))
	}
}

// skip ends a run that decided not to act: one line, exit 0, nothing sent
// to the Agent Job API.
func (r *run) skip(reason string) error {
	r.log.Printf("skipped: %s", reason)
	r.res.Status = "skipped"
	return r.finish(context.Background(), nil)
}
