package reads

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/admit"
	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/plan"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/runlog"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
	"github.com/google/go-github/v62/github"
)

// fakeGitHub answers permissions from levels (a login not in it is an
// error) and a review's line comments; it records every read.
type fakeGitHub struct {
	levels map[string]string
	err    error // of a permission read
	lines  []*ghclient.ReviewComment
	reads  []string
}

func (f *fakeGitHub) Permission(_ context.Context, owner, repo, login string) (string, error) {
	f.reads = append(f.reads, "permission "+login)
	if f.err != nil {
		return "", f.err
	}
	return f.levels[login], nil
}

func (f *fakeGitHub) ReviewComments(_ context.Context, owner, repo string, n int, id int64) ([]*ghclient.ReviewComment, error) {
	f.reads = append(f.reads, "lines")
	return f.lines, nil
}

var trig = &event.Trigger{Event: "issue_comment", Owner: "acme", Repo: "docs", Number: 7}

func own(who, body string, kind request.Kind) *request.Request {
	return &request.Request{Key: request.Key{Kind: kind, ID: 1}, Author: who, Body: body}
}

// TestJudge: the reads the plan names, in its order, and its decision.
func TestJudge(t *testing.T) {
	t.Parallel()
	rules := admit.Rules{Phrase: "/docs", Required: "write", Instruction: true}
	forbidden := &github.ErrorResponse{Response: &http.Response{StatusCode: http.StatusForbidden}}
	tests := []struct {
		name  string
		p     plan.Plan
		gh    *fakeGitHub
		reads []string
		skip  string
		err   string
		lines int
		valid bool
		level string
	}{
		{name: "a writer", p: plan.Plan{Rules: rules, Own: own("ada", "/docs add a page", request.Comment), Check: &plan.Check{Owner: "acme", Repo: "docs", Login: "ada"}},
			gh: &fakeGitHub{levels: map[string]string{"ada": "write"}}, reads: []string{"permission ada"}, valid: true, level: "write"},
		{name: "a reader is refused", p: plan.Plan{Rules: rules, Own: own("rex", "/docs add a page", request.Comment), Check: &plan.Check{Owner: "acme", Repo: "docs", Login: "rex"}},
			gh: &fakeGitHub{levels: map[string]string{"rex": "read"}}, reads: []string{"permission rex"}, skip: "rex has read permission"},
		{name: "only the phrase", p: plan.Plan{Rules: rules, Own: own("ada", "/docs", request.Comment), Check: &plan.Check{Owner: "acme", Repo: "docs", Login: "ada"}},
			gh: &fakeGitHub{levels: map[string]string{"ada": "write"}}, reads: []string{"permission ada"}},
		{name: "a permission that cannot be read", p: plan.Plan{Rules: rules, Own: own("ada", "/docs x", request.Comment), Check: &plan.Check{Owner: "acme", Repo: "docs", Login: "ada"}},
			gh: &fakeGitHub{err: errors.Join(errors.New("HTTP 403"), forbidden)}, reads: []string{"permission ada"},
			err: "check who triggered the run: HTTP 403"},
		{name: "an opener who may not ask: nothing more read", p: plan.Plan{Rules: rules, Own: own("ada", "/docs x", request.Event),
			Check: &plan.Check{Owner: "acme", Repo: "docs", Login: "ada"}, Opener: own("rex", "", request.Event), OpenerCheck: &plan.Check{Owner: "acme", Repo: "docs", Login: "rex"}},
			gh: &fakeGitHub{levels: map[string]string{"ada": "write", "rex": "read"}}, reads: []string{"permission ada", "permission rex"},
			skip: "pull request #7 was opened by rex"},
		{name: "a review with its lines", p: plan.Plan{Rules: rules, Own: own("ada", "/docs see the lines", request.Review), Lines: true, Check: &plan.Check{Owner: "acme", Repo: "docs", Login: "ada"}},
			gh:    &fakeGitHub{levels: map[string]string{"ada": "write"}, lines: []*ghclient.ReviewComment{{ID: 5, Body: "shorter", Path: "a.md"}}},
			reads: []string{"permission ada", "lines"}, lines: 1, valid: true, level: "write"},
		{name: "a reader's review: its lines are not read", p: plan.Plan{Rules: rules, Own: own("rex", "/docs see the lines", request.Review), Lines: true, Check: &plan.Check{Owner: "acme", Repo: "docs", Login: "rex"}},
			gh: &fakeGitHub{levels: map[string]string{"rex": "read"}}, reads: []string{"permission rex"}, skip: "rex has read permission"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			before := tt.p.Own
			v, err := Reader{GitHub: tt.gh, Log: runlog.NewPlain(&out)}.Judge(context.Background(), tt.p, trig)
			if (err == nil) != (tt.err == "") || err != nil && !strings.HasPrefix(err.Error(), tt.err) {
				t.Fatalf("Judge() error %v, want %q", err, tt.err)
			}
			if !slices.Equal(tt.gh.reads, tt.reads) {
				t.Errorf("reads %q, want %q", tt.gh.reads, tt.reads)
			}
			if err != nil {
				return
			}
			if !strings.HasPrefix(v.Skip, tt.skip) || (tt.skip == "") != (v.Skip == "") {
				t.Errorf("Skip %q, want %q", v.Skip, tt.skip)
			}
			if tt.valid != (v.Skip == "" && v.Invalid == nil) || v.Level != tt.level && tt.valid {
				t.Errorf("verdict %+v, want admitted %v at %q", v, tt.valid, tt.level)
			}
			if tt.valid && len(v.Own.Lines) != tt.lines {
				t.Errorf("%d line comments judged, want %d", len(v.Own.Lines), tt.lines)
			}
			if len(before.Lines) != 0 {
				t.Errorf("the plan's own request was changed: it has %d lines", len(before.Lines))
			}
		})
	}
}

// TestPermissionAdvice: a permission GitHub refuses says what to do.
func TestPermissionAdvice(t *testing.T) {
	t.Parallel()
	forbidden := &github.ErrorResponse{Response: &http.Response{StatusCode: http.StatusForbidden}}
	gh := &fakeGitHub{err: forbidden}
	_, err := Reader{GitHub: gh}.Permission(context.Background(), &plan.Check{Owner: "acme", Repo: "docs", Login: "ada"}, "check who triggered the run")
	if err == nil || !strings.Contains(err.Error(), "nobody is trusted without it (the token needs metadata: read)") {
		t.Errorf("Permission() error %v", err)
	}
	if l, err := (Reader{GitHub: gh}).Permission(context.Background(), nil, "x"); l != "" || err != nil || len(gh.reads) != 1 {
		t.Errorf("no check read: %q, %v after %q", l, err, gh.reads)
	}
}
