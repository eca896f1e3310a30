package report

import (
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/escape"
)

// Outputs writes step outputs to GITHUB_OUTPUT, or as "output name=value"
// lines to the log when the action runs outside GitHub Actions.
type Outputs struct {
	log    *Log
	toFile bool
}

// NewOutputs returns outputs for the runner described by getenv.
func NewOutputs(log *Log, getenv func(string) string) *Outputs {
	return &Outputs{log: log, toFile: getenv("GITHUB_OUTPUT") != ""}
}

// Set writes one output. The value is made one line (so it cannot close the
// file command's delimiter and forge other outputs) and redacted.
func (o *Outputs) Set(name, value string) (err error) {
	value = o.log.Redact(escape.Line(value))
	if !o.toFile {
		o.log.Printf("output %s=%s", name, value)
		return nil
	}
	// go-githubactions panics when the file cannot be written.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("write output %s: %v", name, r)
		}
	}()
	o.log.gha.SetOutput(name, value)
	return nil
}

// Result is what a run ends with.
type Result struct {
	JobID    string
	Status   string
	Job      *agentapi.Job // the last record seen; nil when none
	TimedOut bool
	Elapsed  time.Duration
	Polls    int
}

// Write sets every output from r except job-id, which is written as soon as
// it is known.
func (o *Outputs) Write(r Result) error {
	j := r.Job
	if j == nil {
		j = &agentapi.Job{}
	}
	pairs := [][2]string{
		{"status", r.Status},
		{"pr-link", j.PR()},
		{"pr-number", PRNumber(j.PR())},
		{"model", j.Model},
		{"source-repository", j.Source.Repository},
		{"source-ref", j.Ref()},
		{"created-at", j.CreatedAt},
		{"archived-at", j.Archived()},
		{"timed-out", strconv.FormatBool(r.TimedOut)},
		{"job", string(j.Raw)},
	}
	for _, p := range pairs {
		if err := o.Set(p[0], p[1]); err != nil {
			return err
		}
	}
	return nil
}

// PRNumber returns the number at the end of a GitHub pull request URL
// (https://github.com/o/r/pull/123), or "".
func PRNumber(link string) string {
	u, err := url.Parse(link)
	if err != nil || u.Scheme != "https" {
		return ""
	}
	dir, last := path.Split(strings.TrimRight(u.Path, "/"))
	if path.Base(dir) != "pull" {
		return ""
	}
	if n, err := strconv.ParseUint(last, 10, 32); err == nil && n > 0 {
		return strconv.FormatUint(n, 10)
	}
	return ""
}
