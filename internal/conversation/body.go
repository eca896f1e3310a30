// Package conversation keeps the one comment a run writes in the issue or
// pull request that triggered it: acknowledged, edited on every status
// change, and ending with the result. It also finds the job an earlier run
// in the same thread started, so a later request continues it, and reads
// the thread's requests and the records of those answered for package
// backlog, trusting only records the token's own login wrote; and it keeps
// the backlink, the one comment a job writes on the pull request its agent
// opened.
package conversation

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/record"
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
	Released                // a maintainer released the check (ReleasedBy, ReleasedAt): nothing was sent
	Held                    // the change waits for the code's approval (docs-when: approved): nothing was sent
)

// State is what the comment shows.
type State struct {
	Phase Phase
	// Record is what the comment keeps for later runs: the job it names
	// and shows, and the rest of the thread's record (package record). Its
	// PR is written from PRURL.
	Record  record.Record
	Status  string // the job's last status; untrusted
	Working bool   // the job was not seen to end (a record also stays unsettled to follow its docs pull request)
	PRLink  string // untrusted: the job's prLink as the API sent it
	// PRURL is the pull request's address when PRLink names one on this
	// GitHub, rebuilt from its checked parts; "" otherwise. Only it is
	// linked.
	PRURL    string
	FollowUp bool // the prompt went to an existing job
	// Note is one more sentence, already safe Markdown (built with escape).
	Note  string
	Error string // for Error and Failed; untrusted
	// Cap says which cap stopped the run, for Capped; untrusted.
	Cap string
	// ReleasedBy is who released the check, and ReleasedAt the head commit
	// it was released on, for Released.
	ReleasedBy, ReleasedAt string
	RunURL                 string
	Elapsed                time.Duration
	Timeout                time.Duration
	// NoJob says a create that a timeout or a cancellation stopped surely
	// made no job: it never reached the Agent Job API, or the API refused
	// it.
	NoJob bool

	// AnsweredIn is the comment of the run that answered the request, for
	// Answered.
	AnsweredIn string
	// ContinuedIn is the comment of the later run that continued the job,
	// for Continued.
	ContinuedIn string

	// Preview is the job's preview, already Markdown (preview.Shown), ""
	// for none.
	Preview string
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

// recordOf reads the record of one of the action's own comments: the line
// after the action's mark that starts it (record.Parse, bounded by
// record.MaxBytes), and that line as written. ok is false for a body that
// holds none. The text a person reads, and anything after the line, is
// not read.
func recordOf(body string) (r record.Record, line string, ok bool) {
	if !IsRecord(body) {
		return record.Record{}, "", false
	}
	rest := strings.TrimPrefix(body, ownMark)
	rest, ok = strings.CutPrefix(rest, "\n")
	if !ok {
		return record.Record{}, "", false
	}
	line, _, _ = strings.Cut(rest[:min(len(rest), record.MaxBytes+1)], "\n")
	if r, ok = record.Parse(line); !ok {
		return record.Record{}, "", false
	}
	return r, line, true
}

// head is what a reader keeps of one of the action's own comments: its
// mark, and its record's line when it holds one.
func head(body string) string {
	_, line, _ := recordOf(body)
	return headOf(line)
}

// headOf is the mark and the record's line, as head keeps them; line ""
// for none.
func headOf(line string) string {
	if line == "" {
		return ownMark + "\n"
	}
	return ownMark + "\n" + line + "\n"
}

// Render returns the comment's Markdown for s.
func Render(s State) string {
	var b strings.Builder
	b.WriteString(ownMark + "\n")
	rec := s.Record
	rec.PR = s.PRURL
	if line := record.Format(rec); line != "" {
		b.WriteString(line + "\n")
	}
	job := "The job"
	if s.Record.JobID != "" {
		job = "Job " + escape.Code(s.Record.JobID)
	}
	switch s.Phase {
	case Working:
		if s.Record.JobID == "" {
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
		if s.Record.JobID == "" && s.NoJob {
			fmt.Fprintf(&b, "⌛ **Timed out** after %s before the job could be created: no request reached the Agent Job API, or it refused it: there is no job. Ask again.\n", s.Timeout)
			break
		}
		if s.Record.JobID == "" {
			fmt.Fprintf(&b, "⌛ **Timed out** after %s while the job was being created: it may or may not exist. Look at the project's agent jobs in the Mintlify dashboard before asking again.\n", s.Timeout)
			break
		}
		fmt.Fprintf(&b, "⏳ **Still working.** This run's timeout (%s) passed while %s was %s. The job goes on on the server; %s\n",
			s.Timeout, lower(job), escape.Markdown(orDash(s.Status)), nextReports)
	case Cancelled:
		if s.Record.JobID == "" && s.NoJob {
			b.WriteString("🚫 **Cancelled** before the job could be created: no request reached the Agent Job API, or it refused it: there is no job. Ask again.\n")
			break
		}
		if s.Record.JobID == "" {
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
		if s.Working {
			b.WriteString("\nThe job was still working: it goes on on the server; a `settle: true` run reports its end here.\n")
		}
	case Error:
		fmt.Fprintf(&b, "❌ **Could not finish.** %s\n", escape.Markdown(s.Error))
	case Capped:
		fmt.Fprintf(&b, "⏸️ **Not sent: the docs job cap is reached.** %s Nothing was sent to the agent.\n", escape.Markdown(s.Cap))
	case Held:
		b.WriteString("⏳ **Waits for the code's approval.** This workflow writes the docs once the code is approved: when a reviewer with the required permission approves this pull request's latest commit, its docs job hears every change since it last heard. Nothing was sent to the agent for this push.\n")
	case Released:
		fmt.Fprintf(&b, "🔓 **Docs check released.** %s released this pull request's docs check on %s: no docs job is needed for that commit, and nothing was sent to the agent. The next push asks again.\n",
			escape.Markdown(s.ReleasedBy), escape.Markdown(ghclient.Short(s.ReleasedAt)))
	case Answered:
		where := "an earlier comment"
		if u := escape.URL(s.AnsweredIn); u != "" {
			where = fmt.Sprintf("[an earlier comment](%s)", u)
		}
		fmt.Fprintf(&b, "☑️ **Already answered.** An earlier run sent this request to the agent; see %s.\n", where)
	}
	if link := escape.URL(s.PRURL); link != "" && s.Record.JobID != "" && s.Phase.Working() {
		// A job that goes on may have opened its pull request already:
		// a thread whose job a later request continued shows it.
		fmt.Fprintf(&b, "\nIts pull request so far: %s\n", link)
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

// Working reports whether a comment in phase p shows a job still going on:
// working, not waited for, or past the run's timeout or cancellation.
func (p Phase) Working() bool {
	return p == Working || p == NotWaiting || p == TimedOut || p == Cancelled
}

// nextReports says who reports the end of a job a run left working.
const nextReports = "the next run of this workflow in this thread, or a `settle: true` run, reports its end here."

// lower starts s with a lower-case letter ("Job x" in a sentence).
func lower(s string) string { return strings.ToLower(s[:1]) + s[1:] }

func orDash(s string) string {
	if s == "" {
		return "starting"
	}
	return s
}
