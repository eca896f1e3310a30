package fakegithub

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestMergeWaitsForRequiredChecks: a pull request into a branch whose
// ruleset requires status checks merges when the newest status of each
// on its head is success, and never before: not while one has no status
// or a pending one, not after a later failure or error, not on a status
// of another context, commit or repository, nor on the statuses of a
// head a push replaced. At each step the merge GitHub would refuse is
// refused (405, with GitHub's reason, the pull request left open), and
// Mergeable says the same without merging.
func TestMergeWaitsForRequiredChecks(t *testing.T) {
	t.Parallel()
	s := New(checked(Options{Token: tok}))
	defer s.Close()
	const first, pushed = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	s.SeedRepository(Repository{Name: "acme/docs", Required: []string{"ci", "docs / agent-job"}})
	s.SeedPull(Pull{Repo: "acme/docs", Number: 7, Author: "ada", HeadRef: "fix", HeadSHA: first})
	type status struct{ repo, sha, context, state string }
	steps := []struct {
		name string
		head string   // when not "", a push moves the head there first
		post []status // sha "" is the head
		why  string   // GitHub's refusal; "" when it merges
	}{
		{name: "no status", why: `Required status check "ci" is expected.`},
		{name: "a context not required", post: []status{{context: "lint", state: "success"}}, why: `Required status check "ci" is expected.`},
		{name: "pending", post: []status{{context: "ci", state: "pending"}}, why: `Required status check "ci" is pending.`},
		{name: "one of two succeeded", post: []status{{context: "ci", state: "success"}}, why: `Required status check "docs / agent-job" is expected.`},
		{name: "another repository's success", post: []status{{repo: "acme/other", context: "docs / agent-job", state: "success"}}, why: `Required status check "docs / agent-job" is expected.`},
		{name: "another commit's success", post: []status{{sha: pushed, context: "docs / agent-job", state: "success"}}, why: `Required status check "docs / agent-job" is expected.`},
		{name: "both succeeded", post: []status{{context: "docs / agent-job", state: "success"}}},
		{name: "a later failure", post: []status{{context: "docs / agent-job", state: "failure"}}, why: `Required status check "docs / agent-job" is failing.`},
		{name: "an error", post: []status{{context: "docs / agent-job", state: "success"}, {context: "ci", state: "error"}}, why: `Required status check "ci" is failing.`},
		{name: "success again", post: []status{{context: "ci", state: "success"}}},
		{name: "a push: the old head's statuses do not count", head: pushed, why: `Required status check "ci" is expected.`},
		{name: "the new head's own successes", post: []status{{context: "docs / agent-job", state: "success"}, {context: "ci", state: "success"}}},
	}
	head := first
	for i, st := range steps {
		if st.head != "" {
			head = st.head
			s.SeedPull(Pull{Repo: "acme/docs", Number: 7, Author: "ada", HeadRef: "fix", HeadSHA: head})
		}
		for _, p := range st.post {
			repo, sha := cmp.Or(p.repo, "acme/docs"), cmp.Or(p.sha, head)
			body := fmt.Sprintf(`{"state":%q,"context":%q}`, p.state, p.context)
			if a := send(t, s, "POST", "/repos/"+repo+"/statuses/"+sha, "Bearer "+tok, body); a.status != http.StatusCreated {
				t.Fatalf("%s: set status %s = %d %s", st.name, body, a.status, a.body)
			}
		}
		if ok, why := s.Mergeable("acme/docs", 7); ok != (st.why == "") || why != st.why {
			t.Errorf("%s: Mergeable() = %v, %q; want %v, %q", st.name, ok, why, st.why == "", st.why)
		}
		if st.why == "" && i < len(steps)-1 {
			continue // merging would end the steps
		}
		a := send(t, s, "PUT", "/repos/acme/docs/pulls/7/merge", "Bearer "+tok, `{"sha":"`+head+`","merge_method":"squash"}`)
		pr, _ := s.PullRequest("acme/docs", 7)
		switch {
		case st.why != "" && (a.status != http.StatusMethodNotAllowed || decode(t, a.body)["message"] != st.why || pr.Merged || pr.State != ""):
			t.Errorf("%s: merge = %d %s, the pull request merged %v; want 405 %q and still open", st.name, a.status, a.body, pr.Merged, st.why)
		case st.why == "" && (a.status != http.StatusOK || !pr.Merged):
			t.Errorf("%s: merge = %d %s, merged %v; want 200 and merged", st.name, a.status, a.body, pr.Merged)
		}
	}
	if ok, why := s.Mergeable("acme/docs", 7); ok || why != "Pull Request is not mergeable" {
		t.Errorf("Mergeable() once merged = %v, %q; want false, as GitHub refuses a closed pull request", ok, why)
	}
	noneInvalid(t, s)
}

// TestMergeWithoutRequiredChecks: only a repository seeded with Required
// checks refuses merges for them, and only into the branch its rules
// apply to (the default one): a pull request with no status at all
// merges into an unseeded repository, a seeded one without Required (a
// classic protection's checks are not enforced), and a branch other than
// the default. A pull request the fake does not hold is not mergeable.
func TestMergeWithoutRequiredChecks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		repo *Repository
		base string
	}{
		{name: "unseeded"},
		{name: "seeded without rules", repo: &Repository{Name: "acme/docs", DefaultBranch: "main"}},
		{name: "only classic protection", repo: &Repository{Name: "acme/docs", Protected: true, ProtectionRequired: []string{"ci"}}},
		{name: "another repository's rules", repo: &Repository{Name: "acme/other", Required: []string{"ci"}}},
		{name: "into a branch the rules do not cover", repo: &Repository{Name: "acme/docs", Required: []string{"ci"}}, base: "release"},
		{name: "into the default branch of another name", repo: &Repository{Name: "acme/docs", DefaultBranch: "trunk", Required: []string{"ci"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := New(checked(Options{Token: tok}))
			defer s.Close()
			if tc.repo != nil {
				s.SeedRepository(*tc.repo)
			}
			s.SeedPull(Pull{Repo: "acme/docs", Number: 7, HeadSHA: strings.Repeat("1", 40), BaseRef: tc.base})
			if ok, why := s.Mergeable("acme/docs", 7); !ok || why != "" {
				t.Errorf("Mergeable() = %v, %q; want true", ok, why)
			}
			if a := send(t, s, "PUT", "/repos/acme/docs/pulls/7/merge", "Bearer "+tok, `{}`); a.status != http.StatusOK {
				t.Errorf("merge = %d %s, want 200", a.status, a.body)
			}
			if ok, why := s.Mergeable("acme/docs", 8); ok || why != "Not Found" {
				t.Errorf("Mergeable() of none = %v, %q; want false, Not Found", ok, why)
			}
			noneInvalid(t, s)
		})
	}
}

// TestListPulls: the list of a repository's pull requests is filtered by
// state (open unless asked), head (owner:branch, a fork's owner being its
// own) and base, sorted newest first unless direction=asc, and what the
// fake cannot answer as GitHub would is refused with 422. The project's
// description of GitHub's API (github-rest.yaml) does not declare the
// list yet, so these requests are not checked against it; package
// ghclient's tests check them against a description of the operation.
func TestListPulls(t *testing.T) {
	t.Parallel()
	s := New(Options{Token: tok})
	t.Cleanup(s.Close)
	s.SeedPull(Pull{Repo: "acme/docs", Number: 1, HeadRef: "fix", HeadSHA: strings.Repeat("1", 40)})
	s.SeedPull(Pull{Repo: "acme/docs", Number: 2, HeadRef: "fix", HeadRepo: "fork/docs", HeadSHA: strings.Repeat("2", 40)})
	s.SeedPull(Pull{Repo: "acme/docs", Number: 3, HeadRef: "old", HeadSHA: strings.Repeat("3", 40), State: "closed", Merged: true})
	s.SeedPull(Pull{Repo: "acme/docs", Number: 4, HeadRef: "next", HeadSHA: strings.Repeat("4", 40), BaseRef: "release"})
	s.SeedPull(Pull{Repo: "acme/docs", Number: 5, HeadRef: "gone", HeadSHA: strings.Repeat("5", 40), State: "closed"})
	s.SeedPull(Pull{Repo: "acme/other", Number: 6, HeadRef: "fix", HeadSHA: strings.Repeat("6", 40)})
	cases := []struct {
		query string
		want  []int
		code  int // 0 for 200
	}{
		{query: "", want: []int{4, 2, 1}},
		{query: "state=open&sort=created&direction=asc", want: []int{1, 2, 4}},
		{query: "state=closed", want: []int{5, 3}},
		{query: "state=all&direction=asc", want: []int{1, 2, 3, 4, 5}},
		{query: "head=acme:fix", want: []int{1}},
		{query: "head=FORK:fix", want: []int{2}},
		{query: "head=acme:old&state=all", want: []int{3}},
		{query: "base=release", want: []int{4}},
		{query: "base=main&state=all&direction=desc", want: []int{5, 3, 2, 1}},
		{query: "head=acme:nothing", want: []int{}},
		{query: "state=merged", code: http.StatusUnprocessableEntity},
		{query: "direction=up", code: http.StatusUnprocessableEntity},
		{query: "sort=updated", code: http.StatusUnprocessableEntity},
		{query: "head=fix", code: http.StatusUnprocessableEntity},
	}
	for _, tc := range cases {
		t.Run("?"+tc.query, func(t *testing.T) {
			t.Parallel()
			a := send(t, s, "GET", "/repos/acme/docs/pulls?"+tc.query, "Bearer "+tok, "")
			if tc.code != 0 {
				if a.status != tc.code {
					t.Errorf("GET ?%s = %d %s, want %d", tc.query, a.status, a.body, tc.code)
				}
				return
			}
			var list []struct{ Number int }
			if err := json.Unmarshal([]byte(a.body), &list); err != nil || a.status != http.StatusOK {
				t.Fatalf("GET ?%s = %d %s (%v)", tc.query, a.status, a.body, err)
			}
			got := []int{}
			for _, p := range list {
				got = append(got, p.Number)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("GET ?%s listed %v, want %v", tc.query, got, tc.want)
			}
		})
	}
}

// TestListPullsPages: the list comes 30 to a page unless per_page asks
// up to 100, with the Link header that names the next and the last page
// on every page but the last.
func TestListPullsPages(t *testing.T) {
	t.Parallel()
	s := New(Options{Token: tok})
	t.Cleanup(s.Close)
	for n := range 250 {
		s.SeedPull(Pull{Repo: "acme/docs", Number: n + 1, HeadSHA: fmt.Sprintf("%040d", n+1)})
	}
	cases := []struct {
		query       string
		n, first    int
		next, last  int // 0: no Link
		wantPerPage int
	}{
		{query: "", n: 30, first: 250, next: 2, last: 9, wantPerPage: 30},
		{query: "direction=asc&per_page=100", n: 100, first: 1, next: 2, last: 3, wantPerPage: 100},
		{query: "direction=asc&per_page=100&page=3", n: 50, first: 201},
		{query: "direction=asc&per_page=1000&page=2", n: 100, first: 101, next: 3, last: 3, wantPerPage: 100},
		{query: "per_page=100&page=4", n: 0},
	}
	for _, tc := range cases {
		t.Run("?"+tc.query, func(t *testing.T) {
			t.Parallel()
			a := send(t, s, "GET", "/repos/acme/docs/pulls?"+tc.query, "Bearer "+tok, "")
			var list []struct{ Number int }
			if err := json.Unmarshal([]byte(a.body), &list); err != nil || a.status != http.StatusOK {
				t.Fatalf("GET ?%s = %d %s (%v)", tc.query, a.status, a.body, err)
			}
			if len(list) != tc.n || tc.n > 0 && list[0].Number != tc.first {
				t.Errorf("GET ?%s listed %d from %+v, want %d from #%d", tc.query, len(list), list[:min(1, len(list))], tc.n, tc.first)
			}
			link := a.header.Get("Link")
			if tc.next == 0 {
				if link != "" {
					t.Errorf("Link = %q, want none", link)
				}
				return
			}
			page := func(p int) string {
				return fmt.Sprintf("<%s/repos/acme/docs/pulls?%s>", s.URL, url.Values{"page": {fmt.Sprint(p)}, "per_page": {fmt.Sprint(tc.wantPerPage)}}.Encode())
			}
			if want := page(tc.next) + `; rel="next", ` + page(tc.last) + `; rel="last"`; link != want {
				t.Errorf("Link = %q\nwant   %q", link, want)
			}
		})
	}
}

// TestPullFields: a pull request, got or listed, says what a caller tells
// pull requests apart by: its author and whether a bot, its head's
// branch, commit and repository (a fork's own), its base branch, whether
// a draft, its labels and its author's association.
func TestPullFields(t *testing.T) {
	t.Parallel()
	s := New(Options{Token: tok})
	defer s.Close()
	s.SeedPull(Pull{Repo: "acme/docs", Number: 8, Author: "renovate[bot]", HeadRef: "deps", HeadRepo: "fork/docs", HeadSHA: strings.Repeat("8", 40),
		BaseRef: "release", Draft: true, Labels: []string{"dependencies", "docs"}, Association: "CONTRIBUTOR"})
	s.SeedPull(Pull{Repo: "acme/docs", Number: 9, Author: "ada", HeadRef: "fix", HeadSHA: strings.Repeat("9", 40)})
	type pull struct {
		Number int
		User   struct{ Login, Type string }
		Head   struct {
			Label, Ref, SHA string
			Repo            struct {
				FullName string `json:"full_name"`
			}
		}
		Base struct {
			Label, Ref string
			Repo       struct {
				FullName string `json:"full_name"`
			}
		}
		Draft       bool
		Labels      []struct{ Name string }
		Association string `json:"author_association"`
	}
	a := send(t, s, "GET", "/repos/acme/docs/pulls?direction=asc", "Bearer "+tok, "")
	var list []pull
	if err := json.Unmarshal([]byte(a.body), &list); err != nil || len(list) != 2 {
		t.Fatalf("list = %d %s (%v)", a.status, a.body, err)
	}
	var one pull
	if err := json.Unmarshal([]byte(send(t, s, "GET", "/repos/acme/docs/pulls/8", "Bearer "+tok, "").body), &one); err != nil {
		t.Fatal(err)
	}
	bot, person := list[0], list[1]
	switch {
	case bot.User.Login != "renovate[bot]" || bot.User.Type != "Bot":
		t.Errorf("the bot's pull request's author = %+v", bot.User)
	case bot.Head.Ref != "deps" || bot.Head.SHA != strings.Repeat("8", 40) || bot.Head.Repo.FullName != "fork/docs" || bot.Head.Label != "fork:deps":
		t.Errorf("a fork's head = %+v", bot.Head)
	case bot.Base.Ref != "release" || bot.Base.Repo.FullName != "acme/docs" || bot.Base.Label != "acme:release":
		t.Errorf("base = %+v", bot.Base)
	case !bot.Draft || len(bot.Labels) != 2 || bot.Labels[0].Name != "dependencies" || bot.Labels[1].Name != "docs" || bot.Association != "CONTRIBUTOR":
		t.Errorf("draft, labels, association = %v, %+v, %q", bot.Draft, bot.Labels, bot.Association)
	case person.User.Type != "User" || person.Head.Repo.FullName != "acme/docs" || person.Base.Ref != "main" || person.Draft || person.Labels == nil || len(person.Labels) != 0 || person.Association != "NONE":
		t.Errorf("a person's pull request = %+v", person)
	case fmt.Sprintf("%+v", one) != fmt.Sprintf("%+v", bot):
		t.Errorf("got %+v, listed %+v: not the same", one, bot)
	}
}
