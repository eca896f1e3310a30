package action

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
)

// waits records what a run tells its log of each wait.
type waits struct {
	runlog.Log
	mu   sync.Mutex
	seen []runlog.Wait
}

func (w *waits) Waiting(wt runlog.Wait) {
	w.mu.Lock()
	w.seen = append(w.seen, wt)
	w.mu.Unlock()
	w.Log.Waiting(wt)
}

// TestWaitingIsRedacted: the log's waiting line, which
// a terminal cuts to its width, is handed the job's id and status
// redacted, so no cut can leave a piece of the key.
func TestWaitingIsRedacted(t *testing.T) {
	t.Parallel()
	var (
		mu    sync.Mutex
		polls int
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		status := "working " + strings.Repeat("x", 40) + key
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
		} else if polls++; polls > 2 {
			status = "completed"
		}
		b, _ := json.Marshal(map[string]any{"id": "job_1", "status": status, "prLink": nil, "createdAt": "2026-11-22T09:00:00Z", "archivedAt": nil})
		_, _ = w.Write(b)
	}))
	defer srv.Close()
	dir := t.TempDir()
	rc := runner.Context{InActions: true, Workspace: dir, Inputs: map[string]string{"project-id": "proj", "api-key": key, "base-url": srv.URL, "prompt": "Fix typos"},
		OutputFile: filepath.Join(dir, "output"), SummaryFile: filepath.Join(dir, "summary")}
	var buf bytes.Buffer
	log := &waits{Log: runlog.NewActions(&buf)}
	clk := clock.NewFake(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	if _, err := Run(context.Background(), rc, Deps{Clock: clk, Schedule: poll.Fixed(10 * time.Second)}, Streams{Log: log}); err != nil {
		t.Fatalf("Run: %v\n%s", err, buf.String())
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.seen) == 0 {
		t.Fatal("the log never heard of the wait")
	}
	for _, w := range log.seen {
		for i := 0; i+8 <= len(key); i++ {
			if strings.Contains(w.JobID+w.Status, key[i:i+8]) {
				t.Fatalf("the waiting line was handed %q %q: 8 characters of the key", w.JobID, w.Status)
			}
		}
		if !strings.HasSuffix(w.Status, "***") {
			t.Errorf("the waiting line was handed %q, want the key redacted", w.Status)
		}
	}
}
