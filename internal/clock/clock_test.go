package clock

import (
	"context"
	"testing"
	"time"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestFakePassAndSleep(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	f := NewFake(start)
	if wall := f.Pass(90 * time.Second); wall != 0 {
		t.Errorf("Pass returned %v of real waiting, want 0", wall)
	}
	if err := f.Sleep(context.Background(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := f.Sleep(ctx, time.Hour); err != context.Canceled {
		t.Errorf("Sleep after cancel = %v", err)
	}
	if got := f.Now().Sub(start); got != 100*time.Second {
		t.Errorf("the clock moved %v, want 100s", got)
	}
	if naps := f.Naps(); len(naps) != 2 || naps[0] != 90*time.Second || naps[1] != 10*time.Second {
		t.Errorf("naps %v", naps)
	}
}

func TestRealPass(t *testing.T) {
	t.Parallel()
	if wall := (Real{}).Pass(time.Hour); wall != time.Hour {
		t.Errorf("Real.Pass(1h) = %v: the caller's timer must do the whole wait", wall)
	}
}
