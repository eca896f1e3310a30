package action

import (
	"net/url"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/report"
)

// bill is what the run cost, as finish reports it: the creates and
// follow-ups the API took (counted as the caps count them, see spent),
// the requests the run's HTTP client sent to the Agent Job API's jobs
// with GET (reads) and to GitHub's API, and the time it waited for the
// job.
func (r *run) bill() *report.Cost {
	c := r.cost
	if r.hc != nil {
		agent, github := "", host(r.rc.APIURL, ghclient.DefaultAPIURL)
		if r.cfg.BaseURL != nil {
			agent = r.cfg.BaseURL.Host
		}
		for s, n := range r.hc.Sent() {
			switch {
			case s.Host == agent && s.Method == "GET" && strings.Contains(s.Path, "/v2/agent/"):
				c.Reads += n
			case s.Host == github:
				c.GitHub += n
			}
		}
	}
	c.WaitedSeconds = int(c.Waited.Round(time.Second) / time.Second)
	r.billed = &c
	return &c
}

// host is the host of address, or of fallback when address is "".
func host(address, fallback string) string {
	if address == "" {
		address = fallback
	}
	u, err := url.Parse(address)
	if err != nil {
		return ""
	}
	return u.Host
}
