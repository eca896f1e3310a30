package runlog

import (
	"fmt"
	"time"
)

// Progress writes a run's lines of progress to Log, each stamped with the
// run's time so far (Stamp): the lines every part of a run writes as it
// goes, apart from the outcome, which the run's reporter writes.
type Progress struct {
	Log   Log
	Clock interface{ Now() time.Time }
	// Start is when the run started, on Clock.
	Start time.Time
}

// Elapsed is the run's time so far, to the second.
func (p Progress) Elapsed() time.Duration { return p.Clock.Now().Sub(p.Start).Round(time.Second) }

// Logf writes one stamped line.
func (p Progress) Logf(format string, args ...any) {
	p.Log.Printf("%s %s", Stamp(p.Elapsed()), fmt.Sprintf(format, args...))
}
