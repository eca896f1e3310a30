package httpclient

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"syscall"
)

// NetCause words why a request got no answer from the network, for a
// reader outside the run (a public comment, the job summary): "DNS lookup
// failed", "connection refused". Go's own words for these name the
// runner's resolver and addresses ("lookup api.mintlify.com on
// 10.0.0.53:53"), which belong in the log only. ok is false when err is
// not a failure of the network.
func NetCause(err error) (cause string, ok bool) {
	var (
		dns  *net.DNSError
		cert *tls.CertificateVerificationError
		rec  tls.RecordHeaderError
		ne   net.Error
		op   *net.OpError
	)
	switch {
	case errors.As(err, &dns) && dns.IsTimeout:
		return "DNS lookup timed out", true
	case errors.As(err, &dns):
		return "DNS lookup failed", true
	case errors.As(err, &cert), errors.As(err, &rec):
		return "TLS handshake failed", true
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused", true
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset", true
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return "no answer in time", true
	case errors.As(err, &op):
		return "network error", true
	}
	return "", false
}
