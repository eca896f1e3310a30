// Package backlog decides which requests of an issue or pull request a run
// answers: its own, and every earlier one that no run has answered yet, so
// that a request whose run GitHub cancelled while it waited in the
// concurrency group is not lost, and one that a run already sent is not sent
// again.
//
// Runs record what they judged in the marker of their own comment (Record):
// the requests they sent, those they left out, and the newest id of each
// kind they read. A later run trusts only records its token's own login
// wrote, and takes as pending the requests newer than every record saw.
// Deciding is pure: the caller reads the thread (package conversation) and
// the permissions, and carries the decision out.
package backlog

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentjob/agent-job-action/internal/event"
	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// Kind is what sort of request a Key names. Each kind has its own ids.
type Kind byte

// The kinds of request.
const (
	Comment Kind = 'c' // a comment in the conversation of an issue or pull request
	Line    Kind = 'l' // a comment on lines of a pull request's diff
	Review  Kind = 'r' // a submitted review of a pull request
)

var kinds = []Kind{Comment, Line, Review}

// Key names one request.
type Key struct {
	Kind Kind
	ID   int64
}

// String is the key as a record writes it: c1234, l55, r7.
func (k Key) String() string { return string(k.Kind) + strconv.FormatInt(k.ID, 10) }

// Request is a comment, a line comment or a review that may ask the agent
// for something. Its text is untrusted.
type Request struct {
	Key
	Author string
	Bot    bool
	Body   string
	URL    string // html_url
	At     time.Time

	// A line comment's place in the diff, and its review.
	Path      string
	Line      int
	StartLine int
	Side      string
	DiffHunk  string
	ReviewID  int64

	// Lines are a review's line comments, which its request carries.
	Lines []Request
}

// Owned is a comment the token's own login wrote in the thread.
type Owned struct {
	ID  int64
	URL string
	At  time.Time
	// Record is what the run that wrote it judged; nil for a backlink or
	// a run of a version that kept no record.
	Record *Record
}

// Thread is what a run read of its thread: every comment, line comment and
// review in the newest pages read, whoever wrote them (without the
// action's own comments), and the comments the token's login wrote.
type Thread struct {
	Items []Request
	Own   []Owned
}

// Pending returns the requests of th that no run has answered, oldest
// first, own among them; own is the run's own request, read from its
// event, which the thread's pages may not list yet.
//
// With records in th, a request is pending when no record lists it as sent
// or left out, and it was made after the oldest record's comment or a
// record lists it as unsent: every request judged since is listed, and the
// first run that kept a record took up all those made before it that no
// earlier run had answered. With none, but with comments
// of the token's login (a backlink, or runs of a version that kept no
// record), the newest of them marks the point before which every request
// was answered. In a thread where the token never wrote, every request read
// is pending.
//
// When a record already lists own, Pending returns no requests and the
// comment that holds that record.
func Pending(th Thread, own Request) ([]Request, *Owned) {
	var records []*Owned
	listed := map[Key]*Owned{}
	unsent := map[Key]bool{}
	for i := range th.Own {
		o := &th.Own[i]
		if o.Record == nil {
			continue
		}
		records = append(records, o)
		for _, k := range o.Record.Unsent {
			unsent[k] = true
		}
		for _, k := range slices.Concat(o.Record.Sent, o.Record.Left) {
			if listed[k] == nil {
				listed[k] = o
			}
		}
	}
	if by := listed[own.Key]; by != nil {
		return nil, by
	}
	var pending func(Request) bool
	switch {
	case len(records) > 0:
		floor := slices.MinFunc(records, func(a, b *Owned) int { return a.At.Compare(b.At) }).At
		pending = func(r Request) bool { return listed[r.Key] == nil && (unsent[r.Key] || !r.At.Before(floor)) }
	case len(th.Own) > 0:
		last := slices.MaxFunc(th.Own, func(a, b Owned) int { return a.At.Compare(b.At) }).At
		pending = func(r Request) bool { return r.At.After(last) }
	default:
		pending = func(Request) bool { return true }
	}
	out := []Request{own}
	for _, it := range th.Items {
		if it.Key != own.Key && pending(it) {
			out = append(out, it)
		}
	}
	return sorted(out), nil
}

// sorted orders requests as they were made.
func sorted(rs []Request) []Request {
	slices.SortStableFunc(rs, func(a, b Request) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.ID, b.ID))
	})
	return rs
}

// Record is what one run judged, kept in the marker of its comment.
type Record struct {
	Sent []Key // sent to the agent
	Left []Key // left out, with a reason the comment gives
	// Unsent were to be sent, but the API provably did not act on them:
	// they are pending until a record lists them as sent or left out.
	Unsent []Key
}

// recordPrefix starts a record's marker, an HTML comment a reader does
// not see.
const (
	recordPrefix = "<!-- agent-job-action:answered"
	recordSuffix = " -->"
	// maxRecordBytes bounds a record a reader takes from a comment.
	maxRecordBytes = 16 << 10
)

// Marker returns the record as a hidden marker for the run's comment:
// <!-- agent-job-action:answered sent=c12,l5 left=r3 -->, with
// " unsent=..." before the end when some were not sent.
func (r Record) Marker() string {
	m := recordPrefix + " sent=" + joinKeys(r.Sent) + " left=" + joinKeys(r.Left)
	if len(r.Unsent) > 0 {
		m += " unsent=" + joinKeys(r.Unsent)
	}
	return m + recordSuffix
}

func joinKeys(keys []Key) string {
	s := make([]string, len(keys))
	for i, k := range keys {
		s[i] = k.String()
	}
	return strings.Join(s, ",")
}

// ParseRecord reads the first record marker in body. ok is false when
// there is none, or when it is not well formed.
func ParseRecord(body string) (r Record, ok bool) {
	_, rest, found := strings.Cut(body, recordPrefix)
	if !found {
		return Record{}, false
	}
	end := strings.Index(rest, recordSuffix)
	if end < 0 || end > maxRecordBytes {
		return Record{}, false
	}
	fields := strings.Fields(rest[:end])
	if len(fields) != 2 && len(fields) != 3 {
		return Record{}, false
	}
	if len(fields) == 3 {
		unsent, found := strings.CutPrefix(fields[2], "unsent=")
		if !found {
			return Record{}, false
		}
		if r.Unsent, ok = parseKeys(unsent); !ok || len(r.Unsent) == 0 {
			return Record{}, false
		}
	}
	sent, okSent := strings.CutPrefix(fields[0], "sent=")
	left, okLeft := strings.CutPrefix(fields[1], "left=")
	if !okSent || !okLeft {
		return Record{}, false
	}
	if r.Sent, ok = parseKeys(sent); !ok {
		return Record{}, false
	}
	if r.Left, ok = parseKeys(left); !ok {
		return Record{}, false
	}
	return r, true
}

func parseKeys(list string) ([]Key, bool) {
	if list == "" {
		return nil, true
	}
	var keys []Key
	for _, s := range strings.Split(list, ",") {
		if len(s) < 2 || !slices.Contains(kinds, Kind(s[0])) {
			return nil, false
		}
		id, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil || id <= 0 {
			return nil, false
		}
		keys = append(keys, Key{Kind(s[0]), id})
	}
	return keys, true
}

// Batch returns what a run answers: the requests of th that are pending
// (see Pending) and are requests at all (the phrase in what a reader sees,
// see Requests), own first among those made at once, oldest first. A
// review that is a request carries its line comments, which are then not
// requests of their own. by is the comment whose record already answered
// own, when one did.
func Batch(th Thread, own Request, phrase string) (batch []Request, by *Owned) {
	for _, it := range th.Items {
		if it.Key == own.Key {
			// When it was made, as the thread lists it.
			own.At = it.At
		}
	}
	th.Items = Requests(th.Items, phrase)
	if own.Kind == Review {
		// Its line comments, as the thread's pages hold them.
		for _, it := range th.Items {
			if it.Key == own.Key {
				own.Lines = it.Lines
			}
		}
	}
	batch, by = Pending(th, own)
	var inReview []Key
	for _, r := range batch {
		for _, l := range r.Lines {
			inReview = append(inReview, l.Key)
		}
	}
	return slices.DeleteFunc(batch, func(r Request) bool { return slices.Contains(inReview, r.Key) }), by
}

// Requests keeps the items that ask the agent for something: the trigger
// phrase in what a reader sees of a comment, a line comment or a review's
// body (event.MatchPhrase). A review's line comments join the review when
// it is a request, whatever they hold, as when a review starts a run. A
// text longer than GitHub allows is none: it did not come from GitHub, and
// reading it as Markdown would cost the run more than any real one does.
func Requests(items []Request, phrase string) []Request {
	if phrase == "" {
		// Without a phrase every comment would be a request: only the
		// run's own is.
		return nil
	}
	var out []Request
	reviews := map[int64]int{} // review id -> index in out
	items = slices.DeleteFunc(slices.Clone(items), func(r Request) bool { return !event.WithinLimit(r.Body) })
	for _, it := range items {
		if it.Kind != Line && event.MatchPhrase(it.Body, phrase) {
			if it.Kind == Review {
				reviews[it.ID] = len(out)
				it.Lines = nil
			}
			out = append(out, it)
		}
	}
	for _, it := range items {
		if it.Kind != Line {
			continue
		}
		if i, ok := reviews[it.ReviewID]; ok {
			out[i].Lines = append(out[i].Lines, it)
		} else if event.MatchPhrase(it.Body, phrase) {
			out = append(out, it)
		}
	}
	return out
}

// Rules are what a request must pass to reach the agent: those the run's
// own request passed.
type Rules struct {
	Phrase      string
	AllowedBots []string
	// Required is the least permission its author must have.
	Required string
	// Permission reads a person's permission on the repository.
	Permission func(login string) (string, error)
}

// Left is a request left out, and why.
type Left struct {
	Request
	Reason string
}

// Judge splits the requests of a batch other than own (whose run checked
// it already) into those sent and those left out: a bot not in
// allowed-bots, a person without the required permission or whose
// permission cannot be read, a request with no instruction besides the
// phrase. Permissions are read once a person.
func Judge(batch []Request, own Key, ru Rules) (send []Request, left []Left) {
	levels := map[string]string{}
	for _, r := range batch {
		if r.Key == own {
			send = append(send, r)
			continue
		}
		why := ""
		switch {
		case r.Bot && !slices.ContainsFunc(ru.AllowedBots, func(b string) bool { return strings.EqualFold(b, r.Author) }):
			why = "a bot not in allowed-bots"
		case !r.Bot:
			level, ok := levels[r.Author]
			if !ok {
				var err error
				if level, err = ru.Permission(r.Author); err != nil {
					level = ""
				}
				levels[r.Author] = level
			}
			switch {
			case level == "":
				why = "its author's permission could not be read"
			case !ghclient.PermissionAtLeast(level, ru.Required):
				why = level + " permission; required-permission is " + ru.Required
			}
		}
		if why == "" && !hasInstruction(r, ru.Phrase) {
			why = "no instruction besides the trigger phrase"
		}
		if why != "" {
			left = append(left, Left{r, why})
			continue
		}
		send = append(send, r)
	}
	return send, left
}

func hasInstruction(r Request, phrase string) bool {
	if event.StripPhrase(r.Body, phrase) != "" {
		return true
	}
	return slices.ContainsFunc(r.Lines, func(l Request) bool { return event.StripPhrase(l.Body, phrase) != "" })
}
