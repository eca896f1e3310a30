// Package preview is a client for the provider's preview deployments
// (same admin key, same host as the Agent Job API): ask for a preview of a
// branch, read where its build stands, and wait for it within a deadline.
package preview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/terms"
)

// Client asks for previews of one project. Its requests go to base only:
// every URL is base and a fixed path, with the project and status ids as
// single escaped segments, so neither the API's answers nor a branch name
// can send the key to another host (httpclient refuses redirects there).
type Client struct {
	doer    httpclient.Doer
	base    string
	project string
	key     string
	// Terms names the settings in the advice of its errors: the action's
	// inputs, or the command line's flags.
	Terms terms.Terms
}

// New returns a client for projectID at base (the base-url input).
func New(doer httpclient.Doer, base *url.URL, projectID, apiKey string) *Client {
	return &Client{doer: doer, base: strings.TrimRight(base.String(), "/"), project: projectID, key: apiKey}
}

// Operation names, used in errors.
const (
	OpTrigger = "request preview"
	OpStatus  = "read preview status"
)

// Build states the API documents. Success and Failure are final.
const (
	Queued     = "queued"
	InProgress = "in_progress"
	Success    = "success"
	Failure    = "failure"
)

// maxAnswerBytes bounds an answer: a status holds a summary, a few URLs
// and the build's log lines.
const maxAnswerBytes = 1 << 20

// Deployment is a preview asked for: the status to follow, and where the
// preview will be.
type Deployment struct {
	StatusID string
	URL      string
}

// Status is where a preview's build stands.
type Status struct {
	State   string `json:"status"`
	Summary string `json:"summary"`
	// Screenshot is an image of the preview, "" when none is given; the
	// light one when only themed ones are.
	Screenshot      string `json:"screenshot"`
	ScreenshotLight string `json:"screenshotLight"`
}

// Final reports whether the build has ended.
func (s *Status) Final() bool { return s.State == Success || s.State == Failure }

// Image returns the screenshot to show, "" when there is none.
func (s *Status) Image() string {
	if s.Screenshot != "" {
		return s.Screenshot
	}
	return s.ScreenshotLight
}

// Error is a failed call: the operation and the failure as the HTTP layer
// classified it. Its text adds what to do about it.
type Error struct {
	Op      string
	Failure *httpclient.Failure
	Terms   terms.Terms // how the advice names the settings
}

func (e *Error) Error() string { return e.Op + ": " + e.Failure.Error() + e.advice() }

func (e *Error) Unwrap() error { return e.Failure }

func (e *Error) advice() string {
	switch {
	case NotInPlan(e):
		return " (the project's plan has no preview deployments; set " + e.Terms.Setting("preview", "false") + " to stop asking)"
	case e.Failure.Status == http.StatusUnauthorized:
		return " (check that " + e.Terms.Name("api-key") + " is an admin API key for this " + e.Terms.Name("project-id") + ")"
	case e.Failure.Status == http.StatusNotFound && e.Op == OpTrigger:
		return " (check " + e.Terms.Name("project-id") + " and " + e.Terms.Name("base-url") + ")"
	}
	return ""
}

// NotInPlan reports whether err is the API's answer that the project's
// plan has no preview deployments: 403 to a request for one.
func NotInPlan(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Op == OpTrigger && e.Failure.Status == http.StatusForbidden
}

// Trigger asks for a preview of branch: a new deployment, or a new build
// of the branch's existing one.
func (c *Client) Trigger(ctx context.Context, branch string) (*Deployment, error) {
	if branch == "" {
		return nil, fmt.Errorf("%s: no branch", OpTrigger)
	}
	body, _ := json.Marshal(struct {
		Branch string `json:"branch"`
	}{branch}) // a struct of one string always marshals
	var out struct {
		StatusID   string `json:"statusId"`
		PreviewURL string `json:"previewUrl"`
	}
	u := c.base + "/v1/project/preview/" + url.PathEscape(c.project)
	if err := c.send(ctx, OpTrigger, http.MethodPost, u, body, &out); err != nil {
		return nil, err
	}
	if out.StatusID == "" {
		return nil, fmt.Errorf("%s: %w: the answer has no statusId; check %s", OpTrigger, httpclient.ErrBadBody, c.Terms.Name("base-url"))
	}
	return &Deployment{StatusID: out.StatusID, URL: out.PreviewURL}, nil
}

// Status reads where deployment id stands. An id that is not one path
// segment is refused before anything is sent.
func (c *Client) Status(ctx context.Context, id string) (*Status, error) {
	if id == "" || id == "." || id == ".." {
		// Escaped, any other id is one path segment; these two would be
		// read as the path's own.
		return nil, fmt.Errorf("%s: %q is not a status id", OpStatus, id)
	}
	var s Status
	if err := c.send(ctx, OpStatus, http.MethodGet, c.base+"/v1/project/update-status/"+url.PathEscape(id), nil, &s); err != nil {
		return nil, err
	}
	if s.State == "" {
		return nil, fmt.Errorf("%s: %w: the answer has no status; check %s", OpStatus, httpclient.ErrBadBody, c.Terms.Name("base-url"))
	}
	return &s, nil
}

// repeatable says what may be sent again of each call: both may. Reading
// a status changes nothing, and asking for a branch's preview twice builds
// the same branch into the same preview once more, which is what the
// first request asked for.
var repeatable = httpclient.Policy{Kind: httpclient.Repeatable}

func (c *Client) send(ctx context.Context, op, method, u string, body []byte, out any) error {
	req, err := httpclient.NewJSONRequest(ctx, method, u, c.key, body)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err) // nothing was sent
	}
	read := false
	accept := func(resp *http.Response) error {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return nil // the HTTP layer reads the service's reason
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
		if err != nil {
			return err
		}
		if len(data) > maxAnswerBytes {
			return fmt.Errorf("%w: the answer is over the %d KiB cap; check %s", httpclient.ErrBodyTooLarge, maxAnswerBytes>>10, c.Terms.Name("base-url"))
		}
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%w: the answer is not JSON (%v); check %s", httpclient.ErrBadBody, err, c.Terms.Name("base-url"))
		}
		read = true
		return nil
	}
	resp, err := c.doer.Do(req, repeatable, accept)
	var f *httpclient.Failure
	switch {
	case errors.As(err, &f):
		return &Error{Op: op, Failure: f, Terms: c.Terms}
	case err != nil:
		return fmt.Errorf("%s: %w", op, httpclient.StripURLs(err))
	}
	resp.Body.Close()
	if !read {
		return fmt.Errorf("%s: %w: no answer read", op, httpclient.ErrBadBody)
	}
	return nil
}

// ErrTimedOut is returned when the deadline comes before the build ends.
var ErrTimedOut = errors.New("the preview was not ready before the timeout")

// DefaultInterval is the wait between two reads of a build's status: a
// docs build takes a minute or more.
const DefaultInterval = 10 * time.Second

// Waiter waits for a build to end.
type Waiter struct {
	Previews interface {
		Status(ctx context.Context, id string) (*Status, error)
	}
	Clock    clock.Clock
	Interval time.Duration // 0 is DefaultInterval
	Deadline time.Time     // on Clock
}

// Wait reads deployment id's status every Interval until the build ends,
// and returns its last status: Success or Failure; with ErrTimedOut when
// Deadline comes first, ctx's error on cancellation, or the error of a
// read that another read would meet too (the status is gone, the key is
// refused). A transient failure is read through.
func (w *Waiter) Wait(ctx context.Context, id string) (*Status, error) {
	every := w.Interval
	if every <= 0 {
		every = DefaultInterval
	}
	var last *Status
	for {
		left := w.Deadline.Sub(w.Clock.Now())
		if left <= 0 {
			return last, ErrTimedOut
		}
		if err := w.Clock.Sleep(ctx, min(every, left)); err != nil {
			return last, err
		}
		if !w.Clock.Now().Before(w.Deadline) {
			return last, ErrTimedOut
		}
		s, err := w.Previews.Status(ctx, id)
		var f *httpclient.Failure
		switch {
		case err == nil:
			last = s
			if s.Final() {
				return s, nil
			}
		case ctx.Err() != nil:
			return last, ctx.Err()
		case errors.As(err, &f) && f.Kind == httpclient.Transient:
			continue
		default:
			return last, err
		}
	}
}
