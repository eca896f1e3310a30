package admit

import "testing"

func TestMatchPhrase(t *testing.T) {
	t.Parallel()
	cases := []struct {
		body, phrase string
		want         bool
	}{
		{"/docs add a page", "/docs", true},
		{"please /docs now", "/docs", true},
		{"/docs\nmore", "/docs", true},
		{"/docs", "/docs", true},
		{"ok /docs", "/docs", true},
		{"line one\n/docs", "/docs", true},
		{"ok\t/docs\t", "/docs", true},
		{"\t/docs\t", "/docs", false}, // a tab at the start makes code
		{"run /docs.", "/docs", true},
		{"(/docs)", "/docs", true},
		{"/docs, then stop", "/docs", true},
		{"/docsify", "/docs", false},
		{"x/docs", "/docs", false},
		{"see a/b/docs", "/docs", false},
		{"/docs/guide", "/docs", false},
		{"/docs-bot", "/docs", false},
		{"/docs_x", "/docs", false},
		{"/docs2", "/docs", false},
		{"é/docs", "/docs", false},
		{"/docsé", "/docs", false},
		{"/Docs add", "/docs", false},
		{"/DOCS", "/docs", false},
		{"/docsify and then /docs", "/docs", true},
		{"x/docs /docs", "/docs", true},
		{"", "/docs", false},
		{"/doc", "/docs", false},
		{"anything", "", true},
		{"", "", true},
		{"hey @docs-bot please", "@docs-bot", true},
		{"mail me@docs-bot", "@docs-bot", false},
		{"@docs-bot2", "@docs-bot", false},
		{"docs", "docs", true},
		{"/docs", "docs", false},
		{"#docs", "docs", true},
		{"/docs /docs", "/docs /docs", true},
	}
	for _, tc := range cases {
		if got := matchPhrase(tc.body, tc.phrase); got != tc.want {
			t.Errorf("MatchPhrase(%q, %q) = %v, want %v", tc.body, tc.phrase, got, tc.want)
		}
	}
}

func TestStripPhrase(t *testing.T) {
	t.Parallel()
	cases := []struct {
		body, phrase, want string
	}{
		{"/docs add a page", "/docs", "add a page"},
		{"please /docs now", "/docs", "please now"},
		{"please\t/docs  now", "/docs", "please now"},
		{"/docs\nmore text", "/docs", "more text"},
		{"/docs", "/docs", ""},
		{"  /docs  \n", "/docs", ""},
		{"intro\n/docs write it\nend", "/docs", "intro\nwrite it\nend"},
		{"intro /docs\nnext line", "/docs", "intro\nnext line"},
		{"first\r\n/docs do it", "/docs", "first\r\ndo it"},
		{"/docsify this", "/docs", "/docsify this"},
		{"/docsify then /docs go", "/docs", "/docsify then go"},
		{"/docs twice /docs", "/docs", "twice /docs"},
		{"  no phrase here  ", "/docs", "no phrase here"},
		{"  keep all  ", "", "keep all"},
		{"add /docs", "/docs", "add"},
	}
	for _, tc := range cases {
		if got := stripPhrase(tc.body, tc.phrase); got != tc.want {
			t.Errorf("StripPhrase(%q, %q) = %q, want %q", tc.body, tc.phrase, got, tc.want)
		}
	}
}

// matchPhrase and stripPhrase are Read's two answers, as the tests ask
// for them.
func matchPhrase(body, phrase string) bool {
	asks, _, _ := Read(body, phrase)
	return asks
}

func stripPhrase(body, phrase string) string {
	_, text, _ := Read(body, phrase)
	return text
}
