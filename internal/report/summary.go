package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/escape"
)

// Summary renders r as the Markdown job summary. Every value from the API
// is escaped; the PR link is a link only when it is an https URL.
func Summary(r Result) string {
	var b strings.Builder
	b.WriteString("### Agent job\n\n| | |\n|---|---|\n")
	row := func(k, v string) {
		if v == "" {
			v = "–"
		}
		fmt.Fprintf(&b, "| %s | %s |\n", k, v)
	}
	status := escape.Markdown(r.Status)
	if r.TimedOut {
		status += " (timed out)"
	}
	var model, source, pr string
	if j := r.Job; j != nil {
		model = escape.Markdown(j.Model)
		source = escape.Markdown(j.Source.Repository)
		if ref := j.Ref(); ref != "" {
			source += " @ " + escape.Markdown(ref)
		}
		if link := escape.URL(j.PR()); link != "" {
			pr = fmt.Sprintf("[%s](%s)", escape.Markdown(link), link)
		} else if j.PR() != "" {
			pr = escape.Markdown(j.PR())
		}
	}
	row("Job", escape.Markdown(r.JobID))
	row("Status", status)
	row("Model", model)
	row("Source", source)
	row("Pull request", pr)
	row("Elapsed", r.Elapsed.Round(time.Second).String())
	row("Polls", fmt.Sprint(r.Polls))
	return b.String()
}

// WriteSummary appends markdown to GITHUB_STEP_SUMMARY, when the runner
// gives one.
func (l *Log) WriteSummary(getenv func(string) string, markdown string) (err error) {
	if getenv("GITHUB_STEP_SUMMARY") == "" {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("write job summary: %v", r)
		}
	}()
	l.gha.AddStepSummary(l.Redact(markdown))
	return nil
}
