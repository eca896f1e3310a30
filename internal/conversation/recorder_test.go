package conversation

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/request"
)

// Recorder is an in-memory GitHub for tests of the thread logic, with no
// HTTP: it keeps the comments of each issue or pull request, pages them as
// GitHub does (ghclient.PerPage to a page, oldest first, Next and Last), and
// records every call in order, under a mutex, so a test compares the list
// of calls as well as the result.
type Recorder struct {
	// Self is the login that comments created through the Recorder belong
	// to: the token's identity.
	Self string
	// Fail, when set, sees each call (as Calls records it) first; an error
	// it returns is the call's answer, and nothing changes.
	Fail func(call string) error

	mu       sync.Mutex
	calls    []string
	comments []*recorded
	nextID   int64
}

type recorded struct {
	number int
	c      ghclient.Comment
}

var _ GitHub = (*Recorder)(nil)

// Seed adds a comment by author on number, as if written before the test,
// without recording a call, and returns its id.
func (r *Recorder) Seed(number int, author, body string) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.add(number, author, body).ID
}

// Calls returns the calls so far, in order, as "CreateComment acme/docs#12",
// "UpdateComment acme/docs 1001", "ListCommentsPage acme/docs#12 page 3" or
// "AddReaction acme/docs 55 issue eyes".
func (r *Recorder) Calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// Comments returns copies of the comments on number, oldest first.
func (r *Recorder) Comments(number int) []ghclient.Comment {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []ghclient.Comment
	for _, x := range r.comments {
		if x.number == number {
			out = append(out, x.c)
		}
	}
	return out
}

// CreateComment adds a comment by Self.
func (r *Recorder) CreateComment(_ context.Context, owner, repo string, number int, body string) (*ghclient.Comment, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.call(fmt.Sprintf("CreateComment %s/%s#%d", owner, repo, number)); err != nil {
		return nil, err
	}
	c := r.add(number, r.Self, body)
	return &c, nil
}

// UpdateComment replaces a comment's body, whoever wrote it, as a token
// with write access may.
func (r *Recorder) UpdateComment(_ context.Context, owner, repo string, id int64, body string) (*ghclient.Comment, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.call(fmt.Sprintf("UpdateComment %s/%s %d", owner, repo, id)); err != nil {
		return nil, err
	}
	i := slices.IndexFunc(r.comments, func(x *recorded) bool { return x.c.ID == id })
	if i < 0 {
		return nil, fmt.Errorf("update comment %d: not found", id)
	}
	r.comments[i].c.Body = body
	c := r.comments[i].c
	return &c, nil
}

// GetComment returns a comment as it is now.
func (r *Recorder) GetComment(_ context.Context, owner, repo string, id int64) (*ghclient.Comment, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.call(fmt.Sprintf("GetComment %s/%s %d", owner, repo, id)); err != nil {
		return nil, err
	}
	i := slices.IndexFunc(r.comments, func(x *recorded) bool { return x.c.ID == id })
	if i < 0 {
		return nil, fmt.Errorf("get comment %d: not found", id)
	}
	c := r.comments[i].c
	return &c, nil
}

// ListCommentsPage returns one page of number's comments, with the
// bodies keep keeps.
func (r *Recorder) ListCommentsPage(_ context.Context, owner, repo string, number, page int, keep ghclient.Keep) (*ghclient.CommentPage, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.call(fmt.Sprintf("ListCommentsPage %s/%s#%d page %d", owner, repo, number, page)); err != nil {
		return nil, err
	}
	var all []*ghclient.Comment
	for _, x := range r.comments {
		if x.number == number {
			c := x.c
			if keep != nil {
				c.Body = keep(c.ID, c.Author, c.Body)
			}
			all = append(all, &c)
		}
	}
	per := ghclient.PerPage
	last := max(1, (len(all)+per-1)/per)
	from := min(max(page-1, 0)*per, len(all))
	out := &ghclient.CommentPage{Comments: all[from:min(from+per, len(all))]}
	if page < last {
		out.Next, out.Last = page+1, last
	}
	return out, nil
}

// AddReaction records the reaction, by Self; it keeps none.
func (r *Recorder) AddReaction(_ context.Context, owner, repo string, commentID int64, kind request.Kind, content string) (*ghclient.Reaction, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.call(fmt.Sprintf("AddReaction %s/%s %d %s %s", owner, repo, commentID, map[request.Kind]string{request.Comment: "issue", request.Line: "review"}[kind], content)); err != nil {
		return nil, err
	}
	return &ghclient.Reaction{By: r.Self, New: true}, nil
}

// LineComments records the call; the Recorder holds no line comments.
func (r *Recorder) LineComments(_ context.Context, owner, repo string, number int, _ ghclient.Keep) ([]*ghclient.ReviewComment, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return nil, r.call(fmt.Sprintf("LineComments %s/%s#%d", owner, repo, number))
}

// Reviews records the call; the Recorder holds no reviews.
func (r *Recorder) Reviews(_ context.Context, owner, repo string, number int, _ ghclient.Keep) ([]*ghclient.Review, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return nil, r.call(fmt.Sprintf("Reviews %s/%s#%d", owner, repo, number))
}

func (r *Recorder) call(c string) error {
	r.calls = append(r.calls, c)
	if r.Fail != nil {
		return r.Fail(c)
	}
	return nil
}

func (r *Recorder) add(number int, author, body string) ghclient.Comment {
	if r.nextID == 0 {
		r.nextID = 1001
	}
	c := ghclient.Comment{
		ID: r.nextID, Body: body, Author: author,
		URL: fmt.Sprintf("https://github.example/issues/%d#issuecomment-%d", number, r.nextID),
	}
	r.nextID++
	r.comments = append(r.comments, &recorded{number: number, c: c})
	return c
}
