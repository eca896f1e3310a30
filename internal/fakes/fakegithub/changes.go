package fakegithub

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// File is a file a pull request or a comparison changes.
type File struct {
	Name      string
	Previous  string // the name before a rename; "" for none
	Status    string // "" means modified
	Additions int
	Deletions int
	Patch     string // "" leaves patch out, as GitHub does for a binary file
}

// Comparison is what GitHub answers when asked to compare two commits,
// as SeedComparison sets it for one pair.
type Comparison struct {
	Status string // ahead, behind, diverged or identical; "" means ahead
	Files  []File
	// MergeBase is the newest commit both sides follow; "" means base.
	MergeBase string
	// Commits are the commits from base to head, oldest first, as GitHub
	// lists them a page at a time; none means the comparison lists none
	// and counts one.
	Commits []Commit
}

// Commit is a commit: of a comparison (Comparison.Commits), or of a
// repository's history (SeedCommits).
type Commit struct {
	SHA     string
	Parents []string // its parents' SHAs: two for a merge commit
	// Files are what it changes from its parent (from nothing, for a
	// commit with none), in SeedCommits; a Comparison's commits leave
	// them out, and a merge commit's are not read: what it brings is what
	// its parents' commits change.
	Files []File
}

// Status is a commit status set through the API.
type Status struct {
	Repo        string // owner/name, as the request named it
	SHA         string
	State       string
	Context     string
	Description string
	TargetURL   string
}

// SeedStatus sets a commit status as an earlier run would have: the
// combined status reads it, and Statuses, which lists those set through
// the API, does not.
func (s *Server) SeedStatus(st Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.everStatus = append(s.everStatus, st)
}

// SeedComparison sets the answer to comparing base with head (commit
// SHAs) in repo ("owner/name"), whatever the commits SeedCommits added say
// of that pair. Comparing a pair neither sets gets 404, as for a commit
// GitHub does not know.
func (s *Server) SeedComparison(repo, base, head string, c Comparison) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.Files, c.Commits = slices.Clone(c.Files), slices.Clone(c.Commits)
	s.compares[strings.ToLower(repo)+" "+base+"..."+head] = c
}

// Statuses returns the commit statuses set, in order.
func (s *Server) Statuses() []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.statuses)
}

// Shown is the newest status of context on commit sha of repo
// ("owner/name") as GitHub shows it, whoever set it (a seed or the API);
// ok is false when it has none.
func (s *Server) Shown(repo, sha, context string) (st Status, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, newest := s.combined(repo, sha)
	i := slices.IndexFunc(newest, func(n Status) bool { return n.Context == context })
	if i < 0 {
		return Status{}, false
	}
	return newest[i], true
}

func (s *Server) listFiles(w http.ResponseWriter, r *http.Request) {
	n, ok := pathInt(w, r, "number")
	if !ok {
		return
	}
	s.mu.Lock()
	p := s.pathPull(r, n)
	var files []File
	if p != nil {
		files = slices.Clone(p.Files)
	}
	s.mu.Unlock()
	if p == nil {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	writePage(w, r, len(files), func(i int) map[string]any { return renderFile(p.Repo, p.HeadSHA, files[i]) })
}

// compare answers GET .../compare/{base}...{head}: as SeedComparison set
// the pair, or else as the history SeedCommits added says (comparison).
// The files come on the first page only, as on GitHub; the commits a page
// at a time.
func (s *Server) compare(w http.ResponseWriter, r *http.Request) {
	repo := r.PathValue("owner") + "/" + r.PathValue("repo")
	basehead := r.PathValue("basehead")
	base, head, ok := strings.Cut(basehead, "...")
	if !ok {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	s.mu.Lock()
	c, seeded := s.compares[strings.ToLower(repo)+" "+basehead]
	var a comparison
	known := true
	if seeded {
		a = seededComparison(base, c)
	} else {
		a, known = s.history(repo).compare(base, head)
	}
	s.mu.Unlock()
	if !known {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	files := []map[string]any{}
	if q := r.URL.Query().Get("page"); q == "" || q == "1" {
		for _, f := range a.files {
			files = append(files, renderFile(repo, head, f))
		}
	}
	commit := func(sha string) map[string]any {
		return map[string]any{"sha": sha, "url": "https://api.github.com/repos/" + repo + "/commits/" + sha}
	}
	commits := []any{}
	page, perPage := pageOf(r)
	for i := (page - 1) * perPage; i < min(page*perPage, len(a.commits)); i++ {
		parents := []any{}
		for _, p := range a.commits[i].Parents {
			parents = append(parents, commit(p))
		}
		one := commit(a.commits[i].SHA)
		one["parents"] = parents
		commits = append(commits, one)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"url":               "https://api.github.com/repos/" + repo + "/compare/" + basehead,
		"html_url":          "https://github.com/" + repo + "/compare/" + basehead,
		"permalink_url":     "https://github.com/" + repo + "/compare/" + basehead,
		"diff_url":          "https://github.com/" + repo + "/compare/" + basehead + ".diff",
		"patch_url":         "https://github.com/" + repo + "/compare/" + basehead + ".patch",
		"base_commit":       commit(base),
		"merge_base_commit": commit(a.mergeBase),
		"status":            a.status,
		"ahead_by":          a.aheadBy,
		"behind_by":         a.behindBy,
		"total_commits":     a.total,
		"commits":           commits,
		"files":             files,
	})
}

// seededComparison is the answer SeedComparison set, filled in: ahead
// unless it says otherwise, one commit ahead, one behind when diverged or
// behind, and at least one commit counted.
func seededComparison(base string, c Comparison) comparison {
	a := comparison{status: cmp.Or(c.Status, "ahead"), mergeBase: cmp.Or(c.MergeBase, base), files: c.Files, commits: c.Commits, aheadBy: 1, total: max(len(c.Commits), 1)}
	if a.status == "diverged" || a.status == "behind" {
		a.behindBy = 1
	}
	return a
}

func (s *Server) createStatus(w http.ResponseWriter, r *http.Request) {
	var in struct {
		State       string  `json:"state"`
		Context     string  `json:"context"`
		Description *string `json:"description"`
		TargetURL   *string `json:"target_url"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || !slices.Contains([]string{"error", "failure", "pending", "success"}, in.State) ||
		in.Description != nil && len([]rune(*in.Description)) > 140 {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed")
		return
	}
	if s.opt.ForbidStatuses {
		writeError(w, http.StatusForbidden, "Resource not accessible by integration")
		return
	}
	st := Status{Repo: r.PathValue("owner") + "/" + r.PathValue("repo"), SHA: r.PathValue("sha"), State: in.State, Context: in.Context}
	if st.Context == "" {
		st.Context = "default"
	}
	if in.Description != nil {
		st.Description = *in.Description
	}
	if in.TargetURL != nil {
		st.TargetURL = *in.TargetURL
	}
	s.mu.Lock()
	id := s.nextID
	s.nextID++
	s.statuses = append(s.statuses, st)
	s.everStatus = append(s.everStatus, st)
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{
		"id": id, "node_id": fmt.Sprintf("SC_fake%d", id), "state": st.State, "context": st.Context,
		"description": in.Description, "target_url": in.TargetURL, "created_at": stamp(id), "updated_at": stamp(id),
		"url": "https://api.github.com/repos/" + st.Repo + "/statuses/" + st.SHA,
	})
}

// combinedStatus answers GET .../commits/{ref}/status for a commit SHA:
// the newest status of each context, newest first, one page.
func (s *Server) combinedStatus(w http.ResponseWriter, r *http.Request) {
	repo, sha := r.PathValue("owner")+"/"+r.PathValue("repo"), r.PathValue("ref")
	s.mu.Lock()
	state, newest := s.combined(repo, sha)
	s.mu.Unlock()
	_, perPage := pageOf(r)
	statuses := []any{}
	for _, st := range newest[:min(perPage, len(newest))] {
		statuses = append(statuses, map[string]any{"state": st.State, "context": st.Context, "description": st.Description, "target_url": st.TargetURL})
	}
	writeJSON(w, http.StatusOK, map[string]any{"state": state, "sha": sha, "total_count": len(newest), "statuses": statuses})
}

// combined is the combined status of commit sha in repo, as GitHub
// combines it: failure when a context's newest status is an error or a
// failure, pending when one is pending (or there is none), success
// otherwise; and the newest status of each context, newest first. s.mu is
// held.
func (s *Server) combined(repo, sha string) (state string, newest []Status) {
	for _, st := range slices.Backward(s.everStatus) {
		if strings.EqualFold(st.Repo, repo) && st.SHA == sha && !slices.ContainsFunc(newest, func(n Status) bool { return n.Context == st.Context }) {
			newest = append(newest, st)
		}
	}
	state = "success"
	if len(newest) == 0 {
		state = "pending"
	}
	for _, st := range newest {
		switch {
		case st.State == "error" || st.State == "failure":
			state = "failure"
		case st.State == "pending" && state == "success":
			state = "pending"
		}
	}
	return state, newest
}

// SeedBranch adds or moves branch name of repo ("owner/name") to commit
// sha.
func (s *Server) SeedBranch(repo, name, sha string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.branches == nil {
		s.branches = map[string]string{}
	}
	s.branches[strings.ToLower(repo)+"\x00"+name] = sha
}

// branchesAt answers GET .../commits/{sha}/branches-where-head: the
// branches whose newest commit it is, sorted by name.
func (s *Server) branchesAt(w http.ResponseWriter, r *http.Request) {
	repo, sha := strings.ToLower(r.PathValue("owner")+"/"+r.PathValue("repo")), r.PathValue("sha")
	s.mu.Lock()
	var names []string
	for k, at := range s.branches {
		if r, name, _ := strings.Cut(k, "\x00"); r == repo && at == sha {
			names = append(names, name)
		}
	}
	s.mu.Unlock()
	slices.Sort(names)
	out := []map[string]any{}
	for _, n := range names {
		out = append(out, map[string]any{"name": n, "commit": map[string]any{"sha": sha, "url": "https://api.github.com/repos/" + repo + "/commits/" + sha}, "protected": false})
	}
	writeJSON(w, http.StatusOK, out)
}

func renderFile(repo, sha string, f File) map[string]any {
	status := f.Status
	if status == "" {
		status = "modified"
	}
	out := map[string]any{
		"sha":          "f00dfacef00dfacef00dfacef00dfacef00dface",
		"filename":     f.Name,
		"status":       status,
		"additions":    f.Additions,
		"deletions":    f.Deletions,
		"changes":      f.Additions + f.Deletions,
		"blob_url":     fmt.Sprintf("https://github.com/%s/blob/%s/%s", repo, sha, f.Name),
		"raw_url":      fmt.Sprintf("https://github.com/%s/raw/%s/%s", repo, sha, f.Name),
		"contents_url": fmt.Sprintf("https://api.github.com/repos/%s/contents/%s?ref=%s", repo, f.Name, sha),
	}
	if f.Patch != "" {
		out["patch"] = f.Patch
	}
	if f.Previous != "" {
		out["previous_filename"] = f.Previous
	}
	return out
}
