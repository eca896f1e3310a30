package action_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

// TestSettleKeepsTheCut: a code pull request whose files GitHub listed
// only up to its cap has a record that says so (Cut): until the whole
// change is listed again, no status may claim success for files the job
// never saw. A settle run that reports the job's end, or sends it the
// change pushed while it worked, writes the record again; the cut stays
// in it, and the next push's status claims no success.
func TestSettleKeepsTheCut(t *testing.T) {
	t.Parallel()
	for _, pushed := range []bool{false, true} {
		name := "the settle run reports the job's end"
		if pushed {
			name = "the settle run sends the change pushed while the job worked, then reports its end"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newCodeWorld(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
			w.vars["INPUT_WAIT"] = "false"
			w.vars["INPUT_PREVIEW"] = "false"
			files := append(codeFiles[:1:1], vendored(2999)...)
			w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 7, Author: "writer", Title: "Send rate-limit headers", HeadRef: "rate-headers", HeadSHA: head1, Files: files})
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("opened: %v\n%s", err, w.stdout.String())
			}
			if c := w.gh.Comments(7); len(c) != 1 || !recordIn(c[0].Body).Cut {
				t.Fatalf("comment after opening: %+v, want the cut recorded", c)
			}
			head := head1
			if pushed {
				w.clk.Advance(time.Minute)
				f := fakegithub.File{Name: "src/push.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
				files = append(files, f)
				w.moveHead(head1, head2, []fakegithub.File{f}, files)
				w.setEvent("pull_request", push(head1, head2))
				if err := w.run(context.Background()); err != nil {
					t.Fatalf("push while working: %v\n%s", err, w.stdout.String())
				}
				head = head2
			}
			w.settleRun()
			for i := range 2 {
				w.clk.Advance(10 * time.Minute)
				if err := w.run(context.Background()); err != nil {
					t.Fatalf("settle %d: %v\n%s", i+1, err, w.stdout.String())
				}
				if c := w.gh.Comments(7); len(c) != 1 || !recordIn(c[0].Body).Cut {
					t.Fatalf("the record after settle run %d lost the cut:\n%s", i+1, c[0].Body)
				}
			}
			if r := recordIn(w.gh.Comments(7)[0].Body); r.Unsettled || r.Head != head {
				t.Fatalf("the record after the settle runs: %+v, want the job's end reported, the job having heard %s", r, head)
			}

			// A push, whose run waits for the job's end.
			delete(w.vars, "INPUT_SETTLE")
			w.vars["INPUT_WAIT"] = "true"
			f := fakegithub.File{Name: "src/retry.go", Status: "added", Additions: 1, Patch: "@@ +1 @@\n+package src"}
			w.moveHead(head, head3, []fakegithub.File{f}, append(slices.Clone(files), f))
			w.setEvent("pull_request", push(head, head3))
			if err := w.run(context.Background()); err != nil {
				t.Fatalf("push: %v\n%s", err, w.stdout.String())
			}
			if s := w.finalStatuses()["3333"]; !strings.HasPrefix(s, "3333 error: GitHub listed only 3000 files") {
				t.Errorf("the push after the settle runs ends %q, want no success claimed for files the job never saw", s)
			}
		})
	}
}
