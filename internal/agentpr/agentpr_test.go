package agentpr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/preview"
	"github.com/agentjob/agent-job-action/internal/prompt"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/runlog"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// fakeGitHub is GitHub as one token sees it: it records each call as
// "Method owner/repo#n", answers from what the test put in it, and fails
// the test on a call the room has no reason to make.
type fakeGitHub struct {
	t       *testing.T
	login   string                           // the token's login
	pulls   map[string]*ghclient.PullRequest // by "owner/repo#n"
	shows   map[string]ghclient.CommitStatus // the status each commit shows, by SHA
	errs    map[string]error                 // by call
	seeded  map[string][]*ghclient.Comment   // comments, by "owner/repo#n"
	mu      sync.Mutex
	calls   []string
	created []string // the bodies of the comments created
}

func newGitHub(t *testing.T, login string) *fakeGitHub {
	return &fakeGitHub{t: t, login: login, pulls: map[string]*ghclient.PullRequest{}, errs: map[string]error{}, seeded: map[string][]*ghclient.Comment{}}
}

func (f *fakeGitHub) call(format string, args ...any) (string, error) {
	c := fmt.Sprintf(format, args...)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, c)
	return c, f.errs[c]
}

func (f *fakeGitHub) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

func (f *fakeGitHub) CreateComment(_ context.Context, owner, repo string, n int, body string) (*ghclient.Comment, error) {
	if _, err := f.call("CreateComment %s/%s#%d", owner, repo, n); err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.created = append(f.created, body)
	f.mu.Unlock()
	return &ghclient.Comment{ID: 555, Body: body, URL: fmt.Sprintf("https://github.com/%s/%s/pull/%d#issuecomment-555", owner, repo, n), Author: f.login, AuthorIsBot: true}, nil
}

func (f *fakeGitHub) UpdateComment(_ context.Context, owner, repo string, id int64, body string) (*ghclient.Comment, error) {
	if _, err := f.call("UpdateComment %s/%s %d", owner, repo, id); err != nil {
		return nil, err
	}
	return &ghclient.Comment{ID: id, Body: body, Author: f.login}, nil
}

func (f *fakeGitHub) ListCommentsPage(_ context.Context, owner, repo string, n, page int, keep ghclient.Keep) (*ghclient.CommentPage, error) {
	if _, err := f.call("ListCommentsPage %s/%s#%d", owner, repo, n); err != nil {
		return nil, err
	}
	out := &ghclient.CommentPage{}
	for _, c := range f.seeded[fmt.Sprintf("%s/%s#%d", owner, repo, n)] {
		k := *c
		k.Body = keep(k.ID, k.Author, k.Body)
		out.Comments = append(out.Comments, &k)
	}
	return out, nil
}

func (f *fakeGitHub) AddReaction(_ context.Context, owner, repo string, id int64, kind request.Kind, content string) (*ghclient.Reaction, error) {
	if _, err := f.call("AddReaction %s/%s %d %s", owner, repo, id, content); err != nil {
		return nil, err
	}
	return &ghclient.Reaction{By: f.login, New: true}, nil
}

func (f *fakeGitHub) PullRequest(_ context.Context, owner, repo string, n int) (*ghclient.PullRequest, error) {
	c, err := f.call("PullRequest %s/%s#%d", owner, repo, n)
	if err != nil {
		return nil, err
	}
	pr, ok := f.pulls[strings.TrimPrefix(c, "PullRequest ")]
	if !ok {
		return nil, errors.New("HTTP 404: Not Found")
	}
	return pr, nil
}

func (f *fakeGitHub) Status(_ context.Context, owner, repo, sha, context string) (ghclient.CommitStatus, bool, error) {
	if _, err := f.call("Status %s/%s %s %s", owner, repo, sha, context); err != nil {
		return ghclient.CommitStatus{}, false, err
	}
	s, ok := f.shows[sha]
	return s, ok, nil
}

func (f *fakeGitHub) RequestReviewers(_ context.Context, owner, repo string, n int, reviewers []string) error {
	_, err := f.call("RequestReviewers %s/%s#%d %s", owner, repo, n, strings.Join(reviewers, ","))
	return err
}

func (f *fakeGitHub) GetComment(context.Context, string, string, int64) (*ghclient.Comment, error) {
	f.t.Errorf("GetComment: the room reads no comment by id")
	return nil, errors.New("unexpected")
}

func (f *fakeGitHub) LineComments(context.Context, string, string, int, ghclient.Keep) ([]*ghclient.ReviewComment, error) {
	f.t.Errorf("LineComments: the room reads no line comments")
	return nil, errors.New("unexpected")
}

func (f *fakeGitHub) Reviews(context.Context, string, string, int, ghclient.Keep) ([]*ghclient.Review, error) {
	f.t.Errorf("Reviews: the room reads reviews only for an approval, which these tests ask none of")
	return nil, errors.New("unexpected")
}

func (f *fakeGitHub) ReviewsSeen(context.Context, string, string, int, ghclient.Keep) ([]*ghclient.Review, bool, error) {
	f.t.Errorf("ReviewsSeen: the room reads reviews only for an approval, which these tests ask none of")
	return nil, false, errors.New("unexpected")
}

func (f *fakeGitHub) Merge(context.Context, string, string, int, string, string) (string, error) {
	f.t.Errorf("Merge: these tests ask no docs-merge")
	return "", errors.New("unexpected")
}

func (f *fakeGitHub) ClosePull(context.Context, string, string, int) error {
	f.t.Errorf("ClosePull: these tests ask no docs-close")
	return errors.New("unexpected")
}

func (f *fakeGitHub) Permission(context.Context, string, string, string) (string, error) {
	f.t.Errorf("Permission: the room reads permissions only for an approval, which these tests ask none of")
	return "", errors.New("unexpected")
}

// fakePreviews is the preview API: it records each call and answers
// Trigger with a deployment, or err.
type fakePreviews struct {
	err    error
	states []string // what each Status answers, in turn
	calls  []string
}

func (p *fakePreviews) Trigger(_ context.Context, branch string) (*preview.Deployment, error) {
	p.calls = append(p.calls, "Trigger "+branch)
	if p.err != nil {
		return nil, p.err
	}
	return &preview.Deployment{StatusID: "st_1", URL: "https://acme-docs-" + strings.ReplaceAll(branch, "/", "-") + ".mintlify.app"}, nil
}

func (p *fakePreviews) Status(_ context.Context, id string) (*preview.Status, error) {
	p.calls = append(p.calls, "Status "+id)
	st := p.states[0]
	p.states = p.states[1:]
	return &preview.Status{State: st, Summary: "built"}, nil
}

// fakeJobs answers Get with job, counting the reads.
type fakeJobs struct {
	job   *agentapi.Job
	err   error
	reads int
}

func (j *fakeJobs) Get(context.Context, string) (*agentapi.Job, error) {
	j.reads++
	return j.job, j.err
}

func job(id, pr, source string, ref string) *agentapi.Job {
	j := &agentapi.Job{ID: id, Status: agentapi.StatusCompleted, Source: agentapi.Source{Repository: source}}
	if pr != "" {
		j.PRLink = &pr
	}
	if ref != "" {
		j.Source.Ref = &ref
	}
	return j
}

var start = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// newRoom is a room for a workflow in acme/docs, its log in out.
func newRoom(own, docs *fakeGitHub, out *bytes.Buffer) *Room {
	clk := clock.NewFake(start)
	r := &Room{Owner: "acme", Repo: "docs", ServerURL: "https://github.com", RunURL: "https://github.com/acme/docs/actions/runs/42",
		Progress: runlog.Progress{Log: runlog.NewPlain(out), Clock: clk, Start: start}, Redact: func(s string) string { return s },
		Clock: clk, Deadline: start.Add(10 * time.Minute)}
	if own != nil {
		r.Own = own
	}
	if docs != nil {
		r.Docs = docs
	}
	return r
}

// TestBacklink: where the job's pull request is decides which token
// writes its backlink, or that none does, and what the log says.
func TestBacklink(t *testing.T) {
	t.Parallel()
	ask := Ask{Source: conversation.FromComment, URL: "https://github.com/acme/docs/issues/12#issuecomment-1", Phrase: "/docs",
		Reviewers: []string{"writer", "docs-agent[bot]"}, Self: "github-actions[bot]", Thread: 12, Comments: 3}
	tests := []struct {
		name      string
		job       *agentapi.Job
		docsToken bool
		own, docs []string // the calls each token makes
		log       string   // a line the log holds; "" for none
		elsewhere bool
	}{
		{name: "no pull request", job: job("job_1", "", "https://github.com/acme/docs", "")},
		{name: "not on this GitHub", job: job("job_1", "https://gitlab.example/acme/docs/pull/1", "https://github.com/acme/docs", ""),
			log: `no backlink and no review request on the pull request: "https://gitlab.example/acme/docs/pull/1" is not a pull request on this GitHub`},
		{name: "in the workflow's repository", job: job("job_1", "https://github.com/acme/docs/pull/101", "https://github.com/acme/docs", ""),
			own: []string{"ListCommentsPage acme/docs#101", "CreateComment acme/docs#101", "PullRequest acme/docs#101", "RequestReviewers acme/docs#101 writer"},
			log: `backlink on the pull request: "https://github.com/acme/docs/pull/101#issuecomment-555"`},
		{name: "in another repository, no docs-token", job: job("job_1", "https://github.com/acme/site/pull/7", "https://github.com/acme/site", ""),
			log: "no backlink and no review request on pull request acme/site#7: it is in another repository, which github-token cannot write to (set docs-token to a token that can)"},
		{name: "in the job's repository, with docs-token", docsToken: true, elsewhere: true,
			job:  job("job_1", "https://github.com/acme/site/pull/7", "https://github.com/acme/site", ""),
			docs: []string{"AddReaction acme/site 7 eyes", "ListCommentsPage acme/site#7", "CreateComment acme/site#7", "PullRequest acme/site#7", "RequestReviewers acme/site#7 writer"},
			log:  "asked writer to review pull request #7"},
		{name: "outside the job's repository: docs-token is not sent", docsToken: true,
			job: job("job_1", "https://github.com/evil/site/pull/7", "https://github.com/acme/site", ""),
			log: `warning: docs-token is not used on pull request evil/site#7: it is not in the job's repository ("https://github.com/acme/site"), the only one the token is sent to`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			own, docs := newGitHub(t, "github-actions[bot]"), newGitHub(t, "docs-bot")
			own.pulls["acme/docs#101"] = &ghclient.PullRequest{Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/a", Open: true}
			docs.pulls["acme/site#7"] = &ghclient.PullRequest{Number: 7, Author: "docs-agent[bot]", HeadRef: "docs/a", Open: true}
			var out bytes.Buffer
			var d *fakeGitHub
			if tt.docsToken {
				d = docs
			}
			r := newRoom(own, d, &out)
			r.Backlink(context.Background(), tt.job, ask)
			if got := own.Calls(); !slices.Equal(got, tt.own) {
				t.Errorf("github-token's calls %q, want %q", got, tt.own)
			}
			if got := docs.Calls(); !slices.Equal(got, tt.docs) {
				t.Errorf("docs-token's calls %q, want %q", got, tt.docs)
			}
			if tt.log != "" && !strings.Contains(out.String(), tt.log) {
				t.Errorf("log lacks %q:\n%s", tt.log, out.String())
			}
			for _, body := range slices.Concat(own.created, docs.created) {
				if said := strings.Contains(body, "a token of `docs-bot`, the login that wrote this comment"); said != tt.elsewhere || !strings.Contains(body, "`job_1`") {
					t.Errorf("the backlink says the pull request is elsewhere: %v, want %v; or it does not name the job:\n%s", said, tt.elsewhere, body)
				}
			}
			if tt.log == "" && out.Len() > 0 {
				t.Errorf("the log says:\n%s", out.String())
			}
		})
	}
}

// TestBacklinkHoldsDocsTokenOnce: a run warns once that docs-token is
// held back, whatever asks for it after.
func TestBacklinkHoldsDocsTokenOnce(t *testing.T) {
	t.Parallel()
	own, docs := newGitHub(t, "github-actions[bot]"), newGitHub(t, "docs-bot")
	var out bytes.Buffer
	r := newRoom(own, docs, &out)
	j := job("job_1", "https://github.com/evil/site/pull/7", "https://github.com/acme/site", "")
	r.Backlink(context.Background(), j, Ask{})
	r.Closed(context.Background(), j, 3, "https://github.com/acme/docs/pull/3", true, "", r.Land)
	if n := strings.Count(out.String(), "docs-token is not used"); n != 1 {
		t.Errorf("%d warnings that docs-token is held back, want 1:\n%s", n, out.String())
	}
	if c := slices.Concat(own.Calls(), docs.Calls()); len(c) != 0 {
		t.Errorf("calls %q, want none", c)
	}
}

// TestPreview: the preview of the branch the job's pull request is on,
// waited for; none without previews, a plan without them, or a branch no
// token may read.
func TestPreview(t *testing.T) {
	t.Parallel()
	notInPlan := &preview.Error{Op: preview.OpTrigger, Failure: &httpclient.Failure{Kind: httpclient.Refused, Status: http.StatusForbidden}}
	tests := []struct {
		name     string
		previews *fakePreviews
		job      *agentapi.Job
		want     preview.Shown
		calls    []string // the preview API's
		own      []string
		log      string
	}{
		{name: "previews off", job: job("job_1", "https://github.com/acme/docs/pull/101", "https://github.com/acme/docs", "")},
		{name: "built", previews: &fakePreviews{states: []string{preview.InProgress, preview.Success}},
			job:   job("job_1", "https://github.com/acme/docs/pull/101", "https://github.com/acme/docs", ""),
			want:  preview.Shown{URL: "https://acme-docs-docs-a.mintlify.app", State: preview.Success, Summary: "built"},
			calls: []string{"Trigger docs/a", "Status st_1", "Status st_1"}, own: []string{"PullRequest acme/docs#101"},
			log: `preview success: "https://acme-docs-docs-a.mintlify.app"`},
		{name: "not in the plan", previews: &fakePreviews{err: notInPlan},
			job:   job("job_1", "https://github.com/acme/docs/pull/101", "https://github.com/acme/docs", ""),
			calls: []string{"Trigger docs/a"}, own: []string{"PullRequest acme/docs#101"},
			log: "no preview: the project's plan has no preview deployments (preview: false stops asking)"},
		{name: "a pull request on another host", previews: &fakePreviews{},
			job: job("job_1", "https://gitlab.example/acme/docs/pull/1", "https://github.com/acme/docs", ""),
			log: `no preview: "https://gitlab.example/acme/docs/pull/1" is not a pull request on this GitHub`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			own := newGitHub(t, "github-actions[bot]")
			own.pulls["acme/docs#101"] = &ghclient.PullRequest{Number: 101, HeadRef: "docs/a", Open: true}
			var out bytes.Buffer
			r := newRoom(own, nil, &out)
			if tt.previews != nil {
				r.Previews = tt.previews
			}
			got := r.Preview(context.Background(), tt.job)
			if got != tt.want {
				t.Errorf("Preview() = %+v, want %+v", got, tt.want)
			}
			var calls []string
			if tt.previews != nil {
				calls = tt.previews.calls
			}
			if !slices.Equal(calls, tt.calls) || !slices.Equal(own.Calls(), tt.own) {
				t.Errorf("preview calls %q and GitHub calls %q, want %q and %q", calls, own.Calls(), tt.calls, tt.own)
			}
			if !strings.Contains(out.String(), tt.log) {
				t.Errorf("log lacks %q:\n%s", tt.log, out.String())
			}
		})
	}
}

// TestDocsPR: the state of a thread's docs pull request, read with the
// token that may read it, or none known.
func TestDocsPR(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		link      string
		pr        *ghclient.PullRequest // acme/docs#101 or acme/site#7
		docsToken bool
		want      *ghclient.PullRequest
		reads     int // of the job
	}{
		{name: "no pull request yet", link: ""},
		{name: "another host", link: "https://gitlab.example/acme/docs/pull/1"},
		{name: "read", link: "https://github.com/acme/docs/pull/101", pr: &ghclient.PullRequest{Number: 101, Merged: true},
			want: &ghclient.PullRequest{Number: 101, Merged: true}},
		{name: "unreadable", link: "https://github.com/acme/docs/pull/101"},
		{name: "in the job's repository, read with docs-token", link: "https://github.com/acme/site/pull/7", docsToken: true,
			pr: &ghclient.PullRequest{Number: 7}, want: &ghclient.PullRequest{Number: 7}, reads: 1},
		{name: "in another repository, no docs-token", link: "https://github.com/acme/site/pull/7", reads: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			own, docs := newGitHub(t, "github-actions[bot]"), newGitHub(t, "docs-bot")
			if tt.pr != nil && tt.pr.Number == 101 {
				own.pulls["acme/docs#101"] = tt.pr
			}
			if tt.pr != nil && tt.pr.Number == 7 {
				docs.pulls["acme/site#7"] = tt.pr
			}
			var d *fakeGitHub
			if tt.docsToken {
				d = docs
			}
			r := newRoom(own, d, &bytes.Buffer{})
			jobs := &fakeJobs{job: job("job_1", tt.link, "https://github.com/acme/site", "")}
			got := r.DocsPR(context.Background(), tt.link, func(ctx context.Context) (*agentapi.Job, error) { return jobs.Get(ctx, "job_1") })
			if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
				t.Errorf("DocsPR() = %+v, want %+v", got, tt.want)
			}
			if jobs.reads != tt.reads {
				t.Errorf("%d reads of the job, want %d", jobs.reads, tt.reads)
			}
		})
	}
}

// TestClosed: the docs pull request hears that its code pull request was
// merged or closed, in one comment by the token that may write there.
func TestClosed(t *testing.T) {
	t.Parallel()
	own := newGitHub(t, "github-actions[bot]")
	var out bytes.Buffer
	r := newRoom(own, nil, &out)
	r.Closed(context.Background(), job("job_1", "https://github.com/acme/docs/pull/101", "https://github.com/acme/docs", ""), 7, "https://github.com/acme/docs/pull/7", true, "", r.Land)
	if got, want := own.Calls(), []string{"CreateComment acme/docs#101"}; !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
	if !strings.Contains(out.String(), `told the docs pull request: "https://github.com/acme/docs/pull/101#issuecomment-555"`) {
		t.Errorf("log:\n%s", out.String())
	}
	out.Reset()
	r.Closed(context.Background(), job("job_1", "https://github.com/acme/site/pull/7", "https://github.com/acme/site", ""), 7, "", false, "", r.Land)
	if !strings.Contains(out.String(), "pull request acme/site#7 was not told: it is in another repository") || len(own.Calls()) != 1 {
		t.Errorf("a pull request no token may write to: calls %q, log:\n%s", own.Calls(), out.String())
	}
}

// TestTarget: a stand-in job updates the branch the old job worked on,
// or the pull request's own head branch when the API names none.
func TestTarget(t *testing.T) {
	t.Parallel()
	own := newGitHub(t, "github-actions[bot]")
	own.pulls["acme/docs#101"] = &ghclient.PullRequest{Number: 101, HeadRef: "docs/from-github"}
	r := newRoom(own, nil, &bytes.Buffer{})
	base := prompt.Target{Owner: "acme", Repo: "docs", Number: 101}
	if got := r.Target(context.Background(), &fakeJobs{job: job("job_1", "", "", "docs/from-job")}, "job_1", base); got.Branch != "docs/from-job" || len(own.Calls()) != 0 {
		t.Errorf("Target() = %+v with calls %q, want the job's ref and no read", got, own.Calls())
	}
	if got := r.Target(context.Background(), &fakeJobs{err: errors.New("HTTP 404")}, "job_1", base); got.Branch != "docs/from-github" {
		t.Errorf("Target() = %+v, want the pull request's head branch", got)
	}
}

// TestPairing: the check of the agent's docs pull request rests on its
// code pull request, read as it stands, and on the check GitHub shows on
// the code's latest head: only for a docs pull request open in the
// workflow's own repository, on a branch of it. Nothing else is read.
func TestPairing(t *testing.T) {
	t.Parallel()
	const codeHead, docsHead = "c0de", "d0c5"
	success := ghclient.CommitStatus{State: "success", Context: check.Context, Description: "Docs approved in pull request #101"}
	tests := []struct {
		name   string
		docs   string
		pulls  map[string]*ghclient.PullRequest
		errs   map[string]error
		want   check.Pairing
		ok     bool
		calls  []string
		warned bool
		known  bool // the run knows the code pull request: it is not read
	}{
		{name: "open, paired with an open code pull request", docs: "https://github.com/acme/app/pull/101",
			pulls: map[string]*ghclient.PullRequest{
				"acme/app#101": {Number: 101, HeadSHA: docsHead, HeadRepo: "acme/app", Open: true},
				"acme/app#7":   {Number: 7, HeadSHA: codeHead, HeadRepo: "acme/app", Open: true}},
			want: check.Pairing{Code: 7, URL: "https://github.com/acme/app/pull/7", Open: true, Shows: success, DocsHead: docsHead}, ok: true,
			calls: []string{"PullRequest acme/app#101", "PullRequest acme/app#7", "Status acme/app c0de docs / agent-job"}},
		{name: "open, the code pull request as the run knows it", docs: "https://github.com/acme/app/pull/101", known: true,
			pulls: map[string]*ghclient.PullRequest{"acme/app#101": {Number: 101, HeadSHA: docsHead, HeadRepo: "acme/app", Open: true}},
			want:  check.Pairing{Code: 7, URL: "https://github.com/acme/app/pull/7", Open: true, Shows: success, DocsHead: docsHead}, ok: true,
			calls: []string{"PullRequest acme/app#101", "Status acme/app c0de docs / agent-job"}},
		{name: "the code merged: its head is not read", docs: "https://github.com/acme/app/pull/101",
			pulls: map[string]*ghclient.PullRequest{
				"acme/app#101": {Number: 101, HeadSHA: docsHead, HeadRepo: "acme/app", Open: true},
				"acme/app#7":   {Number: 7, HeadSHA: codeHead, HeadRepo: "acme/app", Merged: true}},
			want: check.Pairing{Code: 7, URL: "https://github.com/acme/app/pull/7", Merged: true, DocsHead: docsHead}, ok: true,
			calls: []string{"PullRequest acme/app#101", "PullRequest acme/app#7"}},
		{name: "in another repository", docs: "https://github.com/acme/handbook/pull/101"},
		{name: "not a pull request's address", docs: "https://example.com/acme/app/pull/101"},
		{name: "the code pull request itself", docs: "https://github.com/acme/app/pull/7"},
		{name: "closed", docs: "https://github.com/acme/app/pull/101",
			pulls: map[string]*ghclient.PullRequest{"acme/app#101": {Number: 101, HeadSHA: docsHead, HeadRepo: "acme/app"}},
			calls: []string{"PullRequest acme/app#101"}},
		{name: "on a fork's branch", docs: "https://github.com/acme/app/pull/101",
			pulls: map[string]*ghclient.PullRequest{"acme/app#101": {Number: 101, HeadSHA: docsHead, HeadRepo: "outsider/app", Open: true}},
			calls: []string{"PullRequest acme/app#101"}},
		{name: "the code's check unread", docs: "https://github.com/acme/app/pull/101",
			pulls: map[string]*ghclient.PullRequest{
				"acme/app#101": {Number: 101, HeadSHA: docsHead, HeadRepo: "acme/app", Open: true},
				"acme/app#7":   {Number: 7, HeadSHA: codeHead, HeadRepo: "acme/app", Open: true}},
			errs:  map[string]error{"Status acme/app c0de docs / agent-job": errors.New("HTTP 502")},
			calls: []string{"PullRequest acme/app#101", "PullRequest acme/app#7", "Status acme/app c0de docs / agent-job"}, warned: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			gh := newGitHub(t, "github-actions[bot]")
			maps.Copy(gh.pulls, tt.pulls)
			maps.Copy(gh.errs, tt.errs)
			gh.shows = map[string]ghclient.CommitStatus{codeHead: success}
			var log bytes.Buffer
			r := &Room{Own: gh, Owner: "acme", Repo: "app", ServerURL: "https://github.com", Progress: runlog.Progress{Log: runlog.NewPlain(&log), Clock: clock.NewFake(time.Time{})}}
			code := ghclient.PullRequest{Number: 7}
			if tt.known {
				code = ghclient.PullRequest{Number: 7, HeadSHA: codeHead, Open: true}
			}
			got, ok := r.Pairing(context.Background(), code, tt.docs, false, false)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Pairing() = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
			if calls := gh.Calls(); !slices.Equal(calls, tt.calls) {
				t.Errorf("calls %q, want %q", calls, tt.calls)
			}
			if warned := strings.Contains(log.String(), "warning: the check of docs pull request #101, which lands with #7, could not be kept: \"HTTP 502\"; the next run that concerns them tries again"); warned != tt.warned {
				t.Errorf("warned %v, want %v:\n%s", warned, tt.warned, log.String())
			}
		})
	}
}
