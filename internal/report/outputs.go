// Package report is what a run ends with and what it leaves besides its
// log (package runlog): the outcome (Outcome, End), what a code pull
// request's run keeps for its report (Code), the step outputs and the job
// summary, both redacted by the log's redactor, neither written to be read
// back. It writes no comment and no commit status: package publish does,
// for the run's hall alone.
package report

import (
	"crypto/rand"
	"fmt"
	"io"
	"maps"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/cost"
	"github.com/agentjob/agent-job-action/internal/escape"
)

// Outputs writes step outputs to the runner's GITHUB_OUTPUT file, or as
// "output name=value" lines to the results stream (a command line's
// standard output) when the action runs outside GitHub Actions. Each
// output is written once per value it takes: the job-id written as soon as
// the id is known is not written again at the end.
type Outputs struct {
	red     Redactor
	path    string
	results io.Writer
	random  func() string // the random part of a delimiter

	mu      sync.Mutex
	written map[string]string // each output's value as last written
}

// Redactor replaces the run's secrets with *** in what the run writes: the
// log does (runlog.Log), which knows them.
type Redactor interface {
	Redact(s string) string
	// RedactJSON redacts a JSON record in its decoded strings.
	RedactJSON(raw []byte) string
}

// NewOutputs returns outputs written to the file at path (GITHUB_OUTPUT);
// "" prints them to results instead (nil discards them). Every value is
// redacted by red.
func NewOutputs(red Redactor, path string, results io.Writer) *Outputs {
	if results == nil {
		results = io.Discard
	}
	return &Outputs{red: red, path: path, results: results, random: rand.Text, written: map[string]string{}}
}

// Withhold prints no more outputs on the results stream: a run that ends
// in a usage error prints nothing on a command line's standard output,
// which carries results only. The GITHUB_OUTPUT file, where a step's
// outputs go, is written as before.
func (o *Outputs) Withhold() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.results = io.Discard
}

// Values returns every output written, redacted as written, by name.
func (o *Outputs) Values() map[string]string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return maps.Clone(o.written)
}

// delimiterPrefix starts every heredoc delimiter, as in actions/toolkit.
const delimiterPrefix = "ghadelimiter_"

// Set writes one output, redacted, as one line (a workflow that pastes it
// into a script or a log line gets one line).
//
// Each value is framed by its own delimiter, 128 random bits that the value
// does not contain: the runner ends a value at the first line equal to its
// delimiter, so no value can end early, forge another output, or (with a
// delimiter that never comes) make the runner reject the whole file.
// go-githubactions uses one fixed delimiter for every value; it is not used
// here.
func (o *Outputs) Set(name, value string) error {
	value = o.red.Redact(escape.Line(o.red.Redact(value)))
	o.mu.Lock()
	defer o.mu.Unlock()
	if last, ok := o.written[name]; ok && last == value {
		return nil
	}
	if err := o.write(name, value); err != nil {
		return err
	}
	o.written[name] = value
	return nil
}

func (o *Outputs) write(name, value string) error {
	if o.path == "" {
		_, err := fmt.Fprintf(o.results, "output %s=%s\n", name, value)
		return err
	}
	// The runner reads a line holding "=" before any "<<" as name=value.
	if name == "" || strings.ContainsAny(name, "=\r\n") || strings.Contains(name, "<<") {
		return fmt.Errorf("output name %q cannot be written to GITHUB_OUTPUT", name)
	}
	delim := delimiterPrefix + o.random()
	for strings.Contains(value, delim) {
		delim = delimiterPrefix + o.random()
	}
	if err := appendFile(o.path, name+"<<"+delim+"\n"+value+"\n"+delim+"\n"); err != nil {
		return fmt.Errorf("write output %s: %w", name, err)
	}
	return nil
}

// appendFile appends text to the file at path, creating it if need be, as
// the runner's file commands are written.
func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Result is what a run ends with.
type Result struct {
	JobID      string
	Status     string
	Job        *agentapi.Job // the last record seen; nil when none
	TimedOut   bool
	Elapsed    time.Duration
	Polls      int
	CommentURL string // the run's comment; "" when none
	// PRURL is the job's pull request when it is one on this GitHub,
	// rebuilt from its checked parts: the only form the summary links.
	PRURL string
	// PRNumber is that pull request's number; 0 when PRURL is "".
	PRNumber int
	// SourceURL is the job's source repository when it is one on this
	// GitHub, rebuilt from its checked parts, which the summary links;
	// "" otherwise.
	SourceURL string
	// Failure is the error the run failed with, as the log gives it (with
	// the service's own reason and what to do); "" when it did not fail.
	Failure string
	// RunURL is the workflow run's page, linked with a failure; "" outside
	// Actions.
	RunURL string
	// Preview is the job's preview, already Markdown (preview.Shown), ""
	// for none.
	Preview string
	// Cost is what the run cost; nil when it stopped before it could send
	// anything (inputs it cannot use).
	Cost *Cost
	// Settled is what a settle run settled (Outcome.Settled), "" for
	// other runs.
	Settled string
}

// Cost is what a run cost (package cost, which the command line prints
// without this package).
type Cost = cost.Cost

// Write sets every output the action declares, from r: the output contract,
// in one place (a test holds it to action.yml's list).
func (o *Outputs) Write(r Result) error {
	for _, p := range o.values(r) {
		if err := o.Set(p[0], p[1]); err != nil {
			return err
		}
	}
	return nil
}

// values is each output's name and value for r, in action.yml's order.
func (o *Outputs) values(r Result) [][2]string {
	j := r.Job
	if j == nil {
		j = &agentapi.Job{}
	}
	values := [][2]string{
		{"job-id", r.JobID},
		{"status", r.Status},
		{"pr-link", j.PR()},
		{"pr-number", prNumber(r.PRNumber)},
		{"model", j.Model},
		{"source-repository", j.Source.Repository},
		{"source-ref", j.Ref()},
		{"created-at", j.CreatedAt},
		{"archived-at", j.Archived()},
		{"timed-out", strconv.FormatBool(r.TimedOut)},
		// The record as the API sent it, with secrets redacted in its
		// decoded strings, whatever escapes the API used.
		{"job", o.red.RedactJSON(j.Raw)},
		{"comment-url", r.CommentURL},
	}
	c := Cost{}
	if r.Cost != nil {
		c = *r.Cost
	}
	costs := c.Outputs()
	for _, name := range []string{"creates", "follow-ups", "reads", "github-requests", "waited-seconds", "thread-sends", "day-sends"} {
		values = append(values, [2]string{name, costs[name]})
	}
	return values
}

// prNumber is the pr-number output: empty unless the link was judged a
// pull request on this GitHub (package prlink), so that a workflow acting
// on the number acts on the pull request the link names.
func prNumber(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}
