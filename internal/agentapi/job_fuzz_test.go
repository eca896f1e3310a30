package agentapi_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentjob/agent-job-action/internal/agentapi"
)

// FuzzDecodeJob checks that DecodeJob never panics and that whatever it
// accepts is a usable, self-consistent job record.
func FuzzDecodeJob(f *testing.F) {
	for _, s := range []string{
		`{"id":"job_1","status":"active"}`,
		`{"id":"job_1","status":"completed","prLink":"https://github.com/o/r/pull/1"}`,
		`{"id":"j","status":"failed","source":{"repository":"o/r","ref":null},"archivedAt":null}`,
		"  {\n \"id\" : \"j\",\n \"status\" : \"archived\" , \"extra\": [1, 2, {\"a\": null}]\n}\n",
		`{"ID":"upper","STATUS":"Completed"}`,
		`{"id":"a","id":"b","status":"active"}`,
		`{"id":"","status":"active"}`,
		`{"id":"j"}`,
		`{"id":1,"status":"active"}`,
		`{"id":"j","status":"active","source":"o/r"}`,
		`{"id":"\u2028\ud800","status":"<&>"}`,
		"{\"id\":\"\xff\",\"status\":\"x\"}",
		`null`,
		`[]`,
		`"id"`,
		`{"id":"j","status":"active"} trailing`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := agentapi.DecodeJob(data)
		if err != nil {
			if j != nil {
				t.Fatalf("DecodeJob returned a job and error %v", err)
			}
			return
		}
		if j == nil {
			t.Fatal("DecodeJob returned nil job and nil error")
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		if j.ID == "" || j.Status == "" {
			t.Fatalf("accepted job with empty id or status: %+v", j)
		}
		if !json.Valid(j.Raw) {
			t.Fatalf("Raw is not valid JSON: %q", j.Raw)
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, j.Raw); err != nil {
			t.Fatalf("compact Raw: %v", err)
		}
		if !bytes.Equal(buf.Bytes(), j.Raw) {
			t.Fatalf("Raw is not compact:\n%q\n%q", j.Raw, buf.Bytes())
		}
		again, err := agentapi.DecodeJob(j.Raw)
		if err != nil {
			t.Fatalf("Raw %q does not decode again: %v", j.Raw, err)
		}
		if again.ID != j.ID || again.Status != j.Status {
			t.Fatalf("Raw decodes to id %q status %q, want %q %q", again.ID, again.Status, j.ID, j.Status)
		}
		if !bytes.Equal(again.Raw, j.Raw) {
			t.Fatalf("Raw is not stable: %q then %q", j.Raw, again.Raw)
		}
		terminal := j.Status == agentapi.StatusCompleted || j.Status == agentapi.StatusArchived || j.Status == agentapi.StatusFailed
		if j.Terminal() != terminal {
			t.Fatalf("Terminal() = %v for status %q", j.Terminal(), j.Status)
		}
		_, _, _ = j.PR(), j.Ref(), j.Archived()
	})
}
