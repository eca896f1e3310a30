package inputs_test

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/inputs"
)

const week = 7 * 24 * time.Hour

// FuzzParseDuration checks that an accepted duration is in (0, 7 days] and
// that its String form is accepted again as the same duration.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{
		"90", "90s", "45m", "1h30m", " 10m\n", "604800", "604801", "168h", "168h0m0.000000001s",
		"0", "-5", "+5", "0s", "-1s", "1ns", "0.5ns", "1.5µs", "1us", "9223372036854775807",
		"9223372036854775808", "99999999999h", "1e3", "", " ", "1h 30m", ".5s", "5.s", "\u00a030s\u2003",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := inputs.ParseDuration(s)
		if n, perr := strconv.ParseInt(strings.TrimSpace(s), 10, 64); perr == nil && n >= 1 && n <= int64(week/time.Second) {
			if err != nil || d != time.Duration(n)*time.Second {
				t.Fatalf("ParseDuration(%q) = %v, %v; want %ds", s, d, err, n)
			}
		}
		if err != nil {
			if d != 0 {
				t.Fatalf("ParseDuration(%q) = %v with error %v", s, d, err)
			}
			return
		}
		if d <= 0 || d > week {
			t.Fatalf("ParseDuration(%q) = %v, out of (0, 7 days]", s, d)
		}
		again, err := inputs.ParseDuration(d.String())
		if err != nil || again != d {
			t.Fatalf("ParseDuration(%q) = %v, but ParseDuration(%q) = %v, %v", s, d, d.String(), again, err)
		}
		if padded, err := inputs.ParseDuration(" \t" + s + "\n "); err != nil || padded != d {
			t.Fatalf("ParseDuration of padded %q = %v, %v; want %v", s, padded, err, d)
		}
	})
}

// FuzzParseBool checks that exactly "true" and "false", in any ASCII case
// and with surrounding space, are accepted.
func FuzzParseBool(f *testing.F) {
	for _, s := range []string{
		"true", "false", "TRUE", "False", " tRuE\n", "\tfalse ", "\u00a0true\u2003", "", "yes", "1", "0",
		"t", "truee", "tru e", "ſalse", "faLſe", "\u212aalse", "true\x00", "İ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := inputs.ParseBool(s)
		trimmed := strings.TrimSpace(s)
		wantOK, want := false, false
		switch {
		case asciiEqualFold(trimmed, "true"):
			wantOK, want = true, true
		case asciiEqualFold(trimmed, "false"):
			wantOK = true
		}
		if (err == nil) != wantOK {
			t.Fatalf("ParseBool(%q) error = %v, want ok = %v", s, err, wantOK)
		}
		if err == nil && b != want {
			t.Fatalf("ParseBool(%q) = %v, want %v", s, b, want)
		}
		if err != nil && b {
			t.Fatalf("ParseBool(%q) = true with error %v", s, err)
		}
	})
}

// asciiEqualFold is strings.EqualFold for ASCII letters only: unlike
// EqualFold it does not take "ſ" for "s" or "K" (Kelvin) for "k".
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// FuzzParseBaseURL checks that an accepted base URL is https (or http to a
// loopback host), names a host, has no user info, query or fragment, and
// can have the client's paths appended without changing where they go.
func FuzzParseBaseURL(f *testing.F) {
	for _, s := range []string{
		"https://api.mintlify.com", "https://api.mintlify.com/", " https://example.com/base/// ",
		"http://localhost:8080", "http://LOCALHOST", "http://127.0.0.1:9", "http://127.255.0.1", "http://[::1]:80/",
		"http://[::ffff:127.0.0.1]", "http://[::1%25lo]", "http://localhost.", "http://127.1", "http://example.com",
		"https://user:pw@example.com", "https://@example.com", "https://example.com?x=1", "https://example.com?",
		"https://example.com#frag", "https://example.com#", "https://example.com?#", "https://:443", "https://",
		"https:example.com", "//example.com", "ftp://example.com", "HTTPS://Example.COM/Path",
		"https://example.com/a%2Fb/", "https://example.com/%3F", "https://example.com/%23", "https://exa mple.com",
		"https://example.com\n", "javascript://example.com/%0aalert(1)", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := inputs.ParseBaseURL(s)
		if err != nil {
			if u != nil {
				t.Fatalf("ParseBaseURL(%q) returned a URL and error %v", s, err)
			}
			return
		}
		switch u.Scheme {
		case "https":
		case "http":
			if !loopback(u.Hostname()) {
				t.Fatalf("ParseBaseURL(%q) accepted http to non-loopback host %q", s, u.Hostname())
			}
		default:
			t.Fatalf("ParseBaseURL(%q) accepted scheme %q", s, u.Scheme)
		}
		if u.Hostname() == "" {
			t.Fatalf("ParseBaseURL(%q) accepted a URL with no host name (host %q)", s, u.Host)
		}
		if u.User != nil {
			t.Fatalf("ParseBaseURL(%q) accepted user info %q", s, u.User)
		}
		if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.Opaque != "" {
			t.Fatalf("ParseBaseURL(%q) accepted a query, fragment or opaque part: %#v", s, u)
		}
		str := u.String()
		if strings.ContainsAny(str, "?#") {
			t.Fatalf("ParseBaseURL(%q).String() = %q has a query or fragment", s, str)
		}
		if strings.HasSuffix(u.Path, "/") {
			t.Fatalf("ParseBaseURL(%q) left a trailing slash in path %q", s, u.Path)
		}
		// The client appends its paths to the string form.
		joined := strings.TrimRight(str, "/") + "/v2/agent/p"
		v, err := url.Parse(joined)
		if err != nil {
			t.Fatalf("ParseBaseURL(%q): %q does not parse: %v", s, joined, err)
		}
		if v.Scheme != u.Scheme || v.Host != u.Host || v.User != nil || v.RawQuery != "" || v.Fragment != "" ||
			!strings.HasSuffix(v.Path, "/v2/agent/p") {
			t.Fatalf("ParseBaseURL(%q): appending a path gives %#v", s, v)
		}
		again, err := inputs.ParseBaseURL(str)
		if err != nil || again.String() != str {
			t.Fatalf("ParseBaseURL(%q) = %q, which parses again to %v, %v", s, str, again, err)
		}
	})
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}
