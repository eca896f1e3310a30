package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/cli"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/record"
	reqmodel "github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
)

// hostileThreadCPUBound is what the run of TestHostileThreadWithinBounds
// may spend reading its hostile thread and answering (34 s before).
const hostileThreadCPUBound = 15 * time.Second

// TestHostileThreadWithinBounds runs the built binary
// as a step whose thread holds 1,100 outsiders' requests at GitHub's size
// limit, each 65,536 characters of four-byte emoji: the run reads what it
// must within a bound on requests and peak memory, and writes its
// comment. Its search for the thread's job reads as far as it may (no
// page it reads names one) and is cut, which is not "no job": it sends
// nothing, and fails saying why, rather than start a second job. It logs
// the time, the requests and the bytes for the closing note. It asserts
// the run's peak memory and its CPU time, never the wall time.
func TestHostileThreadWithinBounds(t *testing.T) {
	t.Parallel()
	bin, launcher := buildCLI(t), buildLauncher(t)
	api := newCLIFake(t, fakeapi.Scenario{})
	gh := fakegithub.New(fakegithub.Options{Token: testToken, Repos: []string{"acme/docs"}, Check: ghspec.Checker(),
		Permissions: map[string]string{"writer": "write"}})
	t.Cleanup(gh.Close)
	answered := &backlog.Record{Sent: []reqmodel.Key{{Kind: reqmodel.Comment, ID: 1}}, Upto: time.Unix(1764060000, 0)}
	gh.SeedComment(12, fakegithub.BotLogin, true, conversation.Render(conversation.State{Phase: conversation.Done, Record: record.Record{Answered: answered}}))
	huge := "/docs " + strings.Repeat("😀", 65530)
	for range 1100 {
		gh.SeedComment(12, "stranger", false, huge)
	}
	own := gh.SeedComment(12, "writer", false, "/docs mention the SLA")

	ws := t.TempDir()
	event := filepath.Join(ws, "event.json")
	payload := issueComment("writer", "/docs mention the SLA")
	payload["comment"].(map[string]any)["id"] = own
	payload["issue"].(map[string]any)["comments"] = 1102
	data, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(event, data, 0o600); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(ws, "peak")
	start := time.Now()
	res := cliRun{args: []string{report, bin}, vars: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws,
		"GITHUB_OUTPUT": filepath.Join(ws, "out"), "GITHUB_STEP_SUMMARY": filepath.Join(ws, "sum"),
		"GITHUB_EVENT_NAME": "issue_comment", "GITHUB_EVENT_PATH": event, "GITHUB_REPOSITORY": "acme/docs",
		"GITHUB_API_URL": gh.APIURL(), "GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "4242",
		"INPUT_PROJECT-ID": "proj-1", "INPUT_API-KEY": testKey, "INPUT_BASE-URL": api.URL, "INPUT_GITHUB-TOKEN": testToken,
		"INPUT_TRIGGER-PHRASE": "/docs", "INPUT_REQUIRED-PERMISSION": "write", "INPUT_COMMENT": "auto",
		"INPUT_WAIT": "false", "INPUT_TIMEOUT": "5m"}}.exec(t, launcher)
	took := time.Since(start)
	if res.code != cli.ExitError || !strings.Contains(res.stdout, "nothing was sent, so that the thread does not get a second job") {
		t.Fatalf("exit %d, want %d and why nothing was sent\nstdout:\n%s\nstderr:\n%s", res.code, cli.ExitError, res.stdout, res.stderr)
	}
	if n := len(api.Requests()); n != 0 {
		t.Errorf("%d requests reached the Agent API, want none", n)
	}
	var reads, writes, bytes int
	for _, r := range gh.Requests() {
		if r.Method == http.MethodGet {
			reads++
		} else {
			writes++
		}
	}
	for _, c := range gh.Comments(12) {
		bytes += len(c.Body)
	}
	// The conversation's newest pages and the search for the record,
	// at most ten list requests, each read in eleven parts at most, and
	// one permission; the 👀 and the comment.
	if reads > 10*11+2 || writes > 4 {
		t.Errorf("%d reads and %d writes to GitHub", reads, writes)
	}
	peakKiB, cpu := launched(t, report)
	if peakKiB > runMemoryBound>>10 {
		t.Errorf("peak memory %d MiB, want at most %d", peakKiB>>10, runMemoryBound>>20)
	}
	// The bound on a run that reads the largest thread the run reads:
	// the CPU time, not the wall time, which a loaded machine stretches.
	if cpu > hostileThreadCPUBound {
		t.Errorf("the run took %s of CPU, want at most %s", cpu.Round(time.Millisecond), hostileThreadCPUBound)
	}
	t.Logf("a thread of %d MB: exit %d in %s (%s of CPU), %d GitHub reads and %d writes, peak memory %.1f MiB",
		bytes>>20, res.code, took.Round(time.Millisecond), cpu.Round(time.Millisecond), reads, writes, float64(peakKiB)/(1<<10))
}
