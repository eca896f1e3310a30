package conversation

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
)

// Source is what asked for a job.
type Source int

// The requests a backlink can answer.
const (
	FromComment     Source = iota // a comment, in a thread, on a line, or a review
	FromIssue                     // an issue, opened or labelled
	FromPullRequest               // a pull request, opened or labelled
	FromWorkflowRun               // a run no comment started: dispatch, schedule, push
)

// BacklinkText is what a backlink says.
type BacklinkText struct {
	JobID  string
	Source Source
	// SourceURL is GitHub's own address of what asked (html_url, or the
	// workflow run's); anything but an https URL is shown without a link.
	SourceURL string
	// TriggerPhrase is the phrase that starts a request, "" when none is
	// set.
	TriggerPhrase string
	// Elsewhere is true when the pull request is in another repository than
	// the run's: there a request continues the job only in a workflow whose
	// token is the login that wrote the backlink, as a run trusts only the
	// records its own login wrote.
	Elsewhere bool
	// Login is the login that writes the backlink, "" when unknown.
	Login string
	// From is the comment that keeps the record of the code pull request
	// that asked, in the backlink's own repository (record.Record's From);
	// 0 for none.
	From int64
}

// RenderBacklink returns the backlink's Markdown.
func RenderBacklink(t BacklinkText) string {
	var b strings.Builder
	// The record tells a backlink from the run comments the action writes
	// in the same pull request, which name the same job.
	b.WriteString(ownMark + "\n")
	if line := record.Format(record.Record{JobID: t.JobID, Backlink: true, From: t.From}); line != "" {
		b.WriteString(line + "\n")
	}
	what := [...]string{FromComment: "this comment", FromIssue: "this issue", FromPullRequest: "this pull request", FromWorkflowRun: "this workflow run"}[t.Source]
	if u := escape.URL(t.SourceURL); u != "" {
		what = fmt.Sprintf("[%s](%s)", what, u)
	}
	fmt.Fprintf(&b, "🤖 Agent job %s works on this pull request, answering %s.\n\n", escape.Code(t.JobID), what)
	if t.TriggerPhrase != "" {
		fmt.Fprintf(&b, "**To ask for changes**, write %s and what to change: in a comment here, on a line of the diff, or in a review. ", escape.Code(t.TriggerPhrase))
	} else {
		b.WriteString("**To ask for changes**, say what to change: in a comment here, on a line of the diff, or in a review. ")
	}
	if !t.Elsewhere {
		b.WriteString("The same job takes it up.\n")
		return b.String()
	}
	who := "the login that wrote this comment"
	if t.Login != "" {
		who = escape.Code(t.Login) + ", the login that wrote this comment"
	}
	fmt.Fprintf(&b, "The same job takes it up only in a workflow of this repository whose `github-token` is a token of %s; a workflow with another token starts a new job.\n", who)
	return b.String()
}

// IsBacklink reports whether body is a backlink this action wrote.
func IsBacklink(body string) bool {
	r, _, ok := recordOf(body)
	return ok && r.Backlink
}

// backlinkOf returns the job whose backlink body is, or "".
func backlinkOf(body string) string {
	if r, _, ok := recordOf(body); ok && r.Backlink {
		return r.JobID
	}
	return ""
}

// Backlink is the one comment a job keeps on the pull request its agent
// opened: written once, then edited by later runs for the same job.
type Backlink struct {
	GH     GitHub
	Owner  string
	Repo   string
	Number int // the pull request's
	// Comments is the pull request's comment count, 0 when unknown.
	Comments int
	// Self is the token's own login (Thread.Self), "" when unknown. Only
	// a backlink Self wrote is edited: anyone can copy a record.
	Self string
	// Redact removes secrets from the comment before it is sent; nil sends
	// it as it is.
	Redact func(string) string
}

// Write creates the job's backlink, or edits the one Self wrote earlier,
// and returns it. An edit that would change nothing is not sent.
//
// When Self is unknown, a backlink is created only if no comment carries
// this job's backlink record: one that does may be this action's own from
// an earlier run, and another would repeat it.
//
// The error says what failed and what to do, fit for one notice: a token
// without access to the pull request, or a write GitHub refused.
func (b *Backlink) Write(ctx context.Context, t BacklinkText) (*ghclient.Comment, error) {
	where := fmt.Sprintf("write the backlink on %s/%s#%d", escape.Log(b.Owner), escape.Log(b.Repo), b.Number)
	if b.Redact != nil {
		// Before the record is written, whose document escapes what a
		// redactor looks for (see Thread.render).
		t.JobID = b.Redact(t.JobID)
	}
	if !record.PlainID(t.JobID) {
		return nil, fmt.Errorf("%s: job id %s cannot be marked", where, escape.Log(t.JobID))
	}
	body := RenderBacklink(t)
	if b.Redact != nil {
		body = b.Redact(body)
	}
	keep := func(_ int64, author, body string) string {
		if (b.Self == "" || strings.EqualFold(author, b.Self)) && IsBacklink(body) {
			return body
		}
		return ""
	}
	old, err := findNewest(ctx, b.GH, b.Owner, b.Repo, b.Number, b.Comments, keep, func(c *ghclient.Comment) bool {
		return (b.Self == "" || Owns(c, b.Self)) && backlinkOf(c.Body) == t.JobID
	})
	switch {
	case err != nil:
		return nil, b.failed(where, err)
	case old != nil && b.Self == "":
		return nil, fmt.Errorf("%s: %w; a comment there already carries this job's backlink record, so none is added", where, ErrUnknownIdentity)
	case old != nil && old.Body == body:
		return old, nil
	case old != nil:
		c, err := b.GH.UpdateComment(ctx, b.Owner, b.Repo, old.ID, body)
		if err != nil {
			return nil, b.failed(where, err)
		}
		return c, nil
	}
	c, err := b.GH.CreateComment(ctx, b.Owner, b.Repo, b.Number, body)
	if err != nil {
		return nil, b.failed(where, err)
	}
	if b.Self == "" {
		b.Self = c.Author
	}
	return c, nil
}

// failed adds what to do when GitHub refused for lack of access: 403, or
// 404 for a repository the token may not see.
func (b *Backlink) failed(where string, err error) error {
	if ghclient.IsForbidden(err) || ghclient.IsNotFound(err) {
		return fmt.Errorf("%s: %w: the token cannot comment on that pull request (it needs pull-requests: write on %s/%s)",
			where, err, escape.Log(b.Owner), escape.Log(b.Repo))
	}
	return fmt.Errorf("%s: %w", where, err)
}

// ClosedText is the comment a docs pull request gets when the code pull
// request whose docs job opened it is closed (url, its address): merged,
// the code it documents has landed; closed unmerged, the job gets nothing
// more, and the docs pull request is left for a person to close or keep,
// since its change may stand on its own. landed, when not "", is what the
// run did with the docs pull request (merged or closed it with the code,
// or why not), safe Markdown, in place of that advice. It is marked as the
// action's own, so that no run takes it for a request.
func ClosedText(number int, url string, merged bool, landed string) string {
	what := fmt.Sprintf("#%d", number)
	if u := escape.URL(url); u != "" {
		what = fmt.Sprintf("[#%d](%s)", number, u)
	}
	switch {
	case merged && landed != "":
		return ownMark + "\n" + fmt.Sprintf("🏁 The code pull request %s was merged. %s", what, landed) + "\n"
	case merged:
		return ownMark + "\n" + fmt.Sprintf("🏁 The code pull request %s was merged: the code this pull request documents has landed.", what) + "\n"
	case landed != "":
		return ownMark + "\n" + fmt.Sprintf("🏁 The code pull request %s was closed without being merged: the docs job gets nothing more from it. %s", what, landed) + "\n"
	}
	return ownMark + "\n" + fmt.Sprintf("🏁 The code pull request %s was closed without being merged: the docs job gets nothing more from it. Close this pull request unless its change stands on its own.", what) + "\n"
}
