package agentapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/agentjob/agent-job-action/internal/httpclient"
)

// Doer sends a request with the action's retry policy.
type Doer interface {
	Do(*retryablehttp.Request) (*http.Response, error)
}

// Client talks to one project of the Agent Job API.
type Client struct {
	doer    Doer
	base    string
	project string
	key     string
}

// New returns a client for projectID at base (no trailing slash needed).
func New(doer Doer, base *url.URL, projectID, apiKey string) *Client {
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

// StatusError is an answer from the API other than success.
type StatusError struct {
	Code    int
	Message string // the API's "error" text, if any; untrusted
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("HTTP %d %s", e.Code, http.StatusText(e.Code))
	if e.Message != "" {
		msg += ": " + e.Message
	}
	switch e.Code {
	case http.StatusUnauthorized, http.StatusForbidden:
		msg += " (check that api-key is an admin API key for this project-id)"
	case http.StatusTooManyRequests:
		msg += " (the API allows 100 creates and messages per project per hour; try again later)"
	}
	return msg
}

// UncertainError wraps a failure after a create or follow-up was sent: the
// server may have acted on it. Such a request is never sent again.
type UncertainError struct {
	Op  string
	Err error
}

func (e *UncertainError) Error() string {
	what := "the job may or may not have been created"
	if e.Op == OpMessage {
		what = "the follow-up may or may not have been delivered"
	}
	return fmt.Sprintf("%v; %s: look at the project's agent jobs in the Mintlify dashboard before running again", e.Err, what)
}

func (e *UncertainError) Unwrap() error { return e.Err }

// Request is a request the client would send, for dry runs.
type Request struct {
	Method string
	URL    string
	Body   []byte
}

// Create starts a job.
func (c *Client) Create(ctx context.Context, prompt string) (*Job, error) {
	return c.send(ctx, OpCreate, c.CreateRequest(prompt))
}

// Message sends a follow-up prompt to job id.
func (c *Client) Message(ctx context.Context, id, prompt string) (*Job, error) {
	return c.send(ctx, OpMessage, c.MessageRequest(id, prompt))
}

// Get reads job id.
func (c *Client) Get(ctx context.Context, id string) (*Job, error) {
	return c.send(ctx, OpGet, Request{Method: http.MethodGet, URL: c.jobURL(id)})
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

func promptBody(prompt string) []byte {
	b, _ := json.Marshal(struct {
		Prompt string `json:"prompt"`
	}{prompt}) // a struct of one string always marshals
	return b
}

func (c *Client) send(ctx context.Context, op string, r Request) (*Job, error) {
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Accept", "application/json")
	if r.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	var job *Job
	req.SetResponseHandler(func(resp *http.Response) error {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return nil
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxJobBytes+1))
		if err != nil {
			return err
		}
		if len(data) > maxJobBytes {
			return fmt.Errorf("%w: a job record over %d KiB", httpclient.ErrBodyTooLarge, maxJobBytes>>10)
		}
		job, err = DecodeJob(data)
		if err != nil {
			return fmt.Errorf("%w: %v", httpclient.ErrBadBody, err)
		}
		return nil
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err) // nothing was sent
	}
	resp, err := c.doer.Do(req)
	if resp != nil {
		defer resp.Body.Close()
	}
	if err == nil && job == nil {
		err = statusError(resp)
	}
	if err == nil {
		return job, nil
	}
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	err = httpclient.StripURLs(err)
	if r.Method == http.MethodPost && mayHaveActed(err) {
		err = &UncertainError{Op: op, Err: err}
	}
	return nil, fmt.Errorf("%s: %w", op, err)
}

// mayHaveActed reports whether a failed POST may have been carried out by
// the server: anything but a refusal it answered (4xx, including a 429 we
// could not wait out) or a connection that never opened.
func mayHaveActed(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Code >= 500 || se.Code < 400
	}
	var ra *httpclient.RetryAfterError
	return !errors.As(err, &ra) && !httpclient.NeverConnected(err)
}

func statusError(resp *http.Response) error {
	e := &StatusError{Code: resp.StatusCode}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var body struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(data, &body) == nil {
		e.Message = body.Error
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		e.Message = "unexpected redirect; check base-url"
	}
	return e
}
