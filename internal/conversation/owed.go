package conversation

import (
	"context"

	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// Owing is what Owed reads: the repository's newest comments, a thread's
// pages, a comment a backlink names, and the open pull requests whose
// commit status is pending. *ghclient.Client is one.
type Owing interface {
	RepoComments
	BacklinkReads
	// PendingPulls lists the open pull requests whose head's commit
	// status is pending, the oldest first, and whether there are more
	// than it lists.
	PendingPulls(ctx context.Context, owner, repo string) ([]ghclient.Listed, bool, error)
}

var _ Owing = (*ghclient.Client)(nil)

// Search bounds Owed.
type Search struct {
	// Per is the most records of one login kept (see findUnsettled).
	Per int
	// Backlinked is the pull request whose backlinks are read when the
	// newest comments are cut (the settle run's event's); 0 for none.
	Backlinked int
	// Leads is the most pull requests with a pending status whose threads
	// are read then, the oldest first.
	Leads int
}

// Past is what Owed's searches past the repository's newest comments did,
// which they do only when those were cut (Unsettled.Cut). A search that
// failed is a warning of the caller's: what the others found is kept.
type Past struct {
	// Backlinks says the backlinks on Search.Backlinked were read;
	// FromBacklinks is how many records of jobs left working they added.
	// BacklinkErr is why they could not be (Backlinks false).
	Backlinks     bool
	FromBacklinks int
	BacklinkErr   error
	// Listed is how many open pull requests the search listed with a
	// pending status, More that there are more than it lists; Pending how
	// many of them were read (at most Search.Leads), FromPending how many
	// records they added. SearchErr is why the search failed (nothing
	// read); ThreadErr why a thread it listed could not be read (those
	// before it were).
	Listed, Pending, FromPending int
	More                         bool
	SearchErr, ThreadErr         error
}

// Owed is the one reader of the repository's records that still owe
// something: the records of jobs left working (by anyone: the caller
// trusts only its own login's), among the repository's most recently
// written comments (SettlePages pages), and, when those do not reach back
// to its first comment, those no flood of comments can push away: the
// record the backlinks on s.Backlinked name (backlinked), and those in the
// threads of the oldest s.Leads open pull requests whose commit status is
// pending (a record that owes a head a status, or waits for an approval,
// never leaves that search while no other check on that head fails).
//
// Its requests: at most SettlePages list requests, then LeadPages and
// MaxFrom reads for the backlinks, one search, and LeadPages a pending
// pull request: at most 10 + 5 + 1 + 2 × s.Leads, whatever the comments
// written. The newest comments that cannot be read are the error; a
// failure past them is said in Past.
func Owed(ctx context.Context, gh Owing, owner, repo string, s Search) (*Unsettled, error) {
	found, err := findUnsettled(ctx, gh, owner, repo, s.Per)
	if err != nil || !found.Cut {
		return found, err
	}
	if s.Backlinked > 0 {
		before := len(found.Comments)
		if found.Past.BacklinkErr = found.backlinked(ctx, gh, owner, repo, s.Backlinked); found.Past.BacklinkErr == nil {
			found.Past.Backlinks, found.Past.FromBacklinks = true, len(found.Comments)-before
		}
	}
	leads, more, err := gh.PendingPulls(ctx, owner, repo)
	if err != nil {
		found.Past.SearchErr = err
		return found, nil
	}
	found.Past.Listed, found.Past.More = len(leads), more
	leads = leads[:min(len(leads), s.Leads)]
	before := len(found.Comments)
	found.Past.ThreadErr = found.also(ctx, gh, owner, repo, leads)
	found.Past.Pending, found.Past.FromPending = len(leads), len(found.Comments)-before
	return found, nil
}
