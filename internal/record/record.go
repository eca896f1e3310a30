// Package record is what a run keeps about a thread's job in its own
// comment, as one value (Record) and one format: a versioned JSON document
// in one hidden line, written by Format and read by Parse. It is the only
// code that knows that format; the comment around it, and whose comment
// may be trusted, are package conversation's.
package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/backlog"
	"github.com/agentjob/agent-job-action/internal/request"
)

// Record is what the runs that wrote one comment keep about its thread's
// job: which job, what it has heard, what it owes, what waits to be sent,
// its pull request, what was sent for the caps, and whether its end is
// still to be reported.
type Record struct {
	// JobID names the job; "" for none.
	JobID string
	// Backlink says the comment is the job's backlink on the pull request
	// its agent opened, not a run's comment.
	Backlink bool
	// From is, in a backlink, the comment that keeps the record of the
	// code pull request that asked for the job, in the backlink's own
	// repository: a settle run that the pull request's review starts
	// reads that record there, however many comments came since. 0 for
	// none; a record that is no backlink keeps none.
	From int64
	// Head is the head commit of a code pull request the job last heard
	// of; "" for none.
	Head string
	// Owed are the head commits whose commit status shows the job
	// working, oldest first: its end settles them (see Owe).
	Owed []string
	// Waiting is the newest head commit of a code pull request whose
	// change (since Head) the job has not heard: pushes made while it
	// worked, for the run that finds it ended to send in one follow-up.
	// "" when nothing waits.
	Waiting string
	// PR is the job's pull request as the run that wrote the record saw
	// it; "" for none. A reader checks it again before trusting it.
	PR string
	// Cut says the job heard a listing of the pull request's files that
	// GitHub cut at its cap: until a whole listing is sent again (a force
	// push, a retarget), no status of the job may claim success.
	Cut bool
	// Lost says a run created a job that the Agent API named with an id no
	// record can hold (PlainID): the job exists, and was billed, but no run
	// can follow it. JobID is then "". A code pull request's next push
	// sends nothing rather than create a job a push; deleting the comment
	// starts again.
	Lost bool
	// Project marks the Agent Job project the job is in (ProjectMark):
	// a run of another project, or of another API, reads none of its
	// jobs. "" in a record written before it was kept.
	Project string
	// Docs is what the check last showed of the job's pull request when
	// the team wants it approved (docs-check: approved): DocsWaiting or
	// DocsApproved, with Unsettled, so that a settle run on its review
	// events follows it (Follows) until it is merged or closed, or the
	// code pull request moves on; DocsMerged or DocsClosed once it is,
	// when the next push starts a new job (DocsEnded); "" for none.
	Docs string
	// CodeEnded says the code pull request was closed while its job still
	// worked: CodeMerged or CodeClosed, "" while it is open. The job's end
	// then tells its docs pull request so, and lands it as the workflow
	// asks, rather than asking for a review of docs for code that will
	// not change again.
	CodeEnded string
	// Released is the head commit a person released the check on
	// (release-label): no later judgment sets another status on it. ""
	// for none.
	Released string
	// Held is the newest head whose change waits for the code's approval
	// (docs-when: approved): nothing was sent for it; "" for none. The
	// record is kept for it even when no job exists yet.
	Held       string
	Retargeted bool // moved to another base since its job heard it: the next send is the whole change
	Failed     bool // its job ended failed on Head
	// DocsClose says the code pull request's closed run asked for its docs
	// pull request to be closed with it (docs-close), which the job's end
	// then does to the one it opens later.
	DocsClose bool
	// Approval says the code workflow asks for the docs pull request's
	// approval (docs-check: approved): every run that decides the check
	// from this record asks it too, whatever its own docs-check.
	Approval bool
	// Unsettled says the job was working when the record was written: the
	// next run in the thread, or a settle run, reports its end.
	Unsettled bool
	// Sent counts the creates and follow-ups the comment's runs sent,
	// which the caps count.
	Sent Sends
	// Answered are the requests the run judged (package backlog); nil
	// when it read none.
	Answered *backlog.Record
}

// How a code pull request closed while its job worked (CodeEnded).
const (
	CodeMerged = "merged"
	CodeClosed = "closed"
)

// The states of a followed docs pull request a record keeps (Docs).
const (
	DocsWaiting  = "waiting"
	DocsApproved = "approved"
	DocsMerged   = "merged"
	DocsClosed   = "closed"
)

func docsState(s string) bool {
	return s == DocsWaiting || s == DocsApproved || s == DocsMerged || s == DocsClosed
}

// Follows reports whether r follows an open docs pull request, whose
// reviews a settle run judges.
func (r Record) Follows() bool { return r.Docs == DocsWaiting || r.Docs == DocsApproved }

// Asked reports whether r asks for its docs pull request's approval: the
// code workflow said so (Approval), or r follows one. Every run that
// decides the check from r asks it too, whatever its own docs-check.
func (r Record) Asked() bool { return r.Approval || r.Follows() }

// Watched reports whether settle runs judge r's docs pull request again:
// one it follows, and one it saw closed, which a reopening makes followed
// again (until a push starts a new job, or the code pull request closes).
func (r Record) Watched() bool { return r.Follows() || r.Docs == DocsClosed }

// Carry keeps in r what prior, the record an earlier run left, says and
// the run writing r does not decide again: the approval asked, the close
// and its docs-close, a release, a base change not yet sent and, unless
// that run judged the docs pull request (unjudged), how it stands. A
// record that still follows one stays unsettled, for a settle run to
// judge it.
func (r *Record) Carry(prior Record, unjudged bool) {
	r.Approval, r.CodeEnded, r.DocsClose, r.Released, r.Retargeted = prior.Approval, prior.CodeEnded, prior.DocsClose, prior.Released, prior.Retargeted
	if unjudged {
		r.Docs = prior.Docs
	}
	if r.Watched() {
		r.Unsettled = true
	}
}

// DocsEnded reports whether the docs pull request r paired was merged or
// closed: its job's docs are in, or were refused, and the next change
// goes to a new job with a pull request of its own.
func (r Record) DocsEnded() bool { return r.Docs == DocsMerged || r.Docs == DocsClosed }

// Code reports whether r is a code pull request's record: it names the
// head commit its job heard, or owes commit statuses.
func (r Record) Code() bool { return r.Head != "" || len(r.Owed) > 0 }

// Heard splits the heads r owes a status into those whose change the job
// has heard (up to Head), which its end settles, and those pushed since,
// whose change waits (Waiting) and which the job's end must not settle.
func (r Record) Heard() (heard, unsent []string) {
	if r.Waiting == "" {
		return r.Owed, nil
	}
	i := slices.Index(r.Owed, r.Head)
	return r.Owed[:i+1], r.Owed[i+1:]
}

// MaxOwed bounds the head commits a record keeps owing a status: the newest
// are kept, older ones are left as their last status said. Format writes
// no more, and Parse takes no more: a longer list is no record's (it is
// forged or corrupt), so it is left out whole rather than cut to its
// newest, and no status is set on any head it names.
const MaxOwed = 20

// Owe adds sha to owed, once, keeping the newest MaxOwed.
func Owe(owed []string, sha string) []string {
	if !IsSHA(sha) || slices.Contains(owed, sha) {
		return owed
	}
	owed = append(slices.Clone(owed), sha)
	return owed[max(0, len(owed)-MaxOwed):]
}

// IsSHA reports whether s is a full commit SHA (40 or 64 hex digits).
func IsSHA(s string) bool {
	return (len(s) == 40 || len(s) == 64) && strings.Trim(s, "0123456789abcdef") == ""
}

// PlainID reports whether id may name a job in a record: 1 to 256 bytes of
// [A-Za-z0-9._-+=@/], the characters an id needs and nothing that could
// end a line or a hidden comment.
func PlainID(id string) bool {
	if id == "" || len(id) > 256 {
		return false
	}
	for i := range len(id) {
		c := id[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("._-+=@/", c) >= 0) {
			return false
		}
	}
	return true
}

// plainLink reports whether link may stand in a record: short, with no
// space or angle bracket.
func plainLink(link string) bool {
	return len(link) <= 512 && !strings.ContainsAny(link, " <>\n")
}

// ProjectMark is the mark a record keeps of the Agent Job project a job
// is in: the API's host name (without a port) and the project's id,
// hashed, so that a comment tells which project it belongs to without
// showing the id. It is written in the letters g to v, a nibble each: a
// run of hex digits reads as a commit to GitHub, which links it.
func ProjectMark(host, project string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(host) + "\x00" + project))
	mark := make([]byte, 0, 2*markBytes)
	for _, b := range sum[:markBytes] {
		mark = append(mark, 'g'+b>>4, 'g'+b&0xf)
	}
	return string(mark)
}

// markBytes is how many bytes of the hash a project mark keeps.
const markBytes = 6

func isMark(s string) bool {
	return len(s) == 2*markBytes && strings.Trim(s, "ghijklmnopqrstuv") == ""
}

// Sends counts the creates and follow-ups sent to the Agent Job API by the
// runs that wrote one comment: a code pull request's comment is written
// again by each push's run, so it keeps the total and the count of its
// newest day, which is all a cap per thread and per day needs.
type Sends struct {
	Total int
	// Day is the newest day a send was counted on (UTC, 2006-01-02), ""
	// for none; OnDay is how many were sent that day.
	Day   string
	OnDay int
}

// dayLayout is how a record writes a day: in UTC, so that every runner
// counts the same day.
const dayLayout = "2006-01-02"

// maxSends bounds a record's counts: a larger number is none (only the
// token's own records are trusted, but a count is still never allowed to
// overflow a sum).
const maxSends = 1_000_000

// Day returns the day of t as a record writes it.
func Day(t time.Time) string { return t.UTC().Format(dayLayout) }

// Add returns s with one more send at now.
func (s Sends) Add(now time.Time) Sends {
	day := Day(now)
	if s.Day != day {
		s.Day, s.OnDay = day, 0
	}
	s.Total++
	s.OnDay++
	return s
}

// On returns how many of s were sent on day.
func (s Sends) On(day string) int {
	if s.Day != day {
		return 0
	}
	return s.OnDay
}

// valid reports whether s reads as Add makes it.
func (s Sends) valid() bool {
	if s.Total <= 0 || s.Total > maxSends {
		return false
	}
	if s.Day == "" && s.OnDay == 0 {
		return true
	}
	_, err := time.Parse(dayLayout, s.Day)
	return err == nil && s.OnDay > 0 && s.OnDay <= s.Total
}

// The record's line: the prefix, the document, the suffix.
const (
	prefix = "<!-- agent-job-action:record "
	suffix = " -->"
	// version is the document's; a reader takes no other. No release
	// exists yet that wrote another.
	version = 1
	// MaxBytes bounds a record's line, what a reader takes of a comment.
	// A record longer than that is written without its answered requests,
	// which a later run then judges again.
	MaxBytes = 40 << 10
)

// doc is the record's document on the wire: what Format writes and Parse
// reads, apart from the Go value, so that renaming a field of Record
// changes no comment.
type doc struct {
	V         int       `json:"v"`
	Job       string    `json:"job,omitempty"`
	Backlink  bool      `json:"backlink,omitempty"`
	From      int64     `json:"from,omitempty"`
	Head      string    `json:"head,omitempty"`
	Owed      []string  `json:"owed,omitempty"`
	Waiting   string    `json:"waiting,omitempty"`
	PR        string    `json:"pr,omitempty"`
	Cut       bool      `json:"cut,omitempty"`
	Lost      bool      `json:"lost,omitempty"`
	Project   string    `json:"project,omitempty"`
	Docs      string    `json:"docs,omitempty"`
	Approval  bool      `json:"approval,omitempty"`
	CodeEnded string    `json:"codeEnded,omitempty"`
	DocsClose bool      `json:"docsClose,omitempty"`
	Released  string    `json:"released,omitempty"`
	Held      string    `json:"held,omitempty"`
	Retarget  bool      `json:"retargeted,omitempty"`
	Failed    bool      `json:"failed,omitempty"`
	Unsettled bool      `json:"unsettled,omitempty"`
	Sent      *sends    `json:"sent,omitempty"`
	Answered  *answered `json:"answered,omitempty"`
}

type sends struct {
	Total int    `json:"total"`
	Day   string `json:"day,omitempty"`
	OnDay int    `json:"onDay,omitempty"`
}

type answered struct {
	Sent   []string `json:"sent"`
	Left   []string `json:"left"`
	Unsent []string `json:"unsent,omitempty"`
	Upto   int64    `json:"upto,omitempty"` // Unix seconds
}

// only is s when keep takes it, "" otherwise: what a record writes and
// reads of a value is only what a reader takes.
func only(s string, keep func(string) bool) string {
	if keep(s) {
		return s
	}
	return ""
}

// Format returns r as the record's line (no newline), or "" when r holds
// nothing to keep. Only what a reader takes is written: a job id that is
// not plain, a commit that is not a full SHA, a link with a space or an
// angle bracket are left out. The line holds no "--", so no value can end
// the hidden comment it is.
func Format(r Record) string {
	d := doc{V: version, Backlink: r.Backlink, Cut: r.Cut, Lost: r.Lost, Unsettled: r.Unsettled, Retarget: r.Retargeted, Failed: r.Failed}
	if r.Backlink && r.From > 0 {
		d.From = r.From
	}
	if PlainID(r.JobID) {
		d.Job = r.JobID
		// The project is the job's: a record that names none keeps none.
		if isMark(r.Project) {
			d.Project = r.Project
		}
	}
	d.Head, d.Waiting, d.Held, d.Released = only(r.Head, IsSHA), only(r.Waiting, IsSHA), only(r.Held, IsSHA), only(r.Released, IsSHA)
	d.PR, d.Docs, d.Approval = only(r.PR, plainLink), only(r.Docs, docsState), r.Approval
	for _, sha := range r.Owed {
		if IsSHA(sha) {
			d.Owed = append(d.Owed, sha)
		}
	}
	// The newest MaxOwed, as Owe keeps them: a reader takes no more.
	d.Owed = d.Owed[max(0, len(d.Owed)-MaxOwed):]
	if r.CodeEnded == CodeMerged || r.CodeEnded == CodeClosed {
		d.CodeEnded, d.DocsClose = r.CodeEnded, r.DocsClose
	}
	if r.Sent.valid() {
		d.Sent = &sends{Total: r.Sent.Total, Day: r.Sent.Day, OnDay: r.Sent.OnDay}
	}
	if a := r.Answered; a != nil {
		d.Answered = &answered{Sent: keys(a.Sent), Left: keys(a.Left), Unsent: keys(a.Unsent)}
		if !a.Upto.IsZero() {
			d.Answered.Upto = a.Upto.Unix()
		}
	}
	if d.Job == "" && d.Head == "" && d.Waiting == "" && d.PR == "" && d.Docs == "" && len(d.Owed) == 0 && d.Sent == nil && d.Answered == nil &&
		!d.Backlink && !d.Cut && !d.Lost && !d.Unsettled && !d.Approval && d.CodeEnded == "" && d.Released == "" && d.Held == "" && !d.Retarget && !d.Failed {
		return ""
	}
	line := encode(d)
	if len(line) > MaxBytes && d.Answered != nil {
		d.Answered = nil
		line = encode(d)
	}
	return line
}

// encode writes d as the record's line. encoding/json writes <, > and & as
// \u escapes; a hyphen is written so too, so that the line holds no "--"
// that would end the hidden comment in GitHub's renderer. The document has
// no negative number, the one place a hyphen stands outside a string.
func encode(d doc) string {
	data, err := json.Marshal(d)
	if err != nil {
		// A doc of strings, booleans and ints always encodes.
		panic(err)
	}
	return prefix + string(bytes.ReplaceAll(data, []byte("-"), []byte(`\u002d`))) + suffix
}

func keys(ks []request.Key) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.String()
	}
	return out
}

// Parse reads the record in the line that starts text, as Format writes
// it, bounded by MaxBytes. ok is false when there is none, when the
// document does not read, or when its version is not this one. A part of
// the document that does not read as Format writes it is left out, the
// rest kept: a malformed count, a commit that is not a full SHA, or more
// owed heads than MaxOwed is none.
func Parse(text string) (r Record, ok bool) {
	rest, found := strings.CutPrefix(text, prefix)
	if !found {
		return Record{}, false
	}
	end := strings.Index(rest, suffix)
	if nl := strings.IndexByte(rest, '\n'); end < 0 || nl >= 0 && nl < end || len(prefix)+end+len(suffix) > MaxBytes {
		return Record{}, false
	}
	var d doc
	if err := json.Unmarshal([]byte(rest[:end]), &d); err != nil || d.V != version {
		return Record{}, false
	}
	r = Record{Backlink: d.Backlink, Cut: d.Cut, Lost: d.Lost, Unsettled: d.Unsettled, Approval: d.Approval, Retargeted: d.Retarget, Failed: d.Failed}
	if d.Backlink && d.From > 0 {
		r.From = d.From
	}
	if isMark(d.Project) {
		r.Project = d.Project
	}
	if d.CodeEnded == CodeMerged || d.CodeEnded == CodeClosed {
		r.CodeEnded, r.DocsClose = d.CodeEnded, d.DocsClose
	}
	r.Held, r.Released, r.JobID = only(d.Held, IsSHA), only(d.Released, IsSHA), only(d.Job, PlainID)
	r.Head, r.Waiting, r.PR, r.Docs = only(d.Head, IsSHA), only(d.Waiting, IsSHA), only(d.PR, plainLink), only(d.Docs, docsState)
	if len(d.Owed) > 0 && len(d.Owed) <= MaxOwed && !slices.ContainsFunc(d.Owed, func(s string) bool { return !IsSHA(s) }) {
		r.Owed = d.Owed
	}
	if s := d.Sent; s != nil {
		if sent := (Sends{Total: s.Total, Day: s.Day, OnDay: s.OnDay}); sent.valid() {
			r.Sent = sent
		}
	}
	if a := d.Answered; a != nil {
		r.Answered = parseAnswered(a)
	}
	return r, true
}

// parseAnswered reads the answered requests, or nil when a key or the
// time does not read.
func parseAnswered(a *answered) *backlog.Record {
	var out backlog.Record
	var ok bool
	if out.Sent, ok = parseKeys(a.Sent); !ok {
		return nil
	}
	if out.Left, ok = parseKeys(a.Left); !ok {
		return nil
	}
	if out.Unsent, ok = parseKeys(a.Unsent); !ok {
		return nil
	}
	switch {
	case a.Upto < 0:
		return nil
	case a.Upto > 0:
		out.Upto = time.Unix(a.Upto, 0).UTC()
	}
	return &out
}

func parseKeys(list []string) ([]request.Key, bool) {
	var out []request.Key
	for _, s := range list {
		k, ok := request.ParseKey(s)
		if !ok {
			return nil, false
		}
		out = append(out, k)
	}
	return out, true
}
