package main

import "os"

// stopSignals end a run early. Windows delivers only os.Interrupt (Ctrl+C,
// Ctrl+Break) to a Go program.
var stopSignals = []os.Signal{os.Interrupt}
