package fakegithub

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sha is the n-th made-up commit SHA.
func sha(n int) string { return fmt.Sprintf("%040x", n) }

// compared is an answer of the compare endpoint, as the action reads it.
type compared struct {
	Status    string `json:"status"`
	AheadBy   int    `json:"ahead_by"`
	BehindBy  int    `json:"behind_by"`
	Total     int    `json:"total_commits"`
	MergeBase struct {
		SHA string `json:"sha"`
	} `json:"merge_base_commit"`
	Base struct {
		SHA string `json:"sha"`
	} `json:"base_commit"`
	Commits []struct {
		SHA     string `json:"sha"`
		Parents []struct {
			SHA string `json:"sha"`
		} `json:"parents"`
	} `json:"commits"`
	Files []struct {
		Name      string `json:"filename"`
		Previous  string `json:"previous_filename"`
		Status    string `json:"status"`
		Additions int    `json:"additions"`
		Deletions int    `json:"deletions"`
		Patch     string `json:"patch"`
	} `json:"files"`
}

// commits are the SHAs of c's commits, each with its parents after a
// colon, as "sha:parent,parent" with the SHAs cut to their last digit.
func (c compared) commits() []string {
	var out []string
	for _, x := range c.Commits {
		var ps []string
		for _, p := range x.Parents {
			ps = append(ps, p.SHA[39:])
		}
		out = append(out, x.SHA[39:]+":"+strings.Join(ps, ","))
	}
	return out
}

// files are c's files as "status name" (with "<-previous" after a
// rename), "+additions -deletions" and the patch.
func (c compared) files() []string {
	var out []string
	for _, f := range c.Files {
		s := f.Status + " " + f.Name
		if f.Previous != "" {
			s += "<-" + f.Previous
		}
		out = append(out, fmt.Sprintf("%s +%d -%d %q", s, f.Additions, f.Deletions, f.Patch))
	}
	return out
}

func compareOf(t *testing.T, s *Server, repo, base, head, query string) (compared, int) {
	t.Helper()
	a := send(t, s, "GET", "/repos/"+repo+"/compare/"+base+"..."+head+query, "Bearer "+tok, "")
	var c compared
	if a.status == 200 {
		if err := json.Unmarshal([]byte(a.body), &c); err != nil {
			t.Fatalf("compare %s...%s: %v", base, head, err)
		}
	}
	return c, a.status
}

// TestCompareHistory compares any two commits of a seeded history as
// GitHub does: the base branch (1, then 2), a branch from 1 pushed three
// times (3, 4, 5), a merge of the base into it (6), a rewrite of it from
// 1 (7), and an unrelated root (8). Its status, counts, commits and merge
// base follow from the commits' parents, and its files are what the
// commits since the merge base change, composed.
func TestCompareHistory(t *testing.T) {
	t.Parallel()
	s := New(checked(Options{Token: tok}))
	defer s.Close()
	s.SeedCommits("Acme/Code",
		Commit{SHA: sha(1), Files: []File{{Name: "README.md", Status: "added", Additions: 3, Patch: "@@ readme @@"}}},
		Commit{SHA: sha(2), Parents: []string{sha(1)}, Files: []File{{Name: "docs/base.md", Additions: 1, Patch: "@@ base @@"}}},
		Commit{SHA: sha(3), Parents: []string{sha(1)}, Files: []File{{Name: "a.go", Status: "added", Additions: 5, Patch: "@@ a1 @@"}, {Name: "old.go", Deletions: 1, Patch: "@@ old @@"}}},
		Commit{SHA: sha(4), Parents: []string{sha(3)}, Files: []File{{Name: "a.go", Additions: 2, Deletions: 1, Patch: "@@ a2 @@"}, {Name: "b.go", Status: "added", Additions: 1, Patch: "@@ b @@"}}},
		Commit{SHA: sha(5), Parents: []string{sha(4)}, Files: []File{{Name: "b.go", Status: "removed", Deletions: 1, Patch: "@@ -b @@"}, {Name: "new.go", Previous: "old.go", Status: "renamed"}}},
		Commit{SHA: sha(6), Parents: []string{sha(5), sha(2)}, Files: []File{{Name: "docs/base.md", Additions: 1, Patch: "@@ base @@"}}},
		Commit{SHA: sha(7), Parents: []string{sha(1)}, Files: []File{{Name: "a.go", Status: "added", Additions: 1, Patch: "@@ rewritten @@"}}},
		Commit{SHA: sha(8), Files: []File{{Name: "other.md", Status: "added"}}},
	)
	cases := []struct {
		name           string
		base, head     int
		status         string
		ahead, behind  int
		mergeBase      int
		commits, files []string
	}{
		{name: "one push", base: 3, head: 4, status: "ahead", ahead: 1, mergeBase: 3, commits: []string{"4:3"},
			files: []string{`modified a.go +2 -1 "@@ a2 @@"`, `added b.go +1 -0 "@@ b @@"`}},
		{name: "three pushes: the files composed, one added and removed left out", base: 1, head: 5, status: "ahead", ahead: 3, mergeBase: 1, commits: []string{"3:1", "4:3", "5:4"},
			files: []string{"added a.go +7 -1 \"@@ a1 @@\\n@@ a2 @@\"", `renamed new.go<-old.go +0 -1 "@@ old @@"`}},
		{name: "the same commit", base: 4, head: 4, status: "identical", mergeBase: 4},
		{name: "an older head", base: 5, head: 3, status: "behind", behind: 2, mergeBase: 3},
		{name: "the base branch moved on", base: 2, head: 4, status: "diverged", ahead: 2, behind: 1, mergeBase: 1, commits: []string{"3:1", "4:3"},
			files: []string{"added a.go +7 -1 \"@@ a1 @@\\n@@ a2 @@\"", `modified old.go +0 -1 "@@ old @@"`, `added b.go +1 -0 "@@ b @@"`}},
		{name: "a push that merged the base: what the base brought", base: 5, head: 6, status: "ahead", ahead: 2, mergeBase: 5, commits: []string{"2:1", "6:5,2"},
			files: []string{`modified docs/base.md +1 -0 "@@ base @@"`}},
		{name: "the base with a head that merged it: the branch's own change", base: 2, head: 6, status: "ahead", ahead: 4, mergeBase: 2, commits: []string{"3:1", "4:3", "5:4", "6:5,2"},
			files: []string{"added a.go +7 -1 \"@@ a1 @@\\n@@ a2 @@\"", `renamed new.go<-old.go +0 -1 "@@ old @@"`}},
		{name: "a force push", base: 5, head: 7, status: "diverged", ahead: 1, behind: 3, mergeBase: 1, commits: []string{"7:1"},
			files: []string{`added a.go +1 -0 "@@ rewritten @@"`}},
	}
	for _, tc := range cases {
		c, code := compareOf(t, s, "acme/code", sha(tc.base), sha(tc.head), "")
		if code != 200 {
			t.Errorf("%s: %d", tc.name, code)
			continue
		}
		if c.Status != tc.status || c.AheadBy != tc.ahead || c.BehindBy != tc.behind || c.Total != tc.ahead || c.MergeBase.SHA != sha(tc.mergeBase) || c.Base.SHA != sha(tc.base) {
			t.Errorf("%s: status %s, ahead %d, behind %d, total %d, merge base %s, base %s; want %s, %d, %d, %d, %s, %s", tc.name, c.Status, c.AheadBy, c.BehindBy, c.Total,
				c.MergeBase.SHA, c.Base.SHA, tc.status, tc.ahead, tc.behind, tc.ahead, sha(tc.mergeBase), sha(tc.base))
		}
		if got := c.commits(); !slices.Equal(got, tc.commits) {
			t.Errorf("%s: commits %q, want %q", tc.name, got, tc.commits)
		}
		if got := c.files(); !slices.Equal(got, tc.files) {
			t.Errorf("%s: files\n%s\nwant\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.files, "\n"))
		}
	}

	// A page at a time: the commits of the page asked, the files on the
	// first page only.
	first, _ := compareOf(t, s, "acme/code", sha(1), sha(5), "?per_page=2")
	second, _ := compareOf(t, s, "acme/code", sha(1), sha(5), "?per_page=2&page=2")
	if got, want := append(first.commits(), second.commits()...), []string{"3:1", "4:3", "5:4"}; !slices.Equal(got, want) || first.Total != 3 || second.Total != 3 {
		t.Errorf("commits by pages of 2: %q, total %d and %d; want %q, 3", got, first.Total, second.Total, want)
	}
	if len(first.Files) != 2 || len(second.Files) != 0 {
		t.Errorf("files by page: %d then %d, want 2 then none", len(first.Files), len(second.Files))
	}

	// GitHub knows neither a commit the history does not hold nor a
	// common ancestor of two unrelated roots; another repository holds
	// none of these commits.
	for _, pair := range [][3]string{{"acme/code", sha(1), sha(9)}, {"acme/code", sha(9), sha(1)}, {"acme/code", sha(5), sha(8)}, {"acme/other", sha(1), sha(3)}} {
		if _, code := compareOf(t, s, pair[0], pair[1], pair[2], ""); code != 404 {
			t.Errorf("compare %s in %s: %d, want 404", pair[1][39:]+"..."+pair[2][39:], pair[0], code)
		}
	}

	// A comparison seeded for one pair answers as seeded.
	s.SeedComparison("acme/code", sha(3), sha(4), Comparison{Status: "diverged", Files: []File{{Name: "seeded.go"}}})
	if c, _ := compareOf(t, s, "acme/code", sha(3), sha(4), ""); c.Status != "diverged" || len(c.Files) != 1 || c.Files[0].Name != "seeded.go" || c.AheadBy != 1 || c.BehindBy != 1 || c.MergeBase.SHA != sha(3) {
		t.Errorf("a seeded comparison: %+v", c)
	}
	if u := s.Unexpected(); len(u) != 0 {
		t.Errorf("Unexpected() = %q", u)
	}
}
