package backlog

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/admit"
	"github.com/agentjob/agent-job-action/internal/request"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

var t0 = time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)

// at is minute m after t0.
func at(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }

func comment(id int64, m int, who, body string) *request.Request {
	return &request.Request{Key: key(request.Comment, id), Author: who, Body: body, At: at(m)}
}

func keys(rs []*request.Request) string {
	var s []string
	for _, r := range rs {
		k := r.Key.String()
		for _, l := range r.Lines {
			k += "+" + l.Key.String()
		}
		s = append(s, k)
	}
	return strings.Join(s, " ")
}

func TestPending(t *testing.T) {
	t.Parallel()
	items := []*request.Request{
		comment(1, 1, "ada", "/docs one"),
		comment(2, 2, "bob", "/docs two"),
		comment(4, 4, "ada", "/docs four"),
		comment(5, 5, "bob", "/docs five"),
	}
	record := func(id int64, m int, sent, left []request.Key) Owned {
		r := &Record{Sent: sent, Left: left, Upto: at(m)}
		if id == 3 && sent == nil && left == nil {
			r.Unsent = []request.Key{key(request.Comment, 2)} // the API refused the key
		}
		return Owned{ID: id, URL: fmt.Sprint("comment ", id), At: at(m), Record: r}
	}
	tests := []struct {
		name   string
		own    []Owned
		from   time.Time
		run    *request.Request
		want   string
		wantBy int64
	}{
		{name: "older than everything read (the record may be further back): never resent",
			from: at(3), run: items[3], want: "c4 c5"},
		{name: "older than everything read, with a record read: still not",
			own: []Owned{record(6, 6, []request.Key{key(request.Comment, 4)}, nil)}, from: at(3), run: items[3], want: "c5"},
		{name: "older than everything read but listed as unsent: pending",
			own: []Owned{record(3, 3, nil, nil)}, from: at(3), run: items[3], want: "c2 c4 c5"},
		{name: "a thread where the token never wrote: every request read",
			run: items[3], want: "c1 c2 c4 c5"},
		{name: "an older version's comment: only what came after it",
			own: []Owned{{ID: 3, At: at(3)}}, run: items[3], want: "c4 c5"},
		{name: "a record: what it does not list, made since the oldest record",
			own: []Owned{record(3, 3, []request.Key{key(request.Comment, 1), key(request.Comment, 4)}, []request.Key{key(request.Comment, 2)})}, run: items[3], want: "c5"},
		{name: "a request made while the recording run read is not lost",
			own: []Owned{record(3, 3, []request.Key{key(request.Comment, 2)}, nil)}, run: items[3], want: "c4 c5"},
		{name: "nor one made after it read, before it wrote its comment",
			own: []Owned{{ID: 6, At: at(6), Record: &Record{Sent: []request.Key{key(request.Comment, 2)}, Upto: at(3)}}}, run: items[3], want: "c4 c5"},
		{name: "a record of a run that did not read the thread sets no floor",
			own: []Owned{{ID: 3, At: at(3)}, {ID: 6, At: at(6), Record: &Record{Sent: []request.Key{key(request.Comment, 4)}}}}, run: items[3], want: "c5"},
		{name: "the run's own request, listed: answered by that comment",
			own: []Owned{record(3, 3, []request.Key{key(request.Comment, 5)}, nil), record(6, 6, []request.Key{key(request.Comment, 4)}, nil)}, run: items[2], wantBy: 6},
		{name: "left out counts as answered too",
			own: []Owned{record(6, 6, nil, []request.Key{key(request.Comment, 5)})}, run: items[3], wantBy: 6},
		{name: "unsent by an earlier run: pending, even made before every record",
			own: []Owned{record(3, 3, nil, nil), record(6, 6, []request.Key{key(request.Comment, 4)}, nil)}, run: items[3], want: "c2 c5"},
		{name: "the run's own request, not in the pages read, is still answered",
			own: []Owned{record(6, 6, []request.Key{key(request.Comment, 4), key(request.Comment, 5)}, nil)}, run: comment(9, 9, "ada", "/docs nine"), want: "c9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, by := Pending(Thread{Items: items, Own: tt.own, From: tt.from}, tt.run)
			switch {
			case tt.wantBy != 0 && (by == nil || by.ID != tt.wantBy || got != nil):
				t.Errorf("Pending() = %q, %+v; want answered by %d", keys(got), by, tt.wantBy)
			case tt.wantBy == 0 && (by != nil || keys(got) != tt.want):
				t.Errorf("Pending() = %q, %+v; want %q", keys(got), by, tt.want)
			}
		})
	}
}

// TestBatchFoldsReviews: a review that is a request carries its line
// comments, which are then no requests of their own, whichever of them
// started the run; a line comment of a review that is no request stands
// alone.
func TestBatchFoldsReviews(t *testing.T) {
	t.Parallel()
	line := func(id, review int64, m int, body string) *request.Request {
		return &request.Request{Key: key(request.Line, id), ReviewID: review, Author: "ada", Body: body, At: at(m)}
	}
	items := []*request.Request{
		{Key: key(request.Review, 10), Author: "ada", Body: "/docs two fixes", At: at(2)},
		line(11, 10, 2, "/docs shorten"),
		line(12, 10, 2, "bold here"),
		{Key: key(request.Review, 20), Author: "bob", Body: "", At: at(3)},
		line(21, 20, 3, "/docs a table"),
		line(22, 20, 3, "just a remark"),
		comment(30, 4, "bob", "> /docs quoted\n\nno"),
		comment(31, 5, "bob", "<!-- /docs hidden --> hi"),
		comment(32, 6, "bob", "/docs "+strings.Repeat("x", 65536)), // longer than GitHub allows
	}
	// Quoted (c30) and hidden (c31) phrases are still candidates here:
	// Judge parses them only once their authors' permission is read.
	for _, tt := range []struct {
		own  *request.Request
		want string
	}{
		// The run's own review carries the line comments read with it.
		{&request.Request{Key: items[0].Key, Author: "ada", Body: items[0].Body, At: at(2), Lines: items[1:3]}, "r10+l11+l12 l21 c30 c31"},
		{items[1], "l11 r10+l12 l21 c30 c31"}, // the run's own line comment stands alone
		{items[4], "r10+l11+l12 l21 c30 c31"},
	} {
		t.Run(tt.own.Key.String(), func(t *testing.T) {
			t.Parallel()
			own := *tt.own
			got, by := Batch(Thread{Items: items}, tt.own, "/docs")
			if by != nil || keys(got) != tt.want {
				t.Errorf("Batch() = %q, %v; want %q", keys(got), by, tt.want)
			}
			// Batch changes neither own nor the thread's items.
			if !tt.own.At.Equal(own.At) || len(tt.own.Lines) != len(own.Lines) {
				t.Errorf("Batch() changed own: %+v, was %+v", *tt.own, own)
			}
			if len(items[0].Lines) != 0 || len(items[3].Lines) != 0 || !items[1].At.Equal(at(2)) {
				t.Errorf("Batch() changed the thread's items")
			}
		})
	}
	if got := Requests(items, ""); got != nil {
		t.Errorf("Requests() with no phrase = %q, want none: every comment would be one", keys(got))
	}
}

// TestJudge: each earlier request is judged as a run's own: bots unless
// allowed, its author's permission (read once a person, however the login
// is cased), and only then, so that nobody else's text is parsed, the
// phrase where a reader sees it and an instruction besides it. A
// permission that cannot be read leaves the request to the next run.
func TestJudge(t *testing.T) {
	t.Parallel()
	batch := []*request.Request{
		comment(1, 1, "writer", "/docs mine"),
		comment(2, 2, "reader", "/docs theirs"),
		{Key: key(request.Comment, 3), Author: "spam[bot]", Bot: true, Body: "/docs spam", At: at(3)},
		{Key: key(request.Comment, 4), Author: "ok[bot]", Bot: true, Body: "/docs allowed", At: at(4)},
		comment(5, 5, "ghost", "/docs unknown"),
		comment(6, 6, "Writer", "/docs"),
		comment(7, 7, "admin", "/docs also this"),
		comment(8, 8, "admin", "> /docs quoted, not asked"),
		comment(9, 9, "reader", "> /docs a reader's text is not parsed"),
	}
	var asked []string
	rules := admit.Rules{Phrase: "/docs", AllowedBots: []string{"OK[bot]"}, Required: "write", Instruction: true}
	v := Judge(batch, key(request.Comment, 1), rules, func(login string) (string, error) {
		asked = append(asked, login)
		switch strings.ToLower(login) {
		case "writer":
			return "write", nil
		case "admin":
			return "admin", nil
		case "reader":
			return "read", nil
		}
		return "", errors.New("HTTP 500")
	})
	if got := keys(v.Send); got != "c1 c4 c7" {
		t.Errorf("sent %q, want c1 c4 c7", got)
	}
	reasons := func(ls []Left) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Key.String()+": "+l.Reason)
		}
		return out
	}
	want := []string{
		"c2: read permission; required-permission is write",
		"c3: a bot not in allowed-bots",
		"c6: no instruction besides the trigger phrase",
		"c9: read permission; required-permission is write",
	}
	if got := reasons(v.Left); !slices.Equal(got, want) {
		t.Errorf("left out:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := reasons(v.Later); !slices.Equal(got, []string{"c5: HTTP 500"}) {
		t.Errorf("later: %q", got)
	}
	// The run's own author was verified by the run: not read again here.
	if !slices.Equal(asked, []string{"reader", "ghost", "Writer", "admin"}) {
		t.Errorf("permissions read for %v", asked)
	}
}

// TestJudgeWaitsForUnreadText: a request whose text the run did not keep
// waits for a later run, and so does a review a line of which was not
// kept: sent without it, the line would be recorded as sent.
func TestJudgeWaitsForUnreadText(t *testing.T) {
	t.Parallel()
	line := &request.Request{Key: key(request.Line, 7), Author: "writer", Unread: true, ReviewID: 5, At: at(1)}
	review := &request.Request{Key: key(request.Review, 5), Author: "writer", Body: "/docs fix these", At: at(1), Lines: []*request.Request{line}}
	unread := &request.Request{Key: key(request.Comment, 6), Author: "writer", Unread: true, At: at(2)}
	own := comment(9, 3, "writer", "/docs mine")
	read := 0
	v := Judge([]*request.Request{review, unread, own}, own.Key, admit.Rules{Phrase: "/docs", Required: "write", Instruction: true},
		func(string) (string, error) { read++; return "write", nil })
	if keys(v.Send) != "c9" || len(v.Left) != 0 || len(v.Later) != 2 || read != 0 {
		t.Errorf("sent %q, %d left, %d later after %d permission reads; want c9, r5 and c6 later, no read", keys(v.Send), len(v.Left), len(v.Later), read)
	}
}

// TestJudgeBoundsLookups: a run reads at most MaxAuthors permissions; the
// requests of the people past them wait for the next run.
func TestJudgeBoundsLookups(t *testing.T) {
	t.Parallel()
	var batch []*request.Request
	for i := range MaxAuthors + 5 {
		batch = append(batch, comment(int64(i+1), i, fmt.Sprint("user", i), "/docs hi"))
	}
	n := 0
	v := Judge(batch, key(request.Comment, 999), admit.Rules{Phrase: "/docs", Required: "write", Instruction: true}, func(string) (string, error) { n++; return "write", nil })
	// Past the bound, requests are not judged, not left out: the next run
	// judges them.
	if n != MaxAuthors || len(v.Send) != MaxAuthors || len(v.Left) != 0 || len(v.Later) != 5 {
		t.Errorf("%d lookups, %d sent, %d left, %d later; want %d, %d, 0, 5", n, len(v.Send), len(v.Left), len(v.Later), MaxAuthors, MaxAuthors)
	}
}

func key(kind request.Kind, id int64) request.Key { return request.Key{Kind: kind, ID: id} }

// TestDate: the run's own request is dated as the thread lists it, and
// left as it is when the thread does not list it.
func TestDate(t *testing.T) {
	t.Parallel()
	th := Thread{Items: []*request.Request{comment(1, 1, "ada", "/docs one"), comment(2, 4, "ada", "/docs two")}}
	for _, tt := range []struct {
		own  *request.Request
		want time.Time
	}{
		{comment(2, 9, "ada", "/docs two"), at(4)},
		{comment(3, 9, "ada", "/docs three"), at(9)},
	} {
		th.Date(tt.own)
		if !tt.own.At.Equal(tt.want) {
			t.Errorf("Date(%v): At = %v, want %v", tt.own.Key, tt.own.At, tt.want)
		}
	}
}
