package conversation

import (
	"context"

	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// maxListRequests bounds one search of a thread: with no match, the newest
// 1,000 comments or so are read, then the search gives up as if there were
// none. A job named further back is not worth more requests.
const maxListRequests = 10

// findNewest returns the newest comment on issue or pull request number
// that match accepts, or nil when none of those it read does.
//
// GitHub lists comments oldest first and has no other order, so the newest
// page is computed from count (the thread's comment count, 0 when unknown)
// and read first, then the page before it, and so on. The count may be
// stale: a page that links to a next one is not the last, and the search
// moves forward to the page GitHub names as last; a count too high (comments
// deleted) lands on an empty page, and page 1 then names the last one. A
// page is never requested twice.
func findNewest(ctx context.Context, gh GitHub, owner, repo string, number, count int, match func(*ghclient.Comment) bool) (*ghclient.Comment, error) {
	pages := map[int]*ghclient.CommentPage{}
	requests := 0
	get := func(p int) (*ghclient.CommentPage, bool, error) {
		if pg, ok := pages[p]; ok {
			return pg, true, nil
		}
		if requests == maxListRequests {
			return nil, false, nil
		}
		requests++
		pg, err := gh.ListCommentsPage(ctx, owner, repo, number, p)
		if err != nil {
			return nil, false, err
		}
		pages[p] = pg
		return pg, true, nil
	}

	last := max(1, (count+ghclient.PerPage-1)/ghclient.PerPage)
	for restarted := false; ; {
		pg, ok, err := get(last)
		if err != nil || !ok {
			return nil, err
		}
		switch {
		case pg.Next != 0:
			// Newer comments than the count knew of.
			last = max(pg.Last, pg.Next)
			continue
		case len(pg.Comments) == 0 && last > 1 && pg.Last > 0 && pg.Last < last:
			last = pg.Last
			continue
		case len(pg.Comments) == 0 && last > 1 && !restarted:
			// Past the end: fewer comments than the count said.
			restarted, last = true, 1
			continue
		}
		break
	}
	for p := last; p >= 1; p-- {
		pg, ok, err := get(p)
		if err != nil || !ok {
			return nil, err
		}
		for i := len(pg.Comments) - 1; i >= 0; i-- {
			if c := pg.Comments[i]; match(c) {
				return c, nil
			}
		}
	}
	return nil, nil
}
