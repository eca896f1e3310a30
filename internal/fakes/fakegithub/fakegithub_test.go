package fakegithub

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

const tok = "t0k"

// checked has every request the fake receives held to GitHub's REST
// description (package ghspec).
func checked(opt Options) Options {
	opt.Check = ghspec.Checker()
	return opt
}

// TestServerChecksEveryRequest checks that the fake holds what it receives
// against the description: a valid request leaves no trace, an invalid one
// is listed by Invalid and Unexpected, whatever the endpoint answered.
func TestServerChecksEveryRequest(t *testing.T) {
	t.Parallel()
	for _, prefix := range []string{"", "/api/v3"} {
		s := New(checked(Options{Token: tok, Prefix: prefix}))
		send(t, s, "POST", prefix+"/repos/o/r/issues/1/comments", "Bearer "+tok, `{"body":"ok"}`)
		send(t, s, "GET", prefix+"/repos/o/r/issues/1/comments?per_page=100&direction=desc", "Bearer "+tok, "")
		send(t, s, "POST", prefix+"/repos/o/r/issues/1/comments", "Bearer nope", `{"body":"ok","extra":[}`)
		want := []string{
			"GET " + prefix + `/repos/o/r/issues/1/comments?per_page=100&direction=desc: GET /repos/{owner}/{repo}/issues/{issue_number}/comments: query parameter "direction" is not declared`,
			"POST " + prefix + "/repos/o/r/issues/1/comments: POST /repos/{owner}/{repo}/issues/{issue_number}/comments: the body is not one JSON value",
		}
		got := s.Invalid()
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("prefix %q: Invalid() = %q\nwant %q", prefix, got, want)
		}
		if u := s.Unexpected(); strings.Join(u, "\n") != strings.Join(want, "\n") {
			t.Errorf("prefix %q: Unexpected() = %q, want the invalid requests", prefix, u)
		}
		s.Close()
	}
}

type answer struct {
	status int
	header http.Header
	body   string
}

func send(t *testing.T, s *Server, method, path, auth, body string) answer {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, string(b)}
}

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("answer %q is not a JSON object: %v", s, err)
	}
	return m
}

func TestRouting(t *testing.T) {
	t.Parallel()
	const bearer = "Bearer " + tok
	cases := []struct {
		name             string
		opt              Options
		method, path     string
		auth, body       string
		want             int
		wantUnexpected   bool
		wantInvalid      string // the reason the REST description gives, "" for a valid request
		wantMessage      string
		wantFaultInvoked bool
	}{
		{name: "list at root", method: "GET", path: "/repos/o/r/issues/1/comments", auth: bearer, want: 200},
		{name: "list under the prefix", opt: Options{Prefix: "/api/v3"}, method: "GET", path: "/api/v3/repos/o/r/issues/1/comments", auth: bearer, want: 200},
		{name: "prefix with a trailing slash", opt: Options{Prefix: "/api/v3/"}, method: "GET", path: "/api/v3/repos/o/r/issues/1/comments", auth: bearer, want: 200},
		{name: "root when a prefix is set", opt: Options{Prefix: "/api/v3"}, method: "GET", path: "/repos/o/r/issues/1/comments", auth: bearer, want: 404, wantUnexpected: true, wantInvalid: "outside the API prefix /api/v3"},
		{name: "token scheme", method: "GET", path: "/repos/o/r/issues/1/comments", auth: "token " + tok, want: 200},
		{name: "no authorization", method: "GET", path: "/repos/o/r/issues/1/comments", want: 401, wantMessage: "Bad credentials"},
		{name: "wrong token", method: "POST", path: "/repos/o/r/issues/1/comments", auth: "Bearer nope", body: `{"body":"x"}`, want: 401},
		{name: "basic auth", method: "GET", path: "/repos/o/r/issues/1/comments", auth: "Basic " + tok, want: 401},
		{name: "default token", opt: Options{Token: "-"}, method: "GET", path: "/repos/o/r/issues/1/comments", auth: "Bearer " + DefaultToken, want: 200},
		{name: "unknown endpoint", method: "GET", path: "/repos/o/r/pulls/1/no-such-list", auth: bearer, want: 404, wantUnexpected: true, wantInvalid: "no operation has the path /repos/o/r/pulls/1/no-such-list"},
		{name: "endpoint GitHub has and the fake does not", method: "GET", path: "/user", want: 404, wantUnexpected: true},
		{name: "wrong method", method: "PUT", path: "/repos/o/r/issues/comments/1", auth: bearer, want: 404, wantUnexpected: true, wantInvalid: "PUT is not an operation of /repos/o/r/issues/comments/1"},
		{name: "non-numeric issue", method: "GET", path: "/repos/o/r/issues/abc/comments", auth: bearer, want: 404, wantInvalid: `parameter "issue_number" in path has an error`},
		{name: "edit of a missing comment", method: "PATCH", path: "/repos/o/r/issues/comments/5", auth: bearer, body: `{"body":"x"}`, want: 404, wantMessage: "Not Found"},
		{name: "create without body", method: "POST", path: "/repos/o/r/issues/1/comments", auth: bearer, body: `{}`, want: 422, wantMessage: "Validation Failed",
			wantInvalid: `POST /repos/{owner}/{repo}/issues/{issue_number}/comments: Error at "/body": property "body" is missing`},
		{name: "create with an empty body", method: "POST", path: "/repos/o/r/issues/1/comments", auth: bearer, body: `{"body":""}`, want: 422},
		{name: "create with bad JSON", method: "POST", path: "/repos/o/r/issues/1/comments", auth: bearer, body: `{"body":`, want: 422, wantInvalid: "the body is not one JSON value"},
		{name: "create forbidden", opt: Options{ForbidComments: true}, method: "POST", path: "/repos/o/r/issues/1/comments", auth: bearer, body: `{"body":"x"}`, want: 403, wantMessage: "Resource not accessible by integration"},
		{name: "reaction with bad content", method: "POST", path: "/repos/o/r/issues/comments/1/reactions", auth: bearer, body: `{"content":"party"}`, want: 422, wantInvalid: `Error at "/content": value is not one of the allowed values`},
		{name: "reaction forbidden", opt: Options{ForbidReactions: true}, method: "POST", path: "/repos/o/r/pulls/comments/1/reactions", auth: bearer, body: `{"content":"eyes"}`, want: 403},
		{name: "permission of a stranger", method: "GET", path: "/repos/o/r/collaborators/eve/permission", auth: bearer, want: 404, wantMessage: "Not Found"},
		{name: "fault answers first", opt: Options{Fault: teapot}, method: "GET", path: "/repos/o/r/issues/1/comments", auth: bearer, want: 418, wantFaultInvoked: true},
		{name: "fault not asked before auth", opt: Options{Fault: teapot}, method: "GET", path: "/repos/o/r/issues/1/comments", want: 401},
		{name: "fault not asked for unknown endpoints", opt: Options{Fault: teapot}, method: "GET", path: "/no-such-endpoint", auth: bearer, want: 404, wantUnexpected: true, wantInvalid: "no operation has the path /no-such-endpoint"},
		{name: "pull request not seeded", method: "GET", path: "/repos/o/r/pulls/1", auth: bearer, want: 404, wantMessage: "Not Found"},
		{name: "review comments of an unknown pull request", method: "GET", path: "/repos/o/r/pulls/1/reviews/2/comments", auth: bearer, want: 404},
		{name: "reviewers on an unknown pull request", method: "POST", path: "/repos/o/r/pulls/1/requested_reviewers", auth: bearer, body: `{"reviewers":["ada"]}`, want: 404},
		{name: "reviewers forbidden", opt: Options{ForbidReviewRequests: true}, method: "POST", path: "/repos/o/r/pulls/1/requested_reviewers", auth: bearer, body: `{"reviewers":["ada"]}`, want: 403},
		{name: "reviewers not a list", method: "POST", path: "/repos/o/r/pulls/1/requested_reviewers", auth: bearer, body: `{"reviewers":"ada"}`, want: 422, wantInvalid: `Error at "/reviewers": value must be an array`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opt := tc.opt
			switch opt.Token {
			case "":
				opt.Token = tok
			case "-":
				opt.Token = ""
			}
			s := New(checked(opt))
			defer s.Close()
			a := send(t, s, tc.method, tc.path, tc.auth, tc.body)
			if a.status != tc.want {
				t.Errorf("%s %s = %d %s, want %d", tc.method, tc.path, a.status, a.body, tc.want)
			}
			if ct := a.header.Get("Content-Type"); a.status != 418 && !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type = %q", ct)
			}
			if tc.wantMessage != "" {
				if m := decode(t, a.body); m["message"] != tc.wantMessage {
					t.Errorf("message = %v, want %q", m["message"], tc.wantMessage)
				}
			}
			wantUnexpected := []string(nil)
			if tc.wantUnexpected {
				wantUnexpected = []string{tc.method + " " + tc.path}
			}
			invalid := s.Invalid()
			switch {
			case tc.wantInvalid == "" && len(invalid) != 0:
				t.Errorf("Invalid() = %q, want none", invalid)
			case tc.wantInvalid != "" && (len(invalid) != 1 || !strings.HasPrefix(invalid[0], tc.method+" "+tc.path+": ") || !strings.Contains(invalid[0], tc.wantInvalid)):
				t.Errorf("Invalid() = %q, want one entry for %s %s saying %q", invalid, tc.method, tc.path, tc.wantInvalid)
			}
			if got := s.Unexpected(); !slices.Equal(got, slices.Concat(wantUnexpected, invalid)) {
				t.Errorf("Unexpected() = %q, want %q then the invalid requests", got, wantUnexpected)
			}
			reqs := s.Requests()
			if len(reqs) != 1 || reqs[0].Method != tc.method || reqs[0].Path != tc.path || string(reqs[0].Body) != tc.body || reqs[0].Header.Get("Authorization") != tc.auth {
				t.Errorf("Requests() = %+v", reqs)
			}
			if s.CommentsCreated() != 0 || s.CommentEdits() != 0 || len(s.Reactions()) != 0 {
				t.Errorf("state changed on a refused request")
			}
		})
	}
}

func teapot(w http.ResponseWriter, r *http.Request) bool {
	w.WriteHeader(http.StatusTeapot)
	return true
}

func TestComments(t *testing.T) {
	t.Parallel()
	s := New(checked(Options{Token: tok}))
	defer s.Close()
	seeded := s.SeedComment(3, "octocat", false, "hello")
	s.SeedComment(4, "renovate[bot]", true, "elsewhere")

	a := send(t, s, "POST", "/repos/acme/docs/issues/3/comments", "Bearer "+tok, `{"body":"Agent job started."}`)
	if a.status != http.StatusCreated {
		t.Fatalf("create = %d %s", a.status, a.body)
	}
	c := decode(t, a.body)
	id := int64(c["id"].(float64))
	wantURL := fmt.Sprintf("https://github.com/acme/docs/issues/3#issuecomment-%d", id)
	user, _ := c["user"].(map[string]any)
	if id <= seeded || c["body"] != "Agent job started." || c["html_url"] != wantURL ||
		user["login"] != BotLogin || user["type"] != "Bot" || c["created_at"] == nil {
		t.Errorf("created comment = %v", c)
	}

	a = send(t, s, "PATCH", fmt.Sprintf("/repos/acme/docs/issues/comments/%d", id), "token "+tok, `{"body":"Agent job finished."}`)
	if a.status != http.StatusOK {
		t.Fatalf("edit = %d %s", a.status, a.body)
	}
	if e := decode(t, a.body); e["body"] != "Agent job finished." || e["id"] != c["id"] || e["updated_at"] == c["updated_at"] {
		t.Errorf("edited comment = %v", e)
	}

	a = send(t, s, "GET", "/repos/acme/docs/issues/3/comments", "Bearer "+tok, "")
	var list []map[string]any
	if err := json.Unmarshal([]byte(a.body), &list); err != nil || a.status != 200 {
		t.Fatalf("list = %d %s (%v)", a.status, a.body, err)
	}
	if len(list) != 2 || list[0]["body"] != "hello" || list[1]["body"] != "Agent job finished." {
		t.Errorf("list = %v", list)
	}
	if u := list[0]["user"].(map[string]any); u["login"] != "octocat" || u["type"] != "User" {
		t.Errorf("seeded author = %v", u)
	}
	if l := a.header.Get("Link"); l != "" {
		t.Errorf("Link = %q on a single page", l)
	}

	if s.CommentsCreated() != 1 || s.CommentEdits() != 1 {
		t.Errorf("created, edits = %d, %d; want 1, 1", s.CommentsCreated(), s.CommentEdits())
	}
	got := s.Comments(3)
	want := []Comment{
		{ID: seeded, Number: 3, Author: "octocat", Body: "hello"},
		{ID: id, Number: 3, Author: BotLogin, IsBot: true, Body: "Agent job finished.", Edits: 1},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Comments(3) = %+v, want %+v", got, want)
	}
	if len(s.Comments(5)) != 0 {
		t.Errorf("Comments(5) = %+v, want none", s.Comments(5))
	}

	a = send(t, s, "GET", "/repos/acme/docs/issues/9/comments", "Bearer "+tok, "")
	if strings.TrimSpace(a.body) != "[]" {
		t.Errorf("empty list = %q, want []", a.body)
	}
	noneInvalid(t, s)
}

// noneInvalid fails t when s saw a request the REST description refuses.
func noneInvalid(t *testing.T, s *Server) {
	t.Helper()
	if u := s.Unexpected(); len(u) != 0 {
		t.Errorf("Unexpected() = %q, want none", u)
	}
}

func TestPagination(t *testing.T) {
	t.Parallel()
	s := New(checked(Options{Token: tok}))
	t.Cleanup(s.Close) // the parallel subtests run after this function returns
	for i := range 65 {
		s.SeedComment(1, "octocat", false, fmt.Sprint(i))
	}
	cases := []struct {
		query     string
		n         int
		first     string
		next      string // page in the next link; "" for none
		last      string
		perPageIn string
	}{
		{query: "", n: 30, first: "0", next: "2", last: "3", perPageIn: "30"},
		{query: "?page=3", n: 5, first: "60"},
		{query: "?per_page=100", n: 65, first: "0"},
		{query: "?per_page=500", n: 65, first: "0"},
		{query: "?per_page=20&page=2", n: 20, first: "20", next: "3", last: "4", perPageIn: "20"},
		{query: "?per_page=20&page=4", n: 5, first: "60"},
		{query: "?per_page=20&page=9", n: 0},
		{query: "?page=0&per_page=-1", n: 30, first: "0", next: "2", last: "3", perPageIn: "30"},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			t.Parallel()
			a := send(t, s, "GET", "/repos/o/r/issues/1/comments"+tc.query, "Bearer "+tok, "")
			var list []map[string]any
			if err := json.Unmarshal([]byte(a.body), &list); err != nil {
				t.Fatal(err)
			}
			if len(list) != tc.n {
				t.Fatalf("got %d comments, want %d", len(list), tc.n)
			}
			if tc.n > 0 && list[0]["body"] != tc.first {
				t.Errorf("first = %v, want %s", list[0]["body"], tc.first)
			}
			link := a.header.Get("Link")
			if tc.next == "" {
				if link != "" {
					t.Errorf("Link = %q, want none", link)
				}
				return
			}
			wantLink := fmt.Sprintf(`<%[1]s/repos/o/r/issues/1/comments?page=%[2]s&per_page=%[4]s>; rel="next", <%[1]s/repos/o/r/issues/1/comments?page=%[3]s&per_page=%[4]s>; rel="last"`,
				s.URL, tc.next, tc.last, tc.perPageIn)
			if link != wantLink {
				t.Errorf("Link = %q\nwant   %q", link, wantLink)
			}
		})
	}
}

func TestReactions(t *testing.T) {
	t.Parallel()
	s := New(checked(Options{Token: tok}))
	defer s.Close()
	steps := []struct {
		path, content string
		want          int
	}{
		{"/repos/o/r/issues/comments/7/reactions", "eyes", 201},
		{"/repos/o/r/issues/comments/7/reactions", "eyes", 200},
		{"/repos/o/r/issues/comments/7/reactions", "rocket", 201},
		{"/repos/o/r/pulls/comments/7/reactions", "eyes", 201},
		{"/repos/o/r/pulls/comments/8/reactions", "+1", 201},
	}
	for _, st := range steps {
		a := send(t, s, "POST", st.path, "Bearer "+tok, `{"content":"`+st.content+`"}`)
		if a.status != st.want {
			t.Errorf("POST %s %s = %d, want %d", st.path, st.content, a.status, st.want)
		}
		if r := decode(t, a.body); r["content"] != st.content || r["user"].(map[string]any)["login"] != BotLogin {
			t.Errorf("reaction = %v", r)
		}
	}
	var got []string
	for _, r := range s.Reactions() {
		got = append(got, fmt.Sprintf("%s %d %s %s", r.Kind, r.CommentID, r.Content, r.User))
	}
	want := []string{
		"issue 7 eyes " + BotLogin, "issue 7 rocket " + BotLogin,
		"review 7 eyes " + BotLogin, "review 8 +1 " + BotLogin,
	}
	if !slices.Equal(got, want) {
		t.Errorf("Reactions() = %q, want %q", got, want)
	}
	noneInvalid(t, s)
}

func TestPermissions(t *testing.T) {
	t.Parallel()
	perms := map[string]string{"ada": "admin", "max": "maintain", "tri": "triage", "wes": "write", "rea": "read", "cus": "docs-editor"}
	cases := []struct {
		user, permission, role string
	}{
		{"ada", "admin", "admin"},
		{"max", "write", "maintain"},
		{"tri", "read", "triage"},
		{"wes", "write", "write"},
		{"rea", "read", "read"},
		{"cus", "read", "docs-editor"},
	}
	for _, noRole := range []bool{false, true} {
		s := New(checked(Options{Token: tok, Permissions: perms, NoRoleName: noRole}))
		for _, tc := range cases {
			a := send(t, s, "GET", "/repos/o/r/collaborators/"+tc.user+"/permission", "Bearer "+tok, "")
			m := decode(t, a.body)
			role, hasRole := m["role_name"]
			if a.status != 200 || m["permission"] != tc.permission || hasRole == noRole || (hasRole && role != tc.role) {
				t.Errorf("noRole=%v %s: %d %v", noRole, tc.user, a.status, m)
			}
			if u := m["user"].(map[string]any); u["login"] != tc.user {
				t.Errorf("user = %v", u)
			}
		}
		noneInvalid(t, s)
		s.Close()
	}
}

// TestConcurrent checks the fake under parallel clients: every create gets
// its own id and is counted once.
func TestConcurrent(t *testing.T) {
	t.Parallel()
	s := New(checked(Options{Token: tok}))
	defer s.Close()
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", s.URL+"/repos/o/r/issues/1/comments", strings.NewReader(fmt.Sprintf(`{"body":"%d"}`, i)))
			req.Header.Set("Authorization", "Bearer "+tok)
			if resp, err := s.Client().Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	cs := s.Comments(1)
	ids := map[int64]bool{}
	for _, c := range cs {
		ids[c.ID] = true
	}
	if s.CommentsCreated() != n || len(cs) != n || len(ids) != n || len(s.Requests()) != n {
		t.Errorf("created %d, comments %d, distinct ids %d, requests %d; want %d each",
			s.CommentsCreated(), len(cs), len(ids), len(s.Requests()), n)
	}
}

// TestSearchPendingPulls: the search answers the open pull requests of
// the repository its query names whose head's combined status is what it
// asks, as GitHub's search object; a term it does not know, a repository
// the token cannot see and a query without is:pr are refused with 422, as
// GitHub refuses what it cannot search, and the search needs a token.
func TestSearchPendingPulls(t *testing.T) {
	t.Parallel()
	s := New(checked(Options{Token: tok, Repos: []string{"o/r"}}))
	t.Cleanup(s.Close)
	for n, states := range map[int][]string{1: {"pending"}, 2: {"success"}, 3: {"pending", "failure"}, 4: nil, 5: {"success", "pending"}} {
		sha := fmt.Sprintf("%040d", n)
		s.SeedPull(Pull{Repo: "o/r", Number: n, HeadSHA: sha})
		for i, st := range states {
			s.SeedStatus(Status{Repo: "o/r", SHA: sha, State: st, Context: fmt.Sprint(i)})
		}
	}
	s.SeedComment(5, "ada", false, "hi")
	const q = "/search/issues?q=repo%3Ao%2Fr+is%3Apr+is%3Aopen+status%3Apending&sort=created&order=asc&per_page=100"
	a := send(t, s, "GET", q, "Bearer "+tok, "")
	var got struct {
		Total int `json:"total_count"`
		Items []struct {
			Number   int `json:"number"`
			Comments int `json:"comments"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(a.body), &got); err != nil || a.status != http.StatusOK {
		t.Fatalf("search: %d %s", a.status, a.body)
	}
	if got.Total != 2 || len(got.Items) != 2 || got.Items[0].Number != 1 || got.Items[1].Number != 5 || got.Items[1].Comments != 1 {
		t.Errorf("search found %+v, want #1, then #5 with its comment", got)
	}
	for _, bad := range []string{
		"/search/issues?q=repo%3Ao%2Fr+is%3Apr+author%3Aada",
		"/search/issues?q=repo%3Ao%2Fother+is%3Apr+status%3Apending",
		"/search/issues?q=repo%3Ao%2Fr+status%3Apending",
	} {
		if a := send(t, s, "GET", bad, "Bearer "+tok, ""); a.status != http.StatusUnprocessableEntity {
			t.Errorf("GET %s: %d, want 422", bad, a.status)
		}
	}
	if a := send(t, s, "GET", q, "Bearer nope", ""); a.status != http.StatusUnauthorized {
		t.Errorf("a search with a bad token: %d, want 401", a.status)
	}
	if u := s.Unexpected(); len(u) > 0 {
		t.Errorf("unexpected: %q", u)
	}
}
