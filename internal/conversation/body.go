// Package conversation keeps the one comment a run writes in the issue or
// pull request that triggered it: acknowledged, edited on every status
// change, and ending with the result. It also finds the job an earlier run
// in the same thread started, so a later request continues it, and reads
// the thread's requests and the records of those answered for package
// backlog, trusting only markers the token's own login wrote; and it keeps
// the backlink, the one comment a job writes on the pull request its agent
// opened.
package conversation

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/escape"
)

// Phase is where a run is, as the comment tells it.
type Phase int

// The phases a comment goes through.
const (
	Working    Phase = iota // acknowledged, job starting or running
	Done                    // completed or archived
	Failed                  // the job failed
	TimedOut                // the step's timeout passed
	Cancelled               // the workflow was cancelled
	Error                   // the job could not be started or followed
	NotWaiting              // started, and this run does not wait (wait: false)
	Answered                // an earlier run already answered the request (AnsweredIn)
	Continued               // a later request continued the job (ContinuedIn), which reports it
	Stopped                 // the code pull request was closed: its job gets nothing more (Note says how)
	Capped                  // a cap on what is sent was reached (Cap): nothing was sent
)

// State is what the comment shows.
type State struct {
	Phase  Phase
	JobID  string
	Status string // the job's last status; untrusted
	PRLink string // untrusted: the job's prLink as the API sent it
	// PRURL is the pull request's address when PRLink names one on this
	// GitHub, rebuilt from its checked parts; "" otherwise. Only it is
	// linked.
	PRURL    string
	FollowUp bool // the prompt went to an existing job
	// Note is one more sentence, already safe Markdown (built with escape).
	Note  string
	Error string // for Error and Failed; untrusted
	// Cap says which cap stopped the run, for Capped; untrusted.
	Cap     string
	RunURL  string
	Elapsed time.Duration
	Timeout time.Duration

	// AnsweredIn is the comment of the run that answered the request, for
	// Answered.
	AnsweredIn string
	// ContinuedIn is the comment of the later run that continued the job,
	// for Continued.
	ContinuedIn string

	// Record is the hidden marker of the requests the run judged
	// (backlog.Record.Marker), "" when it keeps none.
	Record string
	// Head is the head commit of a code pull request its docs job last
	// heard of, kept as a hidden marker for the next run (see Adopt); ""
	// for none.
	Head string
	// Unsettled says the job was still working when this was written:
	// the next run in the thread, or a settle run, reports its end.
	Unsettled bool
	// Owed are the head commits whose commit status shows the job
	// working, which its end settles (see Owe).
	Owed []string
	// Waiting is the newest head commit whose change waits to be sent
	// (Earlier.Waiting), "" for none.
	Waiting string
	// Cut says the job heard a listing GitHub cut (Earlier.Cut).
	Cut bool
	// Preview is the job's preview, already Markdown (preview.Shown), ""
	// for none.
	Preview string
	// Sent counts the creates and follow-ups the comment's runs sent,
	// kept as a hidden marker that the caps count (Thread.SentHere,
	// SentOn). Thread.Show writes the thread's own count.
	Sent Sends
	// Answered are the requests the run sent, shown when there is more
	// than its own; Left are those it left out, with why; Later those it
	// did not judge, which the next run judges.
	Answered []Ref
	Left     []Ref
	Later    []Ref
}

// Ref is a request a comment links to.
type Ref struct {
	What   string // "comment", "line comment" or "review"
	URL    string // GitHub's html_url; anything but an https URL is not linked
	Author string // untrusted
	Reason string // why it was left out; untrusted
}

func (r Ref) render() string {
	what := escape.Markdown(r.What)
	if u := escape.URL(r.URL); u != "" {
		what = fmt.Sprintf("[%s](%s)", what, u)
	}
	s := what + " by " + escape.Markdown(r.Author)
	if r.Reason != "" {
		s += " (" + escape.Markdown(r.Reason) + ")"
	}
	return s
}

// refsBudget bounds what the lists of requests take in a comment, in
// bytes, all lists together: a thread full of outsiders' requests must not
// make the comment longer than GitHub takes (65,536 characters), with room
// for the rest of the comment and its record.
const refsBudget = 32 << 10

// refs lists rs within what is left of budget: each request with its
// link while it fits, then the people who made the rest, by name, then a
// count of those no name fits for.
func refs(rs []Ref, budget *int) string {
	var parts []string
	take := func(s string) bool {
		if len(s)+2 > *budget {
			return false
		}
		*budget -= len(s) + 2
		parts = append(parts, s)
		return true
	}
	i := 0
	for i < len(rs) && take(rs[i].render()) {
		i++
	}
	if i == len(rs) {
		return strings.Join(parts, "; ")
	}
	var names []string
	seen := map[string]bool{}
	for _, r := range rs[i:] {
		key := strings.ToLower(r.Author)
		if seen[key] {
			continue
		}
		seen[key] = true
		// Room is kept for the count and "and others".
		name := escape.Markdown(r.Author)
		if len(name)+2 > *budget-64 {
			break
		}
		*budget -= len(name) + 2
		names = append(names, name)
	}
	tail := fmt.Sprintf("and %d more", len(rs)-i)
	if len(names) > 0 {
		tail += " by " + strings.Join(names, ", ")
		if len(names) < countAuthors(rs[i:]) {
			tail += " and others"
		}
	}
	return strings.Join(append(parts, tail), "; ")
}

// countAuthors counts the people who made rs.
func countAuthors(rs []Ref) int {
	seen := map[string]bool{}
	for _, r := range rs {
		seen[strings.ToLower(r.Author)] = true
	}
	return len(seen)
}

// markerPrefix starts the hidden marker that names the job in a comment.
const markerPrefix = "<!-- agent-job-action:job="

// markerSuffix ends it, and maxMarkerID bounds the id between the two.
const (
	markerSuffix = " -->"
	maxMarkerID  = 256
)

// Marker returns the hidden marker for jobID, or "" when the id is not a
// plain token (it could then close the HTML comment).
func Marker(jobID string) string {
	if jobID == "" || escape.Log(jobID) != jobID {
		return ""
	}
	return markerPrefix + jobID + markerSuffix
}

// JobFromMarker returns the job id in body's first marker, or "": the
// first markerPrefix followed by 1 to maxMarkerID bytes of
// [A-Za-z0-9._-+=@/] and markerSuffix. It is read by hand: the regular
// expression that says the same expands its repeat into 256 copies, which
// cost a comment-triggered run 0.2 MB and a compilation.
func JobFromMarker(body string) string {
	for {
		i := strings.Index(body, markerPrefix)
		if i < 0 {
			return ""
		}
		body = body[i+len(markerPrefix):]
		n := 0
		for n < len(body) && n <= maxMarkerID && isMarkerIDByte(body[n]) {
			n++
		}
		if n >= 1 && n <= maxMarkerID && strings.HasPrefix(body[n:], markerSuffix) {
			return body[:n]
		}
	}
}

func isMarkerIDByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("._-+=@/", c) >= 0
}

// ownMark starts every comment this action writes.
const ownMark = "<!-- agent-job-action -->"

// IsOwn reports whether body is a comment this action wrote.
func IsOwn(body string) bool {
	return strings.Contains(body, ownMark)
}

// IsRecord reports whether body can hold a record of the action's: it
// starts with the action's mark, as every comment the action writes does.
// A comment that holds the mark further down (another workflow that
// repeats someone's text, say) holds none, whoever wrote it.
func IsRecord(body string) bool { return strings.HasPrefix(body, ownMark) }

// maxMarkers bounds what is read of a record: the action's own markers
// take a few KiB at most, and the answered requests' record, last, up to
// the 32 KiB package backlog reads.
const maxMarkers = 40 << 10

// markers is what a reader of the thread needs of one of the action's own
// comments: the hidden markers (the job, the record) in the block of lines
// that starts it, up to maxMarkers bytes; "" for a body that is no record.
// The text a person reads, and any marker after it, is dropped.
func markers(body string) string {
	if !IsRecord(body) {
		return ""
	}
	var b strings.Builder
	for line := range strings.Lines(body) {
		if !strings.HasPrefix(line, "<!-- agent-job-action") || b.Len()+len(line) > maxMarkers {
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// Render returns the comment's Markdown for s.
func Render(s State) string {
	var b strings.Builder
	b.WriteString("<!-- agent-job-action -->\n")
	if m := Marker(s.JobID); m != "" {
		b.WriteString(m + "\n")
	}
	// The answered requests' record, which may be long, comes last: the
	// markers a reader needs most are read first, within maxMarkers.
	if isSHA(s.Head) {
		b.WriteString(headPrefix + s.Head + markerSuffix + "\n")
	}
	if m := s.Sent.Marker(); m != "" {
		b.WriteString(m + "\n")
	}
	settlement(&b, s)
	if s.Record != "" {
		b.WriteString(s.Record + "\n")
	}
	job := "The job"
	if s.JobID != "" {
		job = "Job " + JobRef(s.JobID)
	}
	switch s.Phase {
	case Working:
		if s.JobID == "" {
			b.WriteString("👀 **Working on it.** Starting an agent job…\n")
		} else {
			verb := "started"
			if s.FollowUp {
				verb = "continued"
			}
			fmt.Fprintf(&b, "⏳ **Working on it.** %s %s; status: %s.\n", job, verb, escape.Markdown(s.Status))
		}
	case Done:
		switch link := escape.URL(s.PRURL); {
		case link != "":
			fmt.Fprintf(&b, "✅ **Done.** %s %s and opened a pull request: %s\n", job, escape.Markdown(s.Status), link)
		case s.PRLink != "":
			fmt.Fprintf(&b, "✅ **Done.** %s %s and reported a pull request link that is not a pull request on this GitHub, so it is not linked: %s\n",
				job, escape.Markdown(s.Status), escape.Address(s.PRLink))
		default:
			fmt.Fprintf(&b, "✅ **Done, no changes.** %s %s without opening a pull request: nothing needed to change.\n", job, escape.Markdown(s.Status))
		}
	case Failed:
		fmt.Fprintf(&b, "❌ **The job failed.** %s ended with status failed. Look at the workflow run for details, then ask again to retry.\n", job)
	case TimedOut:
		if s.JobID == "" {
			fmt.Fprintf(&b, "⌛ **Timed out** after %s while the job was being created: it may or may not exist. Look at the project's agent jobs in the Mintlify dashboard before asking again.\n", s.Timeout)
			break
		}
		fmt.Fprintf(&b, "⏳ **Still working.** This run's timeout (%s) passed while %s was %s. The job goes on on the server; %s\n",
			s.Timeout, lower(job), escape.Markdown(orDash(s.Status)), nextReports)
	case Cancelled:
		if s.JobID == "" {
			b.WriteString("🚫 **Cancelled** while the job was being created: it may or may not exist. Look at the project's agent jobs in the Mintlify dashboard before asking again.\n")
			break
		}
		fmt.Fprintf(&b, "⏳ **Still working.** The workflow was cancelled while %s was %s. The job goes on on the server; %s\n",
			lower(job), escape.Markdown(orDash(s.Status)), nextReports)
	case NotWaiting:
		fmt.Fprintf(&b, "🚀 **Started.** %s is %s. This run does not wait for it (`wait: false`); %s\n",
			job, escape.Markdown(orDash(s.Status)), nextReports)
	case Continued:
		where := "a later comment"
		if u := escape.URL(s.ContinuedIn); u != "" {
			where = fmt.Sprintf("[a later comment](%s)", u)
		}
		fmt.Fprintf(&b, "➡️ **Continued.** %s goes on with a later request; its end is reported in %s.\n", job, where)
	case Stopped:
		fmt.Fprintf(&b, "🏁 **Stopped.** This pull request is closed: %s gets nothing more from this workflow.", lower(job))
		if link := escape.URL(s.PRURL); link != "" {
			fmt.Fprintf(&b, " Its pull request was told: %s", link)
		}
		b.WriteString("\n")
		if s.Unsettled {
			b.WriteString("\nThe job was still working: it goes on on the server; a `settle: true` run reports its end here.\n")
		}
	case Error:
		fmt.Fprintf(&b, "❌ **Could not finish.** %s\n", escape.Markdown(s.Error))
	case Capped:
		fmt.Fprintf(&b, "⏸️ **Not sent: the docs job cap is reached.** %s Nothing was sent to the agent.\n", escape.Markdown(s.Cap))
	case Answered:
		where := "an earlier comment"
		if u := escape.URL(s.AnsweredIn); u != "" {
			where = fmt.Sprintf("[an earlier comment](%s)", u)
		}
		fmt.Fprintf(&b, "☑️ **Already answered.** An earlier run sent this request to the agent; see %s.\n", where)
	}
	if s.Note != "" {
		b.WriteString("\n" + s.Note + "\n")
	}
	if s.Preview != "" {
		b.WriteString("\n" + s.Preview)
	}
	budget := refsBudget
	if len(s.Answered) > 1 {
		fmt.Fprintf(&b, "\nThis run answers %d requests together: %s.\n", len(s.Answered), refs(s.Answered, &budget))
	}
	if len(s.Left) > 0 {
		fmt.Fprintf(&b, "\nLeft out: %s.\n", refs(s.Left, &budget))
	}
	if len(s.Later) > 0 {
		fmt.Fprintf(&b, "\nLeft for the next run in this thread: %s.\n", refs(s.Later, &budget))
	}
	if run := escape.URL(s.RunURL); run != "" {
		fmt.Fprintf(&b, "\n<sub>[Workflow run](%s)", run)
		if s.Elapsed > 0 {
			fmt.Fprintf(&b, " · %s", s.Elapsed.Round(time.Second))
		}
		b.WriteString("</sub>\n")
	}
	return b.String()
}

// nextReports says who reports the end of a job a run left working.
const nextReports = "the next run of this workflow in this thread, or a `settle: true` run, reports its end here."

// lower starts s with a lower-case letter ("Job x" in a sentence).
func lower(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// JobRef shows a job id: in a code span when it is a plain token, escaped
// text otherwise.
func JobRef(id string) string { return escape.Code(id) }

func orDash(s string) string {
	if s == "" {
		return "starting"
	}
	return s
}
