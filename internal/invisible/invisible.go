// Package invisible knows the characters a reader does not see: every
// default-ignorable code point and every format character. Wherever the
// action looks for a secret, and wherever it cleans text for the log, a
// terminal or Markdown, these count as absent, so that a key with U+2063
// inside it is still the key, and text cannot be reordered or hidden on
// screen. What is sent to the agent is cleaned of them too (Clean), but for
// the few that make emoji into one picture.
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
	"unicode/utf8"
)

// tables are searched in this order; Cf holds the characters met most.
var tables = []*unicode.RangeTable{unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector}

// Is reports whether r is invisible: default-ignorable or a format
// character.
func Is(r rune) bool {
	// U+00AD is the first of them.
	return r >= 0xad && unicode.In(r, tables...)
}

// The invisible characters that Clean keeps where they make one picture of
// emoji (Unicode Technical Standard #51).
const (
	zwj       = '\u200d' // ZERO WIDTH JOINER: 👩 + ZWJ + 💻 is one picture, 👩‍💻
	vs16      = '\ufe0f' // VARIATION SELECTOR-16: ❤ + VS16 is drawn as an emoji, ❤️
	keycap    = '\u20e3' // COMBINING ENCLOSING KEYCAP, visible: 1 + VS16 + U+20E3 is 1️⃣
	blackFlag = '\U0001f3f4'
)

// subdivisionFlags are the tag sequences that follow U+1F3F4 in the three
// emoji tag sequences UTS #51 recommends for general interchange (RGI):
// the flags of England (gbeng), Scotland (gbsct) and Wales (gbwls), each
// ended by CANCEL TAG U+E007F. Any other run of tag characters shows as
// nothing, or as a black flag, while spelling ASCII text to a model.
var subdivisionFlags = []string{
	"\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F",
	"\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F",
	"\U000E0067\U000E0062\U000E0077\U000E006C\U000E0073\U000E007F",
}

// Clean returns s as a reader sees it, for the agent: without its
// invisible characters, except those that are part of an emoji a reader
// sees as one picture:
//   - U+200D (ZERO WIDTH JOINER) between an emoji and a pictograph (an
//     emoji ZWJ sequence: 👩‍💻, ❤️‍🔥, 👩🏽‍🚀);
//   - U+FE0F (VARIATION SELECTOR-16) right after a pictograph (❤️), or
//     after 0-9, # or * that U+20E3 follows (a keycap: 1️⃣);
//   - the tag characters of the flags of England, Scotland and Wales after
//     U+1F3F4, the only emoji tag sequences UTS #51 recommends.
//
// Each of those tells one picture from another and nothing else: a joiner
// or a selector is one per place, present or not, and the three flags are
// fixed sequences. Every other joiner or selector (the 256 selectors can
// spell any byte), every tag character, zero-width character and
// bidirectional control is removed. When Clean removes anything, it also
// writes each byte of invalid UTF-8 as U+FFFD.
func Clean(s string) string {
	if !strings.ContainsFunc(s, Is) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	// prev is the rune kept last, -1 right after a removed one; emoji says
	// whether the text kept so far ends in an emoji (a pictograph, with
	// its skin tone or VS16) that a joiner may follow.
	prev, emoji := rune(-1), false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		rest := s[i+n:]
		keep := true
		switch {
		case !Is(r):
		case r == zwj:
			next, _ := utf8.DecodeRuneInString(rest)
			keep = emoji && pictograph(next)
		case r == vs16:
			keep = pictograph(prev) || strings.ContainsRune("0123456789#*", prev) && strings.HasPrefix(rest, string(keycap))
		default:
			keep = false
		}
		i += n
		if !keep {
			// What follows is no longer joined to what came before.
			prev, emoji = -1, false
			continue
		}
		if r == utf8.RuneError && n == 1 {
			// A stray byte is written as encoding/json writes it: had it
			// stayed, the bytes around a removed character could join
			// into one that was never there.
			b.WriteRune(r)
		} else {
			b.WriteString(s[i-n : i])
		}
		switch {
		case pictograph(r):
			emoji = true
		case r == vs16 || modifier(r):
			// emoji stays as it was: a tone or a selector ends an emoji
			// only after one.
		default:
			emoji = false
		}
		prev = r
		if r == blackFlag {
			for _, tags := range subdivisionFlags {
				if strings.HasPrefix(rest, tags) {
					b.WriteString(tags)
					i += len(tags)
					prev = '\U000E007F'
					break
				}
			}
		}
	}
	return b.String()
}

// modifier reports whether r is an emoji modifier: one of the five skin
// tones, U+1F3FB-U+1F3FF.
func modifier(r rune) bool { return r >= 0x1f3fb && r <= 0x1f3ff }

// pictograph reports whether r is Extended_Pictographic: an emoji, or a
// code point reserved for one.
func pictograph(r rune) bool { return r >= 0xa9 && unicode.Is(extendedPictographic, r) }
