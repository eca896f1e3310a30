package escape_test

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/invisible"
	"github.com/agentjob/agent-job-action/internal/testbed/escapetest"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// hostile are seeds for all the escape fuzzers: workflow commands, Markdown
// and HTML, mentions, control and invisible characters, invalid UTF-8.
var hostile = []string{
	"", "job_123", "active", "a.b-c/d+e=f@g", "::set-output name=x::y", "  ::warning::x", "a\n::error::pwned",
	"\r::add-mask::x", "%0A::x", "a::b", "\x00\x01\x1b[31m\x7f", "\u0085::x", "\u2028::x\u2029", "\u202eevil",
	"\ufeff::bom", "\xff\xfe", "\xc0\x80", "\xed\xa0\x80", "<script>alert(1)</script>", "[x](https://evil)",
	"![img](x)", "**b** _i_ `c` ~~s~~", "@octocat", "a|b|c", "# heading", "&lt;&amp;&#64;", "\\*not*",
	"line1\r\nline2\rline3\nline4", "https://example.com/a?b=c#d", "https://ex.com/(x)", "https://ex.com/ x",
	"https://ex.com/\u00e9", "http://ex.com", "HTTPS://ex.com", "https://", "javascript:alert(1)",
	"https://ex.com/\"onmouseover=\"x", "https://ex.com/`x`", "https://ex.com/\x7f", strings.Repeat("a", 257),
	strings.Repeat("a", 256), "https://" + strings.Repeat("a", 2041), "https://" + strings.Repeat("a", 2040),
	"\t tab\t", "日本語", "\U0001F600",
	"www.example.com/login", "WWW.Example.com", "wwww.x.y", "see http://evil.example/x", "ftp://x.y", "name@host.com",
	"mailto:a@b.co", "xmpp:a@b.co/r", "a@.b.co", "@", "#12 and o/r#34", "GH-12 gh-3", "a5c3785ed8d6a35868bc169f07e40e889087fd2e",
	"https://github.com/o/r/issues/12#issuecomment-1", "https://ex.com/a|b", "x⁠y", "www&#46;x.com", "###[x]", "a##[b",
}

// FuzzLog checks that Log output is one line with no control characters
// that the runner could read as a workflow command, and that it is either
// the input or its quoted form.
func FuzzLog(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Add("##[add-mask]writer")
	f.Fuzz(func(t *testing.T, s string) {
		out := escape.Log(s)
		if strings.ContainsFunc(out, func(r rune) bool {
			return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
		}) {
			t.Fatalf("Log(%q) = %q has a control character or line break", s, out)
		}
		if strings.HasPrefix(strings.TrimSpace(out), "::") {
			t.Fatalf("Log(%q) = %q starts with ::", s, out)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("Log(%q) = %q is not valid UTF-8", s, out)
		}
		if strings.Contains(out, "##[") {
			t.Fatalf("Log(%q) = %q holds a legacy ##[command]", s, out)
		}
		if out == s {
			return
		}
		if !strings.HasPrefix(out, `"`) {
			t.Fatalf("Log(%q) = %q, neither the input nor a quoted form", s, out)
		}
		if back, err := strconv.Unquote(out); err != nil || back != s {
			t.Fatalf("Log(%q) = %q unquotes to %q, %v", s, out, back, err)
		}
		// Only the "#" of a "##[" is escaped: a URL keeps its fragment.
		if want := strings.Count(s, "#") - strings.Count(s, "##["); strings.Count(out, "#") < want {
			t.Fatalf("Log(%q) = %q escapes a # that no ##[ needs", s, out)
		}
	})
}

// TestLog pins what Log leaves alone and what it changes.
func TestLog(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"job_0001", "job_0001"},
		{"a.b-c/d+e=f@g", "a.b-c/d+e=f@g"},
		{"https://github.com/o/r/issues/12#issuecomment-1", `"https://github.com/o/r/issues/12#issuecomment-1"`},
		{"##[add-mask]writer", `"#\x23[add-mask]writer"`},
		{"###[x", `"##\x23[x"`},
		{"a\n::error::x", `"a\n::error::x"`},
		{"::warning::x", `"::warning::x"`},
		{"\u00a0::x", `"\u00a0::x"`},
	} {
		if got := escape.Log(tt.in); got != tt.want {
			t.Errorf("Log(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// unMarkdown turns the entities Markdown writes back into characters.
var unMarkdown = strings.NewReplacer(
	"&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'",
	"&#92;", "\\", "&#96;", "`", "&#42;", "*", "&#95;", "_", "&#126;", "~",
	"&#91;", "[", "&#93;", "]", "&#40;", "(", "&#41;", ")", "&#33;", "!",
	"&#35;", "#", "&#124;", "|", "&#64;", "@", "&#58;", ":",
)

// FuzzMarkdown checks that Markdown output is one line of valid UTF-8 with
// no character Markdown or HTML give a meaning to, and that it renders
// back to the input (less invalid UTF-8, control characters and line
// breaks).
func FuzzMarkdown(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := escape.Markdown(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Markdown(%q) = %q is not valid UTF-8", s, out)
		}
		if i := strings.IndexAny(out, "\n\r<>[]()*_`@|\\~!\"'"); i >= 0 {
			t.Fatalf("Markdown(%q) = %q has raw %q", s, out, out[i])
		}
		if strings.ContainsFunc(out, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Fatalf("Markdown(%q) = %q has an ASCII control character", s, out)
		}
		if strings.ContainsFunc(out, invisible.Is) {
			t.Fatalf("Markdown(%q) = %q has an invisible character", s, out)
		}
		// Every & must start one of the entities, so that text such as
		// "&lt;" in the input cannot turn into markup.
		if i := bareAmp(out); i >= 0 {
			t.Fatalf("Markdown(%q) = %q has a bare & at %d", s, out, i)
		}
		if back, want := unMarkdown.Replace(unjoin(out)), plain(s); back != want {
			t.Fatalf("Markdown(%q) = %q renders as %q, want %q", s, out, back, want)
		}
		if links := escapetest.Autolinks(out); links != nil {
			t.Fatalf("Markdown(%q) = %q renders links %q", s, out, links)
		}
		// Nor with the text callers write after it ("status: %s." and the
		// like).
		for _, joined := range []string{out + ".", out + "-12", "x " + out + ". y"} {
			if links := escapetest.Autolinks(joined); links != nil {
				t.Fatalf("Markdown(%q) followed by the caller's text %q renders links %q", s, joined, links)
			}
		}
		if n := escapetest.Cells("| k | " + out + " |"); n != 2 {
			t.Fatalf("Markdown(%q) = %q makes a table row of %d cells, want 2", s, out, n)
		}
	})
}

// unjoin drops the word joiners Markdown adds.
func unjoin(s string) string { return strings.ReplaceAll(s, escape.WordJoiner, "") }

// TestMarkdownLinksNothing pins where Markdown breaks what GitHub would
// link; FuzzMarkdown checks that nothing links at all.
func TestMarkdownLinksNothing(t *testing.T) {
	t.Parallel()
	const wj = escape.WordJoiner
	for _, tt := range []struct{ in, want string }{
		{"www.example.com/login", "www" + wj + ".example.com/login"},
		{"WwW.x.y", "WwW" + wj + ".x.y"},
		{"http://evil.example", "http&#58;" + wj + "//evil.example"},
		{"name@host.com", "name&#64;" + wj + "host.com"},
		{"mailto:a@b.co", "mailto&#58;" + wj + "a&#64;" + wj + "b.co"},
		{"see #12", "see &#35;" + wj + "12"},
		{"GH-12", "GH-" + wj + "12"},
		{"a5c3785ed8d6", "a5c378" + wj + "5ed8d6"},
		{"x|y", "x&#124;y"},
		{"plain text, no links.", "plain text, no links."},
	} {
		got := escape.Markdown(tt.in)
		if got != tt.want {
			t.Errorf("Markdown(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if links := escapetest.Autolinks(got); links != nil {
			t.Errorf("Markdown(%q) = %q renders links %q", tt.in, got, links)
		}
	}
}

// entities are the ones Markdown writes.
var entities = []string{
	"&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&#92;", "&#96;", "&#42;", "&#95;", "&#126;",
	"&#91;", "&#93;", "&#40;", "&#41;", "&#33;", "&#35;", "&#124;", "&#64;", "&#58;", escape.WordJoiner,
}

// bareAmp returns the offset of the first & in s that does not start one
// of the entities, or -1.
func bareAmp(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] != '&' {
			continue
		}
		ok := false
		for _, e := range entities {
			if strings.HasPrefix(s[i:], e) {
				ok = true
				break
			}
		}
		if !ok {
			return i
		}
	}
	return -1
}

// plain is what Markdown(s) should render as.
func plain(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\r' || r == 0x7f || invisible.Is(r) {
			return -1
		}
		return r
	}, s)
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// FuzzLine checks that Line output is one line with no control characters,
// and that it leaves text without them alone.
func FuzzLine(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := escape.Line(s)
		if strings.ContainsFunc(out, func(r rune) bool {
			return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
		}) {
			t.Fatalf("Line(%q) = %q has a control character or line break", s, out)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("Line(%q) = %q is not valid UTF-8", s, out)
		}
		if escape.Line(out) != out {
			t.Fatalf("Line is not idempotent on %q: %q then %q", s, out, escape.Line(out))
		}
		if strings.ContainsFunc(out, invisible.Is) {
			t.Fatalf("Line(%q) = %q has an invisible character", s, out)
		}
		if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool {
			return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || invisible.Is(r)
		}) && out != s {
			t.Fatalf("Line(%q) = %q changed text with no control characters", s, out)
		}
	})
}

// FuzzURL checks that URL returns "" or the input, and only an https URL
// with nothing that could end or break out of a Markdown link.
func FuzzURL(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := escape.URL(s)
		if out == "" {
			return
		}
		if out != strings.ReplaceAll(s, "|", "%7C") {
			t.Fatalf("URL(%q) = %q, neither the input (with | written %%7C) nor empty", s, out)
		}
		if n := escapetest.Cells("| k | [x](" + out + ") |"); n != 2 {
			t.Fatalf("URL(%q) = %q makes a table row of %d cells, want 2", s, out, n)
		}
		if !strings.HasPrefix(out, "https://") {
			t.Fatalf("URL(%q) = %q is not https", s, out)
		}
		if len(out) > 2048 {
			t.Fatalf("URL(%q) is %d bytes long", s, len(out))
		}
		if i := strings.IndexAny(out, " \"'<>()[]\\`|"); i >= 0 {
			t.Fatalf("URL(%q) has %q", s, out[i])
		}
		for _, r := range out {
			if unicode.IsControl(r) || unicode.IsSpace(r) || r >= utf8.RuneSelf || r == utf8.RuneError {
				t.Fatalf("URL(%q) has %q", s, r)
			}
		}
	})
}

// TestLink: the action's own links show their address as their text, so
// that copying either gives the address whole: no word joiner, only the
// entities Markdown needs, which a reader sees as the characters; an
// address URL refuses is no link.
func TestLink(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ u, want string }{
		{"https://github.com/acme/docs", "[https&#58;//github.com/acme/docs](https://github.com/acme/docs)"},
		{"https://github.com/o/r/pull/7|x", "[https&#58;//github.com/o/r/pull/7%7Cx](https://github.com/o/r/pull/7%7Cx)"},
		{"https://x.example/a_b#c@d", "[https&#58;//x.example/a&#95;b&#35;c&#64;d](https://x.example/a_b#c@d)"},
		{"http://github.com/acme/docs", ""},
		{"https://x.example/a)b", ""},
	} {
		got := escape.Link(tt.u)
		if got != tt.want || strings.Contains(got, escape.WordJoiner) {
			t.Errorf("Link(%q) = %q, want %q", tt.u, got, tt.want)
		}
	}
}
