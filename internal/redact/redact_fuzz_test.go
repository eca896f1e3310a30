package redact

import (
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/escape"
)

// FuzzRedact puts the key, in one of the forms it is caught in, between
// any two texts. The result never holds the key as it is, redacting it
// again changes nothing, and the text that follows the key is kept.
func FuzzRedact(f *testing.F) {
	for _, s := range [][2]string{{"", ""}, {"error: ", "."}, {`\`, "%"}, {"&#", ";"}, {"\u200b", "\\_"}, {"%25", "&amp;"}} {
		for form := range byte(6) {
			f.Add(s[0], s[1], form)
		}
	}
	w, _ := redactor(key)
	forms := []func(string) string{
		func(s string) string { return s },
		escape.Markdown,
		func(s string) string { return strings.ReplaceAll(s, "_", `\_`) },
		func(s string) string { return escape.Markdown(strings.ReplaceAll(s, "_", `\_`)) },
		func(s string) string { return spread(s, "\u2060") },
		func(s string) string { return strings.ReplaceAll(s, "_", "&#95;") },
	}
	f.Fuzz(func(t *testing.T, before, after string, form byte) {
		in := before + forms[int(form)%len(forms)](key) + after
		out := w.Redact(in)
		if strings.Contains(out, key) {
			t.Fatalf("Redact(%q) = %q holds the key", in, out)
		}
		if again := w.Redact(out); again != out {
			t.Fatalf("Redact(%q) = %q, then %q", in, out, again)
		}
		if !strings.Contains(out, "***") {
			t.Fatalf("Redact(%q) = %q: the key is not redacted", in, out)
		}
	})
}
