package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// JobRecord returns the --json record: job, the job output as the run
// wrote it (the last job record, redacted, with every control and
// invisible character of its strings written as a \u escape: see package
// report), compacted to one line of JSON, or null when the run saw no job.
// Taking the record the run wrote, rather than the job it held, keeps one
// place (package report) that decides what an output may show.
func JobRecord(job string) ([]byte, error) {
	job = strings.TrimSpace(job)
	if job == "" {
		return []byte("null\n"), nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(job)); err != nil {
		return nil, fmt.Errorf("the job output is not JSON (%v): see the job output in the log", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
