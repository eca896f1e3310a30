//go:build !unix

package action_test

import "time"

// processCPU is 0: the tests read CPU time where the platform is Unix.
func processCPU() time.Duration { return 0 }
