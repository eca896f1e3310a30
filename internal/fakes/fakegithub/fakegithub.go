// Package fakegithub is an in-process fake of the few GitHub REST endpoints
// the action uses: issue comments (list, create, edit), reactions on issue
// and review comments, a collaborator's permission, pull requests (get,
// request reviewers, reviews, line comments, changed files, those of a
// commit), comparisons of two commits (of a history of commits, or seeded
// per pair), commit statuses (set, and read combined), and the search of
// open pull requests by their commit status. It keeps their state,
// records every request, and answers anything else with 404 while noting it
// as unexpected, as go-github's own tests do. Every request is also held
// against GitHub's own REST description (Spec), and one it does not allow is
// noted as unexpected too, so a test using the fake fails on a request the
// real GitHub would refuse. It needs no testing.TB, so the demo can run
// against it too.
package fakegithub

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// DefaultToken is the token the fake accepts when Options.Token is empty.
const DefaultToken = "ghs_fake_token"

// The account that comments created through the API belong to: the
// GITHUB_TOKEN's identity.
const (
	BotLogin = "github-actions[bot]"
	botID    = 41898282
)

// Options configure a Server.
type Options struct {
	// Token is the only token accepted, as "Bearer <t>" or "token <t>";
	// other requests get 401. Empty means DefaultToken.
	Token string
	// Prefix is the path the API is served under: "" as on github.com,
	// "/api/v3" as on GitHub Enterprise Server. Requests outside it are
	// unexpected.
	Prefix string
	// Permissions maps a login to its role: admin, maintain, write, triage,
	// read or a custom role's name. Logins not listed get 404.
	Permissions map[string]string
	// NoRoleName leaves role_name out of permission answers, as older GitHub
	// Enterprise Server versions do.
	NoRoleName bool
	// ForbidComments answers 403 to creating and editing comments, as GitHub
	// does when the token lacks issues: write or pull-requests: write.
	ForbidComments bool
	// ForbidReactions answers 403 to creating reactions.
	ForbidReactions bool
	// ForbidReviewRequests answers 403 to requesting reviewers, as GitHub
	// does when the token lacks pull-requests: write.
	ForbidReviewRequests bool
	// ForbidStatuses answers 403 to setting a commit status, as GitHub
	// does when the token lacks statuses: write.
	ForbidStatuses bool
	// Repos are the repositories ("owner/name") the token can see; any
	// other gets 404, as GitHub answers for a repository out of a token's
	// reach. Empty means every repository.
	Repos []string
	// OtherTokens are more tokens the fake accepts, each with the
	// repositories it can see (a docs repository's token, say).
	OtherTokens map[string][]string
	// Scopes are the classic tokens' scopes, by token, which every answer
	// to that token lists in X-OAuth-Scopes; a token not here is a
	// fine-grained one's or an app's, whose answers list none.
	Scopes map[string]string
	// Check, when set, judges every request the fake receives (method, the
	// escaped path without the prefix, the raw query and the body) and
	// returns what makes it invalid; what it returns is noted as
	// unexpected. Tests set it with package ghspec's Checker; the demo, which has no
	// description of GitHub's API to read, leaves it nil, so that the
	// checker is not linked into the action's binary.
	Check func(method, path, rawQuery string, body []byte) []string
	// Fault, when set, sees every authorized request to a known endpoint
	// first; returning true means it has answered (a 500, a rate limit).
	Fault func(w http.ResponseWriter, r *http.Request) bool
}

// Request is one request the fake received.
type Request struct {
	Method string
	Path   string // as sent, escaped, without the query
	Query  string
	Header http.Header
	Body   []byte
}

// Comment is an issue comment the fake holds.
type Comment struct {
	ID     int64
	Number int
	Author string
	IsBot  bool
	Body   string
	Edits  int
	// At, when set (SeedCommentAt), is when the comment was written, as
	// its created_at and updated_at say; otherwise they are a fixed time
	// per id (CreatedAt) and its edits.
	At time.Time
}

// Reaction is a reaction the fake holds.
type Reaction struct {
	ID        int64
	CommentID int64
	Kind      string // "issue", "review" or "thread" (CommentID is then the issue's number), by the endpoint used
	Content   string
	User      string
}

// Server is the running fake. Its embedded httptest.Server's URL is the
// host; APIURL adds the prefix.
type Server struct {
	*httptest.Server

	opt          Options
	mu           sync.Mutex
	requests     []Request
	unexpected   []string
	invalid      []string
	comments     []*Comment // in creation order, as GitHub lists them
	reactions    []Reaction
	pulls        []*Pull
	reviews      map[reviewKey][]ReviewComment
	submitted    map[int][]Review  // by pull request number
	branches     map[string]string // commit, by lower-case repository, NUL, branch name
	compares     map[string]Comparison
	commits      map[string]map[string]Commit // by lower-case repository, then SHA
	statuses     []Status                     // set through the API
	everStatus   []Status                     // seeded or set, in order
	nextID       int64
	repositories map[string]Repository // by lower-case owner/name
	apps         map[string]App        // by lower-case slug
	refs         map[string]string     // commit, by lower-case repository, NUL, ref (SeedRef)
	// written orders the comments by when each was last created or
	// edited, by id.
	written map[int64]int64
	writes  int64
	created int
	edits   int
}

// New starts a fake. Close it when done.
func New(opt Options) *Server {
	if opt.Token == "" {
		opt.Token = DefaultToken
	}
	opt.Prefix = strings.TrimRight(opt.Prefix, "/")
	s := &Server{opt: opt, nextID: 1001, reviews: map[reviewKey][]ReviewComment{}, submitted: map[int][]Review{}, compares: map[string]Comparison{}, commits: map[string]map[string]Commit{}}
	mux := http.NewServeMux()
	p := opt.Prefix
	// GET .../issues/{number}/comments and .../issues/comments/{id} overlap
	// as patterns (issues/comments/comments), so one handler tells them apart.
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/issues/{a}/{b}", s.authorized(s.issueGet))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/issues/comments", s.authorized(s.listRepoComments))
	mux.HandleFunc("POST "+p+"/repos/{owner}/{repo}/issues/{number}/comments", s.authorized(s.createComment))
	mux.HandleFunc("PATCH "+p+"/repos/{owner}/{repo}/issues/comments/{id}", s.authorized(s.editComment))
	mux.HandleFunc("POST "+p+"/repos/{owner}/{repo}/issues/comments/{id}/reactions", s.authorized(s.react("issue")))
	mux.HandleFunc("POST "+p+"/repos/{owner}/{repo}/pulls/comments/{id}/reactions", s.authorized(s.react("review")))
	mux.HandleFunc("POST "+p+"/repos/{owner}/{repo}/issues/{id}/reactions", s.authorized(s.react("thread")))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/collaborators/{user}/permission", s.authorized(s.permission))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/pulls", s.authorized(s.listPulls))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/pulls/{number}", s.authorized(s.getPull))
	mux.HandleFunc("PATCH "+p+"/repos/{owner}/{repo}/pulls/{number}", s.authorized(s.updatePull))
	mux.HandleFunc("PUT "+p+"/repos/{owner}/{repo}/pulls/{number}/merge", s.authorized(s.mergePull))
	mux.HandleFunc("POST "+p+"/repos/{owner}/{repo}/pulls/{number}/requested_reviewers", s.authorized(s.requestReviewers))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/pulls/{number}/reviews/{review}/comments", s.authorized(s.reviewComments))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/pulls/{number}/comments", s.authorized(s.lineComments))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/pulls/{number}/reviews", s.authorized(s.listReviews))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/pulls/{number}/files", s.authorized(s.listFiles))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/compare/{basehead}", s.authorized(s.compare))
	mux.HandleFunc("POST "+p+"/repos/{owner}/{repo}/statuses/{sha}", s.authorized(s.createStatus))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/commits/{ref}/status", s.authorized(s.combinedStatus))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/commits/{ref}", s.authorized(s.resolveRef))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/commits/{sha}/branches-where-head", s.authorized(s.branchesAt))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/commits/{sha}/pulls", s.authorized(s.pullsAt))
	mux.HandleFunc("GET "+p+"/search/issues", s.authorized(s.searchIssues))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}", s.authorized(s.getRepository))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/rules/branches/{branch...}", s.authorized(s.branchRules))
	mux.HandleFunc("GET "+p+"/repos/{owner}/{repo}/branches/{branch...}", s.authorized(s.getBranch))
	mux.HandleFunc("GET "+p+"/apps/{slug}", s.authorized(s.getApp))
	mux.HandleFunc("/", s.catchAll)
	s.Server = httptest.NewServer(s.record(mux))
	return s
}

// APIURL is the value GITHUB_API_URL would have: the URL with the prefix.
func (s *Server) APIURL() string { return s.URL + s.opt.Prefix }

// Requests returns a copy of every request received, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Unexpected lists the requests no endpoint serves, as "METHOD /path",
// then those the REST description does not allow (see Invalid).
func (s *Server) Unexpected() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Concat(s.unexpected, s.invalid)
}

// Invalid lists the requests the REST description does not allow, as
// "METHOD /path?query: reason", and first, when it could not be read, why.
func (s *Server) Invalid() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.invalid)
}

// CommentsCreated counts comments created through the API.
func (s *Server) CommentsCreated() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.created
}

// CommentEdits counts successful comment edits.
func (s *Server) CommentEdits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.edits
}

// Reactions returns the reactions created, in order. Adding one that exists
// already does not add it again, as on GitHub.
func (s *Server) Reactions() []Reaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reactions)
}

// Comments returns copies of the comments on issue number, oldest first.
func (s *Server) Comments(number int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments {
		if c.Number == number {
			out = append(out, *c)
		}
	}
	return out
}

// SetFault replaces Options.Fault for the requests from now on: a test
// breaks GitHub between two runs.
func (s *Server) SetFault(f func(w http.ResponseWriter, r *http.Request) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opt.Fault = f
}

// SeedComment adds a comment as if author had written it, without counting
// it as created, and returns its id.
func (s *Server) SeedComment(number int, author string, isBot bool, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.add(number, author, isBot, body).ID
}

// SeedCommentAt is SeedComment for a comment written at at: GitHub says
// so in its created_at and updated_at. Comments are listed by when they
// were written in the order they were seeded, so a test seeds them in
// the order of their times.
func (s *Server) SeedCommentAt(number int, author string, isBot bool, body string, at time.Time) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.add(number, author, isBot, body)
	c.At = at
	return c.ID
}

// wrote notes that comment id was written now; s.mu is held.
func (s *Server) wrote(id int64) {
	if s.written == nil {
		s.written = map[int64]int64{}
	}
	s.writes++
	s.written[id] = s.writes
}

func (s *Server) add(number int, author string, isBot bool, body string) *Comment {
	c := &Comment{ID: s.nextID, Number: number, Author: author, IsBot: isBot, Body: body}
	s.nextID++
	s.wrote(c.ID)
	s.comments = append(s.comments, c)
	return c
}

func (s *Server) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "read body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		path := r.URL.EscapedPath()
		var bad []string
		if s.opt.Check != nil {
			if rest, ok := strings.CutPrefix(path, s.opt.Prefix+"/"); ok {
				bad = s.opt.Check(r.Method, "/"+rest, r.URL.RawQuery, body)
			} else {
				bad = []string{"outside the API prefix " + s.opt.Prefix}
			}
		}
		s.mu.Lock()
		s.requests = append(s.requests, Request{
			Method: r.Method, Path: path, Query: r.URL.RawQuery,
			Header: r.Header.Clone(), Body: body,
		})
		where := r.Method + " " + path
		if r.URL.RawQuery != "" {
			where += "?" + r.URL.RawQuery
		}
		for _, b := range bad {
			s.invalid = append(s.invalid, where+": "+b)
		}
		s.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func (s *Server) catchAll(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.unexpected = append(s.unexpected, r.Method+" "+r.URL.EscapedPath())
	s.mu.Unlock()
	writeError(w, http.StatusNotFound, "Not Found")
}

// sees reports whether the request's token is accepted, and whether it
// can see repo ("owner/name"): every repository when its list is empty.
func (s *Server) sees(r *http.Request, repo string) (known, visible bool) {
	auth := r.Header.Get("Authorization")
	repos := s.opt.Repos
	if auth != "Bearer "+s.opt.Token && auth != "token "+s.opt.Token {
		token, _ := strings.CutPrefix(strings.TrimPrefix(auth, "Bearer "), "token ")
		other, ok := s.opt.OtherTokens[token]
		if !ok || token == "" {
			return false, false
		}
		repos = other
	}
	return true, len(repos) == 0 || slices.ContainsFunc(repos, func(x string) bool { return strings.EqualFold(x, repo) })
}

func (s *Server) authorized(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		known, visible := s.sees(r, r.PathValue("owner")+"/"+r.PathValue("repo"))
		token, _ := strings.CutPrefix(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), "token ")
		if scopes, ok := s.opt.Scopes[token]; ok && known {
			w.Header().Set("X-OAuth-Scopes", scopes)
		}
		switch {
		case !known:
			writeError(w, http.StatusUnauthorized, "Bad credentials")
			return
		case !visible && r.PathValue("owner") != "":
			// A search names its repository in its query (searchIssues).
			writeError(w, http.StatusNotFound, "Not Found")
			return
		}
		s.mu.Lock()
		fault := s.opt.Fault
		s.mu.Unlock()
		if fault != nil && fault(w, r) {
			return
		}
		h(w, r)
	}
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request) {
	n, ok := pathInt(w, r, "number")
	if !ok {
		return
	}
	all := s.Comments(int(n))
	writePage(w, r, len(all), func(i int) map[string]any { return render(r, &all[i]) })
}

// listRepoComments lists the comments of every issue and pull request,
// oldest first, or, as sort=updated&direction=desc asks, the most recently
// written first (an edit counts as a write).
func (s *Server) listRepoComments(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	all := make([]Comment, 0, len(s.comments))
	for _, c := range s.comments {
		all = append(all, *c)
	}
	written := maps.Clone(s.written)
	s.mu.Unlock()
	q := r.URL.Query()
	if q.Get("sort") == "updated" {
		slices.SortStableFunc(all, func(a, b Comment) int { return cmp.Compare(written[a.ID], written[b.ID]) })
	}
	if q.Get("direction") == "desc" {
		slices.Reverse(all)
	}
	writePage(w, r, len(all), func(i int) map[string]any { return render(r, &all[i]) })
}

// writePage answers one page of n items, as the query's page and per_page
// ask, with GitHub's Link header: next and last on every page but the last.
// item renders the i-th, only for those on the page.
func writePage(w http.ResponseWriter, r *http.Request, n int, item func(i int) map[string]any) {
	writeJSON(w, http.StatusOK, onPage(w, r, n, item))
}

// onPage is the page of n items the query asks (see writePage), and sets
// the Link header that names the next and the last.
func onPage(w http.ResponseWriter, r *http.Request, n int, item func(i int) map[string]any) []map[string]any {
	page, perPage := pageOf(r)
	last := max((n+perPage-1)/perPage, 1)
	from := min((page-1)*perPage, n)
	to := min(from+perPage, n)
	if page < last {
		link := func(p int, rel string) string {
			u := url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path}
			v := url.Values{"page": {strconv.Itoa(p)}, "per_page": {strconv.Itoa(perPage)}}
			if q := r.URL.Query().Get("q"); q != "" {
				v.Set("q", q)
			}
			u.RawQuery = v.Encode()
			return fmt.Sprintf("<%s>; rel=%q", u.String(), rel)
		}
		w.Header().Set("Link", link(page+1, "next")+", "+link(last, "last"))
	}
	items := []map[string]any{} // GitHub answers [], never null
	for i := from; i < to; i++ {
		items = append(items, item(i))
	}
	return items
}

// pageOf is the page and page size the query asks, as GitHub reads them:
// page 1 and 30 a page unless it says otherwise, at most 100 a page.
func pageOf(r *http.Request) (page, perPage int) {
	page, perPage = 1, 30
	q := r.URL.Query()
	if v, err := strconv.Atoi(q.Get("page")); err == nil && v > 0 {
		page = v
	}
	if v, err := strconv.Atoi(q.Get("per_page")); err == nil && v > 0 {
		perPage = min(v, 100)
	}
	return page, perPage
}

// commentWrite reads what a request that creates or edits a comment sends:
// the number or id the path names in param, and the body. When it answers
// the request itself (a bad request, or comments forbidden), ok is false.
func (s *Server) commentWrite(w http.ResponseWriter, r *http.Request, param string) (n int64, body string, ok bool) {
	if n, ok = pathInt(w, r, param); !ok {
		return 0, "", false
	}
	if body, ok = commentBody(w, r); !ok {
		return 0, "", false
	}
	if s.opt.ForbidComments {
		writeError(w, http.StatusForbidden, "Resource not accessible by integration")
		return 0, "", false
	}
	return n, body, true
}

func (s *Server) createComment(w http.ResponseWriter, r *http.Request) {
	number, body, ok := s.commentWrite(w, r, "number")
	if !ok {
		return
	}
	s.mu.Lock()
	c := s.add(int(number), BotLogin, true, body)
	s.created++
	out := render(r, c)
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, out)
}

// issueGet serves a GET of an issue's comments or of one comment.
func (s *Server) issueGet(w http.ResponseWriter, r *http.Request) {
	a, b := r.PathValue("a"), r.PathValue("b")
	switch {
	case a == "comments":
		r.SetPathValue("id", b)
		s.getComment(w, r)
	case b == "comments":
		r.SetPathValue("number", a)
		s.listComments(w, r)
	default:
		s.catchAll(w, r)
	}
}

func (s *Server) getComment(w http.ResponseWriter, r *http.Request) {
	id, ok := pathInt(w, r, "id")
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.comment(w, id); c != nil {
		writeJSON(w, http.StatusOK, render(r, c))
	}
}

// comment is the comment id, or nil when the fake holds none, which it
// answers with 404; s.mu is held.
func (s *Server) comment(w http.ResponseWriter, id int64) *Comment {
	i := slices.IndexFunc(s.comments, func(c *Comment) bool { return c.ID == id })
	if i < 0 {
		writeError(w, http.StatusNotFound, "Not Found")
		return nil
	}
	return s.comments[i]
}

func (s *Server) editComment(w http.ResponseWriter, r *http.Request) {
	id, body, ok := s.commentWrite(w, r, "id")
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.comment(w, id)
	if c == nil {
		return
	}
	c.Body = body
	c.Edits++
	s.wrote(c.ID)
	s.edits++
	writeJSON(w, http.StatusOK, render(r, c))
}

var reactionContents = []string{"+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"}

// react does not check that the comment exists: the comment to react to
// comes from an event payload the fake never saw.
func (s *Server) react(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := pathInt(w, r, "id")
		if !ok {
			return
		}
		var in struct {
			Content string `json:"content"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || !slices.Contains(reactionContents, in.Content) {
			writeError(w, http.StatusUnprocessableEntity, "Validation Failed")
			return
		}
		if s.opt.ForbidReactions {
			writeError(w, http.StatusForbidden, "Resource not accessible by integration")
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		status := http.StatusOK
		i := slices.IndexFunc(s.reactions, func(x Reaction) bool {
			return x.CommentID == id && x.Kind == kind && x.Content == in.Content && x.User == BotLogin
		})
		if i < 0 {
			s.reactions = append(s.reactions, Reaction{ID: s.nextID, CommentID: id, Kind: kind, Content: in.Content, User: BotLogin})
			s.nextID++
			i = len(s.reactions) - 1
			status = http.StatusCreated
		}
		x := s.reactions[i]
		writeJSON(w, status, map[string]any{
			"id": x.ID, "content": x.Content, "created_at": stamp(x.ID),
			"user": map[string]any{"login": BotLogin, "id": botID, "type": "Bot"},
		})
	}
}

// legacyPermission maps a role to the base permission GitHub reports beside
// it: maintain counts as write, triage and custom roles as read.
func legacyPermission(role string) string {
	switch role {
	case "admin", "write", "read", "none":
		return role
	case "maintain":
		return "write"
	}
	return "read"
}

func (s *Server) permission(w http.ResponseWriter, r *http.Request) {
	user := r.PathValue("user")
	role, ok := s.opt.Permissions[user]
	if !ok {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	out := map[string]any{
		"permission": legacyPermission(role),
		"user":       map[string]any{"login": user, "type": "User"},
	}
	if !s.opt.NoRoleName {
		out["role_name"] = role
	}
	writeJSON(w, http.StatusOK, out)
}

// render gives a comment the JSON shape GitHub uses. Links are built from
// the request's owner and repo, so seeded comments need neither.
func render(r *http.Request, c *Comment) map[string]any {
	owner, repo := r.PathValue("owner"), r.PathValue("repo")
	typ, uid := "User", 1000+len(c.Author)
	if c.IsBot {
		typ = "Bot"
	}
	if c.Author == BotLogin {
		uid = botID
	}
	created, updated := stamp(c.ID), stamp(c.ID+int64(c.Edits))
	if !c.At.IsZero() {
		created = c.At.UTC().Format(time.RFC3339)
		updated = created
	}
	return map[string]any{
		"id":         c.ID,
		"node_id":    fmt.Sprintf("IC_fake%d", c.ID),
		"url":        fmt.Sprintf("https://api.github.com/repos/%s/%s/issues/comments/%d", owner, repo, c.ID),
		"html_url":   fmt.Sprintf("https://github.com/%s/%s/issues/%d#issuecomment-%d", owner, repo, c.Number, c.ID),
		"issue_url":  fmt.Sprintf("https://api.github.com/repos/%s/%s/issues/%d", owner, repo, c.Number),
		"body":       c.Body,
		"user":       map[string]any{"login": c.Author, "id": uid, "type": typ},
		"created_at": created,
		"updated_at": updated,
	}
}

// stamp is CreatedAt as GitHub writes it.
func stamp(id int64) string { return CreatedAt(id).Format(time.RFC3339) }

// CreatedAt is when the fake says the thing with id was made: a fixed time
// per id, so answers do not change from run to run, and, as ids are given
// in the order things are made, in that order across comments, line
// comments and reviews.
func CreatedAt(id int64) time.Time {
	return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(id) * time.Second)
}

// MaxCommentBody is the most characters GitHub takes in a comment's body;
// it refuses a longer one, a new comment or an edit, with 422.
const MaxCommentBody = 65536

func commentBody(w http.ResponseWriter, r *http.Request) (string, bool) {
	var in struct {
		Body *string `json:"body"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Body == nil || *in.Body == "" {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed")
		return "", false
	}
	if utf8.RuneCountInString(*in.Body) > MaxCommentBody {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed: body is too long (maximum is 65536 characters)")
		return "", false
	}
	return *in.Body, true
}

func pathInt(w http.ResponseWriter, r *http.Request, name string) (int64, bool) {
	n, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || n <= 0 {
		writeError(w, http.StatusNotFound, "Not Found")
		return 0, false
	}
	return n, true
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"message": msg, "documentation_url": "https://docs.github.com/rest"})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
