package action_test

import (
	"runtime/metrics"
	"time"
)

// What one run cost, for the tests of attacks: the heap bytes
// allocated while it ran, an upper bound on how far its heap grew, and
// the CPU time the process spent. Both are the test process's, the fakes'
// share included, so they bound the run's own; and so a test that meters
// its runs (harness.meter) does not run in parallel with other tests,
// whose costs would count too. The wall time is logged, never asserted.
const (
	// runMemoryBound is issue 24's bound on a run's memory (item 7).
	runMemoryBound = 64 << 20
	// runCPUBound is "a few seconds on a runner" (item 8), race detector
	// included: a run decides any body and reads any thread within it.
	runCPUBound = 5 * time.Second
)

// cost is a reading of the process's totals, or the difference of two.
type cost struct {
	alloc uint64        // heap bytes allocated
	cpu   time.Duration // user and system CPU time; 0 where the platform does not say
	wall  time.Duration
}

// costSoFar reads the process's totals.
func costSoFar() cost {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return cost{alloc: s[0].Value.Uint64(), cpu: processCPU(), wall: time.Duration(time.Now().UnixNano())}
}

// since is what was spent from before to c.
func (c cost) since(before cost) cost {
	return cost{alloc: c.alloc - before.alloc, cpu: c.cpu - before.cpu, wall: c.wall - before.wall}
}

// meter makes every later h.run assert its cost within the bounds above.
// The test calling it must not call t.Parallel, nor its subtests.
func (h *harness) meter() { h.metered = true }

// within asserts that c, the cost of one run, is within the bounds.
func (h *harness) within(c cost) {
	h.t.Helper()
	h.t.Logf("the run allocated %.1f MiB and took %s of CPU (%s of wall time)",
		float64(c.alloc)/(1<<20), c.cpu.Round(time.Millisecond), c.wall.Round(time.Millisecond))
	if c.alloc > runMemoryBound {
		h.t.Errorf("the run allocated %.1f MiB, want at most %d MiB", float64(c.alloc)/(1<<20), runMemoryBound>>20)
	}
	if c.cpu > runCPUBound {
		h.t.Errorf("the run took %s of CPU, want at most %s", c.cpu.Round(time.Millisecond), runCPUBound)
	}
}
