package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/cost"
	"github.com/agentjob/agent-job-action/internal/escape"
)

// Summary renders r as the Markdown job summary, a table of two columns.
// Every value from the API is escaped (escape.Markdown: no formatting, no
// link, no mention, no "|" that splits a cell). The pull request and the
// source repository are links only when they are on this GitHub (PRURL,
// SourceURL), whose text is their address whole, and otherwise an https
// address is shown whole in a code span (escape.Link, escape.Address), so
// that what a reader copies works. A job id that
// is a plain token is shown in a code span, where nothing links and it can
// be copied as it is.
//
// The job's preview, when there is one, follows the table, then what a
// settle run settled, then what the run cost.
//
// A failed run says why under the table (or alone, when the run failed
// before it had a job to show): the error with the service's own reason
// and what to do, escaped like any untrusted text, and a link to the
// workflow run's log.
func Summary(r Result) string {
	var b strings.Builder
	b.WriteString("### Agent job\n\n")
	wrote := false
	if r.Job != nil || r.JobID != "" || r.Failure == "" {
		table(&b, r)
		if r.Preview != "" {
			b.WriteString("\n" + r.Preview)
		}
		wrote = true
	}
	if r.Settled != "" {
		fmt.Fprintf(&b, "\n**Settle run:** %s.\n", escape.Markdown(r.Settled))
	}
	if c := r.Cost; c != nil {
		if wrote {
			b.WriteString("\n")
		}
		b.WriteString(c.Line() + "\n")
		wrote = true
	}
	if r.Failure != "" {
		if wrote {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "**The run failed** (status %s): %s\n", escape.Markdown(r.Status), escape.Markdown(r.Failure))
		if link := escape.URL(r.RunURL); link != "" {
			fmt.Fprintf(&b, "\nThe whole log is in [the workflow run](%s).\n", link)
		}
	}
	return b.String()
}

// table writes the job's table: its id, status, model, source, pull
// request, the time waited and the polls.
func table(b *strings.Builder, r Result) {
	b.WriteString("| | |\n|---|---|\n")
	row := func(k, v string) {
		if v == "" {
			v = "–"
		}
		fmt.Fprintf(b, "| %s | %s |\n", k, v)
	}
	status := escape.Markdown(r.Status)
	if r.TimedOut {
		status += " (timed out)"
	}
	var model, source, pr string
	if j := r.Job; j != nil {
		model = escape.Markdown(j.Model)
		if source = escape.Link(r.SourceURL); source == "" {
			source = escape.Address(j.Source.Repository)
		}
		if ref := j.Ref(); ref != "" {
			source += " @ " + escape.Markdown(ref)
		}
		if pr = escape.Link(r.PRURL); pr == "" && j.PR() != "" {
			pr = escape.Address(j.PR())
		}
	}
	row("Job", escape.Code(r.JobID))
	row("Status", status)
	row("Model", model)
	row("Source", source)
	row("Pull request", pr)
	row("Elapsed", r.Elapsed.Round(time.Second).String())
	row("Polls", fmt.Sprint(r.Polls))
}

// WriteSummary appends markdown, redacted by red, to the job summary file
// at path (GITHUB_STEP_SUMMARY); "" (outside Actions) writes nothing. The
// runner reads the file whole, as Markdown, so there is no delimiter to
// close.
func WriteSummary(red Redactor, path, markdown string) error {
	if path == "" {
		return nil
	}
	if err := appendFile(path, red.Redact(markdown)+"\n"); err != nil {
		return fmt.Errorf("write job summary: %w", err)
	}
	return nil
}

// Count is n things, in words: "1 thread", "2 threads" (thing takes an
// s in the plural).
func Count(n int, thing string) string { return cost.Count(n, thing) }
