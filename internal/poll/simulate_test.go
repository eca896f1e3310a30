package poll

import (
	"fmt"
	"math"
	"math/rand/v2"
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

// simJobs is how many jobs are simulated per job length. A single job per
// length would measure one phase of the poll grid against the job's end, and
// its lag could be anything from 0 to a full wait. So each job lasts a length
// drawn uniformly from [0.9L, 1.1L] around the nominal L (jobs of "about two
// minutes" vary that much), on top of the schedule's own jitter; the mean and
// the worst are over that sample. With 1000 jobs the mean lag of the
// 30-second row still moved by about 0.3 s between seeds, 5 % of its limit;
// 2000 halve the variance and still run in milliseconds.
const simJobs = 2000

// simSeed seeds every random source of the simulation, so that the tables,
// the metrics and the tests are the same on every run and machine.
const simSeed = 20261122

// simLengths are the nominal job lengths of the table.
var simLengths = []time.Duration{30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour}

// throttle makes the simulated API refuse some GETs with 429 Too Many
// Requests and a Retry-After header.
type throttle struct {
	P          float64       // the chance that a GET is refused, drawn per GET
	RetryAfter time.Duration // what the refusal asks us to wait
}

// throttle429 is the table's rate-limited case: one GET in five, drawn
// independently, is refused and asked to wait a minute. It is a crude
// stand-in for a project whose 100 calls an hour are shared with other
// workflows; it shows what a refusal costs, not when the API refuses.
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

// cellStats sums up the jobs of one schedule and one job length.
type cellStats struct {
	Jobs      int
	Gets      int // over all jobs, 429s included
	GetsWorst int
	Refused   int           // GETs answered 429
	Lag       time.Duration // over all jobs
	LagWorst  time.Duration
}

// GetsMean is the mean number of GET requests per job.
func (c cellStats) GetsMean() float64 { return float64(c.Gets) / float64(c.Jobs) }

// LagMean is the mean time from a job's end to the GET that sees it.
func (c cellStats) LagMean() time.Duration { return c.Lag / time.Duration(c.Jobs) }

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

// jobEnds returns the ends of the simulated jobs of nominal length length:
// uniform in [0.9, 1.1] × length, from a source seeded by the length alone,
// so that every schedule meets the same jobs.
func jobEnds(length time.Duration, n int, seed uint64) []time.Duration {
	r := rand.New(rand.NewPCG(seed, uint64(length)))
	ends := make([]time.Duration, n)
	for i := range ends {
		ends[i] = time.Duration(float64(length) * (0.9 + 0.2*r.Float64()))
	}
	return ends
}

// simulate plays n jobs of nominal length length against the schedule.
func simulate(sc simSchedule, length time.Duration, th throttle, n int) cellStats {
	return simulateSeed(sc, length, th, n, simSeed)
}

// simulateSeed is simulate with another seed, to see how much of a result
// is the luck of the draw.
func simulateSeed(sc simSchedule, length time.Duration, th throttle, n int, seed uint64) cellStats {
	jitter := rand.New(rand.NewPCG(seed+1, uint64(length)))
	refuse := rand.New(rand.NewPCG(seed+2, uint64(length)))
	refused := func() bool { return refuse.Float64() < th.P }
	s := sc.mk(jitter.Float64)
	c := cellStats{Jobs: n}
	for _, end := range jobEnds(length, n, seed) {
		gets, refusals, lag := pollJob(s, end, th, refused)
		c.Gets += gets
		c.GetsWorst = max(c.GetsWorst, gets)
		c.Refused += refusals
		c.Lag += lag
		c.LagWorst = max(c.LagWorst, lag)
	}
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

// A target is one of the requirements on the auto schedule, at one
// job length: a mean lag of at most Lag and, where Share is set, at most
// Share × the GET requests of the fixed 10-second loop.
type target struct {
	Length time.Duration
	Lag    time.Duration
	Share  float64
}

// targets: at 2, 10 and 30 minutes half the requests of a 10-second loop and
// a mean lag of 15 s or less; under 2 minutes (the 30-second job) a mean lag
// of at most 20 % of the job's length.
var targets = []target{
	{Length: 30 * time.Second, Lag: 6 * time.Second},
	{Length: 2 * time.Minute, Lag: 15 * time.Second, Share: 0.5},
	{Length: 10 * time.Minute, Lag: 15 * time.Second, Share: 0.5},
	{Length: 30 * time.Minute, Lag: 15 * time.Second, Share: 0.5},
}

// baseline is what the targets compare with: the fixed 10-second loop.
var baseline = fixedSim(10 * time.Second)

// scorecard is how one schedule fares against the targets. Both scores are
// normalised so that 1 is the limit: Requests is the worst, over the target
// lengths, of its GETs ÷ (Share × the baseline's GETs); Lag the worst of its
// mean lag ÷ the limit.
type scorecard struct {
	Requests float64
	Lag      float64
	Cells    map[time.Duration]cellStats // by target length
}

// Met reports whether every target is met.
func (s scorecard) Met() bool { return s.Requests <= 1 && s.Lag <= 1 }

// Headroom is how far the schedule stays from its nearest limit, as a
// fraction of that limit: negative when a target is missed.
func (s scorecard) Headroom() float64 { return 1 - max(s.Requests, s.Lag) }

// score plays the target lengths against sc. base holds the baseline's cells
// by length, so that a sweep computes them once.
func score(sc simSchedule, base map[time.Duration]cellStats) scorecard {
	s := scorecard{Cells: map[time.Duration]cellStats{}}
	for _, t := range targets {
		c := simulate(sc, t.Length, throttle{}, simJobs)
		s.Cells[t.Length] = c
		s.Lag = max(s.Lag, float64(c.LagMean())/float64(t.Lag))
		if t.Share > 0 {
			s.Requests = max(s.Requests, c.GetsMean()/(t.Share*base[t.Length].GetsMean()))
		}
	}
	return s
}

// baselineCells simulates the baseline at the target lengths.
func baselineCells() map[time.Duration]cellStats {
	m := map[time.Duration]cellStats{}
	for _, t := range targets {
		m[t.Length] = simulate(baseline, t.Length, throttle{}, simJobs)
	}
	return m
}

// shortShare is the mean of lag ÷ length over jobs whose lengths are spread
// log-uniformly over [30 s, 2 min). The table samples "under 2 minutes" at
// 30 s only, and a schedule can pass there by placing a poll just after 30 s
// while noticing a 1-minute job late; this shows whether it does.
func shortShare(sc simSchedule) float64 {
	lengths := rand.New(rand.NewPCG(simSeed+3, 0))
	jitter := rand.New(rand.NewPCG(simSeed+4, 0))
	s := sc.mk(jitter.Float64)
	var sum float64
	for range simJobs {
		end := time.Duration(float64(30*time.Second) * math.Pow(4, lengths.Float64()))
		_, _, lag := pollJob(s, end, throttle{}, nil)
		sum += float64(lag) / float64(end)
	}
	return sum / simJobs
}
