package fakegithub

import (
	"cmp"
	"slices"
	"strings"
)

// SeedCommits adds commits to the history of repo ("owner/name"), or
// replaces those it holds with the same SHA: each names its parents and
// the files it changes from its parent (see Commit). The fake then
// compares any two commits of that history as GitHub does (see
// history.compare), unless SeedComparison set that pair's answer. A
// test seeds a pull request's pushes as commits, each on the head before
// it (or, for a force push, on a commit that head does not follow).
func (s *Server) SeedCommits(repo string, commits ...Commit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := strings.ToLower(repo)
	if s.commits[key] == nil {
		s.commits[key] = map[string]Commit{}
	}
	for _, c := range commits {
		c.Parents, c.Files = slices.Clone(c.Parents), slices.Clone(c.Files)
		s.commits[key][c.SHA] = c
	}
}

// comparison is what the fake answers to a comparison of two commits.
type comparison struct {
	status            string // identical, ahead, behind or diverged
	mergeBase         string
	files             []File
	commits           []Commit // head's that base does not follow, oldest first
	aheadBy, behindBy int
	total             int
}

// history is the commits SeedCommits added to one repository, by SHA.
type history map[string]Commit

// history is repo's history; s.mu is held, and the history is read only
// while it is.
func (s *Server) history(repo string) history { return s.commits[strings.ToLower(repo)] }

// compare compares commit base with commit head as GitHub does, and
// reports whether it can: both are in the history and share an
// ancestor. head is ahead when base is among its ancestors (the commits
// it follows, itself included), behind when it is among base's, identical
// when they are the same commit, and diverged otherwise. The commits
// are head's ancestors that are not base's, oldest first (parents before
// children); the merge base is the newest commit both follow; and the
// files are what those commits change, merge commits aside, composed
// (see compose): the change from the merge base to head, what a merge
// brings being its other parents' commits.
func (h history) compare(base, head string) (comparison, bool) {
	if _, ok := h[base]; !ok {
		return comparison{}, false
	}
	if _, ok := h[head]; !ok {
		return comparison{}, false
	}
	ofHead, ofBase := h.ancestors(head), h.ancestors(base)
	var common []string
	for _, sha := range ofHead {
		if slices.Contains(ofBase, sha) {
			common = append(common, sha)
		}
	}
	if len(common) == 0 {
		// GitHub: "No common ancestor between base and head".
		return comparison{}, false
	}
	a := comparison{mergeBase: h.newest(common)}
	for _, sha := range h.oldestFirst(head) {
		if !slices.Contains(ofBase, sha) {
			a.commits = append(a.commits, Commit{SHA: sha, Parents: h[sha].Parents})
		}
	}
	for _, sha := range ofBase {
		if !slices.Contains(ofHead, sha) {
			a.behindBy++
		}
	}
	a.aheadBy, a.total = len(a.commits), len(a.commits)
	switch {
	case a.aheadBy == 0 && a.behindBy == 0:
		a.status = "identical"
	case a.behindBy == 0:
		a.status = "ahead"
	case a.aheadBy == 0:
		a.status = "behind"
	default:
		a.status = "diverged"
	}
	var changes [][]File
	for _, c := range a.commits {
		if len(c.Parents) < 2 {
			changes = append(changes, h[c.SHA].Files)
		}
	}
	a.files = compose(changes)
	return a, true
}

// ancestors are the commits sha follows, itself first, nearest first
// (breadth first, first parents first). A parent the history does not
// hold is left out.
func (h history) ancestors(sha string) []string {
	out := []string{sha}
	for i := 0; i < len(out); i++ {
		for _, p := range h[out[i]].Parents {
			if _, known := h[p]; known && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// newest is the newest of common, the commits both sides of a comparison
// follow, nearest head first: the first that no other of them follows.
func (h history) newest(common []string) string {
	for _, c := range common {
		followed := false
		for _, d := range common {
			if d != c && slices.Contains(h.ancestors(d), c) {
				followed = true
				break
			}
		}
		if !followed {
			return c
		}
	}
	return common[0]
}

// oldestFirst are the commits head follows, itself included, each after
// its parents (first parents first).
func (h history) oldestFirst(head string) []string {
	var out []string
	seen := map[string]bool{}
	var visit func(sha string)
	visit = func(sha string) {
		if seen[sha] {
			return
		}
		seen[sha] = true
		for _, p := range h[sha].Parents {
			if _, known := h[p]; known {
				visit(p)
			}
		}
		out = append(out, sha)
	}
	visit(head)
	return out
}

// compose is the change that changes, oldest first, make one after the
// other: a file each, in the order they first change it. A file changed
// once is that change. One changed more than once is added when the first
// change added it, removed (under its first name) when the last removed
// it, renamed when its name at the end is another than at the start, and
// modified otherwise, with the lines added and deleted summed and the
// patches joined (GitHub writes one patch of the whole change; the fake
// holds no contents to write it from). A file added and then removed is
// left out, as from a diff.
func compose(changes [][]File) []File {
	type file struct {
		first, last          File
		changes              int
		additions, deletions int
		patches              []string
	}
	var all []*file
	at := map[string]*file{}
	for _, files := range changes {
		for _, f := range files {
			x, ok := at[f.Name]
			if f.Previous != "" {
				if y, was := at[f.Previous]; was {
					// A rename or copy of a file changed before.
					x, ok = y, true
					if f.Status != "copied" {
						delete(at, f.Previous)
					}
				}
			}
			if !ok || f.Status == "copied" {
				x = &file{first: f}
				all = append(all, x)
			}
			at[f.Name] = x
			x.last = f
			x.changes++
			x.additions += f.Additions
			x.deletions += f.Deletions
			if f.Patch != "" {
				x.patches = append(x.patches, f.Patch)
			}
		}
	}
	var out []File
	for _, x := range all {
		if x.changes == 1 {
			out = append(out, x.first)
			continue
		}
		from := cmp.Or(x.first.Previous, x.first.Name)
		before := x.first.Status != "added" && x.first.Status != "copied"
		after := x.last.Status != "removed"
		f := File{Name: x.last.Name, Additions: x.additions, Deletions: x.deletions, Patch: strings.Join(x.patches, "\n")}
		switch {
		case !before && !after:
			continue
		case !before:
			f.Status = x.first.Status
			f.Previous = x.first.Previous // a copy's source
		case !after:
			f.Status, f.Name = "removed", from
		case from != f.Name:
			f.Status, f.Previous = "renamed", from
		}
		out = append(out, f)
	}
	return out
}
