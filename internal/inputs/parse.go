package inputs

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ParseBool accepts true or false in any case, and nothing else.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errors.New("must be true or false")
}

// ParseDuration accepts a positive Go duration ("90s", "1h30m") or a whole
// number of seconds ("90").
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	// One wording of the bounds, whichever form was given.
	outOfRange := fmt.Errorf("must be more than 0 and at most %s (%d seconds)", maxDuration, int64(maxDuration/time.Second))
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n <= 0 || n > int64(maxDuration/time.Second) {
			return 0, outOfRange
		}
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, errors.New(`must be a duration such as "90s" or "45m", or a number of seconds`)
	}
	if d <= 0 || d > maxDuration {
		return 0, outOfRange
	}
	return d, nil
}

// maxDuration is far above any job (GitHub stops a job after 6 hours on
// hosted runners, 5 days on self-hosted) and keeps arithmetic away from overflow.
const maxDuration = 7 * 24 * time.Hour

// ParseBaseURL accepts an https URL, or http for a loopback host.
func ParseBaseURL(s string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Hostname() == "" || u.Opaque != "" {
		return nil, errors.New("must be an absolute URL such as https://api.mintlify.com")
	}
	if u.User != nil {
		return nil, errors.New("must not contain a user name or password: the API key is given on its own")
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return nil, errors.New("must not have a query or fragment")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !isLoopback(u.Hostname()) {
			return nil, errors.New("must use https:// (plain http:// is accepted only for localhost, 127.0.0.0/8 and ::1)")
		}
	default:
		return nil, errors.New("must use https://")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
