// Package poll waits for an agent job to end, polling on a schedule that
// spares the API's rate limit (100 calls per project per hour).
package poll

import (
	"math/rand/v2"
	"time"
)

// Schedule says how long to wait before the next poll, given how long the
// job has been running.
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
// First. A job that ends early is noticed quickly; a long one costs few
// requests.
type Auto struct {
	First  time.Duration
	Min    time.Duration
	Max    time.Duration
	Ratio  float64
	Jitter float64
	// Rand returns a number in [0, 1); nil means math/rand/v2.
	Rand func() float64
}

// DefaultAuto is the schedule of poll-interval: auto. docs/performance.md
// shows how it was chosen.
var DefaultAuto = Auto{First: 5 * time.Second, Min: 5 * time.Second, Max: 30 * time.Second, Ratio: 0.25, Jitter: 0.1}

// Next implements Schedule.
func (a Auto) Next(elapsed time.Duration) time.Duration {
	d := a.First
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
	return max(d, time.Second)
}
