package runlog

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// runnerData decodes a workflow command's data as the runner does
// (ActionCommand.UnescapeData): %0D, then %0A, then %25.
func runnerData(s string) string {
	for _, m := range [][2]string{{"%0D", "\r"}, {"%0A", "\n"}, {"%25", "%"}} {
		s = strings.ReplaceAll(s, m[0], m[1])
	}
	return s
}

func TestActionsRedactsAndMasksFirst(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	l := NewActions(&out)
	l.Mask("line-one\nline-two\r\n  \n")
	l.Printf("value line-one and line-two")
	l.Error("failed with line-two")
	want := "::add-mask::line-one\n::add-mask::line-two\nvalue *** and ***\n::error::failed with ***\n"
	if out.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestMaskRegistersWhatTheRunnerDecodes: the runner decodes ::add-mask::
// data before it registers it, so the line must decode to the secret.
func TestMaskRegistersWhatTheRunnerDecodes(t *testing.T) {
	t.Parallel()
	for _, secret := range []string{"plain-secret", "a%0Ab%0D%25c", "100%", "a::b,c:d", "##[x]"} {
		var out bytes.Buffer
		NewActions(&out).Mask(secret)
		data, ok := strings.CutPrefix(out.String(), "::add-mask::")
		if !ok || strings.Count(data, "\n") != 1 {
			t.Fatalf("Mask(%q) wrote %q, want one ::add-mask:: line", secret, out.String())
		}
		if got := runnerData(strings.TrimSuffix(data, "\n")); got != secret {
			t.Errorf("Mask(%q): the runner registers %q", secret, got)
		}
	}
}

// TestActionsFace: each kind of line as the runner reads it; a wait writes
// a line on a heartbeat only, the job's status escaped as any text from the
// API.
func TestActionsFace(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	l := NewActions(&out)
	l.Printf("[%6s] created job %s", "0s", "job_1")
	l.Printf("legacy ##[error]syntax")
	l.Group("Waiting for job job_1")
	l.Waiting(Wait{JobID: "job_1", Status: "active", Elapsed: 20 * time.Second})
	l.Waiting(Wait{JobID: "job_1", Status: "active", Elapsed: 80 * time.Second, Beat: true})
	l.Waiting(Wait{JobID: "job_1", Status: "::error::x\r\nnext", Elapsed: 90 * time.Minute, Beat: true})
	l.Warning("two\nlines")
	l.EndGroup()
	l.Notice("job job_1 completed: 100%")
	want := "[    0s] created job job_1\n" +
		"legacy #\u200b#[error]syntax\n" +
		"::group::Waiting for job job_1\n" +
		"[ 1m20s] job job_1: still active\n" +
		"[1h30m0s] job job_1: still \"::error::x\\r\\nnext\"\n" +
		"::warning::two%0Alines\n" +
		"::endgroup::\n" +
		"::notice::job job_1 completed: 100%25\n"
	if out.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestVerbatim: untrusted text goes between ::stop-commands:: markers with
// a fresh random token; a line equal to the end marker cannot end it.
func TestVerbatim(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	l := NewActions(&out)
	l.Verbatim("a\n::error::b\n")
	first, _, _ := strings.Cut(out.String(), "\n")
	token, ok := strings.CutPrefix(first, "::stop-commands::")
	if !ok || !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(token) {
		t.Fatalf("first line %q, want ::stop-commands:: and 128 random bits", first)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if want := []string{first, "a", "::error::b", "::" + token + "::"}; !slices.Equal(lines, want) {
		t.Errorf("got %q, want %q", lines, want)
	}

	out.Reset()
	l.Verbatim("x")
	if again := strings.TrimPrefix(strings.SplitN(out.String(), "\n", 2)[0], "::stop-commands::"); again == token {
		t.Errorf("the token %s was used twice", token)
	}
}

// TestVerbatimCannotBeEnded: a line of the text that is the end marker
// (a token that leaked, say) is indented: only the last line ends the block.
func TestVerbatimCannotBeEnded(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	const token = "0123456789abcdef0123456789abcdef"
	NewActions(&out).verbatim(token, "a\n::"+token+"::\n")
	want := "::stop-commands::" + token + "\na\n ::" + token + "::\n::" + token + "::\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// TestRedactShortReferences: text that merely looks like the start of a
// character reference is logged as it is.
func TestRedactShortReferences(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	l := NewActions(&out)
	l.Mask("mint_0123456789abcdef")
	for _, text := range []string{"fix &; in docs", "a & b;", "&#;", "&x;", "&&;;", "&"} {
		l.Printf("%s", text)
		if got := l.Redact(text); got != text {
			t.Errorf("Redact(%q) = %q", text, got)
		}
	}
	if !strings.Contains(out.String(), "fix &; in docs") {
		t.Errorf("log:\n%s", out.String())
	}
}
