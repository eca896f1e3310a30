// Package action is one run of the step. It reads the inputs and the event,
// asks package plan what to do, carries the plan out (verify the sender,
// create a job or send a follow-up, wait for it) and reports the one
// outcome once: in the log, the outputs, the summary and the comment.
package action

import (
	"cmp"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/publish"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
)

// Deps are the run's stand-ins for time and the network. Zero fields take
// the real thing, so main passes little and tests inject the rest.
type Deps struct {
	Version string
	Clock   clock.Clock
	// Schedule replaces the auto poll schedule (tests, the demo).
	Schedule poll.Schedule
	// RequestTimeout bounds each HTTP attempt; zero is the default.
	RequestTimeout time.Duration
	// Transport carries the HTTP requests; nil is the default transport.
	Transport http.RoundTripper
	// Heartbeat replaces runlog.Heartbeat (tests that build the binary);
	// zero is the default.
	Heartbeat time.Duration
	// Grace replaces the runner's grace after a cancellation (what a
	// create under way is heard out for, the record of a send, the last
	// words); zero fields are the defaults (httpclient.HearOut, report's
	// RecordFor and LastWords).
	Grace   publish.Grace
	HearOut time.Duration
}

// Streams are where a run writes: its log, in the face main chose for its
// reader, and, outside Actions (no GITHUB_OUTPUT), its results, the
// "output name=value" lines.
type Streams struct {
	Log     runlog.Log
	Results io.Writer // nil discards the results
}

// Result is what a run leaves its caller besides the error.
type Result struct {
	// Outputs holds every output as written, redacted, by name.
	Outputs map[string]string
	// Cost is what the run cost; nil when it stopped before it could
	// send anything.
	Cost *report.Cost
}

// Run runs the step described by rc. A non-nil error means a non-zero
// exit; it has already been reported as errors in the log.
func Run(ctx context.Context, rc runner.Context, deps Deps, streams Streams) (Result, error) {
	if deps.Clock == nil {
		deps.Clock = clock.Real{}
	}
	log := streams.Log
	// Before anything else is printed.
	log.Mask(rc.Inputs["api-key"])
	log.Mask(rc.Inputs["github-token"])
	log.Mask(rc.Inputs["docs-token"])

	out := report.NewOutputs(log, rc.OutputFile, streams.Results)
	r := &run{rc: rc, deps: deps, log: log, start: deps.Clock.Now()}
	r.prog = runlog.Progress{Log: log, Clock: deps.Clock, Start: r.start}
	r.rep = &publish.Reporter{Progress: r.prog, RC: rc, Out: out, Grace: deps.Grace, Checks: &publish.Checks{Progress: r.prog, RunURL: rc.RunURL()}}
	end, err := r.execute(ctx)
	if err == nil {
		return Result{Outputs: out.Values(), Cost: r.rep.Billed}, nil
	}
	for _, e := range flatten(err) {
		log.Error(e.Error())
	}
	r.rep.Unreported(end, err)
	switch end {
	case report.Completed, report.NotWaiting, report.Skipped, report.DryRun, report.Settled:
		// The job went well but its report could not be written.
		end = report.Errored
	}
	return Result{Outputs: out.Values(), Cost: r.rep.Billed}, &report.Error{End: end, Err: err}
}

// inTerms names the inputs in err as the run's mode does: flags on a
// command line, inputs in a workflow.
func (r *run) inTerms(err error) error {
	if r.rc.CommandLine {
		return inputs.AsFlags(err)
	}
	return err
}

// defaultTimeout bounds the read of the event when the timeout input could
// not be read: the input's own default.
const defaultTimeout = 30 * time.Minute

// flatten splits a joined error into its parts, one ::error:: line each.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// execute reads and decides; a run that gets a plan ends in the reporter's Finish, the
// only place that reports an outcome.
func (r *run) execute(ctx context.Context) (report.End, error) {
	// Inside Actions files named by inputs stay in the workspace; outside,
	// a person names their own file.
	workspace := ""
	if r.rc.InActions {
		workspace = cmp.Or(r.rc.Workspace, ".")
	}
	cfg, warnings, inErr := inputs.Read(r.rc.Inputs, workspace)
	// The event is read once, under the timeout, which bounds the whole
	// step (its default when the input could not be read).
	bound := cfg.Timeout
	if bound <= 0 {
		bound = defaultTimeout
	}
	readCtx, cancelRead := context.WithTimeout(ctx, bound)
	trig, evErr := event.Read(readCtx, r.rc.EventName, r.rc.EventPath, r.rc.Repository)
	cancelRead()
	if inErr != nil {
		if why := plan.Withheld(cfg, inErr, trig); evErr == nil && r.rc.EventName != "" && why != "" {
			return report.Skipped, r.rep.Finish(ctx, report.Skip(why), check.Decision{})
		}
		return report.Invalid, r.inTerms(inErr)
	}
	if evErr != nil {
		return report.Invalid, evErr
	}
	r.cfg, r.trig = cfg, trig
	r.rep.Timeout = cfg.Timeout
	p, err := plan.Decide(cfg, trig)
	if err != nil {
		return report.Invalid, r.inTerms(err)
	}
	if p.Skip == "" {
		for _, w := range warnings {
			r.log.Warning(w)
		}
		// Nothing is sent before the step is sure it can report what it sent.
		if err := r.rc.CheckFiles(); err != nil {
			return report.Errored, err
		}
	}

	// The timeout is a hard deadline for the whole step. A run that comments
	// or sets a commit status keeps the last moments of it for the
	// comment's final edit and the status. Only what the run sent outlives
	// it, by a few seconds: a create or follow-up under way is heard out
	// (httpclient.HearOut), and its record written (publish.RecordFor).
	work := cfg.Timeout
	if p.Answer != nil || p.Code != nil || p.Group != nil {
		work -= min(publish.LastWords, cfg.Timeout/10)
	}
	r.deadline = r.start.Add(work)
	ctx, cancel := context.WithTimeout(ctx, work)
	defer cancel()
	o := r.carryOut(ctx, p)
	if r.settler != nil {
		r.rep.Cost.Waited += r.settler.Waited
	}
	err = r.rep.Finish(ctx, o, r.ending(o))
	if err == nil {
		r.recheck(ctx, p, o)
	}
	if r.agent != nil {
		r.keepPaired(ctx, p, o)
	}
	return o.End(), err
}
