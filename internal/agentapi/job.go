// Package agentapi is a client for the Agent Job API (v2 agent endpoints):
// create a job, send a follow-up message, read a job.
package agentapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/httpclient"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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
// valid UTF-8. Members the API adds later are ignored, and kept in Raw,
// without look-alikes of the members the action reads (withoutLookAlikes).
func DecodeJob(data []byte) (*Job, error) {
	var j Job
	if err := jsonv2.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("not a job record: %w", err)
	}
	if j.ID == "" || j.Status == "" {
		return nil, errors.New("not a job record: id or status missing")
	}
	raw, err := withoutLookAlikes(data)
	if err != nil {
		return nil, fmt.Errorf("not a job record: %w", err)
	}
	j.Raw = raw
	return &j, nil
}

// members are the names the action reads in a job record's object and in
// its source.
var members = struct{ job, source []string }{
	job:    []string{"id", "status", "source", "model", "prLink", "createdAt", "archivedAt"},
	source: []string{"repository", "ref"},
}

// withoutLookAlikes compacts a record and leaves out each member whose name
// is not one the action reads but reads as one where case is ignored
// (encoding/json's way, and many a script's: "PRLINK" as prLink, "ſtatus"
// as status). What the action writes as the job output then holds one
// status and one prLink, the ones it acted on, for any reader. Members the
// API adds later are kept, values as received.
func withoutLookAlikes(data []byte) ([]byte, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	var buf bytes.Buffer
	// Escapes as received: a \u202e escape stays six characters.
	enc := jsontext.NewEncoder(&buf, jsontext.PreserveRawStrings(true))
	var object func(names []string, nested bool) error
	object = func(names []string, nested bool) error {
		if _, err := dec.ReadToken(); err != nil { // {
			return err
		}
		if err := enc.WriteToken(jsontext.BeginObject); err != nil {
			return err
		}
		for dec.PeekKind() != '}' {
			name, err := dec.ReadToken()
			if err != nil {
				return err
			}
			n := name.String()
			if lookAlike(n, names) {
				if err := dec.SkipValue(); err != nil {
					return err
				}
				continue
			}
			if err := enc.WriteToken(name); err != nil {
				return err
			}
			if n == "source" && !nested && dec.PeekKind() == '{' {
				if err := object(members.source, true); err != nil {
					return err
				}
				continue
			}
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			if err := enc.WriteValue(v); err != nil {
				return err
			}
		}
		if _, err := dec.ReadToken(); err != nil { // }
			return err
		}
		return enc.WriteToken(jsontext.EndObject)
	}
	if err := object(members.job, false); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// lookAlike reports whether name differs from every one of names but
// equals one of them under Unicode case folding.
func lookAlike(name string, names []string) bool {
	return !slices.Contains(names, name) && slices.ContainsFunc(names, func(m string) bool { return strings.EqualFold(name, m) })
}

// TakesNoMessages reports whether err is the API refusing a follow-up
// because the job takes no more (400, 404: archived, failed, gone): the
// one rule by which a new job stands in for it.
func TakesNoMessages(err error) (*httpclient.Failure, bool) {
	var f *httpclient.Failure
	ok := errors.As(err, &f) && f.Kind == httpclient.Refused && (f.Status == http.StatusBadRequest || f.Status == http.StatusNotFound)
	return f, ok
}
