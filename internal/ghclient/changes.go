package ghclient

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/go-github/v62/github"
)

// File is a file a pull request or a comparison of two commits changes.
type File struct {
	Name string
	// Previous is the name before a rename or copy; "" otherwise.
	Previous  string
	Status    string // added, removed, modified, renamed, copied, changed or unchanged
	Additions int
	Deletions int
	// Patch is the file's diff; "" when GitHub gives none (a binary file,
	// or a diff too large for it to show).
	Patch string
}

// maxFilePages bounds PullFiles: GitHub lists at most 3,000 files of a
// pull request, 30 pages of PerPage.
const maxFilePages = 30

// The most files GitHub lists: of a pull request (PullFiles) and of a
// comparison of two commits (Compare). A listing that reaches its cap
// may leave files out, and GitHub does not say whether it did.
const (
	MaxPullFiles    = maxFilePages * PerPage
	MaxCompareFiles = 300
)

// PullFiles returns the files pull request number changes, with their
// patches, in GitHub's order: one request for each PerPage files (a page
// too large for the response cap is read in parts), at most the 3,000
// GitHub lists.
func (c *Client) PullFiles(ctx context.Context, owner, repo string, number int) ([]*File, error) {
	var out []*File
	for page := 1; page <= maxFilePages; {
		list, l, err := readPage(fmt.Sprintf("list files of #%d", number), owner, repo, page, func(page, perPage int) ([]*github.CommitFile, *github.Response, error) {
			return c.gh.PullRequests.ListFiles(ctx, owner, repo, number, &github.ListOptions{PerPage: perPage, Page: page})
		}, func(*github.CommitFile) {})
		if err != nil {
			return nil, err
		}
		for _, f := range list {
			out = append(out, fromCommitFile(f))
		}
		if l.next == 0 {
			break
		}
		page = l.next
	}
	return out, nil
}

// Comparison is what changed from one commit to another.
type Comparison struct {
	// Status is GitHub's word for how head stands to base: ahead (head
	// follows base), identical, behind (head is an ancestor of base) or
	// diverged (neither follows the other).
	Status string
	// Files are the files changed from base to head, at most the
	// MaxCompareFiles GitHub lists.
	Files []*File
	// MergeBase is the newest commit both base and head follow.
	MergeBase string
}

// Cut reports whether the comparison lists as many files as GitHub lists
// at most, so that some may be left out.
func (c *Comparison) Cut() bool { return len(c.Files) >= MaxCompareFiles }

// Rewritten reports whether head does not follow base: the branch was
// pushed with --force (rewritten or reset), so the files changed from base
// are not what the push added.
func (c *Comparison) Rewritten() bool { return c.Status == "diverged" || c.Status == "behind" }

// Compare returns what changed from commit base to commit head, both
// full or abbreviated SHAs. It asks for one commit a page: the files
// come with the first page whatever its size, and the commits, which the
// action does not read, stay out of the answer.
func (c *Client) Compare(ctx context.Context, owner, repo, base, head string) (*Comparison, error) {
	cmp, err := call("compare "+Short(base)+"..."+Short(head), owner, repo, []string{base, head}, func() (*github.CommitsComparison, *github.Response, error) {
		return c.gh.Repositories.CompareCommits(ctx, owner, repo, base, head, &github.ListOptions{PerPage: 1})
	})
	if err != nil {
		return nil, err
	}
	out := &Comparison{Status: cmp.GetStatus(), MergeBase: cmp.GetMergeBaseCommit().GetSHA()}
	for _, f := range cmp.Files {
		out.Files = append(out.Files, fromCommitFile(f))
	}
	return out, nil
}

// Commit status states.
const (
	StatusPending = "pending"
	StatusSuccess = "success"
	StatusFailure = "failure"
	StatusError   = "error"
)

// CommitStatus is a status on a commit, under a context: GitHub shows the
// newest of each context, and a branch protection rule can require one.
type CommitStatus struct {
	State       string // StatusPending, StatusSuccess, StatusFailure or StatusError
	Context     string
	Description string // cut to MaxStatusDescription characters
	TargetURL   string // "" for none
}

// Same says whether s and o show the same: the same context and state,
// the same description as GitHub keeps it (cut to MaxStatusDescription),
// the same link. A commit showing one needs no write of the other.
func (s CommitStatus) Same(o CommitStatus) bool {
	return s.Context == o.Context && s.State == o.State && s.TargetURL == o.TargetURL &&
		cut(s.Description, MaxStatusDescription) == cut(o.Description, MaxStatusDescription)
}

// TakesBack says whether writing s over shown turns a success into
// anything else: a required check that let a merge through no longer
// does.
func (s CommitStatus) TakesBack(shown CommitStatus) bool {
	return shown.State == StatusSuccess && s.State != StatusSuccess
}

// MaxStatusDescription is the most characters GitHub takes in a commit
// status's description.
const MaxStatusDescription = 140

// SetStatus sets the status of context on commit sha. Setting it twice
// leaves the newest, as once would: the call may be repeated.
func (c *Client) SetStatus(ctx context.Context, owner, repo, sha string, s CommitStatus) error {
	rs := &github.RepoStatus{State: &s.State, Context: &s.Context}
	if d := cut(s.Description, MaxStatusDescription); d != "" {
		rs.Description = &d
	}
	if s.TargetURL != "" {
		rs.TargetURL = &s.TargetURL
	}
	_, err := call("set commit status on "+Short(sha), owner, repo, []string{sha}, func() (*github.RepoStatus, *github.Response, error) {
		return c.gh.Repositories.CreateStatus(ctx, owner, repo, sha, rs)
	})
	return err
}

// isSHA reports whether s is a commit SHA, full (40 or 64 hex digits) or
// abbreviated (at least 7): it goes into a request's path.
func isSHA(s string) bool {
	return len(s) >= 7 && len(s) <= 64 && strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""
}

// Short is a SHA as people write it, for errors and statuses: its first
// seven digits, or "(not a SHA)" for anything else.
func Short(sha string) string {
	if isSHA(sha) {
		return sha[:7]
	}
	return "(not a SHA)"
}

// cut returns s cut to n characters, with "…" in place of the last one
// when it was longer.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func fromCommitFile(f *github.CommitFile) *File {
	return &File{
		Name:      f.GetFilename(),
		Previous:  f.GetPreviousFilename(),
		Status:    f.GetStatus(),
		Additions: f.GetAdditions(),
		Deletions: f.GetDeletions(),
		Patch:     f.GetPatch(),
	}
}
