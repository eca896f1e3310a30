//go:build !windows

package main

import (
	"os"
	"syscall"
)

// stopSignals end a run early: the runner sends SIGTERM when a workflow is
// cancelled, a terminal sends SIGINT.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}
