package redact

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agentjob/agent-job-action/internal/escape"
)

// key is a secret shaped like a Mintlify key: "_" and a run of hex digits,
// which escape.Markdown writes as entities and breaks with word joiners.
const key = "mint_test_0123456789abcdef"

// redactor returns a Writer that knows secrets, and the buffer it writes to.
func redactor(secrets ...string) (*Writer, *bytes.Buffer) {
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, s := range secrets {
		w.Add(s)
	}
	return w, &b
}

// spread puts sep between every two characters of s.
func spread(s, sep string) string {
	return strings.Join(strings.Split(s, ""), sep)
}

// TestRedactForms: the key in each form the Writer claims to catch, inside
// a sentence, is replaced whole, and the sentence around it is kept.
func TestRedactForms(t *testing.T) {
	t.Parallel()
	quoted := strconv.Quote(key)
	tests := []struct{ name, form string }{
		{"as it is", key},
		{"escape.Markdown", escape.Markdown(key)},
		{"escape.Line", escape.Line(key)},
		{"escape.Log", escape.Log(key)},
		{"Go-quoted", quoted[1 : len(quoted)-1]},
		{"command data", CommandData(key)},
		{"command property", CommandProperty(key)},
		// Backslash escapes of Go and JSON.
		{`\u005f`, strings.ReplaceAll(key, "_", `\u005f`)},
		{`\u005F`, strings.ReplaceAll(key, "_", `\u005F`)},
		{`\x5f`, strings.ReplaceAll(key, "_", `\x5f`)},
		{`\137`, strings.ReplaceAll(key, "_", `\137`)},
		{`\U0000005f`, strings.ReplaceAll(key, "_", `\U0000005f`)},
		{`every character \u`, func() string {
			var b strings.Builder
			for _, r := range key {
				b.WriteString(`\u00` + strconv.FormatInt(int64(r), 16))
			}
			return b.String()
		}()},
		// Markdown's backslash escapes: what a page shows as the key.
		{`Markdown \_`, strings.ReplaceAll(key, "_", `\_`)},
		{`Markdown \_ escaped again`, escape.Markdown(strings.ReplaceAll(key, "_", `\_`))},
		{`JSON of Markdown \_`, `mint\\_test\\_0123456789abcdef`},
		// Percent-encoding, once and twice.
		{"%5F", strings.ReplaceAll(key, "_", "%5F")},
		{"%5f", strings.ReplaceAll(key, "_", "%5f")},
		{"%255F", strings.ReplaceAll(key, "_", "%255F")},
		{"every byte %XX", func() string {
			var b strings.Builder
			for _, c := range []byte(key) {
				b.WriteString("%" + strconv.FormatInt(int64(c), 16))
			}
			return b.String()
		}()},
		// HTML character references, as GitHub decodes them.
		{"&#95;", strings.ReplaceAll(key, "_", "&#95;")},
		{"&#x5f;", strings.ReplaceAll(key, "_", "&#x5f;")},
		{"&#X5F;", strings.ReplaceAll(key, "_", "&#X5F;")},
		{"&#0095;", strings.ReplaceAll(key, "_", "&#0095;")},
		{"&lowbar;", strings.ReplaceAll(key, "_", "&lowbar;")},
		{"&UnderBar;", strings.ReplaceAll(key, "_", "&UnderBar;")},
		{"&amp;#95;", strings.ReplaceAll(key, "_", "&amp;#95;")},
		{"every character &#N;", func() string {
			var b strings.Builder
			for _, r := range key {
				b.WriteString("&#" + strconv.Itoa(int(r)) + ";")
			}
			return b.String()
		}()},
		// Invisible characters between its letters, as characters and as
		// references.
		{"U+200B between", spread(key, "\u200b")},
		{"U+200C between", spread(key, "\u200c")},
		{"U+200D between", spread(key, "\u200d")},
		{"U+2060 between", spread(key, "\u2060")},
		{"U+FEFF between", spread(key, "\ufeff")},
		{"U+00AD between", spread(key, "\u00ad")},
		{"U+034F between", spread(key, "\u034f")},
		{"U+2063 between", spread(key, "\u2063")},
		{"U+200E between", spread(key, "\u200e")},
		{"U+202E between", spread(key, "\u202e")},
		{"U+FE0F between", spread(key, "\ufe0f")},
		{"U+3164 between", spread(key, "\u3164")},
		{"U+E0041 between", spread(key, "\U000e0041")},
		{"&#8203; between", spread(key, "&#8203;")},
		{"&#8288; between", spread(key, "&#8288;")},
		{"&ZeroWidthSpace; between", spread(key, "&ZeroWidthSpace;")},
		{"&NoBreak; between", spread(key, "&NoBreak;")},
		{"&shy; between", spread(key, "&shy;")},
		{`\u200b between`, spread(key, `\u200b`)},
		{"%E2%80%8B between", spread(key, "%E2%80%8B")},
		// Mixed: the case (a Markdown escape, then escape.Markdown's
		// entities and word joiners), and others stacked.
		{"issue 30: Markdown-escaped, then escape.Markdown", escape.Markdown(`mint\_test\_0123456789abcdef`)},
		{"zero-width, then escape.Markdown, which drops it", escape.Markdown(spread(key, "\u200b"))},
		{"entity, zero-width and Markdown escape", "mint&#92;&#95;te\u200bst\\_0123&#8288;456789abcdef"},
		{"JSON of escape.Markdown", jsonInner(escape.Markdown(key), true)},
		{"percent of escape.Markdown", CommandData(escape.Markdown(key))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w, _ := redactor(key)
			for _, around := range [][2]string{{"", ""}, {"the key ", " was refused."}, {"(", ")"}, {"\n", "\t"}} {
				in := around[0] + tt.form + around[1]
				want := around[0] + "***" + around[1]
				if got := w.Redact(in); got != want {
					t.Errorf("Redact(%q) = %q, want %q", in, got, want)
				}
			}
			// A neighbour that starts an escape can join the key's first
			// characters into one, which then goes with the key: the key
			// is gone all the same, and what follows it is kept.
			for _, around := range [][2]string{{`\`, `\`}, {"%", "%"}, {"&", ";"}} {
				in := around[0] + tt.form + around[1]
				got := w.Redact(in)
				if !strings.HasSuffix(got, "***"+around[1]) || len(got) > len(around[0])+3+len(around[1]) || w.Redact(got) != got {
					t.Errorf("Redact(%q) = %q, want %q, or the same without the first %q", in, got, around[0]+"***"+around[1], around[0])
				}
			}
		})
	}
}

// TestRedactKeeps: text that holds no secret, however it is escaped, is
// returned byte for byte; so are a secret's neighbours that are not it.
func TestRedactKeeps(t *testing.T) {
	t.Parallel()
	w, _ := redactor(key)
	for _, s := range []string{
		"",
		"plain text",
		`a\_b \* \\ \u00e9 \x41 %41 %%`,
		"&#95; &amp; &lt;x&gt; &#8288; &ZeroWidthSpace; &bogus;",
		"zero\u200bwidth\u2060joined",
		"\xff\xfe invalid UTF-8",
		key[:len(key)-1],                  // one character short
		key[1:],                           // its first character missing
		strings.ToUpper(key),              // another case is another key
		strings.Replace(key, "9", "8", 1), // one character changed
		strings.Replace(key, "_", " ", 1), // a space a reader sees
		strings.Replace(key, "_", "\n", 1),
		strings.Replace(key, "_", "__", 1),
		strings.Replace(key, "_", `\a`, 1), // a backslash before a letter is shown
		"mint_test_" + strings.Repeat("0123456789abcde", 3),
	} {
		if got := w.Redact(s); got != s {
			t.Errorf("Redact(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestRedactBoundaries: where a secret starts and ends, how often it
// stands, and secrets that overlap.
func TestRedactBoundaries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		secrets []string
		in      string
		want    string
	}{
		{"no secret registered", nil, key, key},
		{"an empty secret matches nothing", []string{""}, "text", "text"},
		{"at the start", []string{key}, key + " end", "*** end"},
		{"at the end", []string{key}, "start " + key, "start ***"},
		{"twice", []string{key}, key + " and " + key, "*** and ***"},
		{"twice in a row", []string{key}, key + key, "******"},
		{"once escaped, once not", []string{key}, key + " " + escape.Markdown(key), "*** ***"},
		{"inside a word", []string{key}, "x" + key + "y", "x***y"},
		{"the longer of two that overlap", []string{"abc_secret", "abc_secret_longer"}, "abc_secret_longer!", "***!"},
		{"two secrets", []string{key, "ghp_token_0123"}, key + " ghp_token_0123", "*** ***"},
		{"a secret with regexp characters", []string{"a.*b+c?(d)[e]"}, "x a.*b+c?(d)[e] axxbc", "x *** axxbc"},
		{"a secret with a newline: each line is its own", []string{"line-one"}, "line-one\nline-two", "***\nline-two"},
		{"a secret with a quote", []string{`q"u\ote`}, `"q\"u\\ote"`, `"***"`},
		{"a secret of non-ASCII", []string{"mint_ünï#cödé_0123456789"}, "key mint_&#252;n&#239;&#35;c&#246;d&#233;_0123456789.", "key ***."},
		{"a secret with invalid UTF-8, written by JSON", []string{"ab\xffcd_0123"}, `"ab\ufffdcd_0123"`, `"***"`},
		{"a secret with invalid UTF-8, written as one U+FFFD", []string{"ab\xff\xfecd_0123"}, "ab\ufffdcd_0123", "***"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w, _ := redactor(tt.secrets...)
			if got := w.Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestHostileKeyForms holds in the package what the root test of the same
// name (hostile_test.go) asserts through a run: a key holding characters
// that the log, the annotations and the outputs escape appears in none of
// their forms.
func TestHostileKeyForms(t *testing.T) {
	t.Parallel()
	for _, k := range []string{"mint_a#b%0Ac_0123456789", `mint_q"u\ote<x>_0123456789`, "mint_ünï#cödé_0123456789"} {
		w, _ := redactor(k)
		quoted, _ := json.Marshal(k)
		goQuoted := strconv.Quote(k)
		forms := []string{k, escape.Markdown(k), escape.Log(k), escape.Line(k), string(quoted), goQuoted,
			strings.ReplaceAll(k, "#", `\x23`), strings.ReplaceAll(k, "%", "%25"), CommandData(k), CommandProperty(k),
			CommandData(escape.Log(k)), CommandProperty(string(quoted))}
		for _, form := range forms {
			out := w.Redact("bad key (" + form + ")")
			if !strings.Contains(out, "***") {
				t.Errorf("key %q as %q: nothing redacted: %q", k, form, out)
			}
			for _, f := range forms {
				if strings.Contains(out, f) {
					t.Errorf("key %q as %q leaves %q: %q", k, form, f, out)
				}
			}
		}
	}
}

// TestRedactJSON: a record's strings are redacted decoded, keys too,
// whatever escapes it used; everything else keeps its order and spelling.
func TestRedactJSON(t *testing.T) {
	t.Parallel()
	w, _ := redactor(key)
	tests := []struct{ in, want string }{
		{"", ""},
		{`{"id":"job_1","n":1.50e3,"ok":true,"none":null,"list":[1,"a"]}`, `{"id":"job_1","n":1.50e3,"ok":true,"none":null,"list":[1,"a"]}`},
		{`{"error":"bad key ` + key + `"}`, `{"error":"bad key ***"}`},
		{`{"error":"mint\u005ftest\u005f0123456789abcdef"}`, `{"error":"***"}`},
		{`{"` + key + `":{"deep":["x ` + key + `"]}}`, `{"***":{"deep":["x ***"]}}`},
		{`{"a":"mint\\_test\\_0123456789abcdef"}`, `{"a":"***"}`},
		{`{"note":"\u202e<b>"}`, `{"note":"\u202e<b>"}`},
		{"not json " + key, "not json ***"},
		{`{"broken":"` + key, `{"broken":"***`},
	}
	for _, tt := range tests {
		if got := w.RedactJSON([]byte(tt.in)); got != tt.want {
			t.Errorf("RedactJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestWriter: Write redacts what it writes and reports the length it was
// given; AddAnnounced writes its announcement as it is, before the secret
// is known, and redacts from then on; writes from many goroutines each
// arrive whole.
func TestWriter(t *testing.T) {
	t.Parallel()
	w, b := redactor()
	if err := w.AddAnnounced(key, "::add-mask::"+key+"\n"); err != nil {
		t.Fatal(err)
	}
	line := "key " + escape.Markdown(key) + "\n"
	if n, err := w.Write([]byte(line)); err != nil || n != len(line) {
		t.Errorf("Write = %d, %v; want %d, nil", n, err, len(line))
	}
	if want := "::add-mask::" + key + "\nkey ***\n"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}

	w, b = redactor(key)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { _, _ = w.Write([]byte("a " + key + " b\n")) })
	}
	wg.Wait()
	if want := strings.Repeat("a *** b\n", 20); b.String() != want {
		t.Errorf("concurrent writes: %q", b.String())
	}
}
