// Package httpclient is the one HTTP client of the action, for the Agent Job
// API and for GitHub alike. It decides, in one place, which requests may be
// sent again after a failure: reading is safe to repeat, creating is not.
package httpclient

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/agentjob/agent-job-action/internal/clock"
)

// Defaults for Options fields left zero.
const (
	DefaultRequestTimeout = 30 * time.Second
	DefaultMaxBodyBytes   = 4 << 20
	DefaultRetryMax       = 4
	DefaultBackoffMin     = time.Second
	DefaultBackoffMax     = 30 * time.Second
)

// ErrBodyTooLarge is returned when a response body is longer than the cap.
var ErrBodyTooLarge = errors.New("response body too large")

// ErrBadBody marks a 2xx response whose body is not what the API promises
// (truncated JSON, an HTML page from a proxy). A response handler returns it
// to ask for the request to be repeated, when repeating is safe.
var ErrBadBody = errors.New("malformed response body")

// RetryAfterError says the server asked us to wait longer than the time left.
type RetryAfterError struct {
	Status int
	Wait   time.Duration
	Left   time.Duration
}

func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("HTTP %d: the server asks to wait %s before trying again, but only %s is left of the timeout",
		e.Status, e.Wait.Round(time.Second), e.Left.Round(time.Second))
}

// Retry describes one retry about to happen, for the log.
type Retry struct {
	Status  int // 0 when the request got no response
	Wait    time.Duration
	Attempt int // 1 for the first retry
}

// Options configure a Client. Zero values take the defaults above.
type Options struct {
	UserAgent      string
	Clock          clock.Clock
	Deadline       time.Time // on Clock; zero means none
	RequestTimeout time.Duration
	MaxBodyBytes   int64
	RetryMax       int
	BackoffMin     time.Duration
	BackoffMax     time.Duration
	// OnRetry is called before each wait. It must not print URLs or headers.
	OnRetry func(Retry)
	// Transport is the underlying round tripper; nil means a fresh clone of
	// http.DefaultTransport.
	Transport http.RoundTripper
}

// Client sends requests with the action's retry policy.
type Client struct {
	rc  *retryablehttp.Client
	opt Options
	// ctx is the run's context: retryablehttp's Backoff hook gets no context,
	// and the wait between attempts must end on cancellation.
	ctx context.Context
}

// New builds a client whose waits end when ctx does.
func New(ctx context.Context, o Options) *Client {
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.RetryMax <= 0 {
		o.RetryMax = DefaultRetryMax
	}
	if o.BackoffMin <= 0 {
		o.BackoffMin = DefaultBackoffMin
	}
	if o.BackoffMax <= 0 {
		o.BackoffMax = DefaultBackoffMax
	}
	base := o.Transport
	if base == nil {
		base = http.DefaultTransport.(*http.Transport).Clone()
	}
	c := &Client{opt: o, ctx: ctx}
	c.rc = &retryablehttp.Client{
		HTTPClient: &http.Client{
			Transport:     capBody{base: base, max: o.MaxBodyBytes},
			Timeout:       o.RequestTimeout,
			CheckRedirect: sameHostOnly,
		},
		// No logger: retryablehttp's would print every URL. OnRetry reports
		// retries instead, without URLs.
		Logger:       nil,
		RetryWaitMin: o.BackoffMin,
		RetryWaitMax: o.BackoffMax,
		RetryMax:     o.RetryMax,
		CheckRetry:   c.checkRetry,
		Backoff:      c.backoff,
		// Hand back the last response, not retryablehttp's "giving up" error,
		// so callers can read its status and body.
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
	return c
}

// HTTPClient returns a standard client that applies the same policy, for
// libraries that want an *http.Client (go-github).
func (c *Client) HTTPClient() *http.Client {
	return &http.Client{Transport: &roundTripper{c: c}}
}

type roundTripper struct{ c *Client }

func (t *roundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	req, err := retryablehttp.FromRequest(r)
	if err != nil {
		return nil, err
	}
	resp, err := t.c.Do(req)
	if err != nil && resp != nil {
		// http.Client wants one or the other.
		resp.Body.Close()
		resp = nil
	}
	return resp, err
}

// Do sends req, repeating it only where the policy allows.
func (c *Client) Do(req *retryablehttp.Request) (*http.Response, error) {
	if c.opt.UserAgent != "" {
		req.Header.Set("User-Agent", c.opt.UserAgent)
	}
	ctx := context.WithValue(req.Context(), methodKey{}, req.Method)
	return c.rc.Do(req.WithContext(ctx))
}

type methodKey struct{}

// repeatable is the policy's core: may this request be sent a second time
// when we do not know whether the first reached the server? GET and HEAD only
// read. PUT and DELETE are idempotent by definition. PATCH is here because the
// action's only PATCH sets a comment's body, and setting it twice is harmless.
// POST creates (a job, a follow-up, a comment): sending it twice could start
// two jobs, so it is repeated only when the server certainly did not act.
func repeatable(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions:
		return true
	}
	return false
}

func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	method, _ := ctx.Value(methodKey{}).(string)
	safe := repeatable(method)
	if err != nil {
		switch {
		case errors.Is(err, ErrBodyTooLarge), errors.Is(err, errRedirect):
			return false, err
		case errors.Is(err, ErrBadBody):
			return safe, err
		case safe:
			return true, err
		default:
			return NeverConnected(err), err
		}
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		// The server refused before doing anything: safe for every method.
		if wait, ok := retryAfter(resp, c.opt.Clock.Now()); ok && !c.opt.Deadline.IsZero() {
			if left := c.opt.Deadline.Sub(c.opt.Clock.Now()); wait > left {
				return false, &RetryAfterError{Status: resp.StatusCode, Wait: wait, Left: max(left, 0)}
			}
		}
		return true, nil
	case resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented:
		return safe, nil
	}
	return false, nil
}

// NeverConnected reports whether err happened before the request could be
// sent: no connection, or a TLS handshake that failed, so the server cannot
// have seen the request.
func NeverConnected(err error) bool {
	var (
		op   *net.OpError
		dns  *net.DNSError
		cert *tls.CertificateVerificationError
		rec  tls.RecordHeaderError
	)
	return errors.As(err, &op) && op.Op == "dial" || errors.As(err, &dns) || errors.As(err, &cert) || errors.As(err, &rec)
}

// backoff waits on the run's clock and returns zero, so retryablehttp's own
// timer fires at once: tests with a simulated clock then never sleep.
func (c *Client) backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	wait, ok := retryAfter(resp, c.opt.Clock.Now())
	if !ok {
		wait = minWait << min(attempt, 16)
		wait = min(wait, maxWait)
	}
	if !c.opt.Deadline.IsZero() {
		wait = min(wait, max(c.opt.Deadline.Sub(c.opt.Clock.Now()), 0))
	}
	if c.opt.OnRetry != nil {
		r := Retry{Wait: wait, Attempt: attempt + 1}
		if resp != nil {
			r.Status = resp.StatusCode
		}
		c.opt.OnRetry(r)
	}
	// Not resp.Request.Context(): http.Client's timeout cancels that one as
	// soon as the body is closed.
	_ = c.opt.Clock.Sleep(c.ctx, wait) // on cancellation the next attempt fails at once with ctx.Err()
	return 0
}

// retryAfter reads a Retry-After header in seconds or as an HTTP date.
func retryAfter(resp *http.Response, now time.Time) (time.Duration, bool) {
	if resp == nil || (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable) {
		return 0, false
	}
	v := resp.Header.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 || s > int64(24*time.Hour/time.Second) {
			return 0, false
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

var errRedirect = errors.New("redirect to another host refused")

// sameHostOnly refuses redirects that leave the host, so credentials are
// never sent elsewhere, and hands back a redirect answering anything but a
// read, so a POST is never silently turned into a GET.
func sameHostOnly(req *http.Request, via []*http.Request) error {
	if via[0].Method != http.MethodGet && via[0].Method != http.MethodHead {
		return http.ErrUseLastResponse
	}
	if len(via) >= 5 {
		return errors.New("too many redirects")
	}
	if req.URL.Host != via[0].URL.Host || req.URL.Scheme != via[0].URL.Scheme {
		return errRedirect
	}
	return nil
}

// capBody stops reading a response body after max bytes.
type capBody struct {
	base http.RoundTripper
	max  int64
}

func (t capBody) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > t.max {
		resp.Body.Close()
		return nil, fmt.Errorf("%w: %d bytes announced, at most %d read", ErrBodyTooLarge, resp.ContentLength, t.max)
	}
	resp.Body = &cappedReader{rc: resp.Body, left: t.max}
	return resp, nil
}

type cappedReader struct {
	rc   io.ReadCloser
	left int64
}

func (r *cappedReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		// One byte more than allowed tells a long body from one of exactly max.
		var one [1]byte
		if n, _ := r.rc.Read(one[:]); n > 0 {
			return 0, ErrBodyTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := r.rc.Read(p)
	r.left -= int64(n)
	return n, err
}

func (r *cappedReader) Close() error { return r.rc.Close() }

// StripURLs returns err with the request URLs that *url.Error puts in its
// message left out (they can carry ids and hosts that have no place in a log
// line), keeping errors.Is and errors.As working on the original.
func StripURLs(err error) error {
	var ue *url.Error
	if err == nil || !errors.As(err, &ue) {
		return err
	}
	op, inner := ue.Op, ue.Err
	for errors.As(inner, &ue) {
		inner = ue.Err
	}
	// What the callers wrapped around the *url.Error stays: "get job: ".
	prefix, _, _ := strings.Cut(err.Error(), op+" \"")
	return &cleanError{msg: prefix + op + " request failed: " + inner.Error(), err: err}
}

// Rewrap keeps err for errors.Is and errors.As but shows msg.
func Rewrap(msg string, err error) error { return &cleanError{msg: msg, err: err} }

type cleanError struct {
	msg string
	err error
}

func (e *cleanError) Error() string { return e.msg }
func (e *cleanError) Unwrap() error { return e.err }
