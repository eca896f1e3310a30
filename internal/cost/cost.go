// Package cost is what a run cost, as its summary line, its outputs and
// the command line's --json say it. It imports nothing of the run's
// rooms, so that the command line, which prints a cost, depends on no
// pull request, merge queue or comment.
package cost

import (
	"fmt"
	"strconv"
	"strings"
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
	// WaitedSeconds is Waited in whole seconds, for --json: see Seconds.
	WaitedSeconds int `json:"waitedSeconds"`
	// ThreadSends and DaySends are the sends the caps counted before this
	// run (max-sends-per-thread, max-sends-per-day); nil when that cap
	// was not read.
	ThreadSends *int `json:"threadSends,omitempty"`
	DaySends    *int `json:"daySends,omitempty"`
}

// Line says what c cost in one sentence, for the summary, with the caps'
// counts when a cap was read.
func (c Cost) Line() string {
	line := fmt.Sprintf("**Cost:** Agent Job API: %s, %s, %s; GitHub API: %s; waited for the job: %s",
		Count(c.Creates, "create"), Count(c.FollowUps, "follow-up"), Count(c.Reads, "read"),
		Count(c.GitHub, "request"), c.Waited.Round(time.Second))
	var counted []string
	if c.ThreadSends != nil {
		counted = append(counted, Count(*c.ThreadSends, "send")+" from this thread")
	}
	if c.DaySends != nil {
		counted = append(counted, Count(*c.DaySends, "send")+" in the repository today")
	}
	if len(counted) > 0 {
		line += "; the caps counted " + strings.Join(counted, " and ") + " before this run"
	}
	return line + "."
}

// Seconds is Waited in whole seconds, rounded, as the outputs and --json
// say it.
func (c Cost) Seconds() int { return int(c.Waited.Round(time.Second) / time.Second) }

// Outputs are c's figures as the step's outputs, by name: the caps'
// counts empty when they were not read.
func (c Cost) Outputs() map[string]string {
	out := map[string]string{"creates": strconv.Itoa(c.Creates), "follow-ups": strconv.Itoa(c.FollowUps), "reads": strconv.Itoa(c.Reads),
		"github-requests": strconv.Itoa(c.GitHub), "waited-seconds": strconv.Itoa(c.Seconds()),
		"thread-sends": "", "day-sends": ""}
	if c.ThreadSends != nil {
		out["thread-sends"] = strconv.Itoa(*c.ThreadSends)
	}
	if c.DaySends != nil {
		out["day-sends"] = strconv.Itoa(*c.DaySends)
	}
	return out
}

// Count is n things, in words: "1 thread", "2 threads" (thing takes an
// s in the plural).
func Count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
