package action

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"html"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
)

// unreachable is a transport on which the Agent API's host fails as a
// runner's network does, with the runner's resolver or its own address in
// the error, while the fake GitHub is reached.
type unreachable struct {
	host string
	err  error
}

func (u unreachable) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host == u.host {
		return nil, u.err
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestUnreachedAPIInPublic: a run that cannot reach the Agent API says so
// in its public comment and its job summary in the API's terms, without
// the network's internals (the resolver's address, the runner's), which
// stay in the log.
func TestUnreachedAPIInPublic(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		err    error
		public string
		detail string // in the log only
	}{
		{
			name:   "DNS",
			err:    &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "api.mintlify.com", Server: "10.0.0.53:53", IsNotFound: true}},
			public: "create job: could not reach the Agent API (api.mintlify.com): DNS lookup failed",
			detail: "lookup api.mintlify.com on 10.0.0.53:53: no such host",
		},
		{
			name: "refused",
			err: &net.OpError{Op: "dial", Net: "tcp", Source: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 53), Port: 40000},
				Addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 54), Port: 443}, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)},
			public: "create job: could not reach the Agent API (api.mintlify.com): connection refused",
			detail: "dial tcp 10.0.0.53:40000->10.0.0.54:443: connect: connection refused",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clk := clock.NewFake(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
			gh := fakegithub.New(fakegithub.Options{Token: ghToken, Repos: []string{"acme/docs"}, Check: ghspec.Checker(),
				Permissions: map[string]string{"writer": "write"}})
			defer gh.Close()
			dir := t.TempDir()
			name, payload := commentEvent("writer", "/docs add a page on limits")
			data, err := json.Marshal(payload)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "event.json")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			rc := runner.Context{InActions: true, Workspace: dir, EventName: name, EventPath: path,
				Repository: "acme/docs", APIURL: gh.APIURL(), ServerURL: "https://github.com", RunID: "4242",
				OutputFile: filepath.Join(dir, "output"), SummaryFile: filepath.Join(dir, "summary"),
				Inputs: map[string]string{"project-id": "proj", "api-key": key, "github-token": ghToken,
					"trigger-phrase": "/docs", "required-permission": "write", "comment": "auto"}}
			var log bytes.Buffer
			deps := Deps{Clock: clk, Schedule: poll.Fixed(10 * time.Second), Transport: unreachable{host: "api.mintlify.com", err: tt.err}}
			_, err = Run(context.Background(), rc, deps, Streams{Log: runlog.NewActions(&log)})
			var runErr *report.Error
			if !errors.As(err, &runErr) || runErr.End != report.Errored {
				t.Fatalf("Run error %v, want one that ends %v\n%s", err, report.Errored, log.String())
			}
			if !strings.Contains(log.String(), tt.detail) {
				t.Errorf("the log lacks the detail %q:\n%s", tt.detail, log.String())
			}
			comments := gh.Comments(12)
			if len(comments) != 1 {
				t.Fatalf("%d comments, want 1", len(comments))
			}
			summary, err := os.ReadFile(rc.SummaryFile)
			if err != nil {
				t.Fatal(err)
			}
			for where, md := range map[string]string{"the comment": comments[0].Body, "the summary": string(summary)} {
				// As a reader sees it: escaped characters as themselves.
				text := strings.ReplaceAll(html.UnescapeString(md), "\u2060", "")
				if !strings.Contains(text, tt.public) {
					t.Errorf("%s lacks %q:\n%s", where, tt.public, text)
				}
				for _, internal := range []string{"10.0.0.53", "10.0.0.54", ":53", "dial tcp", "lookup api"} {
					if strings.Contains(text, internal) {
						t.Errorf("%s holds %q:\n%s", where, internal, text)
					}
				}
			}
		})
	}
}
