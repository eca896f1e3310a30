package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/invisible"
	"github.com/agentjob/agent-job-action/internal/testbed/fakeapi"
	"github.com/agentjob/agent-job-action/internal/testbed/fakegithub"
)

// TestKeyWithInvisibleCharacters (issue 18, item 3): the API sends the key
// back with an invisible character inside it. A person reads that as the
// key, so it is redacted like the key itself: in the outputs, the summary,
// the log (the ::error:: line too) and the issue comment, on a completed
// run and on an error.
func TestKeyWithInvisibleCharacters(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"\u2063", "\u2062", "\u034f", "\ufe0f", "\u200e", "\U000E0041", "\u202e", "\u00ad", "\u3164"} {
		hidden := testKey[:9] + c + testKey[9:]
		for _, fails := range []bool{false, true} {
			t.Run(fmt.Sprintf("%U/failed=%v", []rune(c)[0], fails), func(t *testing.T) {
				t.Parallel()
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					if fails {
						w.WriteHeader(http.StatusBadRequest)
						b, _ := json.Marshal(map[string]string{"error": "project refused key " + hidden})
						_, _ = w.Write(b)
						return
					}
					w.WriteHeader(http.StatusCreated)
					b, _ := json.Marshal(map[string]any{"id": "job_1", "status": "completed", "model": "model " + hidden,
						"source": map[string]any{"repository": "https://github.com/acme/docs " + hidden, "ref": hidden},
						"prLink": nil, "createdAt": "2026-11-22T09:00:00Z", "archivedAt": nil, "note": hidden})
					_, _ = w.Write(b)
				}))
				t.Cleanup(srv.Close)
				h := newHarness(t, fakeapi.Scenario{})
				gh := h.withGitHub(fakegithub.Options{}, "issue_comment", issueComment("writer", "/docs add a FAQ"))
				h.vars["INPUT_BASE-URL"] = srv.URL
				err := h.run(context.Background())
				if (err != nil) != fails {
					t.Fatalf("run error = %v, want failure %v\n%s", err, fails, h.stdout.String())
				}
				log := strings.ReplaceAll(h.stdout.String(), maskCommand(testKey), "")
				texts := map[string]string{
					"log":     log,
					"outputs": h.file("GITHUB_OUTPUT"),
					"summary": h.file("GITHUB_STEP_SUMMARY"),
					"comment": gh.Comments(12)[0].Body,
				}
				for where, text := range texts {
					// What a reader sees, and the JSON record decoded.
					seen := invisible.Remove(text)
					var unq string
					_ = json.Unmarshal([]byte(`"`+strings.ReplaceAll(text, `"`, ``)+`"`), &unq)
					if strings.Contains(seen, testKey) || strings.Contains(invisible.Remove(unq), testKey) {
						t.Errorf("the key, with %q inside, reaches the %s:\n%s", c, where, text)
					}
				}
				if fails && !strings.Contains(log, "::error::") {
					t.Errorf("no ::error:: line:\n%s", log)
				}
				if !strings.Contains(texts["log"]+texts["summary"]+texts["outputs"]+texts["comment"], "***") {
					t.Errorf("nothing was redacted: the test did not reach the key")
				}
			})
		}
	}
}
