// Package agentapi is a client for the Agent Job API (v2 agent endpoints):
// create a job, send a follow-up message, read a job.
package agentapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
)

// Job statuses the API documents. Others may appear; they are not terminal.
const (
	StatusActive    = "active"
	StatusCompleted = "completed"
	StatusArchived  = "archived"
	StatusFailed    = "failed"
)

// Job is an agent job as the API returns it. Fields the API adds later are
// kept in Raw and otherwise ignored.
type Job struct {
	ID         string  `json:"id"`
	Status     string  `json:"status"`
	Source     Source  `json:"source"`
	Model      string  `json:"model"`
	PRLink     *string `json:"prLink"`
	CreatedAt  string  `json:"createdAt"`
	ArchivedAt *string `json:"archivedAt"`

	// Raw is the record as received, compacted.
	Raw json.RawMessage `json:"-"`
}

// Source is the repository a job works on.
type Source struct {
	Repository string  `json:"repository"`
	Ref        *string `json:"ref"`
}

// Terminal reports whether the job has ended: completed, archived or failed.
func (j *Job) Terminal() bool {
	switch j.Status {
	case StatusCompleted, StatusArchived, StatusFailed:
		return true
	}
	return false
}

// PR returns the pull request link, or "" when there is none.
func (j *Job) PR() string { return deref(j.PRLink) }

// Ref returns the source ref, or "" when there is none.
func (j *Job) Ref() string { return deref(j.Source.Ref) }

// Archived returns when the job was archived, or "".
func (j *Job) Archived() string { return deref(j.ArchivedAt) }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// DecodeJob parses and checks a job record: a JSON object with a non-empty
// id and status.
//
// It decodes strictly, with the design of encoding/json/v2
// (github.com/go-json-experiment/json): member names match exactly, so
// "ſtatus" or "PRLINK" is not status or prLink (encoding/json folds case,
// and ſ to s); a name given twice is refused, so that no reader of the
// record can take another value than the action does; the text must be
// valid UTF-8. Members the API adds later are ignored.
func DecodeJob(data []byte) (*Job, error) {
	var j Job
	if err := jsonv2.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("not a job record: %w", err)
	}
	if j.ID == "" || j.Status == "" {
		return nil, errors.New("not a job record: id or status missing")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return nil, fmt.Errorf("not a job record: %w", err)
	}
	j.Raw = buf.Bytes()
	return &j, nil
}
