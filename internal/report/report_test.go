package report

import (
	"bufio"
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/preview"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/testbed/escapetest"
	"github.com/agentjob/agent-job-action/internal/testbed/golden"
)

func job(t testing.TB, raw string) *agentapi.Job {
	t.Helper()
	j, err := agentapi.DecodeJob([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestSummaryGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		r    func(t *testing.T) Result
	}{
		{"summary-completed.md", func(t *testing.T) Result {
			return Result{JobID: "job_0001", Status: "completed", Elapsed: 161 * time.Second, Polls: 7, PRURL: "https://github.com/acme/docs/pull/7", SourceURL: "https://github.com/acme/docs",
				Job: job(t, `{"id":"job_0001","status":"completed","model":"sonnet","source":{"repository":"https://github.com/acme/docs","ref":"docs/faq"},"prLink":"https://github.com/acme/docs/pull/7"}`)}
		}},
		{"summary-timed-out.md", func(t *testing.T) Result {
			return Result{JobID: "job_0001", Status: "active", TimedOut: true, Elapsed: 30 * time.Minute, Polls: 66, SourceURL: "https://github.com/acme/docs",
				Job: job(t, `{"id":"job_0001","status":"active","model":"opus","source":{"repository":"https://github.com/acme/docs","ref":null},"prLink":null}`)}
		}},
		{"summary-dry-run.md", func(*testing.T) Result { return Result{Status: "dry-run"} }},
		{"summary-cost.md", func(t *testing.T) Result {
			return Result{JobID: "job_0001", Status: "completed", Elapsed: 8*time.Minute + 3*time.Second, Polls: 9,
				Job:  job(t, `{"id":"job_0001","status":"completed","model":"sonnet","source":{"repository":"https://github.com/acme/docs"},"prLink":null}`),
				Cost: &Cost{FollowUps: 1, Reads: 10, GitHub: 7, Waited: 8 * time.Minute}}
		}},
		{"summary-hostile.md", func(t *testing.T) Result {
			return Result{JobID: "x|y", Status: "weird<script>", Elapsed: time.Second, Polls: 1,
				Job: job(t, `{"id":"x|y","status":"weird<script>","model":"m | [x](javascript:alert(1))\n# title","source":{"repository":"@everyone"},"prLink":"javascript:alert(1)"}`)}
		}},
		// What GitHub would link without any link syntax, and a "|" inside
		// the one link the summary makes.
		{"summary-autolinks.md", func(t *testing.T) Result {
			return Result{JobID: "job@evil.example", Status: "see www.evil.example/login", Elapsed: time.Second, Polls: 1,
				Job: job(t, `{"id":"job@evil.example","status":"x","model":"mail admin@evil.example or mailto:a@b.co, #12, GH-3, a5c3785ed8d6a35868bc169f07e40e889087fd2e",`+
					`"source":{"repository":"http://evil.example/r","ref":"ftp://evil.example"},"prLink":"https://github.com/o/r/pull/7|x|y"}`)}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			got := Summary(tt.r(t))
			golden.Check(t, filepath.Join("testdata", tt.file), got)
			checkSummary(t, got)
		})
	}
}

// ownLink is a link the summary makes: the pull request's or the source
// repository's, text and target.
var ownLink = regexp.MustCompile(`\[[^\]]*\]\(https://[^)]*\)`)

// checkSummary fails t unless every row of the summary's table has two
// cells and nothing but the links it makes (the pull request's, the
// source repository's) is a link.
func checkSummary(t testing.TB, md string) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(md))
	rows := 0
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "|") {
			rows++
			if n := escapetest.Cells(line); n != 2 {
				t.Fatalf("row %q has %d cells, want 2, in:\n%s", line, n, md)
			}
		}
	}
	if rows != 9 {
		t.Fatalf("table has %d rows, want 9 (header, delimiter, 7 values):\n%s", rows, md)
	}
	if links := escapetest.Autolinks(ownLink.ReplaceAllString(md, "")); links != nil {
		t.Fatalf("summary renders links %q:\n%s", links, md)
	}
}

// FuzzSummary checks that whatever the API sends, the summary's table keeps
// its two columns and renders no link but the pull request's.
func FuzzSummary(f *testing.F) {
	f.Add("job_1", "completed", "sonnet", "https://github.com/o/r", "main", "https://github.com/o/r/pull/1")
	f.Add("x|y", "a\nb|c", "www.x.com", "a@b.co", "http://x|y", "https://x/a|b)c")
	f.Add("job@x.co", "#12", "GH-1", "mailto:a@b.co", "a5c3785ed8d6", "https://x/`|`")
	f.Fuzz(func(t *testing.T, id, status, model, repo, ref, pr string) {
		j := &agentapi.Job{ID: id, Status: status, Model: model, Source: agentapi.Source{Repository: repo, Ref: &ref}, PRLink: &pr}
		// PRURL is built from checked parts in a run; any string must still
		// keep the table whole.
		checkSummary(t, Summary(Result{JobID: id, Status: status, Job: j, TimedOut: len(pr)%2 == 0, Polls: 3, PRURL: pr, SourceURL: repo}))
	})
}

// newLog returns a log inside Actions on a buffer.
func newLog() (*runlog.Actions, *bytes.Buffer) {
	var b bytes.Buffer
	return runlog.NewActions(&b), &b
}

// TestSummaryCostOfAFailedRun: a run that failed before it had a job
// still says what it cost, then why it failed.
func TestSummaryCostOfAFailedRun(t *testing.T) {
	t.Parallel()
	r := Result{Status: "error", Failure: "create job: HTTP 401: bad key", RunURL: "https://github.com/acme/docs/actions/runs/42",
		Cost: &Cost{GitHub: 2}}
	golden.Check(t, filepath.Join("testdata", "summary-cost-failed.md"), Summary(r))
}

// TestSummaryPreview: a job's preview follows the table.
func TestSummaryPreview(t *testing.T) {
	t.Parallel()
	r := Result{JobID: "job_0001", Status: "completed", Elapsed: 161 * time.Second, Polls: 7, PRURL: "https://github.com/acme/docs/pull/7",
		Job:     job(t, `{"id":"job_0001","status":"completed","model":"sonnet","source":{"repository":"https://github.com/acme/docs","ref":"docs/faq"},"prLink":"https://github.com/acme/docs/pull/7"}`),
		Preview: preview.Shown{URL: "https://acme-docs-faq.mintlify.app", State: preview.Success, Image: "https://shots.mintlify.app/st_1.png"}.Markdown()}
	golden.Check(t, filepath.Join("testdata", "summary-preview.md"), Summary(r))
}
