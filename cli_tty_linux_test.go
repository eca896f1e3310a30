package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
)

// statusLine is the live status line as drawn, from its carriage return.
// Polls come every 10 ms, so the next check is within the second, or, on
// a loaded machine, already due when the line is drawn.
var statusLine = regexp.MustCompile(`\rjob job_0001: active, [0-9]+s elapsed, (next check in 1s|checking now)`)

// openPTY opens a pseudo-terminal: the controller, which the test reads,
// and the terminal the program writes to.
func openPTY(t *testing.T) (controller, term *os.File) {
	t.Helper()
	controller, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	ioctl := func(req uintptr, arg unsafe.Pointer) {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, controller.Fd(), req, uintptr(arg)); errno != 0 {
			t.Fatalf("ioctl %#x on /dev/ptmx: %v", req, errno)
		}
	}
	var unlock int32
	ioctl(syscall.TIOCSPTLCK, unsafe.Pointer(&unlock))
	var n uint32
	ioctl(syscall.TIOCGPTN, unsafe.Pointer(&n))
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the terminal: %v", err)
	}
	t.Cleanup(func() { controller.Close() })
	return controller, term
}

// TestCLITerminal runs the built binary with a terminal for its log
// (standard error), as in a person's shell whose standard output goes to a
// pipe or a file: one status line (status, elapsed, next check) redrawn in
// place during the wait and cleared before each log line, readable lines,
// no workflow commands, no key; the results alone on standard output.
func TestCLITerminal(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)
	tests := []struct {
		name string
		json bool // --json: the record on stdout
	}{
		{name: "output lines"},
		{name: "--json", json: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Active for five polls, however slowly the machine runs.
			api := newCLIFake(t, fakeapi.Scenario{Reads: 6})
			controller, term := openPTY(t)
			args := []string{"--prompt", "Fix typos", "--base-url", api.URL}
			if tt.json {
				args = append(args, "--json")
			}
			cmd := exec.Command(bin, args...)
			cmd.Env = cliEnv(map[string]string{"MINTLIFY_API_KEY": testKey, "MINTLIFY_PROJECT_ID": "proj-1"})
			cmd.Dir = t.TempDir()
			var pipe bytes.Buffer
			cmd.Stdout, cmd.Stderr = &pipe, term
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Only the program holds the terminal now: when it exits, reads
			// end (EIO).
			term.Close()
			screen := make(chan string, 1)
			go func() {
				var b bytes.Buffer
				_, _ = io.Copy(&b, controller)
				screen <- b.String()
			}()
			err := cmd.Wait()
			var out string
			select {
			case out = <-screen:
			case <-time.After(10 * time.Second):
				t.Fatal("the terminal was never closed")
			}
			if err != nil {
				t.Fatalf("exit: %v\nterminal:\n%q\npipe:\n%s", err, out, pipe.String())
			}
			// The terminal driver writes \r\n for each \n.
			out = strings.ReplaceAll(out, "\r\n", "\n")

			// Polls come every 10 ms: the next is always within the second.
			drawn := statusLine.FindAllString(out, -1)
			if len(drawn) < 3 {
				t.Fatalf("the status line was drawn %d times, want one per poll:\n%q", len(drawn), out)
			}
			// The log line that ends the wait first clears the status line.
			last := drawn[len(drawn)-1]
			clear := "\r" + strings.Repeat(" ", len(last)-1) + "\r"
			if !strings.Contains(out, last+clear+"[") {
				t.Errorf("the status line is not cleared before a log line:\n%q", out)
			}
			// After the wait, lines only.
			tail := out[strings.LastIndex(out, "active -> completed"):]
			if strings.Contains(tail, "\rjob") {
				t.Errorf("the status line outlives the wait:\n%q", tail)
			}
			for _, want := range []string{"] created job job_0001, status active\n", "job job_0001 completed: pull request https://github.com/acme/docs/pull/101\n"} {
				if !strings.Contains(out, want) {
					t.Errorf("terminal lacks %q:\n%q", want, out)
				}
			}
			wantHumanLog(t, "the terminal", out)
			switch {
			case tt.json && !strings.Contains(pipe.String(), `"id":"job_0001"`):
				t.Errorf("stdout is not the record:\n%s", pipe.String())
			case !tt.json && !strings.Contains(pipe.String(), "output job-id=job_0001\n"):
				t.Errorf("stdout is not the results:\n%s", pipe.String())
			case !tt.json:
				wantResultsOnly(t, pipe.String())
			}
		})
	}
}
