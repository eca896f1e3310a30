package fakegithub

import (
	"io"
	"net/http"
	"slices"
	"strings"
)

// Repository is what the fake shows of a repository to a token that can
// see it: its default branch, the rules that apply to that branch, and
// its protection summary. Unseeded repositories a token sees have main,
// no rules and no protection.
type Repository struct {
	Name          string // owner/name
	DefaultBranch string
	// Required are the status checks the branch's rulesets require, by
	// context: the rules endpoint lists them, and a merge into the branch
	// is refused until each has succeeded on the pull request's head (see
	// Mergeable). MergeQueue says that a ruleset's merge queue merges into
	// it.
	Required   []string
	MergeQueue bool
	// Protected says classic branch protection is on; ProtectionRequired
	// are the status checks it requires.
	Protected          bool
	ProtectionRequired []string
}

// App is a GitHub App's public page: its slug and the permissions it asks
// of the repositories it is installed on.
type App struct {
	Slug        string
	Permissions map[string]string
}

// SeedRepository adds r, or replaces the one of its name.
func (s *Server) SeedRepository(r Repository) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.repositories == nil {
		s.repositories = map[string]Repository{}
	}
	// Merges read Required as they are refused (unmetCheck): a test that
	// changes its slice after seeding does not change the rules.
	r.Required, r.ProtectionRequired = slices.Clone(r.Required), slices.Clone(r.ProtectionRequired)
	s.repositories[strings.ToLower(r.Name)] = r
}

// SeedApp adds the public page of app a.
func (s *Server) SeedApp(a App) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.apps == nil {
		s.apps = map[string]App{}
	}
	s.apps[strings.ToLower(a.Slug)] = a
}

// repository is the repository the request's path names, as seeded or by
// default.
func (s *Server) repository(r *http.Request) (Repository, string) {
	name := r.PathValue("owner") + "/" + r.PathValue("repo")
	s.mu.Lock()
	defer s.mu.Unlock()
	repo, ok := s.repositories[strings.ToLower(name)]
	if !ok {
		repo = Repository{Name: name}
	}
	if repo.DefaultBranch == "" {
		repo.DefaultBranch = "main"
	}
	return repo, name
}

// getRepository answers GET /repos/{owner}/{repo}, with the token's
// permissions on it: a token the fake accepts may push.
func (s *Server) getRepository(w http.ResponseWriter, r *http.Request) {
	repo, name := s.repository(r)
	owner, short, _ := strings.Cut(name, "/")
	writeJSON(w, http.StatusOK, map[string]any{
		"id": 1296269, "node_id": "MDEwOlJlcG9zaXRvcnkxMjk2MjY5", "name": short, "full_name": name, "private": true,
		"owner":          map[string]any{"login": owner, "id": 1, "type": "Organization"},
		"html_url":       "https://github.com/" + name,
		"url":            "https://api.github.com/repos/" + name,
		"default_branch": repo.DefaultBranch,
		"permissions":    map[string]any{"admin": false, "maintain": false, "push": true, "triage": true, "pull": true},
	})
}

// branchRules answers GET /repos/{owner}/{repo}/rules/branches/{branch}:
// the rules of the repository's rulesets that apply to its default
// branch; none to another.
func (s *Server) branchRules(w http.ResponseWriter, r *http.Request) {
	repo, _ := s.repository(r)
	rules := []map[string]any{}
	if r.PathValue("branch") == repo.DefaultBranch {
		source := func(rule map[string]any) map[string]any {
			rule["ruleset_source_type"], rule["ruleset_source"], rule["ruleset_id"] = "Repository", repo.Name, 42
			return rule
		}
		if len(repo.Required) > 0 {
			checks := []map[string]any{}
			for _, c := range repo.Required {
				checks = append(checks, map[string]any{"context": c})
			}
			rules = append(rules, source(map[string]any{"type": "required_status_checks",
				"parameters": map[string]any{"strict_required_status_checks_policy": false, "required_status_checks": checks}}))
		}
		if repo.MergeQueue {
			rules = append(rules, source(map[string]any{"type": "merge_queue", "parameters": map[string]any{
				"check_response_timeout_minutes": 60, "grouping_strategy": "ALLGREEN", "max_entries_to_build": 5, "max_entries_to_merge": 5,
				"merge_method": "SQUASH", "min_entries_to_merge": 1, "min_entries_to_merge_wait_minutes": 5}}))
		}
	}
	writeJSON(w, http.StatusOK, rules)
}

// getBranch answers GET /repos/{owner}/{repo}/branches/{branch} for the
// default branch, with its protection summary; 404 for another.
func (s *Server) getBranch(w http.ResponseWriter, r *http.Request) {
	repo, name := s.repository(r)
	if r.PathValue("branch") != repo.DefaultBranch {
		writeError(w, http.StatusNotFound, "Branch not found")
		return
	}
	contexts := repo.ProtectionRequired
	if contexts == nil {
		contexts = []string{}
	}
	checks := []map[string]any{}
	for _, c := range contexts {
		checks = append(checks, map[string]any{"context": c, "app_id": nil})
	}
	level := "off"
	if len(contexts) > 0 {
		level = "non_admins"
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"name":      repo.DefaultBranch,
		"commit":    map[string]any{"sha": strings.Repeat("0", 40), "url": "https://api.github.com/repos/" + name + "/commits/" + strings.Repeat("0", 40)},
		"_links":    map[string]any{"self": "https://api.github.com/repos/" + name + "/branches/" + repo.DefaultBranch, "html": "https://github.com/" + name + "/tree/" + repo.DefaultBranch},
		"protected": repo.Protected,
		"protection": map[string]any{"enabled": repo.Protected,
			"required_status_checks": map[string]any{"enforcement_level": level, "contexts": contexts, "checks": checks}},
		"protection_url": "https://api.github.com/repos/" + name + "/branches/" + repo.DefaultBranch + "/protection",
	})
}

// getApp answers GET /apps/{app_slug}: an app's public page, 404 for one
// the fake does not know.
func (s *Server) getApp(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	a, ok := s.apps[strings.ToLower(r.PathValue("slug"))]
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": 1, "slug": a.Slug, "node_id": "MDExOkludGVncmF0aW9uMQ==", "name": a.Slug,
		"owner":       map[string]any{"login": a.Slug, "id": 2, "type": "Organization"},
		"html_url":    "https://github.com/apps/" + a.Slug,
		"permissions": a.Permissions, "events": []string{"pull_request", "push"},
		"created_at": "2021-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
	})
}

// SeedRef makes ref (a tag or a branch) of repo name commit sha, as GET
// .../commits/{ref} resolves it; a commit SHA seeded as its own ref
// resolves too.
func (s *Server) SeedRef(repo, ref, sha string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refs == nil {
		s.refs = map[string]string{}
	}
	s.refs[strings.ToLower(repo)+"\x00"+ref] = sha
}

// resolveRef answers GET .../commits/{ref}: the commit's SHA as text with
// the sha media type (go-github's GetCommitSHA1), 422 for a ref that names
// no commit, as GitHub answers.
func (s *Server) resolveRef(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	sha, ok := s.refs[strings.ToLower(r.PathValue("owner")+"/"+r.PathValue("repo"))+"\x00"+r.PathValue("ref")]
	s.mu.Unlock()
	switch {
	case !ok:
		writeError(w, http.StatusUnprocessableEntity, "No commit found for SHA: "+r.PathValue("ref"))
	case strings.Contains(r.Header.Get("Accept"), "sha"):
		w.Header().Set("Content-Type", "application/vnd.github.sha")
		_, _ = io.WriteString(w, sha)
	default:
		writeJSON(w, http.StatusOK, map[string]any{"sha": sha})
	}
}
