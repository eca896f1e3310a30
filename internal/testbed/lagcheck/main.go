// Command lagcheck measures, on the wall clock, how late the action notices
// that a job has ended. It runs the built action binary once per job length
// and poll interval, all side by side, each against its own fake Agent Job
// API (internal/fakes/fakeapi) whose job stays active for that length, and
// prints each job's lag and the mean lag as a share of the length.
//
// BenchmarkPoll (internal/poll) measures the same on a simulated clock; this
// is the check that the real program, with its process start, HTTP round
// trips and timers, behaves as the simulation says. It takes as long as the
// longest job plus a poll or two, so it is run by hand (scripts/lagcheck.sh),
// not by go test.
//
//	lagcheck -binary PATH [-lengths 20s,35s,...] [-intervals auto,10s]
package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

const (
	project = "lagcheck"
	// apiKey is the fake's key; it opens nothing real.
	apiKey = "mint_lagcheck_not_a_secret"
	// shareTarget is issue 12's limit on the mean lag ÷ length of jobs under
	// two minutes, printed beside the figure.
	shareTarget = 0.15
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lagcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	binary := fs.String("binary", "", "the built action binary to run (required)")
	// Not multiples of 10 s: a fixed 10 s loop would meet every such job
	// in the same phase, just after its end, and look better than it is.
	lengths := fs.String("lengths", "22s,31s,43s,57s,68s,84s,99s,113s", "comma-separated job lengths")
	repeat := fs.Int("repeat", 3, "how many jobs of each length per interval; the jitter differs between them")
	verbose := fs.Bool("v", false, "also print when each GET arrived")
	intervals := fs.String("intervals", "auto,10s", "comma-separated poll-interval inputs to compare")
	timeout := fs.Duration("timeout", 5*time.Minute, "the timeout input of each run")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *binary == "" {
		fmt.Fprintln(stderr, "lagcheck: -binary is required: build the action first (scripts/lagcheck.sh does)")
		return 2
	}
	lens, err := parseLengths(*lengths)
	if err != nil {
		fmt.Fprintf(stderr, "lagcheck: -lengths: %v\n", err)
		return 2
	}
	if *repeat < 1 {
		fmt.Fprintln(stderr, "lagcheck: -repeat must be at least 1")
		return 2
	}
	ivs := strings.Split(*intervals, ",")

	var jobs []*jobRun
	for _, iv := range ivs {
		for _, l := range lens {
			for range *repeat {
				jobs = append(jobs, &jobRun{Interval: strings.TrimSpace(iv), Length: l})
			}
		}
	}
	fmt.Fprintf(stdout, "Running %d jobs side by side: %d of each length (%s) per poll-interval (%s); about %s.\n\n",
		len(jobs), *repeat, *lengths, *intervals, slices.Max(lens)+time.Minute/2)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Go(func() { j.Err = j.run(*binary, *timeout) })
	}
	wg.Wait()

	failed := false
	for _, j := range jobs {
		if j.Err != nil {
			failed = true
			fmt.Fprintf(stderr, "lagcheck: interval %s, %s job: %v\n", j.Interval, j.Length, j.Err)
		}
	}
	if *verbose {
		fmt.Fprint(stdout, formatGets(jobs))
	}
	fmt.Fprint(stdout, formatReport(jobs))
	if failed {
		return 1
	}
	return 0
}

func parseLengths(s string) ([]time.Duration, error) {
	var out []time.Duration
	for f := range strings.SplitSeq(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		if d <= 0 {
			return nil, fmt.Errorf("%s: a job length must be positive", f)
		}
		out = append(out, d)
	}
	return out, nil
}

// jobRun is one run of the action against a job of one length.
type jobRun struct {
	Interval string
	Length   time.Duration
	Result   jobResult
	Err      error
}

// run starts a fake whose job lasts j.Length, runs the binary against it
// until it exits, and measures what the fake saw.
func (j *jobRun) run(binary string, timeout time.Duration) error {
	api := fakeapi.New(project, fakeapi.Scenario{Key: apiKey, Runtime: j.Length})
	defer api.Close()
	rec := &recorder{next: api.Config.Handler}
	front := httptest.NewServer(rec)
	defer front.Close()

	dir, err := os.MkdirTemp("", "lagcheck")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(binary)
	// The environment the runner gives a step, and nothing inherited, so that
	// a GITHUB_EVENT_PATH of the shell does not make the run comment.
	cmd.Env = []string{
		"INPUT_PROMPT=Add a FAQ page about rate limits.",
		"INPUT_PROJECT-ID=" + project,
		"INPUT_API-KEY=" + apiKey,
		"INPUT_BASE-URL=" + front.URL,
		"INPUT_WAIT=true",
		"INPUT_POLL-INTERVAL=" + j.Interval,
		"INPUT_TIMEOUT=" + timeout.String(),
		"GITHUB_OUTPUT=" + filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY=" + filepath.Join(dir, "summary"),
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("the action failed (%v); its output:\n%s", err, out.String())
	}
	j.Result, err = measure(rec.Events(), j.Length)
	return err
}

// event is one request the fake answered.
type event struct {
	At     time.Time // when it arrived
	Method string
	Code   int
	Status string // the job's status in the answer, if it holds a job
}

// recorder stands in front of the fake and notes each request's arrival and
// the job status it was answered with. It takes the time before the fake
// does any work, so the fake's own time counts in the lag, as the real API's
// would.
type recorder struct {
	next   http.Handler
	mu     sync.Mutex
	events []event
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	tw := &teeWriter{ResponseWriter: w, code: http.StatusOK}
	rc.next.ServeHTTP(tw, r)
	var job agentapi.Job
	_ = json.Unmarshal(tw.body.Bytes(), &job) // an error answer holds no job
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.events = append(rc.events, event{At: at, Method: r.Method, Code: tw.code, Status: job.Status})
}

// Events returns a copy of what the recorder saw, in order of arrival.
func (rc *recorder) Events() []event {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.events)
}

// teeWriter passes an answer through and keeps a copy of it.
type teeWriter struct {
	http.ResponseWriter
	code int
	body bytes.Buffer
}

func (t *teeWriter) WriteHeader(code int) {
	t.code = code
	t.ResponseWriter.WriteHeader(code)
}

func (t *teeWriter) Write(p []byte) (int, error) {
	t.body.Write(p)
	return t.ResponseWriter.Write(p)
}

// jobResult is what one run cost and how late it noticed the end.
type jobResult struct {
	Gets int
	Lag  time.Duration
	// GetsAt holds when each GET arrived, from the create.
	GetsAt []time.Duration
}

// Share is the lag as a share of the job's length.
func (r jobResult) Share(length time.Duration) float64 { return float64(r.Lag) / float64(length) }

// measure finds, in a fake's events, the create and the first GET that
// answered a terminal status. The job ended length after the create reached
// the fake (the fake takes its own clock a moment later, so the lag is
// overstated by that moment, microseconds); the lag runs from there to that
// GET's arrival. Every GET counts, whatever its answer.
func measure(events []event, length time.Duration) (jobResult, error) {
	var res jobResult
	var created time.Time
	for _, e := range events {
		switch {
		case e.Method == http.MethodPost && e.Code == http.StatusCreated && created.IsZero():
			created = e.At
		case e.Method == http.MethodGet && !created.IsZero():
			res.Gets++
			res.GetsAt = append(res.GetsAt, e.At.Sub(created))
			job := agentapi.Job{Status: e.Status}
			if e.Code == http.StatusOK && job.Terminal() {
				res.Lag = e.At.Sub(created.Add(length))
				return res, nil
			}
		}
	}
	if created.IsZero() {
		return res, errors.New("the fake saw no job created")
	}
	return res, fmt.Errorf("no GET saw the job end (%d GETs)", res.Gets)
}

// formatGets prints when each job's GETs came, to compare with the schedule.
func formatGets(jobs []*jobRun) string {
	var b strings.Builder
	b.WriteString("GETs, in seconds from the create:\n")
	for _, j := range jobs {
		if j.Err != nil {
			continue
		}
		fmt.Fprintf(&b, "%-8s  %-5s ", j.Interval, j.Length)
		for _, at := range j.Result.GetsAt {
			fmt.Fprintf(&b, " %.1f", at.Seconds())
		}
		b.WriteString("\n")
	}
	return b.String() + "\n"
}

// formatReport prints a row per job and, per interval, the means; then the
// mean lag share of each interval, against the target when every job was
// under two minutes.
func formatReport(jobs []*jobRun) string {
	var b, summary strings.Builder
	b.WriteString("Lag: from the job's end (its create + its length) to the GET that saw it, on the wall clock.\n\n")
	b.WriteString("interval  job    GETs   lag s  lag/length\n")
	var intervals []string
	for _, j := range jobs {
		if !slices.Contains(intervals, j.Interval) {
			intervals = append(intervals, j.Interval)
		}
	}
	for _, iv := range intervals {
		var done []*jobRun
		for _, j := range jobs {
			switch {
			case j.Interval != iv:
			case j.Err != nil:
				fmt.Fprintf(&b, "%-8s  %-5s  failed\n", iv, j.Length)
			default:
				done = append(done, j)
				fmt.Fprintf(&b, "%-8s  %-5s  %4d  %6.1f  %9.1f%%\n", iv, j.Length, j.Result.Gets, j.Result.Lag.Seconds(), 100*j.Result.Share(j.Length))
			}
		}
		if len(done) == 0 {
			b.WriteString("\n")
			continue
		}
		var gets, lag, share float64
		short := true
		for _, j := range done {
			gets += float64(j.Result.Gets)
			lag += j.Result.Lag.Seconds()
			share += j.Result.Share(j.Length)
			short = short && j.Length < 2*time.Minute
		}
		n := float64(len(done))
		worst := slices.MaxFunc(done, func(x, y *jobRun) int {
			return cmp.Compare(x.Result.Share(x.Length), y.Result.Share(y.Length))
		})
		fmt.Fprintf(&b, "%-8s  mean   %4.1f  %6.1f  %9.1f%%   (worst %.1f%%, the %s job)\n\n",
			iv, gets/n, lag/n, 100*share/n, 100*worst.Result.Share(worst.Length), worst.Length)
		fmt.Fprintf(&summary, "Mean lag share, %s: %.1f%% over %d jobs", iv, 100*share/n, len(done))
		if short {
			verdict := "met"
			if share/n > shareTarget {
				verdict = "MISSED"
			}
			fmt.Fprintf(&summary, " (target for jobs under 2 min: at most %.0f%%: %s)", 100*shareTarget, verdict)
		}
		summary.WriteString("\n")
	}
	return b.String() + summary.String()
}
