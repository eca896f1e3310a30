// Package request is what the action answers: a comment in a conversation,
// a comment on lines of a pull request's diff, a submitted review, or
// another event a person caused (an issue opened, a label added), in one
// shape, whether the run's event names it or a read of its thread finds
// it. It also holds the
// few words of GitHub's vocabulary a request needs: its kinds, permission
// levels and bots. It imports nothing of the project's, so that every
// package can speak of requests without depending on how they are read.
package request

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Kind is what sort of request a Key names. Each kind has its own ids.
type Kind byte

// The kinds of request.
const (
	Comment Kind = 'c' // a comment in the conversation of an issue or pull request
	Line    Kind = 'l' // a comment on lines of a pull request's diff
	Review  Kind = 'r' // a submitted review of a pull request
	// Event is any other event a person caused, the event itself being
	// the request: an issue or pull request opened, labeled or assigned
	// (its ID is the number, its text the title and body), or one the
	// action reads nothing of (its ID is 0). Runs never record it.
	Event Kind = 'e'
)

// Recorded are the kinds a run's record lists.
var Recorded = []Kind{Comment, Line, Review}

// Name names the kind for a reader: "comment", "line comment", ...
func (k Kind) Name() string {
	switch k {
	case Line:
		return "line comment"
	case Review:
		return "review"
	case Event:
		return "event"
	}
	return "comment"
}

// Noun is what its author calls a request of kind k: a "review", or a
// "comment" (a line comment too).
func (k Kind) Noun() string {
	if k == Review {
		return "review"
	}
	return "comment"
}

// Reacts reports whether a request of kind k takes reactions: comments
// and line comments do; a review and an event do not.
func (k Kind) Reacts() bool { return k == Comment || k == Line }

// Key names one request.
type Key struct {
	Kind Kind
	ID   int64
}

// String is the key as a record writes it: c1234, l55, r7.
func (k Key) String() string { return string(k.Kind) + strconv.FormatInt(k.ID, 10) }

// ParseKey reads a key as String writes it, of a kind in Recorded.
func ParseKey(s string) (Key, bool) {
	if len(s) < 2 || !slices.Contains(Recorded, Kind(s[0])) {
		return Key{}, false
	}
	id, err := strconv.ParseInt(s[1:], 10, 64)
	if err != nil || id <= 0 {
		return Key{}, false
	}
	return Key{Kind(s[0]), id}, true
}

// Place is where a line comment stands in a pull request's diff.
type Place struct {
	Path      string
	Line      int // the (last) line commented on; 0 when outdated
	StartLine int // the first line of a multi-line comment; 0 if none
	Side      string
	DiffHunk  string
}

// Request is one request. Its text is untrusted: it reaches the agent only
// as Text, what a reader of the page sees of it, once the request is
// admitted (package admit).
type Request struct {
	Key
	Author string
	Bot    bool
	Body   string
	Title  string // an Event's: the or pull request's title
	URL    string // html_url
	At     time.Time

	// A line comment's place in the diff, and its review.
	Place
	ReviewID int64

	// Lines are a review's line comments, which its request carries.
	Lines []*Request

	// Text is what the agent receives of Body: what a reader sees, without
	// the trigger phrase. It is set once, when the request is judged, so
	// that no body is parsed twice.
	Text string
	// Seen says Text was set, even when it is empty.
	Seen bool
	// Unread says Body was not kept: a run keeps a bounded amount of its
	// thread's text, and a later run reads and judges this request.
	Unread bool
}

// Levels lists GitHub's repository permission levels, lowest first.
var Levels = []string{"none", "read", "triage", "write", "maintain", "admin"}

// AtLeast reports whether the permission have grants need, in the order
// of Levels. An unknown level on either side grants nothing.
func AtLeast(have, need string) bool {
	h, n := slices.Index(Levels, have), slices.Index(Levels, need)
	return h >= 0 && n >= 0 && h >= n
}

// IsBot reports whether an account is a bot: GitHub Apps have type "Bot",
// and their logins end in "[bot]" even where a payload says "User".
func IsBot(login, typ string) bool {
	return typ == "Bot" || strings.HasSuffix(login, "[bot]")
}

// MaxBodyChars is the most characters GitHub takes in the body of an
// issue, a pull request, a comment or a review. A longer one did not come
// from GitHub, and parsing it as Markdown would cost the run far more than
// any real body does.
const MaxBodyChars = 65536

// WithinLimit reports whether s is at most MaxBodyChars characters long.
func WithinLimit(s string) bool {
	// Counted in bytes first: a byte count within the cap is within it in
	// characters too, whatever the text.
	return len(s) <= MaxBodyChars || utf8.RuneCountInString(s) <= MaxBodyChars
}
