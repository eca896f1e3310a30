package conversation

import (
	"context"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/ghclient"
)

// Adopt finds the newest run comment the token's own login wrote in this
// thread that names a job, or records one the API named with an id no
// record holds (record.Record's Lost), not a backlink (for a Code thread,
// one that names a head commit: the code workflow's own record), and
// makes it this run's comment: Show then edits it in place rather than
// writing another. It returns nil when there is none; the run then writes
// its own. As
// Previous, it trusts only the token's own comments, and needs Self:
// without it, it sends nothing and returns ErrUnknownIdentity. A search
// that spends its budget of list requests with pages between the thread's
// oldest and its newest not read, and finds none in those it read, is
// ErrSearchCut, never "none": the caller must not start a second job. A
// record found on the oldest page past pages not read (Behind) is adopted:
// a code pull request keeps one record, in the comment its first run
// wrote, which its later runs edit.
func (t *Thread) Adopt(ctx context.Context) (*Earlier, error) {
	self := t.Self()
	if self == "" {
		return nil, t.unknownSelf()
	}
	pg := t.comments()
	c, behind, err := pg.newest(ctx, func(c *ghclient.Comment) bool {
		r, _, ok := recordOf(c.Body)
		return ownedBy(c, self) && ok && !r.Backlink && (r.JobID != "" || r.Lost) && (!t.Code || r.Head != "")
	})
	if err != nil {
		return nil, fmt.Errorf("read the thread's comments to find its docs job: %w", err)
	}
	if c == nil && pg.cut {
		return nil, fmt.Errorf("read the thread's comments to find its docs job: none of those read names one, but %w", ErrSearchCut)
	}
	if c == nil {
		return nil, nil
	}
	e := EarlierOf(c)
	e.Behind = behind
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.id == 0 && !t.broken {
		t.id, t.url, t.last = c.ID, c.URL, c.Body
		t.sent = e.Sent
	}
	return e, nil
}
