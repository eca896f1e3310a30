// Package clock makes time a dependency, so that a 30-minute wait can run in a
// millisecond test.
package clock

import (
	"context"
	"sync"
	"time"
)

// Clock is the time source of a run.
type Clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx is done, whichever comes first, and
	// returns ctx.Err() in the second case.
	Sleep(ctx context.Context, d time.Duration) error
	// Pass is for a wait that someone else times: a library's retry loop
	// that runs its own timer and watches the request's context during it.
	// Pass lets d go by on this clock and returns how long that timer must
	// really run: d on the wall clock; 0 on a simulated clock, which moves
	// itself forward by d instead. The caller keeps the one timer and the
	// one cancellation point, and tests still see the simulated time.
	Pass(d time.Duration) time.Duration
}

// Real is the wall clock.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// Sleep waits on a real timer.
func (Real) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Pass returns d: the caller's own timer does the waiting.
func (Real) Pass(d time.Duration) time.Duration { return d }

// Fake is a simulated clock: Sleep returns at once and moves the time forward.
// It is safe for concurrent use.
type Fake struct {
	mu   sync.Mutex
	now  time.Time
	naps []time.Duration
}

// NewFake returns a simulated clock that starts at start.
func NewFake(start time.Time) *Fake { return &Fake{now: start} }

// Now returns the simulated time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Sleep advances the simulated time by d, unless ctx is already done.
func (f *Fake) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.Pass(d)
	return nil
}

// Pass advances the simulated time by d, records it as a nap like Sleep,
// and returns 0 so the caller's timer fires at once.
func (f *Fake) Pass(d time.Duration) time.Duration {
	f.Advance(d)
	f.mu.Lock()
	f.naps = append(f.naps, d)
	f.mu.Unlock()
	return 0
}

// Advance moves the simulated time forward by d.
func (f *Fake) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// Naps returns every duration passed to Sleep or Pass, in order.
func (f *Fake) Naps() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.naps...)
}
