package conversation

import (
	"context"
	"slices"

	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// maxListRequests bounds the reads of a thread's comments by one run: with
// no match, the newest 900 comments or so and the oldest 100 are read (see
// newest), then a search gives up, and says so: what it did not read is
// unknown, not absent.
const maxListRequests = 10

// pager reads the pages of an issue's or pull request's comments, newest
// first and the oldest page last, each at most once, and at most its
// budget of them (maxListRequests unless set).
//
// GitHub lists a thread's comments oldest first and has no other order, so
// the newest page is computed from count (the thread's comment count, 0
// when unknown) and read first, then the page before it, and so on. The count may be
// stale: a page that links to a next one is not the last, and the reader
// moves forward to the page GitHub names as last; a count too high
// (comments deleted) lands on an empty page, and page 1 then names the last
// one.
type pager struct {
	gh          CommentPages
	owner, repo string
	number      int
	count       int
	keep        ghclient.Keep // which texts the pages keep
	// budget bounds the list requests, maxListRequests when 0.
	budget int

	pages    map[int]*ghclient.CommentPage
	requests int
	last     int // the last page, 0 until found
	// cut says a read was refused because the budget was spent: what was
	// not read is unknown, not absent.
	cut bool
}

// most is the most list requests the pager sends.
func (pg *pager) most() int {
	if pg.budget > 0 {
		return pg.budget
	}
	return maxListRequests
}

// get returns page p; ok is false when the budget of requests is spent.
func (pg *pager) get(ctx context.Context, p int) (*ghclient.CommentPage, bool, error) {
	if page, ok := pg.pages[p]; ok {
		return page, true, nil
	}
	if pg.requests == pg.most() {
		pg.cut = true
		return nil, false, nil
	}
	pg.requests++
	page, err := pg.gh.ListCommentsPage(ctx, pg.owner, pg.repo, pg.number, p, pg.keep)
	if err != nil {
		return nil, false, err
	}
	if pg.pages == nil {
		pg.pages = map[int]*ghclient.CommentPage{}
	}
	pg.pages[p] = page
	return page, true, nil
}

// lastPage finds the thread's last page; ok is false when the budget ran
// out first.
func (pg *pager) lastPage(ctx context.Context) (int, bool, error) {
	if pg.last != 0 {
		return pg.last, true, nil
	}
	last := max(1, (pg.count+ghclient.PerPage-1)/ghclient.PerPage)
	for restarted := false; ; {
		page, ok, err := pg.get(ctx, last)
		if err != nil || !ok {
			return 0, false, err
		}
		switch {
		case page.Next != 0:
			// Newer comments than the count knew of.
			last = max(page.Last, page.Next)
			continue
		case len(page.Comments) == 0 && last > 1 && page.Last > 0 && page.Last < last:
			last = page.Last
			continue
		case len(page.Comments) == 0 && last > 1 && !restarted:
			// Past the end: fewer comments than the count said.
			restarted, last = true, 1
			continue
		}
		pg.last = last
		return last, true, nil
	}
}

// newest returns the newest comment that match accepts among the pages
// it reads, or nil when none does. It reads the newest page first, then
// the page before it, and so on; when one request is left and it cannot
// reach the oldest page otherwise, it reads that page instead of one
// more of the middle. The oldest page holds a thread's first record (the
// code workflow's comment, the first answer to a request, a backlink), so
// comments written after a record, however many, cannot push it out of
// reach: only comments on both sides of it can. behind says the comment
// was found on that oldest page with pages between it and the newest
// not read: a newer match may be among them.
func (pg *pager) newest(ctx context.Context, match func(*ghclient.Comment) bool) (c *ghclient.Comment, behind bool, err error) {
	last, ok, err := pg.lastPage(ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	for p := last; p >= 1; p-- {
		if p > 1 && pg.requests == pg.most()-1 && pg.pages[p] == nil && pg.pages[1] == nil {
			if _, _, err := pg.get(ctx, 1); err != nil {
				return nil, false, err
			}
		}
		page, ok, err := pg.get(ctx, p)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			// Pages p down to 2 are not read: the oldest page, when it
			// was, is searched still.
			if first := pg.pages[1]; first != nil && p > 1 {
				c := newestOn(first, match)
				return c, c != nil, nil
			}
			return nil, false, nil
		}
		if c := newestOn(page, match); c != nil {
			return c, false, nil
		}
	}
	return nil, false, nil
}

// newestOn is the newest comment of page that match accepts, or nil.
func newestOn(page *ghclient.CommentPage, match func(*ghclient.Comment) bool) *ghclient.Comment {
	for _, c := range slices.Backward(page.Comments) {
		if match(c) {
			return c
		}
	}
	return nil
}

// recent returns at least the newest ghclient.PerPage comments (all of
// them in a shorter thread), oldest first: the last page and, when it is
// not full, the page before it. whole says they are all the thread's
// comments.
func (pg *pager) recent(ctx context.Context) (comments []*ghclient.Comment, whole bool, err error) {
	last, ok, err := pg.lastPage(ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	page, _, err := pg.get(ctx, last)
	if err != nil {
		return nil, false, err
	}
	out, first := page.Comments, last
	if last > 1 && len(out) < ghclient.PerPage {
		before, ok, err := pg.get(ctx, last-1)
		if err != nil {
			return nil, false, err
		}
		if ok {
			out, first = append(before.Comments[:len(before.Comments):len(before.Comments)], out...), last-1
		}
	}
	return out, first == 1, nil
}

// findNewest returns the newest comment on issue or pull request number
// that match accepts, or nil when none of those it read does (see pager).
func findNewest(ctx context.Context, gh GitHub, owner, repo string, number, count int, keep ghclient.Keep, match func(*ghclient.Comment) bool) (*ghclient.Comment, error) {
	pg := &pager{gh: gh, owner: owner, repo: repo, number: number, count: count, keep: keep}
	c, _, err := pg.newest(ctx, match)
	return c, err
}
