// Package reads makes the reads a run's plan names before it decides
// whether to act: the permission of the author of the run's own request and
// of a code pull request's opener (plan.Check), and a submitted review's
// line comments, which are part of what it asks. Each read returns its
// result, for the plan's decisions; none changes the plan.
package reads

import (
	"context"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/terms"
)

// GitHub is what the reads ask of GitHub. *ghclient.Client is one.
type GitHub interface {
	Permission(ctx context.Context, owner, repo, login string) (string, error)
	ReviewComments(ctx context.Context, owner, repo string, number int, reviewID int64) ([]*ghclient.ReviewComment, error)
}

var _ GitHub = (*ghclient.Client)(nil)

// Reader makes the reads.
type Reader struct {
	GitHub GitHub
	Log    runlog.Log
	// Terms names the inputs as the run's mode does.
	Terms terms.Terms
}

// Permission reads the permission c names, or "" when c is nil (nobody's
// is read); what names the read in its error, which says what to do.
func (r Reader) Permission(ctx context.Context, c *plan.Check, what string) (string, error) {
	if c == nil {
		return "", nil
	}
	level, err := r.GitHub.Permission(ctx, c.Owner, c.Repo, c.Login)
	switch {
	case err == nil:
		return level, nil
	case ctx.Err() != nil:
		return "", fmt.Errorf("%s: %w", what, ctx.Err())
	}
	return "", fmt.Errorf("%s: %w; nobody is trusted without it (%s)", what, err, r.advice(err))
}

// advice says what to do when a permission could not be read, by what
// GitHub answered: only a refusal is the token's fault.
func (r Reader) advice(err error) string {
	return ghclient.Advice(err, r.Terms.Name("github-token"), "metadata: read")
}

// Lines returns review, a submitted review of pull request number in
// owner/repo, as a copy with its line comments and their places in the
// diff: they are part of what it asks. A review whose comments cannot be
// read is returned as it is, judged by its body alone, with a warning.
func (r Reader) Lines(ctx context.Context, owner, repo string, number int, review *request.Request) *request.Request {
	comments, err := r.GitHub.ReviewComments(ctx, owner, repo, number, review.ID)
	if err != nil {
		r.Log.Warning(fmt.Sprintf("could not read the review's line comments: %s; sending the review's body alone", escape.Log(err.Error())))
		return review
	}
	withLines := *review
	withLines.Lines = append([]*request.Request(nil), review.Lines...)
	for _, c := range comments {
		withLines.Lines = append(withLines.Lines, c.Request())
	}
	return &withLines
}

// Verdict is what Judge read and the plan decided of the run's own
// request.
type Verdict struct {
	// Level is its author's permission ("" when none was read).
	Level string
	// Own is the request as judged: a review with its line comments.
	Own *request.Request
	// Skip is why the run does nothing; Invalid the error of a request
	// that holds nothing to send. Both empty when it is admitted.
	Skip    string
	Invalid error
}

// Judge judges the run's own request (p.Own, non-nil) of event t, as the
// plan says: its author's permission read first (p.Check), the opener's
// when its text is a code pull request's (p.OpenerCheck, only once the
// author may ask), a review's line comments when its author may ask
// (p.Lines), then the plan decides (plan.OpenerRefused, plan.Admit). A
// permission that cannot be read is the error: nobody is trusted without
// it.
func (r Reader) Judge(ctx context.Context, p plan.Plan, t *event.Trigger) (Verdict, error) {
	level, err := r.Permission(ctx, p.Check, "check who triggered the run")
	if err != nil {
		return Verdict{}, err
	}
	v := Verdict{Level: level, Own: p.Own}
	if p.Opener != nil && p.Rules.Permitted(p.Own, level) {
		// The opener wrote the text a code pull request sends: judged
		// before any of it is read, and before anything is written (a
		// sender who may not ask is refused by Admit, as for any run).
		opener, err := r.Permission(ctx, p.OpenerCheck, "check who opened the pull request")
		if err != nil {
			return Verdict{}, err
		}
		if v.Skip = p.OpenerRefused(opener, t); v.Skip != "" {
			return v, nil
		}
	}
	if p.Lines && p.Rules.Permitted(p.Own, level) {
		v.Own = r.Lines(ctx, t.Owner, t.Repo, t.Number, p.Own)
		p.Own = v.Own
	}
	v.Skip, v.Invalid = p.Admit(level, t.Owner, t.Repo)
	return v, nil
}
