// Package redact keeps secrets out of everything the action writes: a
// Writer replaces each registered secret with *** in every form it can
// take, and owns the lock that orders its writes.
package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/invisible"
)

// Writer replaces secrets with *** in every form they can take in what the
// action writes, and writes the result to the writer it wraps. It matches twice:
//   - exactly, the forms this program's own escapers give a secret: as it
//     is, escape.Markdown, escape.Line, Go- and JSON-quoted, escape.Log, and
//     each of those percent-encoded as go-githubactions encodes command data
//     and properties;
//   - on normalised forms of the text, in which escapes of every kind are
//     decoded (backslash escapes of Go and JSON, \uXXXX of any character
//     included, and of Markdown, a backslash before any ASCII punctuation;
//     %XX; HTML references, named and numeric) and invisible characters (every
//     default-ignorable and format character: package invisible) are
//     dropped, once, twice, until nothing changes; the secret
//     is looked for, in each of its own decoded forms, in each of them. A
//     secret found there is replaced in the original text, whole escapes at
//     a time. This catches forms nobody listed: a key the API echoes as
//     "mint\u005f…", a key escaped twice, a key next to text that changes
//     its escaping, a key the API escaped for Markdown ("mint\_…"),
//     which a page shows as the key whatever escaping of it this program
//     adds.
//
// It is safe for concurrent use.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	exact   []string // longest first, so that no shorter form cuts a longer one
	normals []string
}

// add registers one line of a secret.
// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Add registers secret (one line of it): from now on it is replaced in
// everything the Writer writes or redacts.
func (r *Writer) Add(secret string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.add(secret)
}

// AddAnnounced writes announcement to the wrapped writer as it is, then
// registers secret, with no other write between: the line that tells the
// runner to mask a secret (::add-mask::) must carry the secret itself.
func (r *Writer) AddAnnounced(secret, announcement string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := io.WriteString(r.w, announcement); err != nil {
		return err
	}
	r.add(secret)
	return nil
}

func (r *Writer) add(secret string) {
	quoted := strconv.Quote(secret)
	logged := escape.Log(secret)
	if strings.HasPrefix(logged, `"`) {
		logged = logged[1 : len(logged)-1]
	}
	bases := []string{secret, escape.Markdown(secret), escape.Line(secret), quoted[1 : len(quoted)-1], logged, jsonInner(secret, true), jsonInner(secret, false)}
	for _, f := range bases {
		r.exact = append(r.exact, f, CommandData(f), CommandProperty(f))
	}
	r.exact = slices.DeleteFunc(r.exact, func(s string) bool { return s == "" })
	slices.SortFunc(r.exact, func(a, b string) int { return len(b) - len(a) })
	r.exact = slices.Compact(r.exact)
	// JSON writes each byte of invalid UTF-8 as U+FFFD, Markdown each run
	// of them: look for those forms too.
	for _, sec := range []string{secret, perByteValid(secret), strings.ToValidUTF8(secret, "\uFFFD")} {
		for _, lv := range levels(sec) {
			if len(lv.text) > 0 {
				r.normals = append(r.normals, string(lv.text))
			}
		}
	}
	slices.Sort(r.normals)
	r.normals = slices.Compact(r.normals)
}

// perByteValid replaces each byte of invalid UTF-8 in s with U+FFFD.
func perByteValid(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

func jsonInner(s string, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(s) // a string always encodes
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// escapeUnseen writes every C1 control, line separator and invisible
// character (package invisible: the bidirectional controls among them) of
// a JSON string's inside as a \u escape, so that the job output and the
// --json record stay one valid line of JSON and a terminal or a log shows
// nothing reordered or hidden, while the value decodes to what the API
// sent.
func escapeUnseen(s string) string {
	if !strings.ContainsFunc(s, unseen) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !unseen(r):
			b.WriteRune(r)
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func unseen(r rune) bool {
	return r >= 0x7f && r <= 0x9f || r == '\u2028' || r == '\u2029' || invisible.Is(r)
}

// CommandData and CommandProperty are go-githubactions' encodings of a
// workflow command's data and property values, which the runner decodes
// before it shows (and masks) them.
var (
	CommandData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace
	CommandProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace
)

// Redact returns s with every registered secret replaced by ***.
func (r *Writer) Redact(s string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.redactLocked(s)
}

func (r *Writer) redactLocked(s string) string {
	for _, sec := range r.exact {
		s = strings.ReplaceAll(s, sec, "***")
	}
	if len(r.normals) == 0 || !r.decodedHolds(s) {
		return s
	}
	var spans [][2]int
	for _, lv := range levels(s) {
		for _, sec := range r.normals {
			for off := 0; ; {
				i := bytes.Index(lv.text[off:], []byte(sec))
				if i < 0 {
					break
				}
				i += off
				spans = append(spans, [2]int{lv.from(i), lv.to(i + len(sec) - 1)})
				off = i + 1
			}
		}
	}
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		if sp[0] < last { // overlaps the one before: extend it
			if sp[1] > last {
				last = sp[1]
			}
			continue
		}
		b.WriteString(s[last:sp[0]])
		b.WriteString("***")
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// redactJSON returns the JSON document raw with every string in it (keys
// too) redacted in decoded form, then encoded again in the same order:
// whatever escapes the document used, no secret survives in a string.
// What is left (a secret spelled across JSON syntax) the text redaction
// then catches. A document that does not decode is redacted as text.
// RedactJSON returns a JSON record with every registered secret replaced in
// its decoded strings, re-encoded (see reencode); text that is not JSON is
// redacted as text.
func (r *Writer) RedactJSON(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	out, err := r.reencode(raw)
	if err != nil {
		return r.Redact(string(raw))
	}
	return r.Redact(out)
}

func (r *Writer) reencode(raw []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b strings.Builder
	type depth struct {
		object bool
		n      int // values (and keys) written at this depth
	}
	var stack []depth
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return b.String(), nil
		}
		if err != nil {
			return "", err
		}
		if d, ok := tok.(json.Delim); !ok || d == '{' || d == '[' {
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				switch {
				case top.object && top.n%2 == 1:
					b.WriteByte(':')
				case top.n > 0:
					b.WriteByte(',')
				}
				top.n++
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			b.WriteRune(rune(t))
			if t == '{' || t == '[' {
				stack = append(stack, depth{object: t == '{'})
			} else {
				stack = stack[:len(stack)-1]
			}
		case string:
			b.WriteString(`"` + escapeUnseen(jsonInner(r.Redact(t), false)) + `"`)
		case json.Number:
			b.WriteString(t.String())
		case bool:
			b.WriteString(strconv.FormatBool(t))
		case nil:
			b.WriteString("null")
		}
	}
}

// Write writes p, redacted, to the wrapped writer.
func (r *Writer) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := io.WriteString(r.w, r.redactLocked(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// level is s with escapes decoded some number of times: byte i of text
// came from s[from(i):to(i)].
type level struct {
	text       []byte
	start, end []int32 // nil in s itself
}

func (lv level) from(i int) int {
	if lv.start == nil {
		return i
	}
	return int(lv.start[i])
}

func (lv level) to(i int) int {
	if lv.end == nil {
		return i + 1
	}
	return int(lv.end[i])
}

// levels decodes every escape in s, then the escapes that decoding
// revealed, and so on until none is left (at most a few rounds), dropping
// invisible characters. It returns s and every round: a secret is looked
// for in each, since decoding text around it can swallow part of it (a "%"
// just before it, say).
func levels(s string) []level {
	lv := level{text: []byte(s)}
	all := []level{lv}
	// Most lines hold nothing unit decodes: spare them the copies.
	if !mayDecode(lv.text) {
		return all
	}
	for range decodeRounds {
		next, ns, ne, changed := unescapeOnce(lv.text, true)
		if !changed {
			break
		}
		for i := range next {
			ns[i], ne[i] = int32(lv.from(int(ns[i]))), int32(lv.to(int(ne[i])-1))
		}
		lv = level{next, ns, ne}
		all = append(all, lv)
	}
	return all
}

// decodeRounds bounds the rounds of decoding levels and decodedHolds do.
const decodeRounds = 4

// decodedHolds reports whether a secret stands in s or in any of its
// decoded levels (see levels). It decodes the same texts as levels without
// keeping where each byte came from, so that the usual line, which holds no
// secret, costs one copy per level rather than nine.
func (r *Writer) decodedHolds(s string) bool {
	text := []byte(s)
	for round := 0; ; round++ {
		for _, sec := range r.normals {
			if bytes.Contains(text, []byte(sec)) {
				return true
			}
		}
		if round == decodeRounds || !mayDecode(text) {
			return false
		}
		next, _, _, changed := unescapeOnce(text, false)
		if !changed {
			return false
		}
		text = next
	}
}

// mayDecode reports whether text holds anything unit decodes or drops.
func mayDecode(text []byte) bool {
	return bytes.ContainsAny(text, `%\&`) || bytes.ContainsFunc(text, invisible.Is)
}

// asciiPunctuation is what CommonMark lets a backslash escape.
const asciiPunctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

var backslash = map[byte]byte{'"': '"', '\\': '\\', '/': '/', '\'': '\'', 'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}

// unescapeOnce decodes one round of escapes in s. With track, for byte i
// of the result, the unit it came from is s[start[i]:end[i]]; without it,
// start and end are nil.
func unescapeOnce(s []byte, track bool) (out []byte, start, end []int32, changed bool) {
	out = make([]byte, 0, len(s))
	if track {
		start, end = make([]int32, 0, len(s)), make([]int32, 0, len(s))
	}
	emit := func(from, to int, b ...byte) {
		out = append(out, b...)
		if !track {
			return
		}
		for range b {
			start = append(start, int32(from))
			end = append(end, int32(to))
		}
	}
	for i := 0; i < len(s); {
		if decoded, width := unit(s[i:]); width > 0 {
			emit(i, i+width, decoded...)
			i += width
			changed = true
			continue
		}
		emit(i, i+1, s[i])
		i++
	}
	return out, start, end, changed
}

// unit decodes the escape or invisible character at the start of s; width 0
// means there is none.
func unit(s []byte) (decoded []byte, width int) {
	if r, n := utf8.DecodeRune(s); n > 1 && invisible.Is(r) {
		return nil, n
	}
	if len(s) < 2 {
		return nil, 0
	}
	switch s[0] {
	case '%':
		if v, ok := hexValue(s[1:], 2); ok {
			return []byte{byte(v)}, 3
		}
	case '\\':
		switch c := s[1]; c {
		case 'x':
			if v, ok := hexValue(s[2:], 2); ok {
				return []byte{byte(v)}, 4
			}
		case 'u':
			v, ok := hexValue(s[2:], 4)
			if !ok {
				return nil, 0
			}
			r := rune(v)
			if utf16.IsSurrogate(r) {
				if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
					if lo, ok := hexValue(s[8:], 4); ok {
						if pair := utf16.DecodeRune(r, rune(lo)); pair != utf8.RuneError {
							return utf8.AppendRune(nil, pair), 12
						}
					}
				}
				r = utf8.RuneError
			}
			return utf8.AppendRune(nil, r), 6
		case 'U':
			if v, ok := hexValue(s[2:], 8); ok && utf8.ValidRune(rune(v)) {
				return utf8.AppendRune(nil, rune(v)), 10
			}
		case '0', '1', '2', '3':
			if v, err := strconv.ParseUint(string(s[1:min(len(s), 4)]), 8, 8); err == nil && len(s) >= 4 {
				return []byte{byte(v)}, 4
			}
		default:
			if b, ok := backslash[c]; ok {
				return []byte{b}, 2
			}
			// Markdown's: a backslash before any ASCII punctuation shows
			// the punctuation alone, so "mint\_…" on a page reads as the
			// key; and text that went through a Markdown escaper before
			// it came back shows the backslash a reader skips.
			if strings.IndexByte(asciiPunctuation, c) >= 0 {
				return []byte{c}, 2
			}
		}
	case '&':
		semi := bytes.IndexByte(s[:min(len(s), 40)], ';')
		if semi < 0 {
			return nil, 0
		}
		// Named and numeric references, as HTML (and so GitHub) reads them.
		// The common ones are read here: html.UnescapeString builds its
		// table of 2,000 names (half a megabyte) the first time it is
		// called, and the summary and comments are full of "&#58;".
		if r, ok := reference(s[:semi+1]); ok {
			return utf8.AppendRune(nil, r), semi + 1
		}
		if ref := string(s[:semi+1]); html.UnescapeString(ref) != ref {
			return []byte(html.UnescapeString(ref)), semi + 1
		}
	}
	return nil, 0
}

// reference decodes the character references escape.Markdown writes: the
// numeric ones (but those HTML maps to other characters: NUL and the C1
// range) and &amp; &lt; &gt; &quot; &apos;. ok is false for any other.
func reference(ref []byte) (rune, bool) {
	switch string(ref) {
	case "&amp;":
		return '&', true
	case "&lt;":
		return '<', true
	case "&gt;":
		return '>', true
	case "&quot;":
		return '"', true
	case "&apos;":
		return '\'', true
	}
	if len(ref) < 4 || ref[1] != '#' {
		return 0, false
	}
	digits, base := ref[2:len(ref)-1], 10
	if digits[0] == 'x' || digits[0] == 'X' {
		digits, base = digits[1:], 16
	}
	if len(digits) == 0 || len(digits) > 8 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(digits), base, 32)
	switch {
	case err != nil || v == 0 || v >= 0x80 && v <= 0x9f:
		return 0, false
	case v > unicode.MaxRune || v >= 0xd800 && v <= 0xdfff:
		return utf8.RuneError, true
	}
	return rune(v), true
}

func hexValue(s []byte, n int) (uint64, bool) {
	if len(s) < n {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s[:n]), 16, 32)
	return v, err == nil
}
