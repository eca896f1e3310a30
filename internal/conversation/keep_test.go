package conversation

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/record"
	"github.com/agentjob/agent-job-action/internal/request"
)

const (
	sha1 = "0123456789abcdef0123456789abcdef01234567"
	sha2 = "89abcdef0123456789abcdef0123456789abcdef"
)

// TestAdopt: a code pull request's later run finds the comment of the
// run before it, trusting only its own login's, and edits that comment
// rather than writing another.
func TestAdopt(t *testing.T) {
	t.Parallel()
	withHead := Render(State{Phase: Done, Record: record.Record{JobID: "job_1", Head: sha1}})
	type seed struct{ author, body string }
	cases := []struct {
		name  string
		seeds []seed
		want  *Earlier // JobID, Head and Lost are compared
	}{
		{name: "own comment with a head", seeds: []seed{{self, withHead}}, want: &Earlier{Record: record.Record{JobID: "job_1", Head: sha1}}},
		{name: "own comment without a head", seeds: []seed{{self, marked("job_1")}}, want: &Earlier{Record: record.Record{JobID: "job_1"}}},
		{name: "the newest own one", seeds: []seed{{self, marked("job_1")}, {self, Render(State{Phase: Working, Record: record.Record{JobID: "job_2", Head: sha2}})}}, want: &Earlier{Record: record.Record{JobID: "job_2", Head: sha2}}},
		{name: "a person's copy of it", seeds: []seed{{"mallory", withHead}}},
		{name: "own backlink", seeds: []seed{{self, RenderBacklink(BacklinkText{JobID: "job_5"})}}},
		{name: "own comment of a lost job", seeds: []seed{{self, Render(State{Phase: Error, Record: record.Record{Lost: true, Head: sha1}})}}, want: &Earlier{Record: record.Record{Lost: true, Head: sha1}}},
		{name: "own comment without a job", seeds: []seed{{self, Render(State{Phase: Working})}}},
		{name: "none"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &Recorder{Self: self}
			for _, s := range tc.seeds {
				rec.Seed(7, s.author, s.body)
			}
			var w warnings
			th := newThread(rec, &w)
			th.Number, th.Comments = 7, len(tc.seeds)
			th.React(context.Background(), 7, request.Event, "eyes") // learns its own login
			got, err := th.Record(context.Background(), Keep)
			if err != nil {
				t.Fatalf("Record(Keep) error = %v", err)
			}
			if (got == nil) != (tc.want == nil) || got != nil && (got.JobID != tc.want.JobID || got.Head != tc.want.Head || got.Lost != tc.want.Lost) {
				t.Fatalf("Record(Keep) = %+v, want %+v", got, tc.want)
			}
			th.Show(context.Background(), State{Phase: Working, Record: record.Record{JobID: "job_1", Head: sha2}})
			calls := rec.Calls()
			last := calls[len(calls)-1]
			if tc.want != nil {
				if !strings.HasPrefix(last, "UpdateComment acme/docs ") || len(rec.Comments(7)) != len(tc.seeds) {
					t.Errorf("Show after adopting: calls %q, want an edit of the adopted comment", calls)
				}
				return
			}
			if last != "CreateComment acme/docs#7" {
				t.Errorf("Show with nothing to adopt: calls %q, want a new comment", calls)
			}
		})
	}
}

func TestAdoptUnknownIdentity(t *testing.T) {
	t.Parallel()
	rec := &Recorder{Self: self}
	rec.Seed(7, self, marked("job_1"))
	var w warnings
	th := newThread(rec, &w)
	if got, err := th.Record(context.Background(), Keep); got != nil || !errors.Is(err, ErrUnknownIdentity) {
		t.Errorf("Record(Keep) = %+v, %v; want ErrUnknownIdentity", got, err)
	}
	if calls := rec.Calls(); len(calls) != 0 {
		t.Errorf("calls = %q, want none", calls)
	}
}
