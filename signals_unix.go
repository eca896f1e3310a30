//go:build !windows

package main

import (
	"os"
	"syscall"
)

// stopSignals end a run early: the runner sends SIGINT, then SIGTERM
// (runner.InterruptGrace), when a workflow is cancelled; a terminal sends
// SIGINT. The first ends the run's context; a second is caught too, so
// that what the run writes after the first (its record, its last words)
// goes on.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}
