package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/redact"
)

// runnerData decodes a workflow command's data as the runner does
// (ActionCommand.UnescapeData): %0D, then %0A, then %25.
func runnerData(s string) string {
	for _, m := range [][2]string{{"%0D", "\r"}, {"%0A", "\n"}, {"%25", "%"}} {
		s = strings.ReplaceAll(s, m[0], m[1])
	}
	return s
}

// hostileKeys are API keys made of what escapers change: "#" (log escaper),
// "%0A" (command data), "_" and "@" (Markdown), "\" and `"` (Go and JSON),
// "<" (JSON's HTML escaping), ":" and "," (command properties), "##[",
// "www." and non-ASCII.
var hostileKeys = []string{
	`mint_#k3y%0Aab\cd"<e>ü😀`,
	"mint_##[add-mask]%0D%25x&amp;",
	"mint_ab:c,d@e.f www.x #12",
	`mint\u005fk3y-literal`,
	"mint_\u2028sep\u00a0nb",
}

// unicodeJSON writes s as a JSON string with every character a \u escape.
func unicodeJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&b, `\u%04x`, u)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func jsonString(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

// quotedRE finds Go- or JSON-quoted strings.
var quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// views are the ways a reader can read text: as it is, as the runner shows
// a command's data, as Markdown renders it, every quoted string unquoted
// as Go or JSON, and every string in it when it is JSON.
func views(text string) []string {
	v := []string{text, runnerData(text), strings.ReplaceAll(html.UnescapeString(text), "\u2060", "")}
	for _, q := range quotedRE.FindAllString(text, -1) {
		if s, err := strconv.Unquote(q); err == nil {
			v = append(v, s)
		}
		var s string
		if json.Unmarshal([]byte(q), &s) == nil {
			v = append(v, s)
		}
	}
	var doc any
	if json.Unmarshal([]byte(text), &doc) == nil {
		var walk func(any)
		walk = func(x any) {
			switch x := x.(type) {
			case string:
				v = append(v, x)
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for k, e := range x {
					v = append(v, k)
					walk(e)
				}
			}
		}
		walk(doc)
	}
	return v
}

// inner strips the quotes of a quoted string.
func inner(q string) string {
	if len(q) >= 2 && q[0] == '"' && q[len(q)-1] == '"' {
		return q[1 : len(q)-1]
	}
	return q
}

// forms are the encodings of key that the action's writers produce.
func forms(key string) []string {
	f := []string{key, escape.Markdown(key), escape.Line(key), inner(strconv.Quote(key)), inner(escape.Log(key)), inner(jsonString(key)), inner(unicodeJSON(key))}
	for _, s := range slices.Clone(f) {
		f = append(f, redact.CommandData(s), redact.CommandProperty(s))
	}
	return f
}

// leak returns the first form of key found in any view of text, or "".
func leak(text, key string) string {
	for _, view := range views(text) {
		for _, f := range forms(key) {
			if strings.Contains(view, f) {
				return f
			}
		}
	}
	return ""
}

// TestHostileKeysReachNothing masks each hostile key, then sends it, raw
// and escaped, through every writer: log lines, annotations, a group, a
// stop-commands block, outputs (the job's JSON carrying it plain and as
// \u escapes of every character), the summary, and a comment body built
// as the conversation builds it. No form of the key may appear anywhere,
// read any way a reader can read it.
func TestHostileKeysReachNothing(t *testing.T) {
	t.Parallel()
	for i, key := range hostileKeys {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			outPath, sumPath := filepath.Join(dir, "output"), filepath.Join(dir, "summary")
			log, stdout := newLog()
			log.Mask(key)

			log.Printf("plain %s", key)
			log.Printf("quoted %q", key)
			log.Printf("escaped %s", escape.Log(key))
			log.Printf("answering in https://github.com/o/r/issues/1#%s", escape.Log(key))
			log.Notice("notice " + key)
			log.Warning("warning " + escape.Log(key))
			log.Error("error " + key + "\n" + key)
			log.Group("group " + key)
			log.EndGroup()
			log.Verbatim("a\n" + key + "\n")

			raw := `{"id":"job_1","status":"completed","model":` + unicodeJSON(key) + `,"source":{"repository":` + jsonString(key) +
				`,"ref":"main"},"prLink":` + jsonString("https://github.com/o/r/pull/1#"+key) + `,"extra":{` + jsonString(key) + `:[` + unicodeJSON(key) + `]}}`
			j := job(t, raw)
			if j.Model != key {
				t.Fatalf("the fake job's model is %q, not the key", j.Model)
			}
			out := NewOutputs(log, outPath, nil)
			if err := out.Set("echo", key); err != nil {
				t.Fatal(err)
			}
			res := Result{JobID: "job_1", Status: key, Job: j, Elapsed: time.Second, Polls: 1}
			if err := out.Write(res); err != nil {
				t.Fatal(err)
			}
			if err := WriteSummary(log, sumPath, Summary(res)); err != nil {
				t.Fatal(err)
			}
			// As finish and conversation do: redact, escape, redact again.
			comment := log.Redact("❌ **Could not finish.** " + escape.Markdown(log.Redact("create job: "+key)) + " " + escape.Markdown(key))

			logText := stdout.String()
			var masks []string
			for _, line := range strings.Split(logText, "\n") {
				if data, ok := strings.CutPrefix(line, "::add-mask::"); ok {
					masks = append(masks, runnerData(data))
					logText = strings.Replace(logText, line+"\n", "", 1)
				}
			}
			if want := []string{strings.TrimSpace(key)}; !slices.Equal(masks, want) {
				t.Errorf("the runner masks %q, want %q", masks, want)
			}
			outputs, _ := os.ReadFile(outPath)
			parsed, err := runnerOutputs(string(outputs))
			if err != nil {
				t.Fatalf("the runner rejects GITHUB_OUTPUT: %v", err)
			}
			summary, _ := os.ReadFile(sumPath)
			artifacts := map[string]string{"log": logText, "summary": string(summary), "comment": comment, "outputs file": string(outputs)}
			for name, v := range parsed {
				artifacts["output "+name] = v
			}
			for where, text := range artifacts {
				if f := leak(text, key); f != "" {
					t.Errorf("%s holds the key as %q:\n%s", where, f, text)
				}
			}
			if !json.Valid([]byte(parsed["job"])) || !strings.Contains(parsed["job"], `"model":"***"`) {
				t.Errorf("job output %s: want the record with the key redacted", parsed["job"])
			}
		})
	}
}

// TestRedactorForms checks the redactor alone against texts that hold a
// key in forms nobody lists: escaped twice, mixed escapes, next to text
// that changes its escaping.
func TestRedactorForms(t *testing.T) {
	t.Parallel()
	key := `mint_#k%0A"y`
	var sink bytes.Buffer
	r := redact.NewWriter(&sink)
	r.Add(key)
	for _, text := range []string{
		key,
		redact.CommandData(redact.CommandData(key)),
		strconv.Quote(strconv.Quote(key)),
		`mint\u005f#k%0A\"y`,
		`m\x69nt_\x23k%250A\u0022y`,
		"&#109;int&#95;&#35;&#8288;k&#37;0A&quot;y",
		"##" + inner(escape.Log("#"+key)),
		escape.Markdown("www." + key + "@x"),
	} {
		got := r.Redact("before " + text + " after")
		if !strings.HasPrefix(got, "before ") || !strings.HasSuffix(got, " after") || !strings.Contains(got, "***") {
			t.Errorf("redact(%q) = %q, want the key alone replaced", text, got)
		}
		if f := leak(got, key); f != "" {
			t.Errorf("redact(%q) = %q still holds the key as %q", text, got, f)
		}
	}
	if got := r.Redact("nothing secret: 100% #1 \\n &amp;"); got != "nothing secret: 100% #1 \\n &amp;" {
		t.Errorf("redact changed text without the key: %q", got)
	}
}

// TestRedactJSONKeepsTheRecord: strings are redacted in decoded form, the
// rest of the record is kept as it was, in its order.
func TestRedactJSONKeepsTheRecord(t *testing.T) {
	t.Parallel()
	r := redact.NewWriter(&bytes.Buffer{})
	r.Add("k3y_secret")
	raw := `{"z":1.50,"a":[true,null,"\u006b3y\u005fsecret",{"k3y_secret":"x<y"}],"m":"say \"k3y_secret\""}`
	want := `{"z":1.50,"a":[true,null,"***",{"***":"x<y"}],"m":"say \"***\""}`
	if got := r.RedactJSON([]byte(raw)); got != want {
		t.Errorf("redactJSON:\n%s\nwant\n%s", got, want)
	}
	if got := r.RedactJSON([]byte(`{"broken":"k3y_secret`)); got != `{"broken":"***` {
		t.Errorf("redactJSON of broken JSON = %q", got)
	}
}

// FuzzRedact puts every form of a key between arbitrary text: what is
// left must not read as the key, any way a reader reads it.
func FuzzRedact(f *testing.F) {
	for _, k := range hostileKeys {
		f.Add(k, "x", "y")
	}
	f.Add("mint_key1", "%", "0A")
	f.Add("#[k3y-secret", "#", "[")
	f.Add("k3y-secret##", "\\", "[")
	f.Fuzz(func(t *testing.T, key, prefix, suffix string) {
		if key != strings.TrimSpace(key) || len(key) < 8 || strings.ContainsAny(key, "\r\n") {
			return
		}
		r := redact.NewWriter(&bytes.Buffer{})
		r.Add(key)
		for _, f := range forms(key) {
			got := r.Redact(prefix + f + suffix)
			if l := leak(got, key); l != "" && leak(prefix+"***"+suffix, key) == "" {
				t.Fatalf("redact(%q) = %q still holds the key as %q", prefix+f+suffix, got, l)
			}
		}
	})
}
