// Package poll waits for an agent job to end, polling on a schedule that
// checks often at first and less as the job goes on, to spare the API.
// Polls are not counted against the API's documented rate limit, which is
// on creates and follow-ups (the README's Limits).
package poll

import (
	"math/rand/v2"
	"time"
)

// Schedule says how long to wait before the next poll, given how long the
// job has been running. Waiter asks for the first wait with elapsed exactly
// 0, so that a schedule can tell the first poll from the others.
type Schedule interface {
	Next(elapsed time.Duration) time.Duration
}

// Fixed polls at a constant interval.
type Fixed time.Duration

// Next returns the interval.
func (f Fixed) Next(time.Duration) time.Duration { return time.Duration(f) }

// Auto waits longer the longer a job has run: Ratio × elapsed, kept between
// Min and Max, then spread by ±Jitter (a fraction) so that many workflows
// started by one cron do not poll in lockstep. The first poll comes after
// First, also capped at Max: Max bounds every wait, so no wait is longer than
// Max×(1+Jitter), or than the 1 s floor that every wait keeps. A job that ends
// early is noticed quickly; a long one costs few requests.
type Auto struct {
	First  time.Duration // the wait before the first poll
	Min    time.Duration // the shortest wait after that, before jitter
	Max    time.Duration // the longest wait, before jitter
	Ratio  float64       // the wait as a fraction of the time elapsed
	Jitter float64       // the spread, as a fraction of the wait
	// Rand returns a number in [0, 1); nil means math/rand/v2.
	Rand func() float64
}

// DefaultAuto is the schedule of poll-interval: auto. The values are the knee
// of a parameter sweep on a simulated clock over job lengths spread from 15 s
// to an hour; docs/poll-schedule-notes.md has the table, the curve and the
// reasons, and TestDefaultAutoMeetsTargets keeps them true. In short: after
// the first poll at 20 s each wait is 0.3 × the time elapsed, so polls come
// at about 20, 26, 34, 44, 57, 74 and 96 s and a job under two minutes is
// noticed within about a third of that step, 14 % of its length on average;
// from about 90 s the wait is Max, 27 s, which keeps the mean lag of longer
// jobs near 13.5 s, under the 15 s target, for under half the requests of a
// 10-second loop. Min does not bind with these values (Ratio × First is 6 s);
// it stays as a floor for schedules built with a smaller First.
var DefaultAuto = Auto{First: 20 * time.Second, Min: 5 * time.Second, Max: 27 * time.Second, Ratio: 0.3, Jitter: 0.1}

// Next implements Schedule.
func (a Auto) Next(elapsed time.Duration) time.Duration {
	d := min(a.First, a.Max)
	if elapsed > 0 {
		d = time.Duration(a.Ratio * float64(elapsed))
		d = min(max(d, a.Min), a.Max)
	}
	if a.Jitter > 0 {
		r := a.Rand
		if r == nil {
			r = rand.Float64
		}
		d = time.Duration(float64(d) * (1 + a.Jitter*(2*r()-1)))
	}
	// The floor keeps a mistyped schedule from hammering the API.
	return max(d, time.Second)
}
