package poll

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// The simulation replays Waiter.Wait's arithmetic on a virtual clock: the
// wait starts at 0, the first sleep is Schedule.Next(0), each later sleep is
// Schedule.Next(time since the wait started), and every sleep ends in one GET.
// The job is seen to have ended by the first GET at or after its end. Nothing
// sleeps, so thousands of hour-long jobs take milliseconds.
// TestSimulationMatchesWaiter checks the replay against the real loop.
//
// The timeout is left out (the Waiter caps the last sleep at the time left,
// which only matters for jobs that time out), and so is the HTTP time.

// simJobs is how many jobs are simulated per range of lengths. Their lengths
// are drawn uniformly over the range, so the figures are averages over every
// phase of a schedule's polls against a job's end, not the luck of a few
// chosen lengths: an earlier version measured one length under two minutes,
// 30 s, which a schedule can pass by placing a poll just after it while
// noticing a 25-second job 36 % late. With 4000 jobs the short range's mean
// lag share moves by about 0.002 between seeds, 1 % of its limit.
const simJobs = 4000

// simSeed seeds every random source of the simulation, so that the tables,
// the metrics and the tests are the same on every run and machine.
const simSeed = 20261122

// A lengthRange is a band of job lengths, [Lo, Hi).
type lengthRange struct{ Lo, Hi time.Duration }

func (r lengthRange) String() string { return shortDur(r.Lo) + "-" + shortDur(r.Hi) }

// The ranges of the table: short jobs, whose lag matters as a share of their
// length, and the usual and long ones, whose requests matter.
var (
	shortJobs  = lengthRange{15 * time.Second, 2 * time.Minute}
	mediumJobs = lengthRange{2 * time.Minute, 10 * time.Minute}
	longJobs   = lengthRange{10 * time.Minute, time.Hour}
	simRanges  = []lengthRange{shortJobs, mediumJobs, longJobs}
)

// throttle makes the simulated API refuse some GETs with 429 Too Many
// Requests and a Retry-After header.
type throttle struct {
	P          float64       // the chance that a GET is refused, drawn per GET
	RetryAfter time.Duration // what the refusal asks us to wait
}

// throttle429 is the table's rate-limited case: one GET in five, drawn
// independently, is refused and asked to wait a minute. It is a crude
// stand-in for an API that refuses reads now and then (its documented limit
// does not cover them); it shows what a refusal costs, not when the API
// refuses.
var throttle429 = throttle{P: 0.2, RetryAfter: time.Minute}

// simSchedule is a schedule under test. mk builds it around the simulation's
// seeded jitter source, so that a run is repeatable.
type simSchedule struct {
	name string
	mk   func(rnd func() float64) Schedule
}

func autoSim(name string, a Auto) simSchedule {
	return simSchedule{name, func(rnd func() float64) Schedule { a.Rand = rnd; return a }}
}

func fixedSim(d time.Duration) simSchedule {
	return simSchedule{"fixed" + shortDur(d), func(func() float64) Schedule { return Fixed(d) }}
}

// simSchedules are the rows of the table: ours and the fixed loops people
// write by hand.
var simSchedules = []simSchedule{
	autoSim("auto", DefaultAuto),
	fixedSim(5 * time.Second),
	fixedSim(10 * time.Second),
	fixedSim(30 * time.Second),
}

// cellStats sums up the jobs of one schedule and one range of lengths.
// Percentiles need every job's figures: lags and shares hold them, sorted.
type cellStats struct {
	Jobs      int
	Gets      int // over all jobs, 429s included
	GetsWorst int
	Refused   int           // GETs answered 429
	Lag       time.Duration // over all jobs
	LagWorst  time.Duration
	lags      []time.Duration
	shares    []float64 // lag ÷ length, per job
}

// GetsMean is the mean number of GET requests per job.
func (c cellStats) GetsMean() float64 { return float64(c.Gets) / float64(c.Jobs) }

// LagMean is the mean time from a job's end to the GET that sees it.
func (c cellStats) LagMean() time.Duration { return c.Lag / time.Duration(c.Jobs) }

// LagP90 is the lag that 90 % of the jobs stay at or under.
func (c cellStats) LagP90() time.Duration { return c.lags[p90Index(len(c.lags))] }

// ShareMean is the mean, over the jobs, of lag ÷ the job's length.
func (c cellStats) ShareMean() float64 {
	var sum float64
	for _, s := range c.shares {
		sum += s
	}
	return sum / float64(len(c.shares))
}

// ShareP90 is the lag ÷ length that 90 % of the jobs stay at or under.
func (c cellStats) ShareP90() float64 { return c.shares[p90Index(len(c.shares))] }

// p90Index is the nearest-rank 90th percentile's index in n sorted values:
// the smallest value that at least 90 % of them do not exceed.
func p90Index(n int) int { return int(math.Ceil(0.9*float64(n))) - 1 }

// pollJob plays one job that ends at end. refused says whether the next GET
// is answered 429; after a 429 the next GET waits for the longer of
// Retry-After and the schedule's own wait (httpclient sleeps Retry-After
// before repeating the GET; the schedule's wait is never longer than
// Max×(1+Jitter), below the minute the API asks for). A 429 tells us
// nothing, so it cannot end the wait.
func pollJob(s Schedule, end time.Duration, th throttle, refused func() bool) (gets, refusals int, lag time.Duration) {
	var now time.Duration
	throttled := false
	for {
		wait := s.Next(now)
		if throttled {
			wait = max(wait, th.RetryAfter)
		}
		now += wait
		gets++
		throttled = th.P > 0 && refused()
		if throttled {
			refusals++
			continue
		}
		if now >= end {
			return gets, refusals, now - end
		}
	}
}

// jobLengths returns n job lengths drawn uniformly from r, from a source
// seeded by the range alone, so that every schedule meets the same jobs.
func jobLengths(r lengthRange, n int, seed uint64) []time.Duration {
	rnd := rand.New(rand.NewPCG(seed, uint64(r.Lo)))
	ends := make([]time.Duration, n)
	for i := range ends {
		ends[i] = r.Lo + time.Duration(rnd.Float64()*float64(r.Hi-r.Lo))
	}
	return ends
}

// simulate plays n jobs with lengths drawn from r against the schedule.
func simulate(sc simSchedule, r lengthRange, th throttle, n int) cellStats {
	return simulateSeed(sc, r, th, n, simSeed)
}

// simulateSeed is simulate with another seed, to see how much of a result
// is the luck of the draw.
func simulateSeed(sc simSchedule, r lengthRange, th throttle, n int, seed uint64) cellStats {
	jitter := rand.New(rand.NewPCG(seed+1, uint64(r.Lo)))
	refuse := rand.New(rand.NewPCG(seed+2, uint64(r.Lo)))
	refused := func() bool { return refuse.Float64() < th.P }
	s := sc.mk(jitter.Float64)
	c := cellStats{Jobs: n, lags: make([]time.Duration, 0, n), shares: make([]float64, 0, n)}
	for _, end := range jobLengths(r, n, seed) {
		gets, refusals, lag := pollJob(s, end, th, refused)
		c.Gets += gets
		c.GetsWorst = max(c.GetsWorst, gets)
		c.Refused += refusals
		c.Lag += lag
		c.LagWorst = max(c.LagWorst, lag)
		c.lags = append(c.lags, lag)
		c.shares = append(c.shares, float64(lag)/float64(end))
	}
	slices.Sort(c.lags)
	slices.Sort(c.shares)
	return c
}

// shortDur prints 30s, 2m, 60m without the zero units time.Duration adds.
func shortDur(d time.Duration) string {
	switch {
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}

// A target is the requirements on the auto schedule over one range of
// lengths. A zero field sets no limit.
type target struct {
	Range     lengthRange
	ShareMean float64       // the most mean lag ÷ length
	ShareP90  float64       // the most 90th percentile of lag ÷ length
	LagMean   time.Duration // the most mean lag
	Gets      float64       // the most GETs, as a fraction of the baseline's
}

// targets: under 2 minutes a mean lag of at most 15 % of the
// job's length and a 90th percentile of at most 30 %; from 2 to 60 minutes
// at most half the requests of a 10-second loop and a mean lag of 15 s or
// less, in each range.
var targets = []target{
	{Range: shortJobs, ShareMean: 0.15, ShareP90: 0.30},
	{Range: mediumJobs, LagMean: 15 * time.Second, Gets: 0.5},
	{Range: longJobs, LagMean: 15 * time.Second, Gets: 0.5},
}

// A measure is one figure a target limits.
type measure struct {
	Name       string
	Got, Limit float64
	Requests   bool // a limit on requests, else on lag
	format     string
}

// Ratio is the figure over its limit: 1 is the limit.
func (m measure) Ratio() float64 { return m.Got / m.Limit }

// Met reports whether the figure is within its limit.
func (m measure) Met() bool { return m.Got <= m.Limit }

func (m measure) String() string {
	return fmt.Sprintf("%s "+m.format+" <= "+m.format, m.Name, m.Got, m.Limit)
}

// measures returns the figures of c that t limits; base is the baseline's
// cell over the same range.
func (t target) measures(c, base cellStats) []measure {
	var ms []measure
	if t.ShareMean > 0 {
		ms = append(ms, measure{"lag/length mean", c.ShareMean(), t.ShareMean, false, "%.3f"})
	}
	if t.ShareP90 > 0 {
		ms = append(ms, measure{"lag/length p90", c.ShareP90(), t.ShareP90, false, "%.3f"})
	}
	if t.LagMean > 0 {
		ms = append(ms, measure{"lag mean (s)", c.LagMean().Seconds(), t.LagMean.Seconds(), false, "%.2f"})
	}
	if t.Gets > 0 {
		ms = append(ms, measure{"GETs / " + baseline.name + "'s", c.GetsMean() / base.GetsMean(), t.Gets, true, "%.3f"})
	}
	return ms
}

// baseline is what the targets compare with: the fixed 10-second loop.
var baseline = fixedSim(10 * time.Second)

// scorecard is how one schedule fares against the targets. Both scores are
// normalised so that 1 is the limit: Requests is the worst, over the ranges,
// of its GETs ÷ (Gets × the baseline's GETs); Lag the worst of its lag
// figures ÷ their limits.
type scorecard struct {
	Requests float64
	Lag      float64
	Cells    map[lengthRange]cellStats // by target range
}

// Met reports whether every target is met.
func (s scorecard) Met() bool { return s.Requests <= 1 && s.Lag <= 1 }

// Headroom is how far the schedule stays from its nearest limit, as a
// fraction of that limit: negative when a target is missed.
func (s scorecard) Headroom() float64 { return 1 - max(s.Requests, s.Lag) }

// score plays the target ranges against sc. base holds the baseline's cells
// by range, so that a sweep computes them once.
func score(sc simSchedule, base map[lengthRange]cellStats) scorecard {
	s := scorecard{Cells: map[lengthRange]cellStats{}}
	for _, t := range targets {
		c := simulate(sc, t.Range, throttle{}, simJobs)
		s.Cells[t.Range] = c
		for _, m := range t.measures(c, base[t.Range]) {
			if m.Requests {
				s.Requests = max(s.Requests, m.Ratio())
			} else {
				s.Lag = max(s.Lag, m.Ratio())
			}
		}
	}
	return s
}

// baselineCells simulates the baseline over the target ranges.
func baselineCells() map[lengthRange]cellStats {
	m := map[lengthRange]cellStats{}
	for _, t := range targets {
		m[t.Range] = simulate(baseline, t.Range, throttle{}, simJobs)
	}
	return m
}
