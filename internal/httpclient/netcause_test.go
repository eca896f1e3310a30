package httpclient

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"
)

func TestNetCause(t *testing.T) {
	t.Parallel()
	resolver := &net.DNSError{Err: "no such host", Name: "api.mintlify.com", Server: "10.0.0.53:53", IsNotFound: true}
	addrs := func(err error) *net.OpError {
		return &net.OpError{Op: "dial", Net: "tcp", Source: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 2), Port: 40000},
			Addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 54), Port: 443}, Err: err}
	}
	for _, tt := range []struct {
		name string
		err  error
		want string // "" for not a failure of the network
	}{
		{"lookup, in a url.Error", &url.Error{Op: "Post", URL: "https://api.mintlify.com/v2", Err: &net.OpError{Op: "dial", Net: "tcp", Err: resolver}}, "DNS lookup failed"},
		{"lookup timed out", &net.DNSError{Err: "i/o timeout", Name: "api.mintlify.com", Server: "10.0.0.53:53", IsTimeout: true}, "DNS lookup timed out"},
		{"refused", addrs(os.NewSyscallError("connect", syscall.ECONNREFUSED)), "connection refused"},
		{"reset", addrs(os.NewSyscallError("read", syscall.ECONNRESET)), "connection reset"},
		{"certificate", &tls.CertificateVerificationError{Err: errors.New("x509: unknown authority")}, "TLS handshake failed"},
		{"deadline", fmt.Errorf("get: %w", context.DeadlineExceeded), "no answer in time"},
		{"other dial failure", addrs(errors.New("network is unreachable")), "network error"},
		{"not the network", ErrBadBody, ""},
		{"nil", nil, ""},
	} {
		got, ok := NetCause(tt.err)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("%s: NetCause() = %q, %v; want %q", tt.name, got, ok, tt.want)
		}
	}
}
