package fakegithub

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// searchIssues answers GET /search/issues for the qualifiers a search of
// pull requests by commit status uses: repo:owner/name, is:pr, is:open and
// status:pending|success|failure (the combined status of the head, which
// a pull request without any status has none of). Any other term is
// refused with 422, as GitHub refuses a query it cannot parse; a
// repository the token cannot see, too. sort=created orders by number,
// as pull requests are numbered in the order they are opened; order
// is desc unless asc.
func (s *Server) searchIssues(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var repo, status string
	var open, pulls bool
	for _, term := range strings.Fields(q.Get("q")) {
		name, value, _ := strings.Cut(term, ":")
		switch {
		case name == "repo" && strings.Count(value, "/") == 1:
			repo = value
		case term == "is:pr":
			pulls = true
		case term == "is:open":
			open = true
		case name == "status" && slices.Contains([]string{"pending", "success", "failure"}, value):
			status = value
		default:
			writeError(w, http.StatusUnprocessableEntity, "Validation Failed: the fake does not search by "+term)
			return
		}
	}
	if _, visible := s.sees(r, repo); repo == "" || !visible || !pulls {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed: the listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them")
		return
	}
	s.mu.Lock()
	var found []map[string]any
	for _, p := range s.pulls {
		if !strings.EqualFold(p.Repo, repo) || open && p.State != "" && p.State != "open" {
			continue
		}
		if state, newest := s.combined(p.Repo, p.HeadSHA); status != "" && (len(newest) == 0 || state != status) {
			continue
		}
		comments := 0
		for _, c := range s.comments {
			if c.Number == p.Number {
				comments++
			}
		}
		found = append(found, map[string]any{
			"id": int64(p.Number) * 1000, "number": p.Number, "title": p.Title, "body": p.Body, "state": cmp.Or(p.State, "open"),
			"comments": comments, "user": map[string]any{"login": p.Author, "type": userType(p.Author)},
			"html_url":     fmt.Sprintf("https://github.com/%s/pull/%d", p.Repo, p.Number),
			"pull_request": map[string]any{"url": fmt.Sprintf("https://api.github.com/repos/%s/pulls/%d", p.Repo, p.Number)},
		})
	}
	s.mu.Unlock()
	number := func(m map[string]any) int { return m["number"].(int) }
	slices.SortFunc(found, func(a, b map[string]any) int { return cmp.Compare(number(a), number(b)) })
	if q.Get("order") != "asc" {
		slices.Reverse(found)
	}
	items := onPage(w, r, len(found), func(i int) map[string]any { return found[i] })
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(found), "incomplete_results": false, "items": items})
}
