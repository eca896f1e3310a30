package invisible

import (
	"testing"
	"unicode"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func TestIs(t *testing.T) {
	t.Parallel()
	for _, r := range []rune{
		0x00ad, 0x034f, 0x061c, 0x115f, 0x1160, 0x17b4, 0x180b, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f,
		0x202a, 0x202e, 0x2060, 0x2062, 0x2063, 0x2064, 0x2066, 0x2069, 0x206f, 0x3164, 0xfe00, 0xfe0f, 0xfeff,
		0xffa0, 0xfff0, 0xfff9, 0x1d173, 0xe0000, 0xe0001, 0xe0020, 0xe0041, 0xe007f, 0xe0100, 0xe01ef, 0xe0fff,
	} {
		if !Is(r) {
			t.Errorf("Is(%U) = false, want true", r)
		}
	}
	for _, r := range []rune{'a', ' ', '\t', '\n', 0x7f, 0xa0, 0x2028, 0x3000, 'é', '中', 0x1f600, 0x0301} {
		if Is(r) {
			t.Errorf("Is(%U) = true, want false", r)
		}
	}
}

// TestIsCoversTheProperties checks every code point: Is holds for exactly
// the characters of Cf, Other_Default_Ignorable_Code_Point and
// Variation_Selector.
func TestIsCoversTheProperties(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Variation_Selector, r)
		if Is(r) != want {
			t.Fatalf("Is(%U) = %v, want %v", r, Is(r), want)
		}
		if unicode.Is(unicode.White_Space, r) && Is(r) {
			t.Fatalf("Is(%U): white space counted as invisible", r)
		}
	}
}

func TestRemove(t *testing.T) {
	t.Parallel()
	if got := Remove("mint\u2063_ke\U000E0041y\u200e\ufe0f!"); got != "mint_key!" {
		t.Errorf("Remove = %q", got)
	}
	if got := RemoveTags("do \U000E0069\U000E0067this"); got != "do this" {
		t.Errorf("RemoveTags = %q", got)
	}
	if got := RemoveTags("a\u200db"); got != "a\u200db" {
		t.Errorf("RemoveTags removed a joiner: %q", got)
	}
}
