package action_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/record"
)

// TestUnverifiedSenderGetsNothingWritten: when the
// permission cannot be read, the run fails and writes nothing to GitHub:
// no reaction, no comment, not even "Could not finish".
func TestUnverifiedSenderGetsNothingWritten(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusInternalServerError} {
		h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
		gh := h.withGitHub(fakegithub.Options{Fault: func(w http.ResponseWriter, r *http.Request) bool {
			if strings.Contains(r.URL.Path, "/permission") {
				w.WriteHeader(status)
				return true
			}
			return false
		}}, "issue_comment", issueComment("writer", "/docs add a page"))
		if err := h.run(context.Background()); err == nil {
			t.Fatalf("HTTP %d: the run acted although the permission could not be read", status)
		}
		for _, r := range gh.Requests() {
			if r.Method != http.MethodGet {
				t.Errorf("HTTP %d: wrote to GitHub before the sender was verified: %s %s", status, r.Method, r.Path)
			}
		}
		if len(gh.Comments(12)) != 0 || len(gh.Reactions()) != 0 {
			t.Errorf("HTTP %d: a comment or reaction for an unverified sender", status)
		}
		if n := len(h.api.Requests()); n != 0 {
			t.Errorf("HTTP %d: %d Agent Job API requests", status, n)
		}
		if !strings.Contains(h.stdout.String(), "::error::check who triggered the run: ") {
			t.Errorf("HTTP %d: no error line:\n%s", status, h.stdout.String())
		}
	}
}

// TestMarkersNeedAKnownIdentity: when the run could
// neither react nor create its own comment, it does not know the token's
// identity, so no
// marker is trusted, not even one from a bot: it starts a new job and says
// so.
func TestMarkersNeedAKnownIdentity(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
	gh := h.withGitHub(fakegithub.Options{ForbidComments: true, ForbidReactions: true}, "issue_comment", issueComment("writer", "/docs again"))
	h.api.AddJob("job_bot", "completed")
	gh.SeedComment(12, fakegithub.BotLogin, true, recorded(record.Record{JobID: "job_bot"}))
	gh.SeedComment(12, "other-app[bot]", true, recorded(record.Record{JobID: "job_bot"}))
	if err := h.run(context.Background()); err != nil {
		t.Fatalf("run: %v\n%s", err, h.stdout.String())
	}
	h.wantRequests(1, 0)
	if !strings.Contains(h.stdout.String(), "no earlier job is continued: ") || !strings.Contains(h.stdout.String(), "starting a new job") {
		t.Errorf("the log does not say why a new job started:\n%s", h.stdout.String())
	}
	for _, r := range gh.Requests() {
		if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/issues/12/comments") {
			t.Errorf("read the thread for markers it could not trust: %s", r.Path)
		}
	}
}

// TestUnwritableRunnerFilesSendNothing: a step that
// could not report a job's id must not create one.
func TestUnwritableRunnerFilesSendNothing(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fakeapi.Scenario{Runtime: time.Minute})
			dir := filepath.Join(t.TempDir(), "ro")
			if err := os.Mkdir(dir, 0o500); err != nil {
				t.Fatal(err)
			}
			h.vars[name] = filepath.Join(dir, "missing", "file")
			err := h.run(context.Background())
			if err == nil {
				t.Fatalf("run succeeded with %s unwritable", name)
			}
			if n := len(h.api.Requests()); n != 0 {
				t.Errorf("%d Agent Job API requests: a job nobody can find", n)
			}
			if !strings.Contains(h.stdout.String(), "::error::"+name+" cannot be written") {
				t.Errorf("the error does not name %s:\n%s", name, h.stdout.String())
			}
		})
	}
}
