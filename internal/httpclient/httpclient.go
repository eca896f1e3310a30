// Package httpclient is the one HTTP client of the action, for the Agent Job
// API and for GitHub alike. Its callers say, for each call, what may be
// sent again (Policy: a read or a call that sets a value is Repeatable, a
// call that creates is Once); this package owns, in one place, the
// judgement of a failed attempt under that policy: whether it may be sent
// again, and whether the server may have acted on it (see Failure). It
// knows nothing of its callers' calls.
//
// go-retryablehttp runs the loop and is used as it is meant to be: each
// call gets a retrying client of its own whose CheckRetry knows the call's
// policy and classifies each attempt, Backoff returns the real wait,
// ErrorHandler turns the last attempt into a *Failure, and the request's
// context carries cancellation, with one exception: a call that creates
// whose request was written is heard out for HearOut after its context
// ends (see Once).
package httpclient

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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

// HearOut is how long a call that creates (Once), its request written,
// waits for its answer after its context ended: the answer says whether
// the server acted, and the caller records what it sent, where a cut
// call leaves the caller to guess, and its next run to send it again.
// The runner cancels a step with SIGINT and kills it 10 s later
// (runner.InterruptGrace, runner.TermGrace); publish.Reporter.Keep and
// publish.LastWords bound what the run writes after it.
const HearOut = 2 * time.Second

// ErrBodyTooLarge is returned when a response body is longer than the cap.
var ErrBodyTooLarge = errors.New("response body too large")

// ErrBadBody marks a 2xx response whose body is not what the API promises
// (truncated JSON, an HTML page from a proxy). A response handler returns it
// to ask for the request to be repeated, when repeating is safe.
var ErrBadBody = errors.New("malformed response body")

var errRedirect = errors.New("redirect to another host refused")

// Retry describes one retry about to happen, for the log.
type Retry struct {
	Status int // 0 when the request got no response
	// Err is why the attempt got no usable answer (no such host, a reset
	// connection, a body that is not what the API promises), without
	// URLs; nil when the answer's status says why.
	Err     error
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
	// Redact, when set, replaces the secrets in a service's reason before
	// the reason is cut to its bound (Failure.Message): cut first, a
	// secret that straddles the cut would leave a piece no redactor knows.
	Redact func(string) string
	// HearOut replaces HearOut, the time a create under way is heard out
	// after its context ends (tests); zero is HearOut.
	HearOut time.Duration
}

// Client sends requests with the action's retry policy. Waits between
// attempts end when the request's context does.
type Client struct {
	http *http.Client // one attempt, with the body cap, the timeout and the redirect policy
	opt  Options
	sent *tally
}

// NewJSONRequest is a request to an API that takes a bearer key and
// speaks JSON: body, when not nil, is sent as JSON, and JSON is asked for.
// It is an error, and nothing is sent, when ctx has already ended.
func NewJSONRequest(ctx context.Context, method, target, key string, body []byte) (*http.Request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// New builds a client.
func New(o Options) *Client {
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
	sent := &tally{n: map[Sent]int{}}
	return &Client{opt: o, sent: sent, http: &http.Client{
		Transport:     capBody{base: counting{base: base, sent: sent}, max: o.MaxBodyBytes},
		Timeout:       o.RequestTimeout,
		CheckRedirect: checkRedirect,
	}}
}

// HTTPClient returns a standard client that applies the same policy, for
// go-github. It hands back every answer the server gave, whatever its status,
// because go-github reads the status and body itself; it returns a *Failure
// only when there is no answer to read (no connection, a refused redirect) or
// when the server asks to wait longer than the time left.
//
// go-github adds Authorization inside the transport, below this client, so
// Go's rule of dropping credentials on a redirect to another host never sees
// the header: this client, like the inner one, decides redirects itself.
//
// p applies to every request the returned client sends: a caller with
// calls of both kinds holds one client for each.
func (c *Client) HTTPClient(p Policy) *http.Client {
	return &http.Client{Transport: &roundTripper{c: c, p: p}, CheckRedirect: checkRedirect}
}

type roundTripper struct {
	c *Client
	p Policy
}

func (t *roundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	req, err := retryablehttp.FromRequest(r)
	if err != nil {
		return nil, err
	}
	resp, err := t.c.do(req, t.p)
	var f *Failure
	if err == nil || errors.As(err, &f) && resp != nil && f.Err == nil && f.Kind != RateLimited {
		return resp, nil
	}
	if resp != nil {
		// http.Client wants one or the other.
		resp.Body.Close()
	}
	return nil, err
}

// Policy says what may be sent again of one call, and until when. The
// caller decides it, for each call, from what the call does: the transport
// knows nothing of its callers.
type Policy struct {
	Kind Kind
	// Outlive, when not zero, keeps the call's retries going until Outlive
	// after it starts, on the client's clock, when that is later than the
	// client's Deadline: a write that goes on past the run's end (the
	// record of what a run sent, publish.Reporter.Keep), under a context
	// of its own that bounds it on the wall's clock. Waits are cut to the
	// time left then, as they are before the Deadline, and each Repeatable
	// attempt takes a third of what that context has left: one that hangs
	// leaves time for more.
	Outlive time.Duration
}

// Kind is what a call does, which says whether it may be sent again.
type Kind int

const (
	// Repeatable is a call that reads, or that sets something to a value
	// (a comment's body, a reaction, the reviewers of a pull request):
	// sending it twice changes nothing, so it is repeated on any
	// transient failure.
	Repeatable Kind = iota + 1
	// Once is a call that creates something (a job, a follow-up, a
	// comment): sending it twice could create two. It is repeated only when
	// the server provably did not act on it: no connection was made, or it
	// answered 429, or 503 with a Retry-After. Its context's end stops
	// it at once before its request is written, and between attempts;
	// once an attempt's request is written, its answer is waited for
	// HearOut more, and no attempt starts after.
	Once
)

// Doer sends a request under the policy its caller gives each call: the
// Agent Job API's and the preview API's clients take one. *Client is one,
// which returns a 2xx response that accept took, or an error: a *Failure
// for everything the server or the network did.
type Doer interface {
	Do(req *http.Request, p Policy, accept func(*http.Response) error) (*http.Response, error)
}

var _ Doer = (*Client)(nil)

// Do sends req under policy p. accept, when not nil, reads a 2xx response
// and returns ErrBadBody or ErrBodyTooLarge (wrapped) when it cannot use
// it; under Repeatable the request is then sent again. Do returns a 2xx
// response that accept took, or an error: a *Failure, which also wraps the
// context's error on cancellation.
func (c *Client) Do(req *http.Request, p Policy, accept func(*http.Response) error) (*http.Response, error) {
	rreq, err := retryablehttp.FromRequest(req)
	if err != nil {
		return nil, err
	}
	if accept != nil {
		rreq.SetResponseHandler(accept)
	}
	resp, err := c.do(rreq, p)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		return nil, err
	}
	return resp, nil
}

// attempts is what one call learns over its attempts: its policy, its
// context and deadline, the last failure, for when the wait between
// attempts is cut short, and whether the attempt under way wrote its
// request.
type attempts struct {
	policy Policy
	// ctx is the call's context as its caller gave it; deadline is when
	// its retries stop, on the client's clock (zero: never): the client's
	// Deadline, or later for a call that outlives it (Policy.Outlive).
	ctx      context.Context
	deadline time.Time
	last     *Failure
	// wrote is set when the transport has written the headers of the
	// attempt under way (httptrace): before that no byte of the request
	// can have reached the server. CheckRetry takes it for each attempt.
	wrote atomic.Bool
	// answering is set with wrote, and cleared when the call waits to
	// try again: while it is set, the server may be acting on a request
	// of the call's, and a call that creates hears it out.
	answering atomic.Bool
	// cut ends the context a call that creates is sent with (hearOut);
	// nil for other calls. heard is how long it is heard out.
	cut   context.CancelCauseFunc
	heard time.Duration
}

// hearOut is the context of the call a: ctx's values and its end, except
// that when ctx ends while an attempt's request is written and its answer
// not yet read (answering), the attempt gets HearOut more. It ends with
// ctx's cause.
func (a *attempts) hearOut(ctx context.Context) context.Context {
	out, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	a.cut = cancel
	stop := context.AfterFunc(ctx, func() {
		cause := context.Cause(ctx)
		if !a.answering.Load() {
			cancel(cause)
			return
		}
		t := time.AfterFunc(a.heard, func() { cancel(cause) })
		context.AfterFunc(out, func() { t.Stop() })
	})
	// Ended with the call (do), the wait on ctx is dropped.
	context.AfterFunc(out, func() { stop() })
	return out
}

// waiting says that the call a waits to try again: nothing of it is under
// way, and the end of its context, come or to come, cuts the wait at
// once.
func (a *attempts) waiting() {
	a.answering.Store(false)
	if a.cut != nil && a.ctx.Err() != nil {
		// It ended while the last attempt was answering.
		a.cut(context.Cause(a.ctx))
	}
}

// do sends req with a retrying client of its own, whose hooks know the
// call's policy: retryablehttp's hooks get nothing else.
func (c *Client) do(req *retryablehttp.Request, p Policy) (*http.Response, error) {
	if c.opt.UserAgent != "" {
		req.Header.Set("User-Agent", c.opt.UserAgent)
	}
	a := &attempts{policy: p, ctx: req.Context(), deadline: c.opt.Deadline, heard: cmp.Or(c.opt.HearOut, HearOut)}
	hc := c.http
	if p.Outlive > 0 {
		if t := c.opt.Clock.Now().Add(p.Outlive); !a.deadline.IsZero() && t.After(a.deadline) {
			a.deadline = t
		}
		if end, ok := a.ctx.Deadline(); ok && p.Kind == Repeatable {
			// Each attempt takes a third of what the call had: one that
			// hangs leaves time for more.
			third := *c.http
			third.Timeout = min(c.http.Timeout, max(time.Until(end)/3, time.Millisecond))
			hc = &third
		}
	}
	ctx := a.ctx
	if p.Kind == Once {
		// Its answer says what the server did: heard out when ctx ends
		// under way.
		ctx = a.hearOut(ctx)
	}
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteHeaders: func() {
			a.wrote.Store(true)
			a.answering.Store(true)
		},
	}))
	rc := &retryablehttp.Client{
		HTTPClient: hc,
		// No logger: retryablehttp's would print every URL. OnRetry
		// reports retries instead, without URLs.
		Logger:       nil,
		RetryWaitMin: c.opt.BackoffMin,
		RetryWaitMax: c.opt.BackoffMax,
		RetryMax:     c.opt.RetryMax,
		CheckRetry: func(_ context.Context, resp *http.Response, err error) (bool, error) {
			return c.checkRetry(a, resp, err)
		},
		Backoff: func(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
			return c.backoff(a, minWait, maxWait, attempt, resp)
		},
		ErrorHandler: c.errorHandler,
	}
	resp, err := rc.Do(req)
	var f *Failure
	if err != nil && !errors.As(err, &f) {
		// Cancelled while waiting between attempts: retryablehttp returns the
		// context's error alone. The last attempt says what the server saw.
		kind := Transient
		if a.last != nil {
			kind = a.last.Kind
		}
		err = &Failure{Kind: kind, Err: err}
	}
	if a.cut != nil {
		// The call's own context ends with its answer's body (or now,
		// with no answer to read): nothing of it outlives the call.
		if resp == nil {
			a.cut(context.Canceled)
		} else {
			resp.Body = &endsWith{ReadCloser: resp.Body, end: func() { a.cut(context.Canceled) }}
		}
	}
	return resp, err
}

// endsWith is a response body that ends its call's context when closed.
type endsWith struct {
	io.ReadCloser
	end func()
}

func (b *endsWith) Close() error {
	err := b.ReadCloser.Close()
	b.end()
	return err
}

// FailureKind says what a failed request means for the caller.
type FailureKind int

// The kinds of failure. They answer the two questions every caller has: may
// the request be sent again, and may the server have acted on it?
const (
	// Refused: the server answered and did not act (a 4xx, a redirect that
	// was not followed, 501). Sending the same request again will not help.
	Refused FailureKind = iota + 1
	// Transient: the server did not act, or the request only reads; trying
	// again later may succeed (a 5xx to a read, a connection that never
	// opened, a 408 or 429, a read redirected to another host: the redirect
	// is refused, but the next poll may be answered).
	Transient
	// MayHaveActed: a call that creates (Once) was sent and its fate is
	// unknown (a 5xx, a dropped connection, an unreadable answer). It is
	// never sent again.
	MayHaveActed
	// RateLimited: the server asked, with Retry-After, for a wait that does
	// not fit in the time left before the deadline. The server did not act.
	RateLimited
)

// String names the kind, for test output and debugging.
func (k FailureKind) String() string {
	switch k {
	case Refused:
		return "refused"
	case Transient:
		return "transient"
	case MayHaveActed:
		return "may have acted"
	case RateLimited:
		return "rate limited"
	}
	return "FailureKind(" + strconv.Itoa(int(k)) + ")"
}

// Failure is a request that did not succeed, classified once, here.
type Failure struct {
	Kind FailureKind
	// Status is the last answer's HTTP status, 0 when there was none.
	Status int
	// Message is the service's own reason: the "error" field of a JSON body
	// (the Agent Job API's), else its "message" (GitHub's). It is untrusted
	// text, kept as data; escaping is the job of whoever prints it.
	Message string
	// RetryAfter is the wait the server asked for, when it asked.
	RetryAfter time.Duration
	// Left is the time that was left before the deadline, for RateLimited.
	Left time.Duration
	// Err is the underlying error when there was no usable answer: a
	// transport error, ErrBadBody, ErrBodyTooLarge, the context's error.
	Err error
}

// Error shows the status and the service's reason, or the underlying error
// without URLs; for RateLimited, also the wait asked and the time left (the
// status, 429 or 503, already says it was a refusal to serve now).
func (f *Failure) Error() string {
	var b strings.Builder
	if f.Err != nil {
		b.WriteString(StripURLs(f.Err).Error())
	} else {
		fmt.Fprintf(&b, "HTTP %d %s", f.Status, http.StatusText(f.Status))
		if f.Message != "" {
			b.WriteString(": " + f.Message)
		}
	}
	if f.Kind == RateLimited {
		fmt.Fprintf(&b, "; the server asks to wait %s before trying again, but only %s is left of the timeout",
			humanWait(f.RetryAfter), f.Left.Round(time.Second))
	}
	return b.String()
}

// Unwrap returns Err, so errors.Is finds context.Canceled, ErrBadBody...
func (f *Failure) Unwrap() error { return f.Err }

// humanWait prints a wait; one past a year is only "more than a year".
func humanWait(d time.Duration) string {
	if d > 365*24*time.Hour {
		return "more than a year"
	}
	return d.Round(time.Second).String()
}

// classify judges one attempt. It returns nil for a success, and whether
// sending the request again at once may help.
func (c *Client) classify(a *attempts, resp *http.Response, err error, wrote bool) (*Failure, bool) {
	safe := a.policy.Kind == Repeatable
	unknown := MayHaveActed
	if safe {
		unknown = Transient
	}
	if err != nil {
		f := &Failure{Kind: unknown, Err: err}
		if resp != nil {
			f.Status = resp.StatusCode
		}
		switch {
		case errors.Is(err, ErrBodyTooLarge) && safe:
			// The same answer would come again, at every poll: a read
			// of it is refused for good, and said once.
			f.Kind = Refused
			return f, false
		case errors.Is(err, ErrBodyTooLarge), errors.Is(err, errRedirect):
			// The same answer would come again.
			return f, false
		case neverConnected(err), !wrote && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
			// Nothing of the request was written: no connection, or the
			// call's time ended before the request was (an attempt
			// that starts as a short timeout ends, a dial cut short).
			f.Kind = Transient
			return f, true
		}
		return f, safe
	}
	code := resp.StatusCode
	f := &Failure{Kind: unknown, Status: code}
	switch {
	case code >= 200 && code <= 299:
		return nil, false
	case code == http.StatusTooManyRequests, code == http.StatusServiceUnavailable && (safe || resp.Header.Get("Retry-After") != ""):
		// A 429 says the server did nothing, for any call; a 503 is taken
		// at its word for a call that may be repeated, and for one that
		// creates only when it says when to come back (a proxy may answer
		// a bare 503 after the service took the request). Either may say
		// when to come back.
		f.Kind = Transient
		if wait, ok := retryAfter(resp, c.opt.Clock.Now()); ok {
			f.RetryAfter = wait
			if left, bounded := c.left(a); bounded && wait > left {
				f.Kind, f.Left = RateLimited, left
				return f, false
			}
		}
		return f, true
	case code == http.StatusRequestTimeout:
		// The server gave up waiting for the request: it did not act.
		f.Kind = Transient
		return f, true
	case code == http.StatusNotImplemented, code >= 300 && code <= 499:
		f.Kind = Refused
		return f, false
	}
	return f, safe
}

// left is the time left before the call a's deadline, and whether it has
// one.
func (c *Client) left(a *attempts) (time.Duration, bool) {
	if a.deadline.IsZero() {
		return 0, false
	}
	return max(a.deadline.Sub(c.opt.Clock.Now()), 0), true
}

func (c *Client) checkRetry(a *attempts, resp *http.Response, err error) (bool, error) {
	f, again := c.classify(a, resp, err, a.wrote.Swap(false))
	if f == nil {
		return false, nil
	}
	a.last = f
	// Cancelled (the caller's context: a call heard out starts no attempt
	// after it ended), or no time left for another attempt. A request
	// cancelled in flight is judged as any dropped connection: a call
	// that creates may have acted.
	if left, bounded := c.left(a); a.ctx.Err() != nil || bounded && left <= 0 {
		again = false
	}
	// The failure goes back with the decision: retryablehttp hands the last
	// one to the ErrorHandler when it stops.
	return again, f
}

// backoff returns the wait before the next attempt: what the server asked
// for with Retry-After (CheckRetry has already refused a wait that does not
// fit), else an exponential backoff capped by the time left. The clock says
// how much of it is real: a simulated clock moves on and returns 0. a holds
// the attempt that failed, whose cause OnRetry hears.
func (c *Client) backoff(a *attempts, minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	a.waiting()
	wait, ok := retryAfter(resp, c.opt.Clock.Now())
	if !ok {
		wait = min(minWait<<min(attempt, 16), maxWait)
		if left, bounded := c.left(a); bounded {
			wait = min(wait, left)
		}
	}
	if c.opt.OnRetry != nil {
		r := Retry{Wait: wait, Attempt: attempt + 1}
		if resp != nil {
			r.Status = resp.StatusCode
		}
		if a.last != nil && a.last.Err != nil {
			r.Err = c.cause(a.last.Err)
		}
		c.opt.OnRetry(r)
	}
	return c.opt.Clock.Pass(wait)
}

// maxMessageBytes bounds the service's reason kept in a Failure.
const maxMessageBytes = 1 << 10

// errorHandler runs when retryablehttp stops without success. It fills in
// the service's reason and keeps the response, with its body whole, for
// HTTPClient's callers; Do closes it.
func (c *Client) errorHandler(resp *http.Response, err error, _ int) (*http.Response, error) {
	var f *Failure
	if !errors.As(err, &f) {
		// Not from CheckRetry: the request could not be rewound or prepared.
		if resp != nil {
			resp.Body.Close()
		}
		return nil, err
	}
	if resp == nil {
		return nil, f
	}
	if f.Err != nil {
		// The answer was unusable (a body too large or malformed).
		resp.Body.Close()
		return nil, f
	}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	f.Message = c.reason(data)
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(data), resp.Body), resp.Body}
	return resp, f
}

// reason returns the service's own text from an error body, redacted,
// then cut to maxMessageBytes.
func (c *Client) reason(data []byte) string {
	var body struct {
		Error   any    `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal(data, &body) != nil {
		return ""
	}
	msg, _ := body.Error.(string)
	if msg == "" {
		msg = body.Message
	}
	if c.opt.Redact != nil {
		msg = c.opt.Redact(msg)
	}
	if len(msg) > maxMessageBytes {
		msg = strings.ToValidUTF8(msg[:maxMessageBytes], "") + "…"
	}
	return msg
}

// neverConnected reports whether err happened before the request could be
// sent: no connection, or a TLS handshake that failed, so the server cannot
// have seen the request.
func neverConnected(err error) bool {
	var (
		op   *net.OpError
		dns  *net.DNSError
		cert *tls.CertificateVerificationError
		rec  tls.RecordHeaderError
	)
	return errors.As(err, &op) && op.Op == "dial" || errors.As(err, &dns) || errors.As(err, &cert) || errors.As(err, &rec)
}

// retryAfter reads a 429's or 503's Retry-After header, in seconds or as an
// HTTP date, of any size: seconds too many for a Duration saturate. A value
// that is neither (negative, garbage) is no answer, and the backoff's own
// wait applies.
func retryAfter(resp *http.Response, now time.Time) (time.Duration, bool) {
	if resp == nil || (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable) {
		return 0, false
	}
	v := strings.TrimSpace(resp.Header.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if strings.Trim(v, "0123456789") == "" {
		s, err := strconv.ParseUint(v, 10, 64)
		if err != nil || s > uint64(math.MaxInt64/int64(time.Second)) {
			return time.Duration(math.MaxInt64), true // too many digits for a Duration
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// checkRedirect is the redirect policy of every http.Client here that may
// carry a credential. A redirect is followed only for a read, to the same
// scheme and host (port included), at most 4 times. A redirect that leaves
// the host is refused before any request is sent there; a redirect answering
// anything but a read is handed back unfollowed, so a POST, PATCH or DELETE
// is never sent twice nor turned into a GET.
func checkRedirect(req *http.Request, via []*http.Request) error {
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
	op, inner := ue.Op, beneathURLs(ue.Err)
	// What the callers wrapped around the *url.Error stays: "get job: ".
	prefix, _, _ := strings.Cut(err.Error(), op+" \"")
	return &cleanError{msg: prefix + op + " request failed: " + inner.Error(), err: err}
}

// cause is why an attempt got no usable answer, for OnRetry: an attempt
// that ran out of time says so in one wording (Go words it differently by
// the moment the timeout struck), anything else in Go's words, without URLs.
func (c *Client) cause(err error) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("no answer within %s", c.opt.RequestTimeout)
	}
	return beneathURLs(err)
}

// beneathURLs is what the *url.Errors in err wrap, innermost: the reason
// without the request's method and URL ("dial tcp: lookup api.example: no
// such host").
func beneathURLs(err error) error {
	var ue *url.Error
	for errors.As(err, &ue) {
		err = ue.Err
	}
	return err
}

// Rewrap keeps err for errors.Is and errors.As but shows msg.
func Rewrap(msg string, err error) error { return &cleanError{msg: msg, err: err} }

type cleanError struct {
	msg string
	err error
}

func (e *cleanError) Error() string { return e.msg }
func (e *cleanError) Unwrap() error { return e.err }

// Sent is one kind of request a client sent: its method, host (with the
// port, when the address names one) and path.
type Sent struct {
	Method, Host, Path string
}

// Sent returns how many requests the client has sent, by kind: every
// attempt, a retry included, whatever its answer, as a service counts
// what it was asked.
func (c *Client) Sent() map[Sent]int {
	c.sent.mu.Lock()
	defer c.sent.mu.Unlock()
	return maps.Clone(c.sent.n)
}

// tally counts the requests sent, by kind.
type tally struct {
	mu sync.Mutex
	n  map[Sent]int
}

// counting counts each request it carries, before it is sent.
type counting struct {
	base http.RoundTripper
	sent *tally
}

func (t counting) RoundTrip(r *http.Request) (*http.Response, error) {
	t.sent.mu.Lock()
	t.sent.n[Sent{Method: r.Method, Host: r.URL.Host, Path: r.URL.Path}]++
	t.sent.mu.Unlock()
	return t.base.RoundTrip(r)
}
