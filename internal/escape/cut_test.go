package escape

import "testing"

// TestCut: a text is cut between characters, never inside one, and says
// it was cut.
func TestCut(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"ünïcödé", 4, "ünïc…"},
		{"🚀🚀", 1, "🚀…"},
		{"abc", 0, "…"},
	} {
		if got := Cut(tt.s, tt.n); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
