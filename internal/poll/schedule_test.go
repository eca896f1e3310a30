package poll

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/clock"
)

func TestFixedNext(t *testing.T) {
	t.Parallel()
	for _, elapsed := range []time.Duration{0, time.Nanosecond, time.Second, time.Hour} {
		if got := Fixed(10 * time.Second).Next(elapsed); got != 10*time.Second {
			t.Errorf("Fixed(10s).Next(%v) = %v, want 10s", elapsed, got)
		}
	}
}

func TestAutoNextWithoutJitter(t *testing.T) {
	t.Parallel()
	a := Auto{First: 20 * time.Second, Min: 5 * time.Second, Max: 27 * time.Second, Ratio: 0.5}
	for _, tt := range []struct {
		name    string
		a       Auto
		elapsed time.Duration
		want    time.Duration
	}{
		{"first poll", a, 0, 20 * time.Second},
		{"Ratio × elapsed", a, 30 * time.Second, 15 * time.Second},
		{"Min when Ratio × elapsed is below it", a, time.Nanosecond, 5 * time.Second},
		{"Min at the edge", a, 10 * time.Second, 5 * time.Second},
		{"Max at the edge", a, 54 * time.Second, 27 * time.Second},
		{"Max for a long job", a, 2 * time.Hour, 27 * time.Second},
		{"First above Max is capped", Auto{First: time.Minute, Max: 27 * time.Second}, 0, 27 * time.Second},
		{"First below Min is kept", Auto{First: 2 * time.Second, Min: 5 * time.Second, Max: time.Minute}, 0, 2 * time.Second},
		{"never below 1s, first poll", Auto{First: 10 * time.Millisecond, Max: time.Minute}, 0, time.Second},
		{"never below 1s, later", Auto{First: time.Second, Min: 100 * time.Millisecond, Max: 200 * time.Millisecond, Ratio: 0.5}, time.Second, time.Second},
	} {
		if got := tt.a.Next(tt.elapsed); got != tt.want {
			t.Errorf("%s: Next(%v) = %v, want %v", tt.name, tt.elapsed, got, tt.want)
		}
	}
}

func TestAutoNextJitter(t *testing.T) {
	t.Parallel()
	at := func(r float64) Auto {
		return Auto{First: 20 * time.Second, Min: 5 * time.Second, Max: 30 * time.Second, Ratio: 0.5, Jitter: 0.1, Rand: func() float64 { return r }}
	}
	for _, tt := range []struct {
		r       float64
		elapsed time.Duration
		want    time.Duration
	}{
		{0, 0, 18 * time.Second}, // the low end: -10 %
		{0.5, 0, 20 * time.Second},
		{0.75, 0, 21 * time.Second},
		{0, time.Hour, 27 * time.Second},
		{0.5, 40 * time.Second, 20 * time.Second},
	} {
		if got := at(tt.r).Next(tt.elapsed); got != tt.want {
			t.Errorf("Rand %v: Next(%v) = %v, want %v", tt.r, tt.elapsed, got, tt.want)
		}
	}
	// The high end, as Rand approaches 1.
	if got, limit := at(0.999999).Next(time.Hour), 33*time.Second; got >= limit || got < limit-time.Millisecond {
		t.Errorf("Next at the top of the jitter = %v, want just under %v", got, limit)
	}
}

// TestAutoNextBounds sweeps elapsed times and jitter draws: every wait is at
// least 1 s and at most Max×(1+Jitter), the first poll included.
func TestAutoNextBounds(t *testing.T) {
	t.Parallel()
	schedules := []Auto{
		DefaultAuto,
		{First: 5 * time.Second, Min: 5 * time.Second, Max: 30 * time.Second, Ratio: 0.25, Jitter: 0.1},
		{First: time.Minute, Min: 2 * time.Second, Max: 10 * time.Second, Ratio: 2, Jitter: 0.5},
		{First: 100 * time.Millisecond, Min: 10 * time.Millisecond, Max: 500 * time.Millisecond, Ratio: 0.1, Jitter: 0.9},
	}
	draws := []float64{0, 1e-9, 0.25, 0.5, 0.75, 1 - 1e-9}
	for _, a := range schedules {
		limit := max(time.Duration(float64(a.Max)*(1+a.Jitter)), time.Second)
		for _, r := range draws {
			a.Rand = func() float64 { return r }
			for elapsed := time.Duration(0); elapsed <= 3*time.Hour; elapsed += elapsed/8 + 250*time.Millisecond {
				d := a.Next(elapsed)
				if d < time.Second || d > limit {
					t.Fatalf("%+v with Rand %v: Next(%v) = %v, want within [1s, %v]", a, r, elapsed, d, limit)
				}
			}
		}
	}
}

// TestAutoNextSeededRandIsDeterministic: with an injected, seeded Rand the
// waits repeat exactly, which the simulation relies on; and the jitter really
// spreads them.
func TestAutoNextSeededRandIsDeterministic(t *testing.T) {
	t.Parallel()
	waits := func(seed uint64) []time.Duration {
		a := DefaultAuto
		a.Rand = rand.New(rand.NewPCG(seed, 0)).Float64
		var out []time.Duration
		var elapsed time.Duration
		for range 50 {
			d := a.Next(elapsed)
			out = append(out, d)
			elapsed += d
		}
		return out
	}
	first, again, other := waits(1), waits(1), waits(2)
	same := 0
	for i := range first {
		if first[i] != again[i] {
			t.Fatalf("wait %d: %v, then %v with the same seed", i, first[i], again[i])
		}
		if first[i] == other[i] {
			same++
		}
	}
	if same == len(first) {
		t.Errorf("seeds 1 and 2 give the same waits: the jitter is not applied")
	}
}

// TestAutoNextDefaultRand: nil Rand falls back to math/rand/v2 and stays in
// bounds.
func TestAutoNextDefaultRand(t *testing.T) {
	t.Parallel()
	a := DefaultAuto
	lo := time.Duration(float64(a.First) * (1 - a.Jitter))
	hi := time.Duration(float64(a.First) * (1 + a.Jitter))
	for range 1000 {
		if d := a.Next(0); d < lo || d > hi {
			t.Fatalf("Next(0) = %v, want within [%v, %v]", d, lo, hi)
		}
	}
}

// TestDefaultAutoMeetsTargets plays the benchmark's simulation and holds
// DefaultAuto to the targets, figure by figure. The sources are
// seeded, so the numbers are exact and the same on every run.
func TestDefaultAutoMeetsTargets(t *testing.T) {
	t.Parallel()
	if simSchedules[0].name != "auto" || !sameParams(autoOf(t, simSchedules[0]), DefaultAuto) {
		t.Fatalf("the first table row is %q, want auto with DefaultAuto", simSchedules[0].name)
	}
	base := baselineCells()
	s := score(simSchedules[0], base)
	for _, tg := range targets {
		for _, m := range tg.measures(s.Cells[tg.Range], base[tg.Range]) {
			if !m.Met() {
				t.Errorf("%s jobs: %v, missed", tg.Range, m)
			}
		}
	}
	if !s.Met() {
		t.Errorf("scorecard: requests %.3f, lag %.3f; both must be at most 1", s.Requests, s.Lag)
	}
	if again := score(simSchedules[0], base); again.Requests != s.Requests || again.Lag != s.Lag {
		t.Errorf("a second run scores %+v, the first %+v: the simulation is not deterministic", again, s)
	}
}

// TestTargetsCatchMisses: the targets test can fail, and on the right
// figure. Schedules that each miss some target are held to them, and exactly
// the expected figures must fail. The old default (First 20 s, Ratio 0.7)
// noticed jobs under two minutes a fifth of their length late on average.
func TestTargetsCatchMisses(t *testing.T) {
	t.Parallel()
	old := Auto{First: 20 * time.Second, Min: 5 * time.Second, Max: 27 * time.Second, Ratio: 0.7, Jitter: 0.1}
	slowTail := DefaultAuto
	slowTail.Max = 40 * time.Second
	base := baselineCells()
	for _, tt := range []struct {
		sc   simSchedule
		miss []string
	}{
		{autoSim("auto", DefaultAuto), nil},
		{autoSim("old auto", old), []string{"15s-2m lag/length mean", "15s-2m lag/length p90"}},
		{autoSim("auto, Max 40s", slowTail), []string{"2m-10m lag mean (s)", "10m-60m lag mean (s)"}},
		{fixedSim(10 * time.Second), []string{"2m-10m GETs / fixed10s's", "10m-60m GETs / fixed10s's"}},
	} {
		s := score(tt.sc, base)
		var missed []string
		for _, tg := range targets {
			for _, m := range tg.measures(s.Cells[tg.Range], base[tg.Range]) {
				if !m.Met() {
					missed = append(missed, tg.Range.String()+" "+m.Name)
				}
			}
		}
		if !slices.Equal(missed, tt.miss) {
			t.Errorf("%s misses %q, want %q", tt.sc.name, missed, tt.miss)
		}
		if s.Met() != (len(tt.miss) == 0) {
			t.Errorf("%s: scorecard met %t with misses %q", tt.sc.name, s.Met(), missed)
		}
	}
}

// TestSimulationStatistics checks the table's figures against what they
// must be, worked out by hand, for fixed loops over bands of job lengths.
// Fixed 10 s on jobs of 10-20 s: every job is seen by the second GET, at
// 20 s, so the lag is 20 s - L, uniform over (0, 10 s]: mean 5 s, p90 9 s;
// lag ÷ length averages 20 ln 2 / 10 - 1 = 0.386, and its p90 is that of the
// shortest tenth, 20/11 - 1 = 0.818. Fixed 5 s on jobs of 60-65 s likewise:
// 13 GETs, the lag 65 s - L, lag ÷ length 13 ln(65/60) - 1 = 0.041 on
// average and 65/60.5 - 1 = 0.074 at p90.
func TestSimulationStatistics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		d                  time.Duration
		r                  lengthRange
		gets               float64
		lagMean, lagP90    time.Duration
		shareMean, shareP9 float64
	}{
		{10 * time.Second, lengthRange{10 * time.Second, 20 * time.Second}, 2, 5 * time.Second, 9 * time.Second, 20*math.Ln2/10 - 1, 20.0/11 - 1},
		{5 * time.Second, lengthRange{60 * time.Second, 65 * time.Second}, 13, 2500 * time.Millisecond, 4500 * time.Millisecond, 13*math.Log(65.0/60) - 1, 65/60.5 - 1},
	} {
		c := simulate(fixedSim(tt.d), tt.r, throttle{}, simJobs)
		name := fmt.Sprintf("fixed %v over %v", tt.d, tt.r)
		if c.Jobs != simJobs || len(c.lags) != simJobs || len(c.shares) != simJobs {
			t.Fatalf("%s: %d jobs, %d lags, %d shares; want %d each", name, c.Jobs, len(c.lags), len(c.shares), simJobs)
		}
		near := func(what string, got, want, tol float64) {
			if math.Abs(got-want) > tol {
				t.Errorf("%s: %s %.4f, want %.4f ± %.4f", name, what, got, want, tol)
			}
		}
		near("GETs mean", c.GetsMean(), tt.gets, 0.05*tt.gets)
		near("lag mean s", c.LagMean().Seconds(), tt.lagMean.Seconds(), 0.03*tt.lagMean.Seconds())
		near("lag p90 s", c.LagP90().Seconds(), tt.lagP90.Seconds(), 0.03*tt.lagP90.Seconds())
		near("lag/length mean", c.ShareMean(), tt.shareMean, 0.05*tt.shareMean)
		near("lag/length p90", c.ShareP90(), tt.shareP9, 0.1*tt.shareP9)
	}
}

func TestP90Index(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ n, want int }{{1, 0}, {2, 1}, {9, 8}, {10, 8}, {11, 9}, {100, 89}, {4000, 3599}} {
		if got := p90Index(tt.n); got != tt.want {
			t.Errorf("p90Index(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

// TestSimulationMatchesWaiter runs the real Waiter on a simulated clock
// against jobs that end at known times, and checks that the simulation's
// replay gives the same GETs and the same lag, job by job.
func TestSimulationMatchesWaiter(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	for _, r := range simRanges {
		for i, end := range jobLengths(r, 20, simSeed) {
			a := DefaultAuto
			a.Rand = rand.New(rand.NewPCG(uint64(i), uint64(r.Lo))).Float64
			wantGets, _, wantLag := pollJob(a, end, throttle{}, nil)

			a.Rand = rand.New(rand.NewPCG(uint64(i), uint64(r.Lo))).Float64
			clk := clock.NewFake(start)
			w := Waiter{
				Jobs:     endsAt{clk, start.Add(end)},
				Clock:    clk,
				Schedule: a,
				Deadline: start.Add(24 * time.Hour),
				Observer: quiet{},
			}
			res, err := w.Wait(context.Background(), &agentapi.Job{ID: "job_1", Status: agentapi.StatusActive})
			if err != nil {
				t.Fatalf("%s job %d: %v", r, i, err)
			}
			if lag := clk.Now().Sub(start) - end; res.Polls != wantGets || lag != wantLag {
				t.Errorf("%s job %d ending at %v: Waiter made %d GETs and saw the end %v late; the simulation says %d and %v",
					r, i, end, res.Polls, lag, wantGets, wantLag)
			}
		}
	}
}

// TestWaiterAsksForTheFirstWaitWithZero: on the wall clock some microseconds
// pass between the start of the wait and the first call to Next. The Waiter
// must still pass 0, or Auto takes the first poll for a later one and waits
// Min instead of First.
func TestWaiterAsksForTheFirstWaitWithZero(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	clk := creeping{clock.NewFake(start)}
	a := Auto{First: 20 * time.Second, Min: 5 * time.Second, Max: 27 * time.Second, Ratio: 0.7}
	w := Waiter{
		Jobs:     endsAt{clk, start.Add(time.Minute)},
		Clock:    clk,
		Schedule: a,
		Deadline: start.Add(time.Hour),
		Observer: quiet{},
	}
	if _, err := w.Wait(context.Background(), &agentapi.Job{ID: "job_1", Status: agentapi.StatusActive}); err != nil {
		t.Fatal(err)
	}
	naps := clk.Naps()
	if len(naps) < 2 || naps[0] != 20*time.Second {
		t.Fatalf("waits %v, want First (20s) before the first poll", naps)
	}
	// The second wait is 0.7 × the ~20 s elapsed, give or take the creep.
	if d := naps[1] - 14*time.Second; d < 0 || d > time.Millisecond {
		t.Errorf("second wait %v, want about 14s", naps[1])
	}
}

// endsAt is a job that is active until end on clk, and then completed.
type endsAt struct {
	clk clock.Clock
	end time.Time
}

func (e endsAt) Get(_ context.Context, id string) (*agentapi.Job, error) {
	status := agentapi.StatusActive
	if !e.clk.Now().Before(e.end) {
		status = agentapi.StatusCompleted
	}
	return &agentapi.Job{ID: id, Status: status}, nil
}

// creeping is a simulated clock that moves a microsecond every time it is
// read, as the wall clock does between two calls.
type creeping struct{ *clock.Fake }

func (c creeping) Now() time.Time {
	c.Advance(time.Microsecond)
	return c.Fake.Now()
}

type quiet struct{}

func (quiet) StatusChanged(*agentapi.Job, string)     {}
func (quiet) UnknownStatus(*agentapi.Job)             {}
func (quiet) PollFailed(error)                        {}
func (quiet) Sleeping(*agentapi.Job, time.Time, bool) {}

// autoOf returns the Auto a simulated schedule plays.
func autoOf(t *testing.T, sc simSchedule) Auto {
	t.Helper()
	a, ok := sc.mk(nil).(Auto)
	if !ok {
		t.Fatalf("schedule %q is a %T, not an Auto", sc.name, sc.mk(nil))
	}
	return a
}
