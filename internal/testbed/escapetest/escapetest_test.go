package escapetest

import (
	"slices"
	"testing"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestAutolinks(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"www.example.com", []string{"www."}},
		{"www&#46;example.com", []string{"www."}}, // entities do not hide it
		{"WWW.x", []string{"WWW."}},
		{"https&#58;//x.y", []string{"://"}},
		{"a&#64;b.co", []string{"@b"}},
		{"@octocat", []string{"@o"}},
		{"&#35;12", []string{"#1"}},
		{"GH-7", []string{"GH-7"}},
		{"a5c3785", []string{"a5c3785"}},
		{"www\u2060.x https:\u2060//x a@\u2060b #\u206012 a5c378\u20605", nil},
		{"plain words, 123456.", nil},
	} {
		if got := Autolinks(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Autolinks(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCells(t *testing.T) {
	t.Parallel()
	for row, want := range map[string]int{
		"| a | b |":        2,
		"| | |":            2,
		"a | b":            2,
		"| a |":            1,
		"| a | b":          2,
		"| a || b |":       3,
		`| a \| b | c |`:   2,
		"| a &#124; b |":   1,
		"| [x](h|y) | z |": 3,
	} {
		if got := Cells(row); got != want {
			t.Errorf("Cells(%q) = %d, want %d", row, got, want)
		}
	}
}

func TestAutolinksSkipsCodeSpans(t *testing.T) {
	t.Parallel()
	if got := Autolinks("`a@b.co www.x` and c@d.co"); !slices.Equal(got, []string{"@d"}) {
		t.Errorf("Autolinks = %q, want only the address outside the code span", got)
	}
}

func TestSeen(t *testing.T) {
	t.Parallel()
	if got := Seen("mint\u2063_ke\U000E0041y\u200e\ufe0f!"); got != "mint_key!" {
		t.Errorf("Seen = %q", got)
	}
}
