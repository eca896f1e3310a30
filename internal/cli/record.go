package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentjob/agent-job-action/internal/cost"
)

// Record returns the --json record, one line of JSON:
// {"job": ..., "cost": ...}. job is the job output as the run wrote it
// (the last job record, redacted, with every control and invisible
// character of its strings written as a \u escape: see package report),
// compacted, or null when the run saw no job. Taking the record the run
// wrote, rather than the job it held, keeps one place (package report)
// that decides what an output may show. cost is what the run cost, null
// when it stopped before it could send anything.
func Record(job string, c *cost.Cost) ([]byte, error) {
	job = strings.TrimSpace(job)
	var b bytes.Buffer
	b.WriteString(`{"job":`)
	if job == "" {
		b.WriteString("null")
	} else if err := json.Compact(&b, []byte(job)); err != nil {
		return nil, fmt.Errorf("the job output is not JSON (%v): see the job output in the log", err)
	}
	b.WriteString(`,"cost":`)
	data, err := json.Marshal(c) // a struct of numbers always marshals
	if err != nil {
		return nil, err
	}
	b.Write(data)
	b.WriteString("}\n")
	return b.Bytes(), nil
}
