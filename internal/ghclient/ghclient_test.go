package ghclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/request"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

const token = "ghs_secret_test_token"

var prefixes = []string{"", "/api/v3"}

// newFake starts a fake and a client for it. Like go-github's own setup, the
// test fails on any request the fake does not serve.
func newFake(t *testing.T, opt fakegithub.Options) (*Client, *fakegithub.Server) {
	t.Helper()
	if opt.Token == "" {
		opt.Token = token
	}
	opt.Check = ghspec.Checker()
	srv := fakegithub.New(opt)
	t.Cleanup(func() {
		srv.Close()
		if u := srv.Unexpected(); len(u) > 0 {
			t.Errorf("unexpected requests: %q", u)
		}
	})
	c, err := New(srv.Client(), srv.Client(), srv.APIURL(), token)
	if err != nil {
		t.Fatalf("New() error = %v", err)
	}
	return c, srv
}

func forEachPrefix(t *testing.T, f func(t *testing.T, prefix string)) {
	for _, p := range prefixes {
		t.Run("prefix="+p, func(t *testing.T) {
			t.Parallel()
			f(t, p)
		})
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	cases := []struct {
		api, wantBase, wantUpload, wantErr string
		token                              string
	}{
		{api: "", wantBase: "https://api.github.com/", wantUpload: "https://uploads.github.com/"},
		{api: "https://api.github.com", wantBase: "https://api.github.com/", wantUpload: "https://uploads.github.com/"},
		{api: "https://ghe.example.com/api/v3", wantBase: "https://ghe.example.com/api/v3/", wantUpload: "https://ghe.example.com/api/uploads/"},
		{api: "https://ghe.example.com/api/v3/", wantBase: "https://ghe.example.com/api/v3/", wantUpload: "https://ghe.example.com/api/uploads/"},
		{api: "http://127.0.0.1:8080", wantBase: "http://127.0.0.1:8080/", wantUpload: "http://127.0.0.1:8080/"},
		{api: "api.github.com", wantErr: `GITHUB_API_URL "api.github.com" is not an http(s) URL`},
		{api: "ftp://ghe.example.com", wantErr: "is not an http(s) URL"},
		{api: "https://", wantErr: "is not an http(s) URL"},
		{api: "https://ghe.example.com/%zz", wantErr: "is not an http(s) URL"},
		{api: "", token: "-", wantErr: "github client: no token"},
	}
	for _, tc := range cases {
		t.Run(tc.api, func(t *testing.T) {
			t.Parallel()
			tok := "t"
			if tc.token == "-" {
				tok = ""
			}
			c, err := New(nil, nil, tc.api, tok)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("New(%q) error = %v, want %q", tc.api, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%q) error = %v", tc.api, err)
			}
			if got := c.gh.BaseURL.String(); got != tc.wantBase {
				t.Errorf("BaseURL = %q, want %q", got, tc.wantBase)
			}
			if got := c.gh.UploadURL.String(); got != tc.wantUpload {
				t.Errorf("UploadURL = %q, want %q", got, tc.wantUpload)
			}
		})
	}
}

func TestCreateComment(t *testing.T) {
	t.Parallel()
	forEachPrefix(t, func(t *testing.T, prefix string) {
		c, srv := newFake(t, fakegithub.Options{Prefix: prefix})
		got, err := c.CreateComment(context.Background(), "acme", "docs", 12, "Agent job started.")
		if err != nil {
			t.Fatalf("CreateComment() error = %v", err)
		}
		want := Comment{
			ID: got.ID, Body: "Agent job started.", Author: "github-actions[bot]", AuthorIsBot: true,
			URL:       fmt.Sprintf("https://github.com/acme/docs/issues/12#issuecomment-%d", got.ID),
			CreatedAt: fakegithub.CreatedAt(got.ID), UpdatedAt: fakegithub.CreatedAt(got.ID), Issue: 12,
		}
		if got.ID == 0 || *got != want {
			t.Errorf("CreateComment() = %+v, want %+v", *got, want)
		}
		if n := srv.CommentsCreated(); n != 1 {
			t.Errorf("comments created = %d, want 1", n)
		}
		reqs := srv.Requests()
		if len(reqs) != 1 {
			t.Fatalf("requests = %d, want 1", len(reqs))
		}
		r := reqs[0]
		if r.Method != http.MethodPost || r.Path != prefix+"/repos/acme/docs/issues/12/comments" {
			t.Errorf("request = %s %s", r.Method, r.Path)
		}
		if a := r.Header.Get("Authorization"); a != "Bearer "+token {
			t.Errorf("Authorization = %q", a)
		}
		var body map[string]string
		if err := json.Unmarshal(r.Body, &body); err != nil || body["body"] != "Agent job started." || len(body) != 1 {
			t.Errorf("request body = %s (%v), want {\"body\":\"Agent job started.\"}", r.Body, err)
		}
	})
}

func TestUpdateComment(t *testing.T) {
	t.Parallel()
	forEachPrefix(t, func(t *testing.T, prefix string) {
		c, srv := newFake(t, fakegithub.Options{Prefix: prefix})
		id := srv.SeedComment(34, "github-actions[bot]", true, "Agent job started.")
		other := srv.SeedComment(34, "octocat", false, "thanks")
		got, err := c.UpdateComment(context.Background(), "acme", "docs", id, "Agent job finished.")
		if err != nil {
			t.Fatalf("UpdateComment() error = %v", err)
		}
		if got.ID != id || got.Body != "Agent job finished." || got.Author != "github-actions[bot]" {
			t.Errorf("UpdateComment() = %+v", *got)
		}
		if n := srv.CommentEdits(); n != 1 {
			t.Errorf("edits = %d, want 1", n)
		}
		cs := srv.Comments(34)
		if len(cs) != 2 || cs[0].Body != "Agent job finished." || cs[1].ID != other || cs[1].Body != "thanks" {
			t.Errorf("comments after edit = %+v", cs)
		}
		r := srv.Requests()[0]
		if r.Method != http.MethodPatch || r.Path != fmt.Sprintf("%s/repos/acme/docs/issues/comments/%d", prefix, id) {
			t.Errorf("request = %s %s", r.Method, r.Path)
		}
	})
}

func TestUpdateCommentMissing(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	_, err := c.UpdateComment(context.Background(), "acme", "docs", 999, "x")
	if err == nil || !strings.Contains(err.Error(), "update comment 999: ") || !strings.Contains(err.Error(), "404") {
		t.Fatalf("UpdateComment() error = %v, want a wrapped 404", err)
	}
	if IsForbidden(err) || IsRateLimited(err) {
		t.Errorf("a 404 reads as forbidden or rate limited")
	}
	if srv.CommentEdits() != 0 {
		t.Errorf("edits = %d, want 0", srv.CommentEdits())
	}
}

func TestListCommentsPage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		seeded, page       int
		wantFrom, wantTo   int // indexes of the seeded comments on the page
		wantNext, wantLast int
	}{
		{seeded: 0, page: 1},
		{seeded: 1, page: 1, wantTo: 1},
		{seeded: 100, page: 1, wantTo: 100},
		{seeded: 101, page: 1, wantTo: 100, wantNext: 2, wantLast: 2},
		{seeded: 101, page: 2, wantFrom: 100, wantTo: 101},
		{seeded: 1050, page: 10, wantFrom: 900, wantTo: 1000, wantNext: 11, wantLast: 11},
		{seeded: 1050, page: 11, wantFrom: 1000, wantTo: 1050},
		{seeded: 250, page: 4, wantFrom: 250, wantTo: 250}, // past the end: empty, no links
	}
	for _, tc := range cases {
		for _, prefix := range prefixes {
			t.Run(fmt.Sprintf("%d/page%d%s", tc.seeded, tc.page, prefix), func(t *testing.T) {
				t.Parallel()
				c, srv := newFake(t, fakegithub.Options{Prefix: prefix})
				srv.SeedComment(99, "octocat", false, "on another issue")
				var ids []int64
				// Bots are told by type "Bot" or, where a type says "User",
				// by a login ending in "[bot]".
				authors := []struct {
					login string
					isBot bool
				}{{"docs-app", true}, {"renovate[bot]", false}, {"octocat", false}}
				for i := range tc.seeded {
					a := authors[i%3]
					ids = append(ids, srv.SeedComment(7, a.login, a.isBot, fmt.Sprintf("comment %d", i)))
				}
				got, err := c.ListCommentsPage(context.Background(), "acme", "docs", 7, tc.page, nil)
				if err != nil {
					t.Fatalf("ListCommentsPage() error = %v", err)
				}
				if got.Next != tc.wantNext || got.Last != tc.wantLast {
					t.Errorf("Next, Last = %d, %d; want %d, %d", got.Next, got.Last, tc.wantNext, tc.wantLast)
				}
				if len(got.Comments) != tc.wantTo-tc.wantFrom {
					t.Fatalf("page holds %d comments, want %d", len(got.Comments), tc.wantTo-tc.wantFrom)
				}
				for n, cm := range got.Comments {
					i := tc.wantFrom + n
					want := Comment{ID: ids[i], Body: fmt.Sprintf("comment %d", i), Author: authors[i%3].login, AuthorIsBot: request.IsBot(authors[i%3].login, map[bool]string{true: "Bot"}[authors[i%3].isBot]),
						URL: fmt.Sprintf("https://github.com/acme/docs/issues/7#issuecomment-%d", ids[i]), CreatedAt: fakegithub.CreatedAt(ids[i]), UpdatedAt: fakegithub.CreatedAt(ids[i]), Issue: 7}
					if *cm != want {
						t.Fatalf("comment %d = %+v, want %+v", i, *cm, want)
					}
				}
				reqs := srv.Requests()
				if len(reqs) != 1 {
					t.Fatalf("requests = %d, want 1", len(reqs))
				}
				r := reqs[0]
				if r.Method != http.MethodGet || r.Path != prefix+"/repos/acme/docs/issues/7/comments" || r.Query != fmt.Sprintf("page=%d&per_page=100", tc.page) {
					t.Errorf("request = %s %s?%s", r.Method, r.Path, r.Query)
				}
			})
		}
	}
}

func TestListCommentsPageError(t *testing.T) {
	t.Parallel()
	c, _ := newFake(t, fakegithub.Options{
		Fault: func(w http.ResponseWriter, r *http.Request) bool {
			http.Error(w, `{"message":"Server Error"}`, http.StatusInternalServerError)
			return true
		},
	})
	got, err := c.ListCommentsPage(context.Background(), "acme", "docs", 7, 2, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "list comments on #7: HTTP 500") || got != nil {
		t.Fatalf("ListCommentsPage() = %v, %v; want nil and a wrapped error", got, err)
	}
}

// TestHostileRepoNames checks that a name that would change the path is
// refused before any request: a pull request's repository comes from the
// agent's answer.
func TestHostileRepoNames(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	ctx := context.Background()
	for _, tc := range []struct{ owner, repo string }{
		{"..", "docs"}, {"acme", ".."}, {"acme", "docs/../../user"}, {"acme", "docs?x=1"}, {"", "docs"}, {"acme", "do cs"},
		{"acme", "docs#frag"}, {"acme", "dócs"}, {"acme", "."},
	} {
		calls := map[string]error{}
		_, calls["CreateComment"] = c.CreateComment(ctx, tc.owner, tc.repo, 1, "x")
		_, calls["UpdateComment"] = c.UpdateComment(ctx, tc.owner, tc.repo, 1, "x")
		_, calls["ListCommentsPage"] = c.ListCommentsPage(ctx, tc.owner, tc.repo, 1, 1, nil)
		_, calls["AddReaction"] = c.AddReaction(ctx, tc.owner, tc.repo, 1, request.Comment, "eyes")
		_, calls["LineComments"] = c.LineComments(ctx, tc.owner, tc.repo, 1, nil)
		_, calls["Reviews"] = c.Reviews(ctx, tc.owner, tc.repo, 1, nil)
		_, calls["PullRequest"] = c.PullRequest(ctx, tc.owner, tc.repo, 1)
		calls["RequestReviewers"] = c.RequestReviewers(ctx, tc.owner, tc.repo, 1, []string{"ada"})
		_, calls["ReviewComments"] = c.ReviewComments(ctx, tc.owner, tc.repo, 1, 2)
		for name, err := range calls {
			if err == nil || !strings.Contains(err.Error(), "is not a GitHub owner or repository name") {
				t.Errorf("%s(%q, %q) error = %v, want a refusal", name, tc.owner, tc.repo, err)
			}
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
	if _, err := c.PullRequest(ctx, "my-org_1", "docs.site", 1); !IsNotFound(err) {
		t.Errorf("a plain name is refused: %v", err)
	}
}

func TestAddReaction(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind     request.Kind
		path     string
		endpoint string // as the fake names it
	}{
		{request.Comment, "/repos/acme/docs/issues/comments/555/reactions", "issue"},
		{request.Line, "/repos/acme/docs/pulls/comments/555/reactions", "review"},
		{request.Event, "/repos/acme/docs/issues/555/reactions", "thread"},
	}
	for _, tc := range cases {
		for _, prefix := range prefixes {
			t.Run(tc.kind.Name()+prefix, func(t *testing.T) {
				t.Parallel()
				c, srv := newFake(t, fakegithub.Options{Prefix: prefix})
				for i := range 2 { // the second is GitHub's 200 "already there"
					r, err := c.AddReaction(context.Background(), "acme", "docs", 555, tc.kind, "eyes")
					if err != nil {
						t.Fatalf("AddReaction() error = %v", err)
					}
					if want := (Reaction{By: fakegithub.BotLogin, New: i == 0}); *r != want {
						t.Errorf("AddReaction() #%d = %+v, want %+v", i+1, *r, want)
					}
				}
				want := []fakegithub.Reaction{{CommentID: 555, Kind: tc.endpoint, Content: "eyes", User: "github-actions[bot]"}}
				got := srv.Reactions()
				if len(got) != 1 {
					t.Fatalf("reactions = %+v, want one", got)
				}
				got[0].ID = 0
				if got[0] != want[0] {
					t.Errorf("reaction = %+v, want %+v", got[0], want[0])
				}
				reqs := srv.Requests()
				if len(reqs) != 2 || reqs[0].Method != http.MethodPost || reqs[0].Path != prefix+tc.path || string(reqs[0].Body) != `{"content":"eyes"}`+"\n" {
					t.Errorf("requests = %+v", reqs)
				}
			})
		}
	}
}

func TestAddReactionErrors(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	_, err := c.AddReaction(context.Background(), "acme", "docs", 1, request.Review, "eyes")
	if err == nil || err.Error() != `add reaction to comment 1: a review takes no reactions` {
		t.Errorf("a review: error = %v", err)
	}
	_, err = c.AddReaction(context.Background(), "acme", "docs", 1, request.Comment, "party")
	if err == nil || err.Error() != `add reaction to comment 1: "party" is not a reaction GitHub offers` {
		t.Errorf("bad content: error = %v", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("requests = %d, want none", n)
	}
	if len(srv.Reactions()) != 0 {
		t.Errorf("reactions = %+v, want none", srv.Reactions())
	}
}

func TestPermission(t *testing.T) {
	t.Parallel()
	roles := map[string]string{
		"ada": "admin", "max": "maintain", "wes": "write", "tri": "triage", "rea": "read",
		"cus": "docs-editor", "non": "none", "bad": "",
	}
	cases := []struct {
		user, want, wantLegacy string
	}{
		{"ada", "admin", "admin"},
		{"max", "maintain", "write"},
		{"wes", "write", "write"},
		{"tri", "triage", "read"},
		{"rea", "read", "read"},
		{"cus", "read", "read"},
		{"non", "none", "none"},
		{"stranger", "none", "none"},
		{"dependabot[bot]", "none", "none"},
	}
	for _, noRole := range []bool{false, true} {
		for _, prefix := range prefixes {
			t.Run(fmt.Sprintf("noRole=%v%s", noRole, prefix), func(t *testing.T) {
				t.Parallel()
				c, srv := newFake(t, fakegithub.Options{Prefix: prefix, Permissions: roles, NoRoleName: noRole})
				for _, tc := range cases {
					want := tc.want
					if noRole {
						want = tc.wantLegacy
					}
					got, err := c.Permission(context.Background(), "acme", "docs", tc.user)
					if err != nil || got != want {
						t.Errorf("Permission(%q) = %q, %v; want %q", tc.user, got, err, want)
					}
				}
				reqs := srv.Requests()
				if len(reqs) != len(cases) {
					t.Fatalf("requests = %d, want %d", len(reqs), len(cases))
				}
				if p := reqs[len(reqs)-1].Path; p != prefix+"/repos/acme/docs/collaborators/dependabot%5Bbot%5D/permission" {
					t.Errorf("path = %q", p)
				}
			})
		}
	}
}

func TestPermissionErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, answer string
		status       int
		wantErr      string
	}{
		{name: "server error", status: 500, answer: `{"message":"boom"}`, wantErr: "permission of ada: HTTP 500: boom"},
		{name: "unknown permission", status: 200, answer: `{"permission":"superuser"}`, wantErr: `permission of ada: unknown permission "superuser"`},
		{name: "empty answer", status: 200, answer: `{}`, wantErr: `permission of ada: unknown permission ""`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _ := newFake(t, fakegithub.Options{Fault: func(w http.ResponseWriter, r *http.Request) bool {
				w.WriteHeader(tc.status)
				fmt.Fprint(w, tc.answer)
				return true
			}})
			got, err := c.Permission(context.Background(), "acme", "docs", "ada")
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || got != "" {
				t.Errorf("Permission() = %q, %v; want an error containing %q", got, err, tc.wantErr)
			}
		})
	}
}

// TestErrorKinds checks how the answers GitHub gives to a refused write are
// told apart, through go-github's own parsing of real response shapes.
func TestErrorKinds(t *testing.T) {
	t.Parallel()
	answer := func(status int, header map[string]string, body string) func(http.ResponseWriter, *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			for k, v := range header {
				w.Header().Set(k, v)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprint(w, body)
			return true
		}
	}
	cases := []struct {
		name          string
		opt           fakegithub.Options
		forbidden     bool
		rateLimited   bool
		wantErrSubstr string
	}{
		{name: "token without issues: write", opt: fakegithub.Options{ForbidComments: true}, forbidden: true, wantErrSubstr: "HTTP 403: Resource not accessible by integration"},
		{name: "primary rate limit", rateLimited: true, opt: fakegithub.Options{Fault: answer(403,
			map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Limit": "1000", "X-RateLimit-Reset": "1700000000"},
			`{"message":"API rate limit exceeded"}`)}},
		{name: "secondary rate limit", rateLimited: true, opt: fakegithub.Options{Fault: answer(403, nil,
			`{"message":"You have exceeded a secondary rate limit","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`)}},
		{name: "429", rateLimited: true, opt: fakegithub.Options{Fault: answer(429, map[string]string{"Retry-After": "60"}, `{"message":"Too many requests"}`)}},
		{name: "bad credentials", opt: fakegithub.Options{Token: "another"}, wantErrSubstr: "HTTP 401: Bad credentials"},
		{name: "server error", opt: fakegithub.Options{Fault: answer(502, nil, `<html>bad gateway</html>`)}, wantErrSubstr: "502"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newFake(t, tc.opt)
			_, err := c.CreateComment(context.Background(), "acme", "docs", 1, "hi")
			if err == nil {
				t.Fatal("CreateComment() succeeded, want an error")
			}
			if !strings.HasPrefix(err.Error(), "create comment on #1: ") || !strings.Contains(err.Error(), tc.wantErrSubstr) {
				t.Errorf("error = %q, want the context and %q", err, tc.wantErrSubstr)
			}
			if strings.Contains(err.Error(), token) {
				t.Errorf("error %q shows the token", err)
			}
			if strings.Contains(err.Error(), "http://") {
				t.Errorf("error %q shows a URL", err)
			}
			if got := IsForbidden(err); got != tc.forbidden {
				t.Errorf("IsForbidden() = %v, want %v", got, tc.forbidden)
			}
			if got := IsRateLimited(err); got != tc.rateLimited {
				t.Errorf("IsRateLimited() = %v, want %v", got, tc.rateLimited)
			}
			if n := srv.CommentsCreated(); n != 0 {
				t.Errorf("comments created = %d, want 0", n)
			}
		})
	}
	if IsForbidden(nil) || IsRateLimited(nil) || IsForbidden(errors.New("403")) || IsRateLimited(errors.New("429")) {
		t.Error("plain errors read as GitHub refusals")
	}
}

func TestForbiddenEdit(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{ForbidComments: true})
	id := srv.SeedComment(1, "github-actions[bot]", true, "old")
	_, err := c.UpdateComment(context.Background(), "acme", "docs", id, "new")
	if !IsForbidden(err) {
		t.Fatalf("UpdateComment() error = %v, want forbidden", err)
	}
	if cs := srv.Comments(1); cs[0].Body != "old" || srv.CommentEdits() != 0 {
		t.Errorf("comment changed despite 403: %+v", cs)
	}
}

// TestThroughHTTPClient runs the client over the action's retrying
// transport: the token must survive it, and a POST must not be repeated
// after a server error (a second comment would be posted).
func TestThroughHTTPClient(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := fakegithub.New(fakegithub.Options{Token: token, Check: ghspec.Checker(), Fault: func(w http.ResponseWriter, r *http.Request) bool {
		calls.Add(1)
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusBadGateway)
			return true
		}
		return false
	}})
	defer srv.Close()
	ctx := context.Background()
	hc := httpclient.New(httpclient.Options{BackoffMin: 1, BackoffMax: 1, Transport: srv.Client().Transport})
	c, err := New(hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable}), hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once}), srv.APIURL(), token)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListCommentsPage(ctx, "acme", "docs", 1, 1, nil); err != nil {
		t.Fatalf("ListCommentsPage() error = %v", err)
	}
	if _, err := c.CreateComment(ctx, "acme", "docs", 1, "hi"); err == nil {
		t.Fatal("CreateComment() succeeded, want the 502")
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("requests = %d, want 2 (a list, one create, no repeat)", n)
	}
	if u := srv.Unexpected(); len(u) > 0 {
		t.Errorf("unexpected requests: %q", u)
	}
}

// TestRateLimitedThroughHTTPClient: a 429 whose Retry-After outlasts the
// run's deadline is stopped by the HTTP layer, before go-github sees an
// answer; it still reads as rate limited. A 503 with the same Retry-After
// is not a rate limit.
func TestRateLimitedThroughHTTPClient(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status      int
		rateLimited bool
	}{
		{http.StatusTooManyRequests, true},
		{http.StatusServiceUnavailable, false},
	} {
		var calls atomic.Int32
		srv := fakegithub.New(fakegithub.Options{Token: token, Check: ghspec.Checker(), Fault: func(w http.ResponseWriter, r *http.Request) bool {
			calls.Add(1)
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(tc.status)
			return true
		}})
		hc := httpclient.New(httpclient.Options{BackoffMin: 1, BackoffMax: 1, Transport: srv.Client().Transport, Deadline: time.Now().Add(time.Minute)})
		c, err := New(hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable}), hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once}), srv.APIURL(), token)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ListCommentsPage(context.Background(), "acme", "docs", 1, 1, nil)
		srv.Close()
		if err == nil {
			t.Fatalf("%d: ListCommentsPage() succeeded", tc.status)
		}
		if got := IsRateLimited(err); got != tc.rateLimited || calls.Load() != 1 {
			t.Errorf("%d: IsRateLimited(%v) = %v after %d requests, want %v after 1", tc.status, err, got, calls.Load(), tc.rateLimited)
		}
	}
}
