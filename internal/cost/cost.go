// Package cost is what a run cost, as its summary line, its outputs and
// the command line's --json say it. It imports nothing of the run's
// rooms, so that the command line, which prints a cost, depends on no
// pull request, merge queue or comment.
package cost

import (
	"fmt"
	"time"
)

// Cost is what a run cost: the Agent Job API's creates and follow-ups
// (each starts paid agent work) and reads (which the API does not count
// against its rate limit), the requests sent to GitHub's API (each
// counts against the token's rate limit), and the time the run waited
// for the job, which the runner bills.
type Cost struct {
	Creates   int `json:"creates"`
	FollowUps int `json:"followUps"`
	Reads     int `json:"reads"`
	// GitHub counts every attempt, a retry included.
	GitHub int           `json:"githubRequests"`
	Waited time.Duration `json:"-"`
	// WaitedSeconds is Waited in whole seconds, for --json.
	WaitedSeconds int `json:"waitedSeconds"`
}

// Line says what c cost in one sentence, for the summary.
func (c Cost) Line() string {
	return fmt.Sprintf("**Cost:** Agent Job API: %s, %s, %s; GitHub API: %s; waited for the job: %s.",
		Count(c.Creates, "create"), Count(c.FollowUps, "follow-up"), Count(c.Reads, "read"),
		Count(c.GitHub, "request"), c.Waited.Round(time.Second))
}

// Count is n things, in words: "1 thread", "2 threads" (thing takes an
// s in the plural).
func Count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
