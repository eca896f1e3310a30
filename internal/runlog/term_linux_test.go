package runlog

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/agentjob/agent-job-action/internal/clock"
	"golang.org/x/term"
)

// TestStatusLineFitsTheTerminal opens a pseudo-terminal 40 columns wide:
// it is a terminal, and the status line is cut to 39 runes.
func TestStatusLineFitsTheTerminal(t *testing.T) {
	t.Parallel()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	defer ptmx.Close()
	ioctl := func(req uintptr, arg unsafe.Pointer) {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), req, uintptr(arg)); errno != 0 {
			t.Fatalf("ioctl %#x: %v", req, errno)
		}
	}
	var unlock int32
	ioctl(syscall.TIOCSPTLCK, unsafe.Pointer(&unlock))
	var n uint32
	ioctl(syscall.TIOCGPTN, unsafe.Pointer(&n))
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	ws := struct{ rows, cols, x, y uint16 }{rows: 24, cols: 40}
	ioctl(syscall.TIOCSWINSZ, unsafe.Pointer(&ws))

	if !IsTerminal(tty) {
		t.Fatal("a pseudo-terminal is not taken for a terminal")
	}
	if cols, _, err := term.GetSize(int(tty.Fd())); err != nil || cols != 40 {
		t.Fatalf("GetSize = %d, %v", cols, err)
	}
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	w := NewTerminal(tty, clock.NewFake(start), 0)
	w.wait = Wait{JobID: "job_" + strings.Repeat("0", 60), Status: "active", Next: start.Add(time.Second)}
	line := w.statusLine(start)
	if got := len([]rune(line)); got != 39 || !strings.HasSuffix(line, "…") {
		t.Errorf("status line of %d runes on a 40-column terminal: %q", got, line)
	}
	w.Close()
}
