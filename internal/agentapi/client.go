package agentapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/invisible"
	"github.com/agentjob/agent-job-action/internal/terms"
)

// Client talks to one project of the Agent Job API.
type Client struct {
	doer    httpclient.Doer
	base    string
	project string
	key     string
	// Terms names the settings in the advice of its errors: the action's
	// inputs, or the command line's flags.
	Terms terms.Terms
}

// New returns a client for projectID at base (no trailing slash needed).
func New(doer httpclient.Doer, base *url.URL, projectID, apiKey string) *Client {
	return &Client{
		doer:    doer,
		base:    strings.TrimRight(base.String(), "/"),
		project: projectID,
		key:     apiKey,
	}
}

// maxJobBytes bounds a job record; real ones are a few hundred bytes.
const maxJobBytes = 1 << 20

// Operation names, used in errors and logs.
const (
	OpCreate  = "create job"
	OpMessage = "send follow-up"
	OpGet     = "get job"
)

// Error is a failed call to the API: the operation, the job it was about
// ("" for a create), and the failure as the HTTP layer classified it. Its
// text adds what to do about it, naming the settings in Terms.
type Error struct {
	Op      string
	JobID   string
	Failure *httpclient.Failure
	Terms   terms.Terms
	// Host is the API's host (api.mintlify.com), which Public names when
	// the network failed.
	Host string
}

func (e *Error) Error() string {
	op := e.Op
	if e.JobID != "" {
		op += " " + escape.Log(e.JobID)
	}
	return op + ": " + e.Failure.Error() + e.advice()
}

func (e *Error) Unwrap() error { return e.Failure }

// Public is the error's text for a reader outside the run (a comment on
// the thread, the job summary): a failure of the network is said in the
// API's terms ("could not reach the Agent API (api.mintlify.com): DNS
// lookup failed"), without the runner's resolver and addresses that Error
// keeps for the log. Any other failure reads as Error does.
func (e *Error) Public() string {
	cause, ok := httpclient.NetCause(e.Failure.Err)
	if !ok {
		return e.Error()
	}
	op := e.Op
	if e.JobID != "" {
		op += " " + escape.Log(e.JobID)
	}
	what := "could not reach"
	if e.Failure.Kind == httpclient.MayHaveActed {
		// The request was sent; its answer was lost.
		what = "lost the answer of"
	}
	return op + ": " + what + " the Agent API (" + escape.Log(e.Host) + "): " + cause + e.advice()
}

// Public is err's text for a reader outside the run: each *Error in it
// worded by its Public; the words wrapped around it stay.
func Public(err error) string {
	text := err.Error()
	var e *Error
	if errors.As(err, &e) {
		text = strings.Replace(text, e.Error(), e.Public(), 1)
	}
	return text
}

// advice says what to do, by what the failure means.
func (e *Error) advice() string {
	f := e.Failure
	post := e.Op != OpGet
	name := e.Terms.Name
	switch {
	case f.Kind == httpclient.MayHaveActed && e.Op == OpMessage:
		return "; the follow-up may or may not have been delivered: look at the project's agent jobs in the Mintlify dashboard before running again"
	case f.Kind == httpclient.MayHaveActed:
		return "; the job may or may not have been created: look at the project's agent jobs in the Mintlify dashboard before running again"
	case f.Kind == httpclient.RateLimited && post:
		return "; try again later, or raise " + name("timeout") + " (" + limit + ")"
	case f.Kind == httpclient.RateLimited:
		return "; try again later, or raise " + name("timeout")
	case f.Status == http.StatusUnauthorized, f.Status == http.StatusForbidden:
		return " (check that the key in " + name("api-key") + " is an admin API key for the project in " + name("project-id") + ")"
	case f.Status == http.StatusTooManyRequests:
		return " (" + limit + "; try again later)"
	case f.Status >= 300 && f.Status < 400:
		return " (unexpected redirect; check " + name("base-url") + ")"
	case f.Status == http.StatusNotFound && e.Op == OpCreate:
		return " (check " + name("project-id") + " and " + name("base-url") + ")"
	case f.Status == http.StatusNotFound:
		return " (this project has no such job: check " + name("job-id") + " and " + name("project-id") +
			"; the project's agent jobs are listed in the Mintlify dashboard)"
	case f.Kind == httpclient.Transient && f.Status == 0 && post:
		return " (the request did not reach the API: check " + name("base-url") + " and the network, then run again)"
	case f.Kind == httpclient.Transient && f.Status == 0:
		// A read is repeated until the run's time is up: whoever reads
		// again (the caller says who) meets the same network.
		return " (the API did not answer: check " + name("base-url") + " and the network)"
	}
	return ""
}

// limit is the API's documented rate limit, as the advice on a 429 states
// it; the README's Limits says what it means for a run.
const limit = "the API allows 100 creates and follow-ups per project per hour: " + LimitsURL

// LimitsURL is the one statement of the API's rate limit, and of what the
// poll schedule costs in its terms: the README's Limits.
const LimitsURL = "https://github.com/agentjob/agent-job-action#limits"

// Request is a request the client would send, for dry runs.
type Request struct {
	Method string
	URL    string
	Body   []byte
}

// Create starts a job.
func (c *Client) Create(ctx context.Context, prompt string) (*Job, error) {
	return c.send(ctx, OpCreate, "", c.CreateRequest(prompt))
}

// Message sends a follow-up prompt to job id. An id that is not one path
// segment is refused before anything is sent.
func (c *Client) Message(ctx context.Context, id, prompt string) (*Job, error) {
	if err := CheckJobID(id); err != nil {
		return nil, fmt.Errorf("%s: %w", OpMessage, err)
	}
	return c.send(ctx, OpMessage, id, c.MessageRequest(id, prompt))
}

// Get reads job id. An id that is not one path segment is refused before
// anything is sent.
func (c *Client) Get(ctx context.Context, id string) (*Job, error) {
	if err := CheckJobID(id); err != nil {
		return nil, fmt.Errorf("%s: %w", OpGet, err)
	}
	return c.send(ctx, OpGet, id, c.GetRequest(id))
}

// GetRequest describes the call that reads job id.
func (c *Client) GetRequest(id string) Request {
	return Request{Method: http.MethodGet, URL: c.jobURL(id)}
}

// CheckJobID refuses a job id that could change the request's path rather
// than name a job: empty, with a slash or backslash, a dot segment (".",
// ".."), whitespace or control characters. The error does not repeat the id.
func CheckJobID(id string) error {
	var problem string
	switch {
	case id == "":
		problem = "it is empty"
	case strings.ContainsAny(id, `/\`):
		problem = "it contains a slash"
	case id == "." || strings.Contains(id, ".."):
		problem = `it is "." or contains ".."`
	case strings.ContainsFunc(id, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		problem = "it contains whitespace or control characters"
	default:
		return nil
	}
	return fmt.Errorf("not a job id (%s): a job id such as job_0001 is one word without slashes, dots in a row, spaces or control characters", problem)
}

// CreateRequest describes the create call for prompt.
func (c *Client) CreateRequest(prompt string) Request {
	return Request{Method: http.MethodPost, URL: c.projectURL() + "/job", Body: promptBody(prompt)}
}

// MessageRequest describes the follow-up call to job id.
func (c *Client) MessageRequest(id, prompt string) Request {
	return Request{Method: http.MethodPost, URL: c.jobURL(id) + "/message", Body: promptBody(prompt)}
}

func (c *Client) projectURL() string {
	return c.base + "/v2/agent/" + url.PathEscape(c.project)
}

func (c *Client) jobURL(id string) string {
	return c.projectURL() + "/job/" + url.PathEscape(id)
}

// promptBody is the one place text goes to the agent: a create, a
// follow-up, and the request a dry run shows. The prompt is cleaned of what
// a reader does not see (invisible.Clean): text hidden in variation
// selectors, tag characters, zero-width characters or bidirectional
// controls, in a comment, a title, a login, a path or a diff hunk, never
// reaches the agent; the emoji a reader sees as one picture stay whole.
func promptBody(prompt string) []byte {
	b, _ := json.Marshal(struct {
		Prompt string `json:"prompt"`
	}{invisible.Clean(prompt)}) // a struct of one string always marshals
	return b
}

func (c *Client) send(ctx context.Context, op, id string, r Request) (*Job, error) {
	req, err := httpclient.NewJSONRequest(ctx, r.Method, r.URL, c.key, r.Body)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err) // nothing was sent
	}
	var job *Job
	accept := func(resp *http.Response) error {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return nil
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxJobBytes+1))
		if err != nil {
			return err
		}
		if len(data) > maxJobBytes {
			size := "more"
			if resp.ContentLength > 0 {
				size = fmt.Sprintf("%d bytes", resp.ContentLength)
			}
			return fmt.Errorf("%w: the API's reply is %s, over the %d KiB cap on a job record (real ones are a few hundred bytes); check %s", httpclient.ErrBodyTooLarge, size, maxJobBytes>>10, c.Terms.Name("base-url"))
		}
		job, err = DecodeJob(data)
		if err != nil {
			// err says "not a job record" and why.
			return fmt.Errorf("%w: the reply is %v; check %s", httpclient.ErrBadBody, err, c.Terms.Name("base-url"))
		}
		return nil
	}
	resp, err := c.doer.Do(req, policy(op), accept)
	var f *httpclient.Failure
	switch {
	case errors.As(err, &f):
		return nil, &Error{Op: op, JobID: id, Failure: f, Terms: c.Terms, Host: req.URL.Host}
	case err != nil:
		return nil, fmt.Errorf("%s: %w", op, httpclient.StripURLs(err))
	}
	resp.Body.Close()
	if job == nil {
		// A httpclient.Doer that did not call accept.
		return nil, fmt.Errorf("%s: %w: no job record read", op, httpclient.ErrBadBody)
	}
	return job, nil
}

// policy is what may be sent again of each call: reading a job is safe to
// repeat; creating a job or sending a follow-up is not, as a second one
// would start a second job or deliver the message twice.
func policy(op string) httpclient.Policy {
	if op == OpGet {
		return httpclient.Policy{Kind: httpclient.Repeatable}
	}
	return httpclient.Policy{Kind: httpclient.Once}
}
