package conversation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// ErrSearchCut is a search of a thread's comments that spent its budget of
// list requests before it reached the first comment: what it did not read
// may name the thread's job, so it is not "no job".
var ErrSearchCut = errors.New("the thread has more comments than one run reads (the newest 1,000 or so) and none of them names its job; nothing was sent, so that the thread does not get a second job")

// The markers of where a thread's job stands: unsettledMarker says the job
// was still working when the comment was last written, so the next run in
// the thread (or a settle run) reports its end; owedPrefix lists the head
// commits whose commit status shows it working, which that end settles.
const (
	unsettledMarker = "<!-- agent-job-action:unsettled -->"
	owedPrefix      = "<!-- agent-job-action:owed="
	cutMarker       = "<!-- agent-job-action:cut -->"
	waitingPrefix   = "<!-- agent-job-action:waiting="
	prPrefix        = "<!-- agent-job-action:pr="
)

// MaxOwed bounds the head commits a record keeps owing a status: the newest
// are kept, older ones are left as their last status said.
const MaxOwed = 20

// Earlier is the record an earlier run keeps in its comment in the
// thread: its job, what the job has heard (the head commit of a code pull
// request, the requests answered) and where it stood when it was written.
type Earlier struct {
	JobID string
	// Head is the head commit the job last heard of, "" when the comment
	// records none.
	Head string
	URL  string
	// CommentID is the comment that holds the record.
	CommentID int64
	// Unsettled says the job was working when the comment was written:
	// its end is for a later run to report.
	Unsettled bool
	// Owed are the head commits whose commit status shows the job
	// working, oldest first.
	Owed []string
	// Waiting is the newest head commit of a code pull request whose
	// change (since Head) the job has not heard: pushes made while the
	// job worked, for the run that finds it ended to send in one
	// follow-up. "" when nothing waits.
	Waiting string
	// Cut says the job heard a listing of the pull request's files that
	// GitHub cut at its cap: until a whole listing is sent again (a force
	// push, a retarget), no status of the job may claim success.
	Cut bool
	// PR is the job's pull request as the record names it (State.PRURL),
	// "" for none; the reader checks it again before trusting it.
	PR string
	// Markers are the comment's hidden markers as written, each on its
	// own line (the answered requests' record among them).
	Markers string
	// Sent counts what the runs that wrote the comment sent.
	Sent Sends
}

// EarlierOf reads the record in c, one of the token's own comments.
// Only the block of markers that starts the comment is read (see markers).
func EarlierOf(c *ghclient.Comment) *Earlier {
	m := markers(c.Body)
	return &Earlier{JobID: JobFromMarker(m), Head: HeadFromMarker(m), URL: c.URL, CommentID: c.ID,
		Unsettled: strings.Contains(m, unsettledMarker), Owed: OwedFromMarker(m),
		Waiting: shaMarker(m, waitingPrefix), PR: prMarker(m), Markers: m, Sent: SendsFromMarker(m),
		Cut: strings.Contains(m, cutMarker)}
}

// Record returns the answered requests' record among e's markers (the
// line package backlog writes), or "".
func (e *Earlier) Record() string {
	for line := range strings.Lines(e.Markers) {
		if strings.HasPrefix(line, "<!-- agent-job-action:answered") {
			return strings.TrimSuffix(line, "\n")
		}
	}
	return ""
}

// Code reports whether e is a code pull request's record: it names the
// head commit its job heard, or owes commit statuses.
func (e *Earlier) Code() bool { return e.Head != "" || len(e.Owed) > 0 }

// Heard splits the heads e owes a status into those whose change the job
// has heard (up to Head), which its end settles, and those pushed since,
// whose change waits (Waiting) and which a job's end must not settle.
func (e *Earlier) Heard() (heard, unsent []string) {
	if e.Waiting == "" {
		return e.Owed, nil
	}
	i := slices.Index(e.Owed, e.Head)
	return e.Owed[:i+1], e.Owed[i+1:]
}

// OwedFromMarker returns the head commits body's owed marker lists; a
// marker with anything but full SHAs in it is none.
func OwedFromMarker(body string) []string {
	list, ok := markerValue(body, owedPrefix)
	if !ok {
		return nil
	}
	shas := strings.Split(list, ",")
	for _, s := range shas {
		if !isSHA(s) {
			return nil
		}
	}
	return shas
}

// Owe adds sha to owed, once, keeping the newest MaxOwed.
func Owe(owed []string, sha string) []string {
	if !isSHA(sha) || slices.Contains(owed, sha) {
		return owed
	}
	owed = append(slices.Clone(owed), sha)
	return owed[max(0, len(owed)-MaxOwed):]
}

// shaMarker returns the commit SHA body's marker that starts with prefix
// holds, or "".
func shaMarker(body, prefix string) string {
	if sha, ok := markerValue(body, prefix); ok && isSHA(sha) {
		return sha
	}
	return ""
}

// markerValue returns what stands between prefix and the end of the first
// marker body holds that starts with it; ok is false when there is none.
func markerValue(body, prefix string) (string, bool) {
	_, rest, ok := strings.Cut(body, prefix)
	if !ok {
		return "", false
	}
	value, _, ok := strings.Cut(rest, markerSuffix)
	return value, ok
}

// plainLink reports whether link may stand in a marker: short, with
// nothing that could end the HTML comment or the line.
func plainLink(link string) bool {
	return len(link) <= 512 && !strings.ContainsAny(link, " <>\n") && !strings.Contains(link, "--")
}

// prMarker returns the pull request body's pr marker names, or "".
func prMarker(body string) string {
	if link, ok := markerValue(body, prPrefix); ok && plainLink(link) {
		return link
	}
	return ""
}

// settlement writes the markers of where the job stands.
func settlement(b *strings.Builder, s State) {
	if s.Unsettled {
		b.WriteString(unsettledMarker + "\n")
	}
	if s.Cut {
		b.WriteString(cutMarker + "\n")
	}
	if s.PRURL != "" && plainLink(s.PRURL) {
		b.WriteString(prPrefix + s.PRURL + markerSuffix + "\n")
	}
	if isSHA(s.Waiting) {
		b.WriteString(waitingPrefix + s.Waiting + markerSuffix + "\n")
	}
	var owed []string
	for _, sha := range s.Owed {
		if isSHA(sha) {
			owed = append(owed, sha)
		}
	}
	if len(owed) > 0 {
		b.WriteString(owedPrefix + strings.Join(owed, ",") + markerSuffix + "\n")
	}
}

// RepoComments is what FindUnsettled reads.
type RepoComments interface {
	ListRepoCommentsPage(ctx context.Context, owner, repo string, page int, keep ghclient.Keep) (*ghclient.CommentPage, error)
}

var _ RepoComments = (*ghclient.Client)(nil)

// SettlePages bounds the list requests of one search for unsettled
// records: the repository's 1,000 most recently written comments. A record
// is written when its run ends, so one left further back than that is
// older than a thousand comments of the repository; the next run in its
// own thread still settles it.
const SettlePages = 10

// Unsettled is what FindUnsettled found.
type Unsettled struct {
	// Comments are the action's comments that record a job left working,
	// the most recently written first, with only their markers kept;
	// their authors are not yet checked against the token's login.
	Comments []*ghclient.Comment
	// Read is how many comments were read; Cut says the search stopped at
	// SettlePages with more to read.
	Read int
	Cut  bool
}

// FindUnsettled reads the repository's most recently written comments, at
// most SettlePages pages of them, and returns those that record a job left
// working (by anyone: the caller trusts only its own login's). Of every
// other comment nothing is kept, so what it holds is bounded by the
// records it finds, not by the repository.
func FindUnsettled(ctx context.Context, gh RepoComments, owner, repo string) (*Unsettled, error) {
	keep := func(_ int64, _ string, body string) string {
		if m := markers(body); strings.Contains(m, unsettledMarker) && !strings.Contains(m, backlinkMarker) {
			return m
		}
		return ""
	}
	out := &Unsettled{}
	var err error
	out.Read, out.Cut, err = readRecent(ctx, gh, owner, repo, SettlePages, keep, func(c *ghclient.Comment) bool {
		if c.Body != "" && JobFromMarker(c.Body) != "" && c.Issue != 0 {
			out.Comments = append(out.Comments, c)
		}
		return false
	})
	if err != nil {
		return out, fmt.Errorf("read the repository's comments to find the jobs earlier runs left working: %w", err)
	}
	return out, nil
}

// readRecent reads the repository's most recently written comments, at
// most pages pages of them, keeping of each what keep keeps, and passes
// each to visit; a page in which visit says enough is the last read. cut
// says the pages ran out with more to read.
func readRecent(ctx context.Context, gh RepoComments, owner, repo string, pages int, keep ghclient.Keep, visit func(*ghclient.Comment) (enough bool)) (read int, cut bool, err error) {
	for page := 1; ; page++ {
		if page > pages {
			return read, true, nil
		}
		pg, err := gh.ListRepoCommentsPage(ctx, owner, repo, page, keep)
		if err != nil {
			return read, false, err
		}
		read += len(pg.Comments)
		enough := false
		for _, c := range pg.Comments {
			enough = visit(c) || enough
		}
		if pg.Next == 0 || enough {
			return read, false, nil
		}
	}
}

// Owns reports whether self wrote c (logins without case).
func Owns(c *ghclient.Comment, self string) bool { return ownedBy(c, self) }
