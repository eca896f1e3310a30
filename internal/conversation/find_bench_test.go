package conversation

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
)

// BenchmarkPreviousJob measures finding the job to continue in threads of
// 10, 1,000 and 10,000 comments, through the real client and the fake
// GitHub over HTTP, with the own marker 5 comments from the end and with
// none. It reports list requests per lookup: 1 or 2 with a marker whatever
// the length, maxListRequests at most without. The event's count is the
// one before the run's own comment, stale by one as in a real run.
//
//	go test -run '^$' -bench PreviousJob ./internal/conversation
func BenchmarkPreviousJob(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		for _, marker := range []bool{true, false} {
			name := fmt.Sprintf("comments=%d/marker=%s", n, map[bool]string{true: "near-end", false: "absent"}[marker])
			b.Run(name, func(b *testing.B) {
				gh, srv := newFake(b, fakegithub.Options{})
				for i := range n {
					switch {
					case marker && i == n-5:
						srv.SeedComment(12, fakegithub.BotLogin, true, marked("job_found"))
					case i%2 == 0:
						srv.SeedComment(12, "evil[bot]", true, marked("job_forged"))
					default:
						srv.SeedComment(12, "octocat", false, "/docs one more thing")
					}
				}
				th := &Thread{GH: gh, Owner: "acme", Repo: "docs", Number: 12, Comments: n,
					Warn: func(s string) { b.Error(s) }, Redact: func(s string) string { return s }}
				th.Show(context.Background(), State{Phase: Working})
				before := len(srv.Requests())
				b.ResetTimer()
				for range b.N {
					job, err := previousJob(context.Background(), th)
					if err != nil || (job == "job_found") != marker {
						b.Fatalf("PreviousJob() = %q, %v", job, err)
					}
				}
				b.StopTimer()
				perLookup := float64(len(srv.Requests())-before) / float64(b.N)
				b.ReportMetric(perLookup, "list-requests/op")
				if marker && perLookup > 2 || perLookup > maxListRequests {
					b.Errorf("%.1f list requests per lookup", perLookup)
				}
			})
		}
	}
}
