package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/poll"
	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/report"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/runlog"
	"github.com/agentjob/agent-job-action/internal/runner"
	"github.com/google/go-github/v62/github"
)

// fakeComment is a thread's comment: it records each state shown and each
// earlier record settled.
type fakeComment struct {
	url     string
	shown   []conversation.State
	settled []conversation.State
	refuse  bool // Settle finds the record changed
	spent   []time.Time
}

func (c *fakeComment) Show(_ context.Context, s conversation.State) {
	c.shown = append(c.shown, s)
	c.url = "https://github.com/acme/docs/issues/12#issuecomment-77"
}

func (c *fakeComment) Settle(_ context.Context, _ *conversation.Earlier, s conversation.State) bool {
	if c.refuse {
		return false
	}
	c.settled = append(c.settled, s)
	return true
}

func (c *fakeComment) Spend(now time.Time) { c.spent = append(c.spent, now) }
func (c *fakeComment) URL() string         { return c.url }

// fakeStatuses records each status set, as "sha state: description", and
// fails on the shas in fail.
// fakeStatuses records the statuses set, as "owner/repo sha state:
// description", and shows the newest set or seeded (shown) on each
// commit; fail and unread fail the set and the read of a commit.
type fakeStatuses struct {
	set          []string
	reads        int
	shown        map[string]ghclient.CommitStatus // by commit
	fail, unread map[string]error
}

func (f *fakeStatuses) Status(_ context.Context, _, _, sha, context string) (ghclient.CommitStatus, bool, error) {
	f.reads++
	if err := f.unread[sha]; err != nil {
		return ghclient.CommitStatus{}, false, err
	}
	s, ok := f.shown[sha]
	if !ok || s.Context != context {
		return ghclient.CommitStatus{}, false, nil
	}
	return s, true, nil
}

func (f *fakeStatuses) SetStatus(_ context.Context, owner, repo, sha string, s ghclient.CommitStatus) error {
	if err := f.fail[sha]; err != nil {
		return err
	}
	f.set = append(f.set, fmt.Sprintf("%s/%s %s %s: %s", owner, repo, sha[:4], s.State, s.Description))
	if f.shown == nil {
		f.shown = map[string]ghclient.CommitStatus{}
	}
	f.shown[sha] = s
	return nil
}

var (
	start = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	head1 = strings.Repeat("1", 40)
	head2 = strings.Repeat("2", 40)
)

// newReporter is a reporter for a run in Actions, its outputs and summary
// in files under a temporary directory, its log in log.
func newReporter(t *testing.T, log *bytes.Buffer) (*Reporter, *clock.Fake) {
	t.Helper()
	dir := t.TempDir()
	clk := clock.NewFake(start)
	l := runlog.NewPlain(log)
	rc := runner.Context{InActions: true, OutputFile: filepath.Join(dir, "output"), SummaryFile: filepath.Join(dir, "summary"),
		ServerURL: "https://github.com", Repository: "acme/docs", RunID: "42"}
	p := runlog.Progress{Log: l, Clock: clk, Start: start}
	return &Reporter{Progress: p, RC: rc, Out: report.NewOutputs(l, rc.OutputFile, nil), Timeout: 30 * time.Minute,
		Checks: &Checks{Progress: p, RunURL: rc.RunURL()}}, clk
}

func outputFile(t *testing.T, r *Reporter) string {
	t.Helper()
	data, err := os.ReadFile(r.RC.OutputFile)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

func jobOf(id, status, pr string) *agentapi.Job {
	j := &agentapi.Job{ID: id, Status: status}
	if pr != "" {
		j.PRLink = &pr
	}
	return j
}

// TestJobIsWrittenAtOnce: naming the job writes the job-id output at once,
// so that a run that fails or is cancelled later still leaves it.
func TestJobIsWrittenAtOnce(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	r, _ := newReporter(t, &log)
	if err := r.Name("job_0042"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(outputFile(t, r), "job-id<<") || !strings.Contains(outputFile(t, r), "\njob_0042\n") {
		t.Errorf("outputs:\n%s", outputFile(t, r))
	}
}

// TestShowWritesTheRecord: the run's comment shows the job and keeps the
// record a later run reads: the requests answered, a code pull request's
// heads, and whether the job still works.
func TestShowWritesTheRecord(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	r, clk := newReporter(t, &log)
	r.show(context.Background(), &report.Outcome{JobID: "job_1"}, conversation.Working) // no comment: nothing
	c := &fakeComment{}
	r.Comment = c
	r.Answers = answers{rec: backlog.Record{Sent: []request.Key{{Kind: request.Comment, ID: 9}}}}
	r.Code = &report.Code{PR: report.Commit{Owner: "acme", Repo: "docs", HeadSHA: head2}, Heard: head2, Owed: []string{head1, head2}, DocsPR: "https://github.com/acme/docs/pull/101"}
	clk.Advance(90 * time.Second)
	r.show(context.Background(), &report.Outcome{JobID: "job_1", Job: jobOf("job_1", "active", "")}, conversation.Working)
	if len(c.shown) != 1 {
		t.Fatalf("%d comments shown, want 1", len(c.shown))
	}
	s := c.shown[0]
	want := record.Record{JobID: "job_1", Head: head2, Owed: []string{head1, head2}, Unsettled: true,
		Answered: &backlog.Record{Sent: []request.Key{{Kind: request.Comment, ID: 9}}}}
	if !reflect.DeepEqual(s.Record, want) || s.Phase != conversation.Working || s.Elapsed != 90*time.Second {
		t.Errorf("state %+v\nrecord %+v, want %+v", s, s.Record, want)
	}
	if s.PRURL != "https://github.com/acme/docs/pull/101" {
		t.Errorf("PRURL %q: the docs pull request the record names is not shown", s.PRURL)
	}
	// Once the job ended, the comment claims only what the job's own
	// answer says: no pull request the record named before.
	r.show(context.Background(), &report.Outcome{JobID: "job_1", Job: jobOf("job_1", "completed", "")}, conversation.Done)
	if last := c.shown[len(c.shown)-1]; last.PRURL != "" {
		t.Errorf("a finished job's comment shows %q, a pull request its answer does not name", last.PRURL)
	}
}

type answers struct{ rec backlog.Record }

func (a answers) Record() backlog.Record { return a.rec }
func (a answers) Refs() (answered, left, later []conversation.Ref) {
	return []conversation.Ref{{What: "comment"}}, nil, nil
}

// TestChecksSetWritesTheDifference: a status is written only on a head
// where GitHub shows another (or none, or one it could not read), and the
// log says what GitHub showed when the write takes back a success; a head
// this run already set is not read again. A set with IfNone goes only
// where GitHub shows none: one shown, or unread, is kept.
func TestChecksSetWritesTheDifference(t *testing.T) {
	t.Parallel()
	pending := ghclient.CommitStatus{Context: "docs / agent-job", State: "pending", Description: "Waits"}
	tests := []struct {
		name   string
		shown  *ghclient.CommitStatus
		unread bool
		ifNone bool // a set with IfNone
		back   bool // a set with Back
		reads  int  // GitHub's reads in two calls, 1 when 0: what could not be read is read again
		warn   string
		want   []string
		log    string
	}{
		{name: "none shown", want: []string{"acme/docs 1111 pending: Waits"}},
		{name: "the same shown", shown: &pending},
		{name: "another shown", shown: &ghclient.CommitStatus{Context: "docs / agent-job", State: "success", Description: "LGTM"},
			want: []string{"acme/docs 1111 pending: Waits"}, log: `GitHub showed success (LGTM) on 1111111: the check is set again`},
		{name: "another link shown", shown: &ghclient.CommitStatus{Context: "docs / agent-job", State: "pending", Description: "Waits", TargetURL: "https://example.com/"},
			want: []string{"acme/docs 1111 pending: Waits"}},
		{name: "a failure shown", shown: &ghclient.CommitStatus{Context: "docs / agent-job", State: "failure", Description: "The docs job failed"},
			want: []string{"acme/docs 1111 pending: Waits"}},
		{name: "unread", unread: true, want: []string{"acme/docs 1111 pending: Waits"}},
		{name: "if none: none shown", ifNone: true, want: []string{"acme/docs 1111 pending: Waits"}},
		{name: "if none: another shown, kept", ifNone: true, shown: &ghclient.CommitStatus{Context: "docs / agent-job", State: "success", Description: "Docs check released by writer"}},
		{name: "if none: unread, nothing claimed", ifNone: true, unread: true, reads: 2, warn: `"HTTP 502": nothing is written over it; the next scheduled run tries again`},
		{name: "back: a success shown, taken back", back: true, shown: &ghclient.CommitStatus{Context: "docs / agent-job", State: "success", Description: "LGTM"},
			want: []string{"acme/docs 1111 pending: Waits"}, log: `GitHub showed success (LGTM) on 1111111: the check is set again`},
		{name: "back: the job at work shown, kept", back: true, shown: &ghclient.CommitStatus{Context: "docs / agent-job", State: "pending", Description: "The docs agent is updating the docs for this change", TargetURL: "https://example.com/run"}},
		{name: "back: unread, nothing claimed", back: true, unread: true, reads: 2, warn: `"HTTP 502": nothing is written over it; the next scheduled run tries again`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var log bytes.Buffer
			r, _ := newReporter(t, &log)
			gh := &fakeStatuses{}
			if tt.shown != nil {
				gh.shown = map[string]ghclient.CommitStatus{head1: *tt.shown}
			}
			if tt.unread {
				gh.unread = map[string]error{head1: errors.New("HTTP 502")}
			}
			r.Checks.GitHub = gh
			for range 2 { // once is enough
				r.Checks.set(context.Background(), "acme", "docs", check.Set{Heads: []string{head1}, Status: pending, IfNone: tt.ifNone, Back: tt.back})
			}
			if reads := max(tt.reads, 1); !slices.Equal(gh.set, tt.want) || gh.reads != reads {
				t.Errorf("statuses %q after %d reads, want %q after %d", gh.set, gh.reads, tt.want, reads)
			}
			if tt.warn != "" && !strings.Contains(log.String(), "warning: "+tt.warn) {
				t.Errorf("log lacks the warning %q:\n%s", tt.warn, log.String())
			}
			if tt.log != "" && !strings.Contains(log.String(), tt.log) {
				t.Errorf("log lacks %q:\n%s", tt.log, log.String())
			}
			if tt.log == "" && strings.Contains(log.String(), "GitHub showed") {
				t.Errorf("log says GitHub showed another status:\n%s", log.String())
			}
			if wrote := strings.Contains(log.String(), "commit status docs / agent-job: pending"); wrote != (len(tt.want) > 0) {
				t.Errorf("log says a status was set: %v, want %v:\n%s", wrote, len(tt.want) > 0, log.String())
			}
		})
	}
}

// TestChecksSetHoldsASharedSuccess: a pull request's success that GitHub
// does not show yet asks Others for the pull requests at the head: one
// that waits (7) turns it into check.Shared, none (0) lets it be written;
// one GitHub shows already asks nothing.
func TestChecksSetHoldsASharedSuccess(t *testing.T) {
	t.Parallel()
	success := ghclient.CommitStatus{Context: "docs / agent-job", State: "success", Description: "No docs change needed"}
	for _, tt := range []struct {
		name   string
		shown  bool
		others int
		asked  int
		want   []string
	}{
		{name: "another waits", others: 7, asked: 1, want: []string{"acme/docs 1111 pending: #7 heads this commit too, and its docs are not settled: this commit waits for them"}},
		{name: "none waits", asked: 1, want: []string{"acme/docs 1111 success: No docs change needed"}},
		{name: "shown already", shown: true, others: 7},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var log bytes.Buffer
			r, _ := newReporter(t, &log)
			gh := &fakeStatuses{}
			if tt.shown {
				gh.shown = map[string]ghclient.CommitStatus{head1: success}
			}
			asked := 0
			r.Checks.GitHub = gh
			r.Checks.Others = func(_ context.Context, owner, repo, sha string, not int) int {
				if asked++; owner != "acme" || repo != "docs" || sha != head1 || not != 8 {
					t.Errorf("Others(%s, %s, %s, %d), want acme/docs at head1 but #8", owner, repo, sha, not)
				}
				return tt.others
			}
			r.Checks.set(context.Background(), "acme", "docs", check.Set{Heads: []string{head1}, Status: success, For: 8})
			if !slices.Equal(gh.set, tt.want) || asked != tt.asked {
				t.Errorf("statuses %q, Others asked %d times; want %q, %d", gh.set, asked, tt.want, tt.asked)
			}
		})
	}
}

// TestChecksSetWarns: a status GitHub refuses is a warning that says what
// permission the workflow needs; the job is not affected, and the heads
// after it are not tried.
func TestChecksSetWarns(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	r, _ := newReporter(t, &log)
	forbidden := &github.ErrorResponse{Response: &http.Response{StatusCode: http.StatusForbidden}, Message: "Resource not accessible by integration"}
	gh := &fakeStatuses{fail: map[string]error{head1: fmt.Errorf("HTTP 403: %w", forbidden)}}
	r.Checks.GitHub = gh
	r.Checks.set(context.Background(), "acme", "docs", check.Set{Heads: []string{head1, head2}, Status: ghclient.CommitStatus{State: "pending", Description: "d"}})
	if len(gh.set) != 0 || !strings.Contains(log.String(), "warning: could not set the commit status docs / agent-job: ") ||
		!strings.Contains(log.String(), " (give the workflow permissions: statuses: write); the job is not affected") {
		t.Errorf("statuses %q, log:\n%s", gh.set, log.String())
	}
}

// TestFinish: the run's end written once: the head's last status, the
// comment's last state, the outputs, the summary and the closing line, or
// the error that says what to do.
func TestFinish(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		o       *report.Outcome
		phase   conversation.Phase
		err     string // "" for a run that succeeds
		outputs []string
		log     string
		// noJob says the comment claims that no job exists.
		noJob bool
	}{
		{name: "completed", o: &report.Outcome{JobID: "job_1", Job: jobOf("job_1", "completed", "https://github.com/acme/docs/pull/101"), Polls: 3},
			phase: conversation.Done, outputs: []string{"status<<", "\ncompleted\n", "\n101\n"}, log: "job job_1 completed: pull request https://github.com/acme/docs/pull/101"},
		{name: "not waiting", o: &report.Outcome{JobID: "job_1", Job: jobOf("job_1", "active", "")},
			phase: conversation.NotWaiting, outputs: []string{"\nactive\n"}, log: "job job_1 is active; not waiting (wait: false)"},
		{name: "failed", o: &report.Outcome{JobID: "job_1", Job: jobOf("job_1", "failed", "")}, phase: conversation.Failed,
			err: "job failed: job job_1 ended with status failed; see it in the Mintlify dashboard, then send a follow-up with job-id: job_1 or start a new job"},
		{name: "timed out waiting", o: (&report.Outcome{JobID: "job_1", Job: jobOf("job_1", "active", ""), Stage: report.StageWait}).Fail(context.Background(), poll.ErrTimedOut),
			phase: conversation.TimedOut, err: "job job_1 still active after 0s (timeout: 30m0s)"},
		{name: "a create the timeout stopped before it reached the API", o: createStopped(t, httpclient.Transient),
			phase: conversation.TimedOut, noJob: true, err: "create job"},
		{name: "a create the timeout stopped after it went", o: createStopped(t, httpclient.MayHaveActed),
			phase: conversation.TimedOut, err: "create job"},
		{name: "skipped", o: &report.Outcome{Skipped: "nothing under paths"}, phase: conversation.Answered, outputs: []string{"\nskipped\n"}},
		{name: "capped", o: &report.Outcome{Skipped: "max-sends-per-day is 1", Capped: true}, phase: conversation.Capped, outputs: []string{"\nskipped\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var log bytes.Buffer
			r, _ := newReporter(t, &log)
			c := &fakeComment{url: "https://github.com/acme/docs/issues/12#issuecomment-77"}
			r.Comment = c
			err := r.Finish(context.Background(), tt.o, check.Decision{})
			if (err == nil) != (tt.err == "") || err != nil && !strings.HasPrefix(err.Error(), tt.err) {
				t.Errorf("Finish() = %v, want %q", err, tt.err)
			}
			if len(c.shown) != 1 || c.shown[0].Phase != tt.phase || c.shown[0].NoJob != tt.noJob {
				t.Errorf("comment states %+v, want one in phase %v, claiming no job: %v", c.shown, tt.phase, tt.noJob)
			}
			for _, want := range tt.outputs {
				if !strings.Contains(outputFile(t, r), want) {
					t.Errorf("outputs lack %q:\n%s", want, outputFile(t, r))
				}
			}
			if !strings.Contains(log.String(), tt.log) {
				t.Errorf("log lacks %q:\n%s", tt.log, log.String())
			}
			if summary, _ := os.ReadFile(r.RC.SummaryFile); len(summary) == 0 || r.Billed == nil {
				t.Errorf("no summary or no cost: %q, %v", summary, r.Billed)
			}
		})
	}
}

// createStopped is a run whose create the timeout stopped, failing as
// kind says.
func createStopped(t *testing.T, kind httpclient.FailureKind) *report.Outcome {
	t.Helper()
	ctx, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	t.Cleanup(cancel)
	err := &agentapi.Error{Op: agentapi.OpCreate, Failure: &httpclient.Failure{Kind: kind, Err: context.DeadlineExceeded}}
	return (&report.Outcome{Stage: report.StageStart}).Fail(ctx, err)
}

// TestSpent: a send counts in the run's comment, which the caps read, and
// in the run's cost.
func TestSpent(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	r, _ := newReporter(t, &log)
	c := &fakeComment{}
	r.Comment = c
	r.Spent(false)
	r.Spent(true)
	r.Cost.Waited += 90 * time.Second
	if err := r.Finish(context.Background(), &report.Outcome{JobID: "job_1", Job: jobOf("job_1", "completed", "")}, check.Decision{}); err != nil {
		t.Fatal(err)
	}
	if len(c.spent) != 2 || r.Billed.Creates != 1 || r.Billed.FollowUps != 1 || r.Billed.WaitedSeconds != 90 {
		t.Errorf("spent in the comment %d, cost %+v", len(c.spent), r.Billed)
	}
}

// TestKeep: the context of a record's write outlives the run's context,
// cancelled or past its deadline, and ends on its own, RecordFor after the
// write starts: before the runner's SIGKILL, with the answer heard out
// before it and the last words after it.
func TestKeep(t *testing.T) {
	t.Parallel()
	type key struct{}
	run, stop := context.WithDeadline(context.WithValue(context.Background(), key{}, "run"), time.Now().Add(-time.Second))
	stop()
	r := &Reporter{Progress: runlog.Progress{Clock: clock.NewFake(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))}}
	before := time.Now()
	ctx, cancel := r.Keep(run)
	defer cancel()
	if err := ctx.Err(); err != nil {
		t.Errorf("the record's context ended with the run's: %v", err)
	}
	if ctx.Value(key{}) != "run" {
		t.Error("the record's context lost the run's values")
	}
	if end, ok := ctx.Deadline(); !ok || end.Before(before.Add(RecordFor)) || end.After(time.Now().Add(RecordFor)) {
		t.Errorf("the record's context ends at %v (%v), want RecordFor (%s) after the write starts", end, ok, RecordFor)
	}
	cancel()
	if ctx.Err() == nil {
		t.Error("cancel did not end the record's context")
	}
	if after := httpclient.HearOut + RecordFor + LastWords; after >= runner.InterruptGrace+runner.TermGrace {
		t.Errorf("a cancelled run writes for up to %s after the SIGINT, past the runner's SIGKILL", after)
	}
}

// TestUsageErrorPrintsNoResults: a run that ends in a usage error writes
// its status to GITHUB_OUTPUT, where a step's outputs go, and prints
// nothing on a command line's results stream.
func TestUsageErrorPrintsNoResults(t *testing.T) {
	t.Parallel()
	for _, file := range []bool{false, true} {
		var log, results bytes.Buffer
		path := ""
		if file {
			path = filepath.Join(t.TempDir(), "out")
		}
		r := &Reporter{Progress: runlog.Progress{Log: runlog.NewPlain(&log)}, Out: report.NewOutputs(runlog.NewPlain(&log), path, &results)}
		r.Unreported(report.Invalid, errors.New("--timeout must be a duration"))
		data, _ := os.ReadFile(path)
		if results.Len() != 0 || file != strings.Contains(string(data), "status<<") || r.Out.Values()["status"] != report.StatusError {
			t.Errorf("GITHUB_OUTPUT %v: results %q, file %q, values %v", file, results.String(), data, r.Out.Values())
		}
	}
	var results bytes.Buffer
	r := &Reporter{Progress: runlog.Progress{Log: runlog.NewPlain(io.Discard)}, Out: report.NewOutputs(runlog.NewPlain(io.Discard), "", &results)}
	r.Unreported(report.Errored, errors.New("GITHUB_STEP_SUMMARY cannot be written"))
	if results.String() != "output status=error\n" {
		t.Errorf("a run that failed otherwise printed %q, want its status", results.String())
	}
}
