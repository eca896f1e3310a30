package report

import (
	"context"
	"time"

	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/record"
)

// Answers are the requests a run answers, as its comment records and
// links them.
type Answers interface {
	Record() backlog.Record
	Refs() (answered, left, later []conversation.Ref)
}

// Code is what a code pull request's run keeps for its report: the head
// whose status its end sets, and the record its comment keeps of the job's
// heads.
type Code struct {
	PR Commit
	// NoChange says the run found nothing under paths; Idle that it sent
	// the job nothing (its pull request's branch is as the run before
	// left it, preview included).
	NoChange, Idle bool
	// Heard is the head commit the job has heard of: the one an earlier
	// run recorded until this run's change reaches the job.
	Heard string
	// Owed are the head commits whose status shows the job working, the
	// earlier runs' among them: the job's end settles them all.
	Owed []string
	// Waiting is the newest head whose change the job has not heard, ""
	// when nothing waits.
	Waiting string
	// Cut is true when GitHub's listing of the pull request's files
	// reached its cap: the head's status can claim no success.
	Cut bool
	// DocsPR is the job's pull request as the record or the settled job
	// named it, "" for none: the comment shows it while the job goes on,
	// when the job's answer to this run names none.
	DocsPR string
	// Unsent are the heads of a closed pull request whose change its job
	// never heard: the run's end gives them the check of a close
	// (check.Closed), and they are owed nothing more.
	Unsent []string
	// Prior is the record an earlier run left, as this run carries it on:
	// every field this run does not decide again (the approval asked, the
	// docs pull request it pairs and how that stands, the close, a
	// release) is kept from it. A new job starts from one without the
	// pairing; zero when there was none.
	Prior record.Record
}

// Commit is where a code pull request's status goes: its repository and
// head commit ("" once the head's status is said).
type Commit struct {
	Owner, Repo, HeadSHA string
	Number               int // the pull request's, 0 for none
}

// Comment is a thread's comment of the action's. *conversation.Thread is
// one.
type Comment interface {
	// Show writes the run's own comment.
	Show(ctx context.Context, s conversation.State)
	// Settle rewrites an earlier run's comment, e, when its record is as
	// read; it reports whether GitHub took the edit.
	Settle(ctx context.Context, e *conversation.Earlier, s conversation.State) bool
	// Spend counts a create or follow-up in the run's comment.
	Spend(now time.Time)
	// URL is the run's comment's address, "" when it has none.
	URL() string
}

var _ Comment = (*conversation.Thread)(nil)
