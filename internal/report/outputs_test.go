package report

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/runlog"
)

// runnerOutputs parses a GITHUB_OUTPUT file as the runner does on Linux
// (EnvFileKeyValuePairs in actions/runner): lines end at \n; an empty line
// is skipped; a line with "=" before any "<<" is name=value; a line with
// "<<" first is name<<delimiter, and the value is every line up to the
// first line equal to the delimiter, without the last \n. Where the runner
// throws (and so drops every output of the step), it returns an error.
func runnerOutputs(text string) (map[string]string, error) {
	out := map[string]string{}
	index := 0
	readLine := func() (line string, newline bool, ok bool) {
		if index >= len(text) {
			return "", false, false
		}
		i := strings.IndexByte(text[index:], '\n')
		if i < 0 {
			line, index = text[index:], len(text)
			return line, false, true
		}
		line = text[index : index+i]
		index += i + 1
		return line, true, true
	}
	for {
		line, _, ok := readLine()
		if !ok {
			return out, nil
		}
		if line == "" {
			continue
		}
		eq, heredoc := strings.Index(line, "="), strings.Index(line, "<<")
		switch {
		case eq >= 0 && (heredoc < 0 || eq < heredoc):
			out[line[:eq]] = line[eq+1:]
		case heredoc >= 0:
			name, delim := line[:heredoc], line[heredoc+2:]
			if name == "" || delim == "" {
				return nil, fmt.Errorf("invalid format %q", line)
			}
			start, end := index, index
			for {
				l, newline, ok := readLine()
				if !ok {
					return nil, fmt.Errorf("matching delimiter not found %q", delim)
				}
				if l == delim {
					break
				}
				if !newline {
					return nil, fmt.Errorf("EOF marker missing new line")
				}
				end = index - 1
			}
			out[name] = text[start:end]
		default:
			return nil, fmt.Errorf("invalid format %q", line)
		}
	}
}

// TestRunnerOutputsParser checks the test's parser against the runner's
// rules, so that the tests below cannot pass on a parser that accepts all.
func TestRunnerOutputsParser(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text    string
		want    map[string]string
		wantErr bool
	}{
		{"a<<EOF\nx\ny\nEOF\nb=1\n\n", map[string]string{"a": "x\ny", "b": "1"}, false},
		{"a<<EOF\nEOF\n", map[string]string{"a": ""}, false},
		{"a=b<<c\n", map[string]string{"a": "b<<c"}, false},
		{"a<<EOF\nx\n", nil, true},
		{"a<<EOF\nx", nil, true},
		{"<<EOF\nEOF\n", nil, true},
		{"junk\n", nil, true},
		// The old fixed delimiter, as a value, ends the value early and
		// leaves its own closing line unparsable.
		{"m<<_GitHubActionsFileCommandDelimeter_\n_GitHubActionsFileCommandDelimeter_\n_GitHubActionsFileCommandDelimeter_\n", nil, true},
	} {
		got, err := runnerOutputs(tt.text)
		if (err != nil) != tt.wantErr || !tt.wantErr && !maps.Equal(got, tt.want) {
			t.Errorf("runnerOutputs(%q) = %q, %v; want %q, error %v", tt.text, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestOutputsNoValueClosesItsDelimiter writes values that close the old
// fixed delimiter, the toolkit's prefix, newlines and "<<" and "=" lines,
// then reads the file as the runner does: every output is there, intact.
func TestOutputsNoValueClosesItsDelimiter(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "output")
	log, stdout := newLog()
	log.Mask("s3cr3t-value")
	out := NewOutputs(log, path, nil)
	values := map[string]string{
		"old-delimiter": "_GitHubActionsFileCommandDelimeter_",
		"forge":         "m\n_GitHubActionsFileCommandDelimeter_\nstatus=completed s3cr3t-value",
		"toolkit":       "ghadelimiter_",
		"heredoc":       "x<<EOF\nEOF\ny",
		"assign":        "a=b",
		"crlf":          "a\r\nb\rc",
		"empty":         "",
	}
	want := map[string]string{}
	for name, v := range values {
		if err := out.Set(name, v); err != nil {
			t.Fatal(err)
		}
		want[name] = strings.ReplaceAll(strings.NewReplacer("\r", " ", "\n", " ").Replace(v), "s3cr3t-value", "***")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runnerOutputs(string(data))
	if err != nil {
		t.Fatalf("the runner would reject GITHUB_OUTPUT: %v\n%s", err, data)
	}
	if !maps.Equal(got, want) {
		t.Errorf("outputs read back:\n%q\nwant\n%q", got, want)
	}
	// One fresh delimiter per value, none of them the fixed one.
	delims := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		name, d, ok := strings.Cut(line, "<<")
		if _, isOutput := values[name]; ok && isOutput {
			if !strings.HasPrefix(d, "ghadelimiter_") || len(d) < len("ghadelimiter_")+26 || delims[d] {
				t.Errorf("output %s: delimiter %q is not fresh and random", name, d)
			}
			delims[d] = true
		}
	}
	if len(delims) != len(values) {
		t.Errorf("%d delimiters for %d values:\n%s", len(delims), len(values), data)
	}
	if stdout.Len() != len("::add-mask::s3cr3t-value\n") {
		t.Errorf("outputs written to a file also went to the log: %q", stdout)
	}
}

// TestOutputsDelimiterInValueIsRedrawn draws delimiters from a fixed list
// whose first is in the value.
func TestOutputsDelimiterInValueIsRedrawn(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "output")
	log, _ := newLog()
	out := NewOutputs(log, path, nil)
	draws := []string{"AAAA", "BBBB"}
	out.random = func() string { d := draws[0]; draws = draws[1:]; return d }
	if err := out.Set("v", "x ghadelimiter_AAAA y"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if want := "v<<ghadelimiter_BBBB\nx ghadelimiter_AAAA y\nghadelimiter_BBBB\n"; string(data) != want {
		t.Errorf("GITHUB_OUTPUT %q, want %q", data, want)
	}
}

func TestOutputsBadName(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "output")
	log, _ := newLog()
	for _, name := range []string{"", "a=b", "a<<b", "a\nb"} {
		if err := NewOutputs(log, path, nil).Set(name, "x"); err == nil {
			t.Errorf("Set(%q) wrote an output the runner would misread", name)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("GITHUB_OUTPUT written for a bad name: %v", err)
	}
}

// TestOutputsFallBackToResults: outside Actions each output is a line of
// the results stream, never of the log, written once per value it takes.
func TestOutputsFallBackToResults(t *testing.T) {
	t.Parallel()
	var log, results bytes.Buffer
	out := NewOutputs(runlog.NewPlain(&log), "", &results)
	for _, v := range []string{"completed\n::error::x", "completed\n::error::x", "failed"} {
		if err := out.Set("status", v); err != nil {
			t.Fatal(err)
		}
	}
	if got := results.String(); got != "output status=completed ::error::x\noutput status=failed\n" {
		t.Errorf("results %q", got)
	}
	if log.Len() != 0 {
		t.Errorf("log %q, want nothing", log.String())
	}
	if got := out.Values(); got["status"] != "failed" || len(got) != 1 {
		t.Errorf("Values() = %v", got)
	}
}

// TestOutputsOncePerValue: GITHUB_OUTPUT gets an output again only when
// its value changes (job-id is written as soon as it is known, and not
// again at the end).
func TestOutputsOncePerValue(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "out")
	log, _ := newLog()
	out := NewOutputs(log, path, nil)
	for _, v := range []string{"job_1", "job_1", "job_2", "job_2"} {
		if err := out.Set("job-id", v); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "job-id<<"); n != 2 {
		t.Errorf("job-id written %d times, want 2 (once per value):\n%s", n, data)
	}
}

func TestUnwritableFilesAreErrors(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "missing-dir")
	log, _ := newLog()
	if err := NewOutputs(log, filepath.Join(dir, "out"), nil).Set("status", "x"); err == nil || !strings.Contains(err.Error(), "write output status") {
		t.Errorf("output file that cannot be written: error %v", err)
	}
	if err := WriteSummary(log, filepath.Join(dir, "summary"), "x"); err == nil || !strings.Contains(err.Error(), "write job summary") {
		t.Errorf("summary that cannot be written: error %v", err)
	}
}

func TestWriteSummaryAppendsRedacted(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "summary")
	if err := os.WriteFile(path, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log, _ := newLog()
	log.Mask("s3cr3t-value")
	if err := WriteSummary(log, path, "| a | s3cr3t-value |"); err != nil {
		t.Fatal(err)
	}
	if err := WriteSummary(log, "", "nowhere"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if want := "earlier step\n| a | *** |\n"; string(data) != want {
		t.Errorf("summary %q, want %q", data, want)
	}
}

// TestOutputsMatchTheSpec holds the output contract to action.yml's list
// (inputs.Outputs, which another test holds to action.yml itself): every
// declared output is written, in order, and nothing else.
func TestOutputsMatchTheSpec(t *testing.T) {
	t.Parallel()
	o := NewOutputs(runlog.NewPlain(io.Discard), "", nil)
	var got, want []string
	for _, p := range o.values(Result{}) {
		got = append(got, p[0])
	}
	for _, out := range inputs.Outputs {
		want = append(want, out.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("outputs written: %v\naction.yml declares: %v", got, want)
	}
}
