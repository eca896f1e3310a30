package fakegithub

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Pull is a pull request the fake holds. Its comments are issue comments
// on its number (SeedComment, CreateComment), as on GitHub.
type Pull struct {
	// Repo is the base repository, "owner/name"; requests that name
	// another get 404, as for a repository the token cannot see.
	Repo   string
	Number int
	Author string
	Title  string
	Body   string
	// HeadRef is the branch; HeadRepo its repository, "" meaning Repo;
	// HeadSHA its newest commit.
	HeadRef  string
	HeadRepo string
	HeadSHA  string
	// BaseRef is the branch it merges into; "" means main.
	BaseRef string
	State   string // "" means open
	Merged  bool   // with State "closed": merged, not closed unmerged
	Draft   bool
	// Reviewers are the logins asked to review, in the order asked.
	Reviewers []string
	// Files are the files it changes, in the order GitHub lists them.
	Files []File
	// Unmergeable, when not "", is GitHub's message refusing a merge
	// (405): a conflict, a rule, a required check.
	Unmergeable string
	// MergeMethod is the method a merge used: the request's, or "merge"
	// when it named none; "" until merged through the fake.
	MergeMethod string
	// Labels are the names of its labels, in the order GitHub lists them.
	Labels []string
	// Association is its author's author_association (OWNER, MEMBER,
	// COLLABORATOR, CONTRIBUTOR, ...); "" means NONE.
	Association string
}

// ReviewComment is a line comment of a review the fake holds.
type ReviewComment struct {
	ID        int64
	Author    string
	Path      string
	Line      int
	StartLine int  // 0 for a single line
	Outdated  bool // a later push moved the line: line and start_line are null
	Body      string
	DiffHunk  string
}

// Review is a submitted review the fake holds. Its line comments are
// seeded with SeedReviewComments under its id.
type Review struct {
	ID     int64 // 0: given by SeedReview
	Author string
	Body   string
	State  string // "" means COMMENTED
	// CommitID is the commit reviewed; "" means reviewCommit.
	CommitID string
}

// reviewCommit is the commit a review seeded without one was made on.
const reviewCommit = "0123456789abcdef0123456789abcdef01234567"

type reviewKey struct {
	number int
	review int64
}

// SeedPull adds or replaces a pull request.
func (s *Server) SeedPull(p Pull) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p.Reviewers = slices.Clone(p.Reviewers)
	p.Files = slices.Clone(p.Files)
	p.Labels = slices.Clone(p.Labels)
	if old := s.pull(p.Repo, p.Number); old != nil {
		*old = p
		return
	}
	s.pulls = append(s.pulls, &p)
}

// PullRequest returns a copy of pull request number of repo ("owner/name").
func (s *Server) PullRequest(repo string, number int) (Pull, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(repo, number)
	if p == nil {
		return Pull{}, false
	}
	out := *p
	out.Reviewers = slices.Clone(p.Reviewers)
	out.Files = slices.Clone(p.Files)
	out.Labels = slices.Clone(p.Labels)
	return out, true
}

// SeedReviewComments sets the line comments of review reviewID on pull
// request number, in the order GitHub lists them. Ids left 0 are given.
func (s *Server) SeedReviewComments(number int, reviewID int64, comments []ReviewComment) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs := slices.Clone(comments)
	for i := range cs {
		if cs[i].ID == 0 {
			cs[i].ID = s.nextID
			s.nextID++
		}
	}
	s.reviews[reviewKey{number, reviewID}] = cs
}

// ReviewComments returns copies of the line comments of review reviewID
// on pull request number.
func (s *Server) ReviewComments(number int, reviewID int64) []ReviewComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reviews[reviewKey{number, reviewID}])
}

// SeedReview adds a submitted review of pull request number, after every
// comment and review seeded so far, and returns its id.
func (s *Server) SeedReview(number int, r Review) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.ID == 0 {
		r.ID = s.nextID
		s.nextID++
	}
	if r.State == "" {
		r.State = "COMMENTED"
	}
	s.submitted[number] = append(s.submitted[number], r)
	if _, ok := s.reviews[reviewKey{number, r.ID}]; !ok {
		s.reviews[reviewKey{number, r.ID}] = nil
	}
	return r.ID
}

func (s *Server) pull(repo string, number int) *Pull {
	i := slices.IndexFunc(s.pulls, func(p *Pull) bool { return p.Number == number && strings.EqualFold(p.Repo, repo) })
	if i < 0 {
		return nil
	}
	return s.pulls[i]
}

// pathPull is the pull request the request's path names, with number n;
// nil when the fake has none. s.mu must be held.
func (s *Server) pathPull(r *http.Request, n int64) *Pull {
	return s.pull(r.PathValue("owner")+"/"+r.PathValue("repo"), int(n))
}

func (s *Server) getPull(w http.ResponseWriter, r *http.Request) {
	n, ok := pathInt(w, r, "number")
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pathPull(r, n)
	if p == nil {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	writeJSON(w, http.StatusOK, renderPull(p))
}

func (s *Server) requestReviewers(w http.ResponseWriter, r *http.Request) {
	n, ok := pathInt(w, r, "number")
	if !ok {
		return
	}
	var in struct {
		Reviewers     []string `json:"reviewers"`
		TeamReviewers []string `json:"team_reviewers"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed")
		return
	}
	if s.opt.ForbidReviewRequests {
		writeError(w, http.StatusForbidden, "Resource not accessible by integration")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pathPull(r, n)
	if p == nil {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	for _, login := range in.Reviewers {
		if strings.EqualFold(login, p.Author) {
			writeError(w, http.StatusUnprocessableEntity, "Review cannot be requested from pull request author.")
			return
		}
		if _, ok := s.opt.Permissions[login]; !ok {
			writeError(w, http.StatusUnprocessableEntity, fmt.Sprintf(
				"Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the %s repository.", p.Repo))
			return
		}
	}
	for _, login := range in.Reviewers {
		if !slices.Contains(p.Reviewers, login) {
			p.Reviewers = append(p.Reviewers, login)
		}
	}
	writeJSON(w, http.StatusCreated, renderPull(p))
}

func (s *Server) reviewComments(w http.ResponseWriter, r *http.Request) {
	n, ok := pathInt(w, r, "number")
	if !ok {
		return
	}
	review, ok := pathInt(w, r, "review")
	if !ok {
		return
	}
	s.mu.Lock()
	p := s.pathPull(r, n)
	cs, known := s.reviews[reviewKey{int(n), review}]
	s.mu.Unlock()
	if p == nil || !known {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	writePage(w, r, len(cs), func(i int) map[string]any { return renderReviewComment(p, review, cs[i]) })
}

// lineComments lists every line comment of a pull request, of every
// review, sorted by creation (their ids follow it) as sort and direction
// ask: GitHub's default is ascending.
func (s *Server) lineComments(w http.ResponseWriter, r *http.Request) {
	n, ok := pathInt(w, r, "number")
	if !ok {
		return
	}
	type line struct {
		review int64
		c      ReviewComment
	}
	s.mu.Lock()
	p := s.pathPull(r, n)
	var all []line
	for k, cs := range s.reviews {
		if k.number == int(n) {
			for _, c := range cs {
				all = append(all, line{k.review, c})
			}
		}
	}
	s.mu.Unlock()
	if p == nil {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	desc := r.URL.Query().Get("direction") == "desc"
	slices.SortFunc(all, func(a, b line) int {
		if desc {
			a, b = b, a
		}
		return cmp.Compare(a.c.ID, b.c.ID)
	})
	writePage(w, r, len(all), func(i int) map[string]any { return renderReviewComment(p, all[i].review, all[i].c) })
}

// listReviews lists a pull request's submitted reviews, oldest first.
func (s *Server) listReviews(w http.ResponseWriter, r *http.Request) {
	n, ok := pathInt(w, r, "number")
	if !ok {
		return
	}
	s.mu.Lock()
	p := s.pathPull(r, n)
	rs := slices.Clone(s.submitted[int(n)])
	s.mu.Unlock()
	if p == nil {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	writePage(w, r, len(rs), func(i int) map[string]any {
		x := rs[i]
		return map[string]any{
			"id":           x.ID,
			"node_id":      fmt.Sprintf("PRR_fake%d", x.ID),
			"user":         map[string]any{"login": x.Author, "type": userType(x.Author)},
			"body":         x.Body,
			"state":        x.State,
			"html_url":     fmt.Sprintf("https://github.com/%s/pull/%d#pullrequestreview-%d", p.Repo, p.Number, x.ID),
			"submitted_at": stamp(x.ID),
			"commit_id":    cmp.Or(x.CommitID, reviewCommit),
		}
	})
}

// updatePull edits a pull request: of what GitHub lets change, its state
// (closing it leaves it unmerged).
func (s *Server) updatePull(w http.ResponseWriter, r *http.Request) {
	n, ok := pathInt(w, r, "number")
	if !ok {
		return
	}
	var in struct {
		State *string `json:"state"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pathPull(r, n)
	if p == nil {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	if in.State != nil {
		switch {
		case *in.State != "open" && *in.State != "closed":
			writeError(w, http.StatusUnprocessableEntity, "Validation Failed")
			return
		case p.Merged:
			writeError(w, http.StatusUnprocessableEntity, "Validation Failed: the pull request is merged")
			return
		}
		p.State = *in.State
	}
	writeJSON(w, http.StatusOK, renderPull(p))
}

// mergePull merges an open pull request whose head is the request's sha
// (when it names one), as GitHub does: 405 when it is closed or
// Unmergeable, 409 when its head moved, and 405 when a required status
// check of its base branch has not succeeded on that head (unmetCheck).
func (s *Server) mergePull(w http.ResponseWriter, r *http.Request) {
	n, ok := pathInt(w, r, "number")
	if !ok {
		return
	}
	var in struct {
		SHA         string `json:"sha"`
		MergeMethod string `json:"merge_method"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pathPull(r, n)
	if p == nil {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	if code, why := s.refusal(p, in.SHA); code != 0 {
		writeError(w, code, why)
		return
	}
	p.State, p.Merged, p.MergeMethod = "closed", true, cmp.Or(in.MergeMethod, "merge")
	writeJSON(w, http.StatusOK, map[string]any{"sha": fmt.Sprintf("%040x", 0xfeed0000+p.Number), "merged": true, "message": "Pull Request successfully merged"})
}

// Mergeable reports whether a merge of pull request number of repo
// ("owner/name") on its head would succeed now, without merging it: the
// rule mergePull applies (refusal), so a test can hold, step by step,
// that a pull request merges when its rules allow and never before. why
// is GitHub's refusal when it would not: "Not Found" for a pull request
// the fake does not hold.
func (s *Server) Mergeable(repo string, number int) (ok bool, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pull(repo, number)
	if p == nil {
		return false, "Not Found"
	}
	if code, why := s.refusal(p, ""); code != 0 {
		return false, why
	}
	return true, ""
}

// refusal is the status and message GitHub refuses a merge of p with, in
// the order it checks them, or 0: 405 when p is closed or Unmergeable, 409
// when sha (unless "") is not its head, 405 when a required status check
// is unmet. s.mu is held.
func (s *Server) refusal(p *Pull, sha string) (code int, why string) {
	switch {
	case p.State == "closed":
		return http.StatusMethodNotAllowed, "Pull Request is not mergeable"
	case p.Unmergeable != "":
		return http.StatusMethodNotAllowed, p.Unmergeable
	case sha != "" && sha != p.HeadSHA:
		return http.StatusConflict, "Head branch was modified. Review and try the merge again."
	}
	if why := s.unmetCheck(p); why != "" {
		return http.StatusMethodNotAllowed, why
	}
	return 0, ""
}

// unmetCheck is GitHub's refusal of a merge of p for a required status
// check, "" when none is unmet. The checks are the Required contexts of
// p's base repository as seeded (SeedRepository), which apply only to its
// default branch, as branchRules answers; an unseeded repository requires
// none, so tests that seed none merge as before. A check is met when the
// newest status of its context on p's head, in the base repository (set
// through the API or seeded), is success. The first unmet one, in the
// seeded order, is named: expected when it has no status, pending, or
// failing (failure or error).
// s.mu is held.
func (s *Server) unmetCheck(p *Pull) string {
	repo, ok := s.repositories[strings.ToLower(p.Repo)]
	if !ok || len(repo.Required) == 0 || cmp.Or(p.BaseRef, "main") != cmp.Or(repo.DefaultBranch, "main") {
		return ""
	}
	_, newest := s.combined(p.Repo, p.HeadSHA)
	for _, c := range repo.Required {
		i := slices.IndexFunc(newest, func(st Status) bool { return st.Context == c })
		switch {
		case i < 0:
			return `Required status check "` + c + `" is expected.`
		case newest[i].State == "pending":
			return `Required status check "` + c + `" is pending.`
		case newest[i].State != "success":
			return `Required status check "` + c + `" is failing.`
		}
	}
	return ""
}

// listPulls answers GET /repos/{owner}/{repo}/pulls: the repository's pull
// requests in the state the query asks (open unless closed or all), of
// its head (owner:branch, the owner being the head repository's) and base
// branch when it names them, a page at a time with GitHub's Link header.
// They are sorted by creation, which their numbers follow, newest first
// unless direction=asc, as GitHub's default sort=created is. A sort by
// anything else, and a head without its owner, the fake does not know
// how GitHub answers, so it refuses them with 422 rather than guess.
func (s *Server) listPulls(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	state, sortBy, direction := cmp.Or(q.Get("state"), "open"), cmp.Or(q.Get("sort"), "created"), cmp.Or(q.Get("direction"), "desc")
	headOwner, headRef, byHead := strings.Cut(q.Get("head"), ":")
	switch {
	case !slices.Contains([]string{"open", "closed", "all"}, state), direction != "asc" && direction != "desc":
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed")
		return
	case sortBy != "created":
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed: the fake does not sort pull requests by "+sortBy)
		return
	case q.Get("head") != "" && !byHead:
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed: the fake filters head only as owner:branch")
		return
	}
	repo, base := r.PathValue("owner")+"/"+r.PathValue("repo"), q.Get("base")
	s.mu.Lock()
	var found []*Pull
	for _, p := range s.pulls {
		open := p.State == "" || p.State == "open"
		owner, _, _ := strings.Cut(cmp.Or(p.HeadRepo, p.Repo), "/")
		switch {
		case !strings.EqualFold(p.Repo, repo),
			state == "open" && !open, state == "closed" && open,
			byHead && (!strings.EqualFold(owner, headOwner) || p.HeadRef != headRef),
			base != "" && cmp.Or(p.BaseRef, "main") != base:
			continue
		}
		found = append(found, p)
	}
	slices.SortFunc(found, func(a, b *Pull) int { return cmp.Compare(a.Number, b.Number) })
	if direction == "desc" {
		slices.Reverse(found)
	}
	// Rendered while s.mu is held: a request may change a pull request
	// (its reviewers) as the page is written.
	items := make([]map[string]any, len(found))
	for i, p := range found {
		items[i] = renderPull(p)
	}
	s.mu.Unlock()
	writePage(w, r, len(items), func(i int) map[string]any { return items[i] })
}

// pullsAt lists the pull requests associated with a commit as GitHub does
// for the base repository: those of its own branches whose head is the
// commit (GitHub lists those that merely hold it too), and none for a
// commit of the default branch (GitHub lists only the merged pull request
// that brought it), as SeedBranch says where a branch is.
func (s *Server) pullsAt(w http.ResponseWriter, r *http.Request) {
	repo, sha := r.PathValue("owner")+"/"+r.PathValue("repo"), r.PathValue("sha")
	s.mu.Lock()
	items := []map[string]any{}
	main := s.repositories[strings.ToLower(repo)].DefaultBranch
	if at, ok := s.branches[strings.ToLower(repo)+"\x00"+cmp.Or(main, "main")]; !ok || at != sha {
		for _, p := range s.pulls {
			if strings.EqualFold(p.Repo, repo) && p.HeadSHA == sha && (p.HeadRepo == "" || strings.EqualFold(p.HeadRepo, p.Repo)) {
				items = append(items, renderPull(p))
			}
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, items)
}

// renderPull gives a pull request the JSON shape GitHub uses, with what a
// caller tells pull requests apart by: its author and their type, its
// head (a fork's repository is not the base's), its base branch, whether
// it is a draft, and its labels.
func renderPull(p *Pull) map[string]any {
	state, head := p.State, p.HeadRepo
	if state == "" {
		state = "open"
	}
	if head == "" {
		head = p.Repo
	}
	repo := func(full string) map[string]any {
		owner, name, _ := strings.Cut(full, "/")
		return map[string]any{"full_name": full, "name": name, "owner": map[string]any{"login": owner}}
	}
	// label is a branch as GitHub names it beside its ref: owner:branch.
	label := func(full, ref string) string {
		owner, _, _ := strings.Cut(full, "/")
		return owner + ":" + ref
	}
	reviewers := []map[string]any{}
	for _, login := range p.Reviewers {
		reviewers = append(reviewers, map[string]any{"login": login, "type": "User"})
	}
	labels := []map[string]any{}
	for _, name := range p.Labels {
		labels = append(labels, map[string]any{"name": name, "color": "ededed", "default": false})
	}
	base := cmp.Or(p.BaseRef, "main")
	return map[string]any{
		"id":                  int64(p.Number) * 1000,
		"number":              p.Number,
		"state":               state,
		"merged":              p.Merged,
		"html_url":            fmt.Sprintf("https://github.com/%s/pull/%d", p.Repo, p.Number),
		"title":               p.Title,
		"body":                p.Body,
		"draft":               p.Draft,
		"labels":              labels,
		"user":                map[string]any{"login": p.Author, "type": userType(p.Author)},
		"author_association":  cmp.Or(p.Association, "NONE"),
		"head":                map[string]any{"label": label(head, p.HeadRef), "ref": p.HeadRef, "sha": p.HeadSHA, "repo": repo(head)},
		"base":                map[string]any{"label": label(p.Repo, base), "ref": base, "repo": repo(p.Repo)},
		"requested_reviewers": reviewers,
	}
}

func renderReviewComment(p *Pull, review int64, c ReviewComment) map[string]any {
	out := map[string]any{
		"id":                     c.ID,
		"node_id":                fmt.Sprintf("PRRC_fake%d", c.ID),
		"pull_request_review_id": review,
		"path":                   c.Path,
		"body":                   c.Body,
		"diff_hunk":              c.DiffHunk,
		"user":                   map[string]any{"login": c.Author, "type": userType(c.Author)},
		"html_url":               fmt.Sprintf("https://github.com/%s/pull/%d#discussion_r%d", p.Repo, p.Number, c.ID),
		"line":                   nullIfZero(c.Line),
		"start_line":             nullIfZero(c.StartLine),
		"original_line":          c.Line,
		"original_start_line":    nullIfZero(c.StartLine),
		"side":                   "RIGHT",
		"created_at":             stamp(c.ID),
		"updated_at":             stamp(c.ID),
	}
	if c.Outdated {
		out["line"], out["start_line"] = nil, nil
	}
	return out
}

func nullIfZero(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

func userType(login string) string {
	if strings.HasSuffix(login, "[bot]") {
		return "Bot"
	}
	return "User"
}

// DismissReview dismisses review id of pull request number, as a person
// with write permission may: GitHub lists it DISMISSED from then on.
func (s *Server) DismissReview(number int, id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, r := range s.submitted[number] {
		if r.ID == id {
			s.submitted[number][i].State = "DISMISSED"
		}
	}
}
