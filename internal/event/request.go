package event

import (
	"fmt"
	"strings"

	"github.com/agentjob/agent-job-action/internal/escape"
)

// Request reports whether the event asks for work, for a run whose prompt
// comes from the event, and when not, why, in one line fit for the log.
// A request is a new comment, a submitted review, an issue or pull request
// opened or reopened, a label added or an assignment. label and assignee
// are the trigger-label and trigger-assignee inputs: when one is set, only
// that label or that assignee is a request among labeled or assigned
// events (compared without case, as GitHub does). Every other action
// (edited, deleted, closed, synchronize, unlabeled, ...) is not a request.
//
// Events outside a conversation (a dispatch, a schedule, a push) are the
// workflow's own choice and always pass; so does any event when the
// workflow passes prompt itself: then its on: filter decides, and the
// caller does not ask.
func (t *Trigger) Request(label, assignee string) (ok bool, reason string) {
	act := escape.Log(t.Action)
	switch t.Event {
	case "issue_comment", "pull_request_review_comment":
		if t.Action == "created" {
			return true, ""
		}
		return false, fmt.Sprintf("the comment was %s, not created: only new comments are requests", act)
	case "pull_request_review":
		if t.Action == "submitted" {
			return true, ""
		}
		return false, fmt.Sprintf("the review was %s, not submitted: only submitted reviews are requests", act)
	case "pull_request_review_thread":
		return false, fmt.Sprintf("a review thread was %s: only new comments and submitted reviews are requests", act)
	case "issues", "pull_request", "pull_request_target":
		noun := "issue"
		if t.IsPR {
			noun = "pull request"
		}
		switch t.Action {
		case "opened", "reopened":
			return true, ""
		case "labeled":
			if label = strings.TrimSpace(label); label != "" && !strings.EqualFold(t.Label, label) {
				return false, fmt.Sprintf("the label added to the %s is %s, not trigger-label %s", noun, escape.Log(t.Label), escape.Log(label))
			}
			return true, ""
		case "assigned":
			if assignee = strings.TrimPrefix(strings.TrimSpace(assignee), "@"); assignee != "" && !strings.EqualFold(t.Assignee, assignee) {
				return false, fmt.Sprintf("the %s was assigned to %s, not trigger-assignee %s", noun, escape.Log(t.Assignee), escape.Log(assignee))
			}
			return true, ""
		}
		return false, fmt.Sprintf("the %s action %s is not a request: only opened, reopened, labeled and assigned are", noun, act)
	}
	return true, ""
}
