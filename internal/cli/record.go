package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// JobRecord returns the job output (the last job record, redacted, as the
// run wrote it) from the step's output file at path, for --json: one line
// of JSON, or null when the run saw no job. Reading the file the run wrote,
// rather than the job it held, keeps one place (package report) that
// decides what an output may show.
func JobRecord(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read the outputs for --json: %w", err)
	}
	defer f.Close()
	outs, err := readOutputs(f)
	if err != nil {
		return nil, fmt.Errorf("read the outputs for --json: %w", err)
	}
	job := strings.TrimSpace(outs["job"])
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

// readOutputs parses the runner's output file format (name<<delimiter,
// value lines, delimiter); a name written twice keeps its last value, as
// the runner does.
func readOutputs(r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if sc.Text() == "" {
			continue
		}
		name, delim, ok := strings.Cut(sc.Text(), "<<")
		if !ok || delim == "" {
			return nil, fmt.Errorf("unexpected line %q", sc.Text())
		}
		var lines []string
		closed := false
		for sc.Scan() {
			if sc.Text() == delim {
				closed = true
				break
			}
			lines = append(lines, sc.Text())
		}
		if !closed {
			return nil, fmt.Errorf("output %s is not closed by its delimiter", name)
		}
		out[name] = strings.Join(lines, "\n")
	}
	return out, sc.Err()
}
