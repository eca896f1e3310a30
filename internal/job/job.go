// Package job starts or continues a run's agent job and waits for it: a
// create, a follow-up (with the one rule for a job that takes no more
// messages: a new job stands in for it), a read of a job the run only
// watches, and the wait. It names the job to the run's reporter at once,
// so that the job-id output is written before anything can fail, and
// counts each send there.
package job

import (
	"context"
	"fmt"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/terms"
)

// API is the Agent Job API's jobs. *agentapi.Client is one.
type API interface {
	Create(ctx context.Context, text string) (*agentapi.Job, error)
	Message(ctx context.Context, id, text string) (*agentapi.Job, error)
	Get(ctx context.Context, id string) (*agentapi.Job, error)
}

var _ API = (*agentapi.Client)(nil)

// Writer is what the room tells the run's writer as it happens
// (*publish.Reporter is one): the job's name at once (the job-id output,
// which a failure later must not lose), and each send (the caps and the
// cost count it). What the room did comes back to its caller as a value
// (Sent, poll.Result): the room changes no outcome.
type Writer interface {
	Name(id string) error
	Spent(followUp bool)
}

// Sent is what the room did with the run's job: the job it names (ID,
// set as soon as it is named, so that a send that fails after it still
// leaves it to the record), whether the run continues that job rather
// than starting it (FollowUp), the note for the comment when a new job
// stood in for it, and the job as the API answered (nil when the send
// failed).
type Sent struct {
	ID       string
	FollowUp bool
	Note     string
	Job      *agentapi.Job
}

// Room starts and follows one run's job.
type Room struct {
	API      API
	Reporter Writer
	// Terms names the inputs as the run's mode does, for its errors.
	Terms    terms.Terms
	Progress runlog.Progress
	Clock    clock.Clock
	// Schedule is when the wait polls; Deadline when it gives up (on
	// Clock); Beat how often an unchanged job is said to be unchanged.
	Schedule poll.Schedule
	Deadline time.Time
	Beat     time.Duration
}

// Create creates a job with text. A job the API names with an id no
// record can hold (record.PlainID), or that no later request can name
// (agentapi.CheckJobID: a slash, dots in a row), breaks the API's
// contract: the create
// counts as sent, since it was billed, but the run goes no further with a
// job it cannot record, which no later run could follow
// (report.ErrJobLost).
func (j *Room) Create(ctx context.Context, text string) (*agentapi.Job, error) {
	job, err := j.API.Create(ctx, text)
	if err != nil {
		return nil, err
	}
	j.Reporter.Spent(false)
	j.Progress.Logf("created job %s, status %s", escape.Log(job.ID), escape.Log(job.Status))
	if !record.PlainID(job.ID) || agentapi.CheckJobID(job.ID) != nil {
		return nil, fmt.Errorf("%s: the Agent API named the new job %s, an id the action cannot record (a job id is 1 to 256 letters, digits and ._-+=@, with no dots in a row): the job exists and counts as sent, but %w; find it in the Mintlify dashboard, and check %s",
			agentapi.OpCreate, escape.Log(job.ID), report.ErrJobLost, j.Terms.Name("base-url"))
	}
	return job, nil
}

// Send sends text to job id as a follow-up and counts it as sent: the one
// place a follow-up goes from, a settle run's included. The job it returns
// is working on the message: an answer with a terminal status is the
// job's state before it, never the end of what it carried.
func (j *Room) Send(ctx context.Context, id, text string) (*agentapi.Job, error) {
	job, err := j.API.Message(ctx, id, text)
	if err != nil {
		return nil, err
	}
	j.Reporter.Spent(true)
	if job.Terminal() {
		// The answer may show the job as it was before the message: that
		// is no end of the change the message carried, which the agent
		// has not read. The job works on it, as a later read will show.
		working := *job
		working.Status = agentapi.StatusActive
		job = &working
	}
	return job, nil
}

// Message sends text to job id as a follow-up, naming the job first.
func (j *Room) Message(ctx context.Context, id, text string) (Sent, error) {
	if err := j.Reporter.Name(id); err != nil {
		return Sent{}, err
	}
	job, err := j.Send(ctx, id, text)
	if err != nil {
		return Sent{ID: id}, err
	}
	j.Progress.Logf("sent follow-up to job %s, status %s", escape.Log(job.ID), escape.Log(job.Status))
	return Sent{ID: id, FollowUp: true, Job: job}, nil
}

// StandIn is a caller's stand-in for a job that takes no more messages:
// Why is the log's line for the API's refusal f, in the caller's words;
// Text builds the text of the new job; Also ends the comment's note.
type StandIn struct {
	Why  func(f *httpclient.Failure) string
	Text func(ctx context.Context) (string, error)
	Also string
}

// FollowUp sends text to job id, the job a thread or a code pull request
// continues. When the API answers that the job takes no more messages
// (agentapi.TakesNoMessages), a new job stands in for it, with the text
// stand builds: what was sent forgets the old job, and its note says why.
// Sent.FollowUp says which it was. With stand nil, as for an explicit
// job-id, the refusal is the error.
func (j *Room) FollowUp(ctx context.Context, id, text string, stand *StandIn) (Sent, error) {
	sent, err := j.Message(ctx, id, text)
	f, refused := agentapi.TakesNoMessages(err)
	if !refused || stand == nil {
		return sent, err
	}
	j.Progress.Logf("%s", stand.Why(f))
	sent = Sent{Note: fmt.Sprintf("The earlier job %s could not take a follow-up (HTTP %d), so this started a new job.", escape.Code(id), f.Status) + stand.Also}
	if err := j.Reporter.Name(""); err != nil {
		return sent, err
	}
	if text, err = stand.Text(ctx); err != nil {
		return sent, err
	}
	sent.Job, err = j.Create(ctx, text)
	if err == nil {
		sent.ID = sent.Job.ID
	}
	return sent, err
}

// Name names job id ("" for none: a send's job that is not the run's) in
// the job-id output at once, which a failure or cancellation later keeps.
func (j *Room) Name(id string) error { return j.Reporter.Name(id) }

// Watch reads job id, which the run follows without sending it anything.
func (j *Room) Watch(ctx context.Context, id string) (Sent, error) {
	if err := j.Reporter.Name(id); err != nil {
		return Sent{}, err
	}
	job, err := j.API.Get(ctx, id)
	if err != nil {
		return Sent{ID: id}, err
	}
	j.Progress.Logf("job %s is %s (nothing sent: no prompt)", escape.Log(job.ID), escape.Log(job.Status))
	return Sent{ID: id, Job: job}, nil
}

// Waited is how a wait for the run's job went: the job as last seen and
// the polls (poll.Result), the time it took, and the error that stopped
// it, if any.
type Waited struct {
	poll.Result
	Took time.Duration
	Err  error
}

// Wait waits for job until it ends or the deadline, polling on the
// schedule, its progress in one group of the log and told to obs (the
// comment's, on each change of status).
func (j *Room) Wait(ctx context.Context, job *agentapi.Job, obs poll.Observer) Waited {
	log := j.Progress.Log
	log.Group("Waiting for job " + escape.Log(job.ID))
	w := poll.Waiter{
		Jobs:     j.API,
		Clock:    j.Clock,
		Schedule: j.Schedule,
		Deadline: j.Deadline,
		Observer: obs,
		Beat:     j.Beat,
	}
	from := j.Clock.Now()
	res, err := w.Wait(ctx, job)
	log.EndGroup()
	return Waited{Result: res, Took: j.Clock.Now().Sub(from), Err: err}
}

// ReadOnce returns job id as the run read it already (seen), or reads it
// when it did not: a run reads an earlier record's job once.
func ReadOnce(ctx context.Context, api API, id string, seen *agentapi.Job) (*agentapi.Job, error) {
	if seen != nil {
		return seen, nil
	}
	return api.Get(ctx, id)
}

// DryRun prints req, the request a run would send (a create, a follow-up,
// or a read), and sends nothing: the key is never printed, and the body is
// printed as it is, no line of it taken for a workflow command.
func DryRun(log runlog.Log, req agentapi.Request) {
	log.Printf("dry run: nothing is sent. The request would be:")
	log.Printf("%s %s", req.Method, escape.Log(req.URL))
	log.Printf("Authorization: Bearer ***")
	if req.Body != nil {
		log.Printf("Content-Type: application/json")
		log.Verbatim(string(req.Body))
	}
}

// Logged reports a wait in the log: each change of status, an unknown
// one, a failed poll, where the wait stands. The hall's adds the comment.
type Logged struct{ Progress runlog.Progress }

var _ poll.Observer = Logged{}

func (l Logged) StatusChanged(job *agentapi.Job, from string) {
	l.Progress.Logf("job %s: %s -> %s", escape.Log(job.ID), escape.Log(from), escape.Log(job.Status))
}

func (l Logged) UnknownStatus(job *agentapi.Job) {
	l.Progress.Logf("job %s has status %s, which this action does not know; still waiting", escape.Log(job.ID), escape.Log(job.Status))
}

// Sleeping tells the log where the wait stands: a terminal's status line,
// the Actions log's heartbeat. The job's id and status are redacted here:
// a status line cuts them to the terminal's width, and a cut made before
// redaction would leave a piece of a secret no redactor knows.
func (l Logged) Sleeping(job *agentapi.Job, next time.Time, beat bool) {
	log := l.Progress.Log
	log.Waiting(runlog.Wait{JobID: log.Redact(job.ID), Status: log.Redact(job.Status), Next: next, Elapsed: l.Progress.Elapsed(), Beat: beat})
}

func (l Logged) PollFailed(err error) {
	l.Progress.Logf("poll failed, will try again: %s", escape.Log(err.Error()))
}
