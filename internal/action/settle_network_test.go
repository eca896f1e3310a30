package action_test

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// refusing is a transport on which every connection to host is refused,
// as a runner's network refuses one, while the other hosts are reached.
type refusing struct{ host string }

func (r refusing) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host == r.host {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	return http.DefaultTransport.RoundTrip(req)
}

// TestSettleNetworkErrorsSayWhatToDo: a settle run that cannot reach the
// Agent API, or GitHub, says what to check, as a run that creates a job
// does, not only what failed.
func TestSettleNetworkErrorsSayWhatToDo(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		github bool // GitHub is the one not reached, else the Agent API
		failed bool // the run fails
		advice string
	}{
		{name: "the Agent API", advice: `connection refused (the API did not answer: check base-url and the network)"; the next settle run tries again`},
		{name: "GitHub", github: true, failed: true, advice: "connection refused; nothing was settled (GitHub did not answer: check GITHUB_API_URL and the network, then run again)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := openedNoWait(t, fakeapi.Scenario{Runtime: 8 * time.Minute})
			w.clk.Advance(10 * time.Minute)
			w.settleRun()
			host := w.api.URL
			if tt.github {
				host = w.gh.URL
			}
			u, err := url.Parse(host)
			if err != nil {
				t.Fatal(err)
			}
			w.env.Transport = refusing{host: u.Host}
			w.stdout.Reset()
			if err := w.run(context.Background()); (err != nil) != tt.failed {
				t.Fatalf("settle: %v, want it failed: %v\n%s", err, tt.failed, w.stdout.String())
			}
			if !strings.Contains(w.stdout.String(), tt.advice) {
				t.Errorf("the log lacks %q:\n%s", tt.advice, w.stdout.String())
			}
		})
	}
}
