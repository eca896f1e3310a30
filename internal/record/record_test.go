package record

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/request"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

var (
	sha1 = "0123456789abcdef0123456789abcdef01234567"
	sha2 = "89abcdef0123456789abcdef0123456789abcdef"
	sha3 = strings.Repeat("ab", 32) // a SHA-256 repository's
)

func key(kind request.Kind, id int64) request.Key { return request.Key{Kind: kind, ID: id} }

// TestRoundTrip: what Format writes, Parse reads back as it was, for each
// kind of record a run keeps.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	upto := time.Unix(1764060000, 0).UTC()
	tests := []struct {
		name string
		r    Record
	}{
		{"a job", Record{JobID: "job_0001"}},
		{"a job id of every allowed byte", Record{JobID: "a.b-c+d=e@f/g_h"}},
		{"a backlink", Record{JobID: "job_5", Backlink: true}},
		{"a backlink that names the code pull request's record", Record{JobID: "job_5", Backlink: true, From: 4242}},
		{"a code pull request left working", Record{JobID: "job_1", Head: sha1, Owed: []string{sha1, sha2}, Waiting: sha2, Unsettled: true, Cut: true}},
		{"a SHA-256 head", Record{JobID: "job_1", Head: sha3, Owed: []string{sha3}}},
		{"a job the API named with an id no record holds", Record{Lost: true, Sent: Sends{Total: 1, Day: "2026-11-29", OnDay: 1}}},
		{"its pull request", Record{JobID: "job_1", PR: "https://github.com/acme/docs-site/pull/101"}},
		{"its project", Record{JobID: "job_1", Project: ProjectMark("api.mintlify.com", "proj-1"), Unsettled: true}},
		{"a docs pull request followed, waiting", Record{JobID: "job_1", Head: sha1, PR: "https://github.com/acme/docs/pull/5", Docs: DocsWaiting, Unsettled: true}},
		{"a docs pull request followed, approved", Record{JobID: "job_1", Head: sha1, Docs: DocsApproved, Unsettled: true}},
		{"a docs pull request merged, the approval asked", Record{JobID: "job_1", Head: sha1, Docs: DocsMerged, Approval: true}},
		{"the code closed while its job worked, docs-close asked", Record{JobID: "job_1", Head: sha1, CodeEnded: CodeClosed, DocsClose: true, Unsettled: true}},
		{"moved to another base, held for the code's approval", Record{JobID: "job_1", Head: sha1, Held: sha1, Retargeted: true}},
		{"its job failed", Record{JobID: "job_1", Head: sha1, Failed: true}},
		{"sends", Record{JobID: "job_1", Sent: Sends{Total: 3, Day: "2026-11-29", OnDay: 1}}},
		{"a total alone", Record{JobID: "job_1", Sent: Sends{Total: 4}}},
		{"answered requests", Record{JobID: "job_1", Answered: &backlog.Record{
			Sent: []request.Key{key(request.Comment, 12), key(request.Line, 5), key(request.Review, 7)},
			Left: []request.Key{key(request.Comment, 13)}, Unsent: []request.Key{key(request.Review, 2)}, Upto: upto}}},
		{"answered nothing, read the thread", Record{Answered: &backlog.Record{Upto: upto}}},
		{"answered without reading the thread", Record{JobID: "job_1", Answered: &backlog.Record{Sent: []request.Key{key(request.Comment, 1)}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			line := Format(tt.r)
			got, ok := Parse(line + "\nthe text a person reads")
			if !ok {
				t.Fatalf("Parse(%q) read no record", line)
			}
			if !reflect.DeepEqual(norm(got), norm(tt.r)) {
				t.Errorf("Parse(Format(r)) = %+v, want %+v\nline: %s", got, tt.r, line)
			}
		})
	}
	if Format(Record{}) != "" {
		t.Errorf("an empty record is written: %q", Format(Record{}))
	}
}

// norm makes nil and empty key lists alike, as a reader cannot tell them
// apart.
func norm(r Record) Record {
	if a := r.Answered; a != nil {
		c := *a
		for _, ks := range []*[]request.Key{&c.Sent, &c.Left, &c.Unsent} {
			if len(*ks) == 0 {
				*ks = nil
			}
		}
		r.Answered = &c
	}
	return r
}

// TestFormatLeavesOutWhatAReaderWouldNotTake: a value that could end the
// line or the hidden comment, or that a reader would refuse, is not
// written; the rest of the record is.
// TestProjectMark: a project's mark is the same for the same API host
// (whatever the port or case) and project, differs for another, shows
// neither, and is no run of hex digits GitHub could link; a record keeps
// it only beside a job, and reads nothing else as one.
func TestProjectMark(t *testing.T) {
	t.Parallel()
	a := ProjectMark("api.mintlify.com", "proj-1")
	for _, other := range []string{ProjectMark("api.mintlify.com", "proj-2"), ProjectMark("127.0.0.1", "proj-1")} {
		if other == a {
			t.Errorf("two projects share the mark %q", a)
		}
	}
	if ProjectMark("API.Mintlify.com", "proj-1") != a || !isMark(a) || strings.Contains(a, "proj") || strings.ContainsAny(a, "0123456789abcdef") {
		t.Errorf("ProjectMark = %q", a)
	}
	if line := Format(Record{Project: a, Sent: Sends{Total: 1}}); strings.Contains(line, a) {
		t.Errorf("a record with no job keeps a project: %s", line)
	}
	for _, bad := range []string{"", "ghijklmnopq", "ghijklmnopqrw", "0123456789ab", "GHIJKLMNOPQR", "ghijklmnopqr\u002d"} {
		r, ok := Parse(`<!-- agent-job-action:record {"v":1,"job":"job_1","project":"` + bad + `"} -->`)
		if !ok || r.Project != "" {
			t.Errorf("Parse took the project %q: %+v, %v", bad, r, ok)
		}
	}
}

func TestFormatLeavesOutWhatAReaderWouldNotTake(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		r    Record
		want Record
	}{
		{"a job id with a space", Record{JobID: "x -->", Head: sha1}, Record{Head: sha1}},
		{"a job id with a newline", Record{JobID: "a\nb", Head: sha1}, Record{Head: sha1}},
		{"a job id too long", Record{JobID: strings.Repeat("a", 257), Head: sha1}, Record{Head: sha1}},
		{"a short head", Record{JobID: "j", Head: "0123456"}, Record{JobID: "j"}},
		{"an upper-case head", Record{JobID: "j", Head: strings.ToUpper(sha1)}, Record{JobID: "j"}},
		{"a head that closes the comment", Record{JobID: "j", Head: "x --> <b>"}, Record{JobID: "j"}},
		{"owed heads, one not a SHA", Record{JobID: "j", Owed: []string{sha1, "nope", sha2}}, Record{JobID: "j", Owed: []string{sha1, sha2}}},
		{"a waiting head not a SHA", Record{JobID: "j", Waiting: "main"}, Record{JobID: "j"}},
		{"a link with a space", Record{JobID: "j", PR: "https://x.example/a b"}, Record{JobID: "j"}},
		{"a link with an angle bracket", Record{JobID: "j", PR: "https://x.example/<script>"}, Record{JobID: "j"}},
		{"more on a day than in all", Record{JobID: "j", Sent: Sends{Total: 2, Day: "2026-11-28", OnDay: 3}}, Record{JobID: "j"}},
		{"a day that is none", Record{JobID: "j", Sent: Sends{Total: 2, Day: "2026-13-01", OnDay: 1}}, Record{JobID: "j"}},
		{"a day without a count", Record{JobID: "j", Sent: Sends{Total: 2, Day: "2026-11-28"}}, Record{JobID: "j"}},
		{"a count past the bound", Record{JobID: "j", Sent: Sends{Total: maxSends + 1}}, Record{JobID: "j"}},
		{"a docs state that is none", Record{JobID: "j", Docs: "reverted"}, Record{JobID: "j"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := Parse(Format(tt.r))
			if !ok || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(Format(%+v)) = %+v, %v; want %+v", tt.r, got, ok, tt.want)
			}
		})
	}
}

// TestFormatHoldsNoCommentEnd: whatever the values, the line is one line
// that GitHub's renderer keeps hidden: no "--" (which ends the comment in
// cmark-gfm), no ">" or "<", no newline inside it.
func TestFormatHoldsNoCommentEnd(t *testing.T) {
	t.Parallel()
	hostile := []Record{
		{JobID: "a--b", PR: "https://github.com/a--b/c-->d/pull/1"},
		{JobID: "--", PR: "https://x.example/--><img>"},
		{JobID: "job-1", PR: "https://github.com/acme/docs-site/pull/1", Sent: Sends{Total: 1, Day: "2026-11-28", OnDay: 1}},
	}
	for _, r := range hostile {
		line := Format(r)
		body, ok := strings.CutPrefix(line, prefix)
		body, ok2 := strings.CutSuffix(body, suffix)
		if !ok || !ok2 || strings.ContainsAny(body, "<>\n\r") || strings.Contains(body, "--") || strings.Contains(body, "-") {
			t.Errorf("Format(%+v) = %q: not one hidden line", r, line)
		}
		if got, ok := Parse(line); !ok || got.JobID != r.JobID {
			t.Errorf("Parse(%q) = %+v, %v; want job %q", line, got, ok, r.JobID)
		}
	}
}

// TestParseRefusesWhatFormatDoesNotWrite: a line that is not the record's
// as Format writes it is no record at all.
func TestParseRefusesWhatFormatDoesNotWrite(t *testing.T) {
	t.Parallel()
	good := Format(Record{JobID: "job_1"})
	doc := strings.TrimSuffix(strings.TrimPrefix(good, prefix), suffix)
	for _, text := range []string{
		"",
		"no record",
		"text\n" + good, // not the first line
		" " + good,
		prefix + doc,                 // unclosed
		prefix + doc + "\n" + suffix, // the end on another line
		prefix + strings.Replace(doc, `"v":1`, `"v":2`, 1) + suffix, // another version
		prefix + strings.Replace(doc, `"v":1,`, "", 1) + suffix,     // no version
		prefix + `{"v":1,"job":` + suffix,
		prefix + `[1]` + suffix,
		prefix + `{"v":1,"job":"j","sent":{"total":"1"}}` + suffix,
		prefix + `{"v":1,"job":"` + strings.Repeat("a", MaxBytes) + `"}` + suffix,
	} {
		if r, ok := Parse(text); ok {
			t.Errorf("Parse(%.80q) = %+v, want no record", text, r)
		}
	}
}

// TestParseLeavesOutWhatDoesNotRead: a part of a well-formed document that
// Format would not have written is none, and the rest is kept.
func TestParseLeavesOutWhatDoesNotRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		doc  string
		want Record
	}{
		{`{"v":1,"job":"a b","head":"` + sha1 + `"}`, Record{Head: sha1}},
		{`{"v":1,"job":"j","owed":["` + sha1 + `","x"]}`, Record{JobID: "j"}},
		{`{"v":1,"job":"j","sent":{"total":-1}}`, Record{JobID: "j"}},
		{`{"v":1,"job":"j","sent":{"total":2,"day":"2026-11-28","onDay":3}}`, Record{JobID: "j"}},
		{`{"v":1,"job":"j","answered":{"sent":["x1"],"left":[]}}`, Record{JobID: "j"}},
		{`{"v":1,"job":"j","answered":{"sent":["c0"],"left":[]}}`, Record{JobID: "j"}},
		{`{"v":1,"job":"j","answered":{"sent":[],"left":[],"upto":-5}}`, Record{JobID: "j"}},
		{`{"v":1,"job":"j","later":"a field of a later version"}`, Record{JobID: "j"}},
		{`{"v":1,"job":"j","docs":"reverted"}`, Record{JobID: "j"}},
		{`{"v":1,"job":"j","docs":"merged"}`, Record{JobID: "j", Docs: DocsMerged}},
		{`{"v":1,"job":"j","docs":"closed"}`, Record{JobID: "j", Docs: DocsClosed}},
		{`{"v":1,"job":"j","docs":"approved"}`, Record{JobID: "j", Docs: DocsApproved}},
	}
	for _, tt := range tests {
		got, ok := Parse(prefix + tt.doc + suffix)
		if !ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%s) = %+v, %v; want %+v", tt.doc, got, ok, tt.want)
		}
	}
}

// TestParseTakesNoMoreThanMaxOwed: a record owes at most MaxOwed heads,
// as Format writes it; a longer list, which only a forged or corrupt
// record holds (about 1,000 fit in MaxBytes), is left out whole, the rest
// of the record kept.
func TestParseTakesNoMoreThanMaxOwed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		heads int
		kept  bool
	}{
		{heads: MaxOwed, kept: true},
		{heads: MaxOwed + 1},
		{heads: 900},
	} {
		owed := make([]string, tt.heads)
		for i := range owed {
			owed[i] = fmt.Sprintf("%040x", i+1)
		}
		line := prefix + `{"v":1,"job":"j","head":"` + sha1 + `","owed":["` + strings.Join(owed, `","`) + `"]}` + suffix
		if len(line) > MaxBytes {
			t.Fatalf("%d heads make a line of %d bytes, more than a reader takes", tt.heads, len(line))
		}
		want := Record{JobID: "j", Head: sha1}
		if tt.kept {
			want.Owed = owed
		}
		if got, ok := Parse(line); !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("Parse of %d owed heads = %d heads, %+v; want %d", tt.heads, len(got.Owed), ok, len(want.Owed))
		}
	}
}

// TestAnsweredPastMaxBytes: a record whose answered requests would make it
// longer than a reader takes keeps the job and drops them, which a later
// run then judges again.
func TestAnsweredPastMaxBytes(t *testing.T) {
	t.Parallel()
	var many []request.Key
	for i := range 5000 {
		many = append(many, key(request.Comment, int64(1_000_000_000+i)))
	}
	r := Record{JobID: "job_1", Head: sha1, Answered: &backlog.Record{Sent: many}}
	line := Format(r)
	if len(line) > MaxBytes {
		t.Fatalf("the line is %d bytes, more than a reader takes (%d)", len(line), MaxBytes)
	}
	got, ok := Parse(line)
	if !ok || got.JobID != "job_1" || got.Head != sha1 || got.Answered != nil {
		t.Errorf("Parse = %+v, %v; want the job and head, no answered requests", got, ok)
	}
}

func TestSendsAdd(t *testing.T) {
	t.Parallel()
	day1 := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	day2 := time.Date(2026, 11, 29, 23, 59, 0, 0, time.UTC)
	var s Sends
	if Format(Record{Sent: s}) != "" {
		t.Errorf("no sends are written")
	}
	s = s.Add(day1).Add(day1.Add(time.Hour))
	if s != (Sends{Total: 2, Day: "2026-11-28", OnDay: 2}) {
		t.Fatalf("two sends on one day: %+v", s)
	}
	s = s.Add(day2)
	if want := (Sends{Total: 3, Day: "2026-11-29", OnDay: 1}); s != want {
		t.Fatalf("a send the next day: %+v, want %+v", s, want)
	}
	if s.On("2026-11-29") != 1 || s.On("2026-11-28") != 0 {
		t.Errorf("On: %d and %d, want 1 and 0", s.On("2026-11-29"), s.On("2026-11-28"))
	}
	// A send at 23:30 in another zone is counted on its UTC day.
	if got := (Sends{}).Add(time.Date(2026, 11, 28, 23, 30, 0, 0, time.FixedZone("", -2*3600))); got.Day != "2026-11-29" {
		t.Errorf("day of a send at 23:30 -02:00 is %q, want the UTC day 2026-11-29", got.Day)
	}
}

// TestHeard: the heads whose change the job heard, which its end settles,
// apart from those pushed since, whose change waits.
func TestHeard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		r             Record
		heard, unsent []string
	}{
		{"nothing waits", Record{Head: sha2, Owed: []string{sha1, sha2}}, []string{sha1, sha2}, nil},
		{"one push waits", Record{Head: sha1, Owed: []string{sha1, sha2}, Waiting: sha2}, []string{sha1}, []string{sha2}},
		{"the head heard is not owed", Record{Head: sha3, Owed: []string{sha1, sha2}, Waiting: sha2}, nil, []string{sha1, sha2}},
	}
	for _, tt := range tests {
		heard, unsent := tt.r.Heard()
		if !slices.Equal(heard, tt.heard) || !slices.Equal(unsent, tt.unsent) {
			t.Errorf("%s: Heard() = %v, %v; want %v, %v", tt.name, heard, unsent, tt.heard, tt.unsent)
		}
	}
	if (Record{JobID: "j"}).Code() || !(Record{JobID: "j", Head: sha1}).Code() || !(Record{Owed: []string{sha1}}).Code() {
		t.Error("Code: a record is a code pull request's when it names a head or owes a status")
	}
}

func TestOwe(t *testing.T) {
	t.Parallel()
	var owed []string
	owed = Owe(owed, sha1)
	owed = Owe(owed, sha1)
	owed = Owe(owed, "not a sha")
	if !reflect.DeepEqual(owed, []string{sha1}) {
		t.Errorf("Owe once, and only a SHA: %v", owed)
	}
	for i := range MaxOwed + 5 {
		owed = Owe(owed, strings.Repeat("0", 38)+string("0123456789abcdef"[i/16])+string("0123456789abcdef"[i%16]))
	}
	if len(owed) != MaxOwed || owed[len(owed)-1] != strings.Repeat("0", 38)+"18" {
		t.Errorf("Owe keeps the newest %d: %d, last %s", MaxOwed, len(owed), owed[len(owed)-1])
	}
}

// FuzzParse: whatever a comment holds, a record read from it owes at most
// MaxOwed heads and is written back as a record that reads the same.
func FuzzParse(f *testing.F) {
	f.Add(Format(Record{JobID: "job_0001", Head: sha1, Owed: []string{sha1}, Unsettled: true}))
	f.Add(Format(Record{JobID: "j", Answered: &backlog.Record{Sent: []request.Key{key(request.Comment, 1)}, Upto: time.Unix(1764060000, 0)}}))
	f.Add(prefix + `{"v":1,"job":"a\u002d\u002db"}` + suffix)
	f.Add(prefix + `{"v":1,"job":"j","owed":["` + strings.Repeat(sha1+`","`, MaxOwed) + sha2 + `"]}` + suffix)
	f.Fuzz(func(t *testing.T, text string) {
		r, ok := Parse(text)
		if !ok {
			return
		}
		if len(r.Owed) > MaxOwed {
			t.Fatalf("Parse(%.80q) owes %d heads, more than MaxOwed", text, len(r.Owed))
		}
		line := Format(r)
		if line == "" {
			return
		}
		if body := strings.TrimSuffix(strings.TrimPrefix(line, prefix), suffix); strings.Contains(body, "--") || strings.ContainsAny(body, "<>\n\r") {
			t.Fatalf("Format of a parsed record is not one hidden line: %q", line)
		}
		again, ok := Parse(line)
		if !ok || !reflect.DeepEqual(norm(again), norm(r)) {
			t.Errorf("round trip of %q: %+v, %v; want %+v", text, again, ok, r)
		}
	})
}

// TestFormatKeepsTheNewestOwed: a record owes at most MaxOwed heads, the
// newest, as Owe keeps them and a reader takes them.
func TestFormatKeepsTheNewestOwed(t *testing.T) {
	t.Parallel()
	var owed []string
	for i := range MaxOwed + 2 {
		owed = append(owed, fmt.Sprintf("%040x", i+1))
	}
	got, ok := Parse(Format(Record{JobID: "j", Owed: owed}))
	if !ok || !slices.Equal(got.Owed, owed[2:]) {
		t.Errorf("Parse(Format) owes %d heads, want the newest %d: %q", len(got.Owed), MaxOwed, got.Owed)
	}
}

// TestFromIsABacklinks: only a backlink names the record that asked for
// its job: a run's record that holds one keeps none, and a negative id is
// none.
func TestFromIsABacklinks(t *testing.T) {
	t.Parallel()
	if r, _ := Parse(Format(Record{JobID: "job_1", From: 4242})); r.From != 0 {
		t.Errorf("a run's record kept From %d", r.From)
	}
	if r, ok := Parse(prefix + `{"v":1,"job":"job_1","from":4242}` + suffix); !ok || r.From != 0 {
		t.Errorf("a run's record read From %d", r.From)
	}
	if r, ok := Parse(prefix + `{"v":1,"job":"job_1","backlink":true,"from":-3}` + suffix); !ok || r.From != 0 {
		t.Errorf("a backlink read From %d", r.From)
	}
}

// TestCarry: what a record carries from the one an earlier run left, and
// how the docs pull request stands unless the run judged it.
func TestCarry(t *testing.T) {
	t.Parallel()
	prior := Record{JobID: "job_1", Approval: true, CodeEnded: CodeMerged, DocsClose: true, Released: "1111", Retargeted: true, Docs: DocsWaiting, Head: "2222"}
	for _, tt := range []struct {
		name      string
		next      Record
		unjudged  bool
		docs      string
		unsettled bool
	}{
		{name: "unjudged: the docs pull request followed", next: Record{JobID: "job_1"}, unjudged: true, docs: DocsWaiting, unsettled: true},
		{name: "judged approved: still followed", next: Record{JobID: "job_1", Docs: DocsApproved}, docs: DocsApproved, unsettled: true},
		{name: "judged merged: settled", next: Record{JobID: "job_1", Docs: DocsMerged}, docs: DocsMerged},
	} {
		r := tt.next
		r.Carry(prior, tt.unjudged)
		if !r.Approval || r.CodeEnded != CodeMerged || !r.DocsClose || r.Released != "1111" || !r.Retargeted || r.Head != "" {
			t.Errorf("%s: carried %+v", tt.name, r)
		}
		if r.Docs != tt.docs || r.Unsettled != tt.unsettled {
			t.Errorf("%s: docs %q, unsettled %v; want %q, %v", tt.name, r.Docs, r.Unsettled, tt.docs, tt.unsettled)
		}
	}
}
