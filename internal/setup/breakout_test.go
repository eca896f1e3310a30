package setup

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// TestInitValuesStayInTheirPlace: a value given to --paths,
// --release-label or --trigger-phrase is either refused, in the flag's
// terms, or carried by every file init writes as written: each file
// parses as the same file written with a plain value does, with the value
// in its place. YAML ends a line at U+0085, U+2028 and U+2029 as at a
// newline, so a value that holds one writes lines of its own: an input
// such as base-url, which would send the API key elsewhere. And no value
// holding ${{ is written: GitHub evaluates it in an input, and reads an
// if: that holds one as a string, which is always true.
func TestInitValuesStayInTheirPlace(t *testing.T) {
	t.Parallel()
	const plainPath, plainLabel, plainPhrase = "zzplain/**", "zzplain", "/zzplain"
	for _, tc := range []struct {
		name, flag, plain, value string
	}{
		{"a path", "paths", plainPath, "src/**"},
		{"a path with a line separator and an input", "paths", plainPath, "src/**\u2028          base-url: https://evil.example"},
		{"a path with a next line", "paths", plainPath, "src/**\u0085          base-url: https://evil.example"},
		{"a path with a paragraph separator", "paths", plainPath, "src/**\u2029docs/**"},
		{"a path with an expression", "paths", plainPath, "docs/${{ secrets.MINTLIFY_API_KEY }}"},
		{"a label", "release-label", plainLabel, "no docs"},
		{"a label in other scripts", "release-label", plainLabel, "📝 pas de docs"},
		{"a label with a line separator", "release-label", plainLabel, "no\u2028docs"},
		{"a label with a next line", "release-label", plainLabel, "no\u0085docs"},
		{"a label with an expression", "release-label", plainLabel, "no docs ${{ true }}"},
		// YAML reads a plain scalar that spells a number, a boolean or
		// null as one: the input would be 1.1, true or empty.
		{"a label that spells a number", "release-label", plainLabel, "1.10"},
		{"a label that spells a boolean", "release-label", plainLabel, "True"},
		{"a label that spells null", "release-label", plainLabel, "NULL"},
		{"a phrase that spells a number", "trigger-phrase", plainPhrase, "0x10"},
		{"a phrase", "trigger-phrase", plainPhrase, "@docs"},
		{"a phrase with a next line", "trigger-phrase", plainPhrase, "/docs\u0085"},
		{"a phrase with a line separator", "trigger-phrase", plainPhrase, "/do\u2028cs"},
		{"a phrase with an expression", "trigger-phrase", plainPhrase, "/docs${{true}}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, docs := range [][]string{nil, {"--docs-repo", "acme/handbook", "--docs-dir", "unused"}} {
				args := append([]string{"--repo", "acme/app", "--ref", "v1", "--docs-when", "approved", "--merge-queue"}, docs...)
				plain, err := ParseInit(append(args, "--"+tc.flag, tc.plain), func(string) string { return "" }, "")
				if err != nil {
					t.Fatal(err)
				}
				in, err := ParseInit(append(args, "--"+tc.flag, tc.value), func(string) string { return "" }, "")
				var usage *UsageError
				if errors.As(err, &usage) {
					if !strings.Contains(err.Error(), "--"+tc.flag) {
						t.Errorf("--%s %q refused as %q, which does not name the flag", tc.flag, tc.value, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				want, err := Files(plain.Choices)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Files(in.Choices)
				if err != nil {
					t.Fatalf("--%s %q: init took it, then wrote nothing: %v", tc.flag, tc.value, err)
				}
				for i := range want {
					var g, w any
					if err := yaml.Unmarshal(got[i].Body, &g); err != nil {
						t.Errorf("--%s %q: %s of %s does not parse: %v", tc.flag, tc.value, got[i].Path, got[i].Repo, err)
						continue
					}
					if err := yaml.Unmarshal(want[i].Body, &w); err != nil {
						t.Fatal(err)
					}
					w = replaced(w, tc.plain, tc.value)
					if !reflect.DeepEqual(g, w) {
						t.Errorf("--%s %q: %s of %s is not the plain file with the value in its place:\n%s", tc.flag, tc.value, got[i].Path, got[i].Repo, got[i].Body)
					}
					if strings.Contains(tc.value, "${{") && strings.Contains(string(got[i].Body), tc.value) {
						t.Errorf("--%s %q: written into %s of %s, where GitHub evaluates it", tc.flag, tc.value, got[i].Path, got[i].Repo)
					}
				}
			}
		})
	}
}

// replaced is v, a parsed YAML document, with old replaced by new in
// every string it holds.
func replaced(v any, old, new string) any {
	switch v := v.(type) {
	case string:
		return strings.ReplaceAll(v, old, new)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = replaced(e, old, new)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = replaced(e, old, new)
		}
		return out
	}
	return v
}
