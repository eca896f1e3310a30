// Package invisible knows the characters a reader does not see: every
// default-ignorable code point and every format character. Wherever the
// action looks for a secret, and wherever it cleans text for the log, a
// terminal or Markdown, these count as absent, so that a key with U+2063
// inside it is still the key, and text cannot be reordered or hidden on
// screen.
//
// The set is the union of Unicode's general category Cf (format: U+00AD,
// U+200B-U+200F, U+202A-U+202E, U+2060-U+2064, U+2066-U+206F, U+FEFF,
// U+FFF9-U+FFFB, the tag characters U+E0001 and U+E0020-U+E007F, ...),
// Other_Default_Ignorable_Code_Point (U+034F, U+115F, U+1160, U+17B4,
// U+17B5, U+3164, U+FFA0, U+E0000-U+E0FFF unassigned, ...) and
// Variation_Selector (U+180B-U+180D, U+180F, U+FE00-U+FE0F,
// U+E0100-U+E01EF). Default_Ignorable_Code_Point is exactly that union
// less White_Space (none of the three holds any), U+FFF9-U+FFFB,
// U+13430-U+1343F and the prepended concatenation marks, which are format
// characters and so are here too: the set is every Default_Ignorable_Code_Point
// and every Cf, as the tables of Go's unicode package give them.
package invisible

import (
	"strings"
	"unicode"
)

// tables are searched in this order; Cf holds the characters met most.
var tables = []*unicode.RangeTable{unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector}

// Is reports whether r is invisible: default-ignorable or a format
// character.
func Is(r rune) bool {
	// U+00AD is the first of them.
	return r >= 0xad && unicode.In(r, tables...)
}

// Remove returns s without its invisible characters.
func Remove(s string) string { return without(s, Is) }

// IsTag reports whether r is a tag character (U+E0000-U+E007F): invisible
// ASCII, one for each printable character, that a model reads as text and
// a person never sees.
func IsTag(r rune) bool { return r >= 0xe0000 && r <= 0xe007f }

// RemoveTags returns s without tag characters.
func RemoveTags(s string) string { return without(s, IsTag) }

// without returns s without the runes drop reports, s itself when it has
// none.
func without(s string, drop func(rune) bool) string {
	if !strings.ContainsFunc(s, drop) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if drop(r) {
			return -1
		}
		return r
	}, s)
}
