package pathfilter

import (
	"strings"
	"testing"
	"unicode/utf8"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// TestMatch holds the filter to the examples of GitHub's filter pattern
// cheat sheet for paths, and to the rules of order and exclusion.
func TestMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		patterns string
		match    []string
		miss     []string
	}{
		{"", []string{"README.md", "src/a/b.go", ".github/workflows/ci.yml"}, nil},
		{"**", []string{"all/the/files.md", "README.md"}, nil},
		{"*.js", []string{"app.js", "index.js"}, []string{"js/index.js", "app.jsx", "app.js.map"}},
		{"**.js", []string{"index.js", "js/index.js", "src/js/app.js"}, []string{"index.jsx"}},
		{"docs/*", []string{"docs/README.md", "docs/file.txt"}, []string{"docs/mona/octocat.txt", "README.md", "docsx/a"}},
		{"docs/**", []string{"docs/README.md", "docs/mona/octocat.txt"}, []string{"README.md", "src/docs/a.md"}},
		{"docs/**/*.md", []string{"docs/README.md", "docs/mona/hello-world.md", "docs/a/markdown/file.md"}, []string{"docs/a.txt", "README.md"}},
		{"**/docs/**", []string{"docs/hello.md", "dir/docs/my-file.txt", "space/docs/plan/space.doc"}, []string{"documents/a.md"}},
		{"**/README.md", []string{"README.md", "js/README.md"}, []string{"README.mdx", "xREADME.md"}},
		{"**/*src/**", []string{"a/src/app.js", "my-src/code/js/app.js"}, []string{"src.js"}},
		{"**/*-post.md", []string{"my-post.md", "path/their-post.md"}, []string{"post.md"}},
		{"**/migrate-*.sql", []string{"migrate-10909.sql", "db/migrate-v1.0.sql", "db/sept/migrate-v1.sql"}, []string{"db/migrate.sql"}},
		{"*.jsx?", []string{"page.js", "page.jsx"}, []string{"page.jsxx", "page.j"}},
		{"a+.txt", []string{"a.txt", "aaa.txt"}, []string{".txt"}},
		{"[CB]at", []string{"Cat", "Bat"}, []string{"Rat", "cat"}},
		{"v[1-2]00/*", []string{"v100/x", "v200/y"}, []string{"v300/x"}},
		{"[0-9a-f].txt", []string{"7.txt", "c.txt"}, []string{"g.txt"}},
		{`\*.md`, []string{"*.md"}, []string{"a.md"}},
		{"src/a.b", []string{"src/a.b"}, []string{"src/axb"}}, // . is plain
		{"src/(x)|y", []string{"src/(x)|y"}, []string{"src/x"}},
		{"a!b", []string{"a!b"}, nil}, // ! is special only at the start

		// Order: the last matching pattern decides.
		{"*.md\n!README.md", []string{"hello.md"}, []string{"README.md", "docs/hello.md"}},
		{"*.md\n!README.md\nREADME*", []string{"hello.md", "README.md", "README.doc"}, nil},
		{"**\n!docs/**", []string{"src/a.go", "README.md"}, []string{"docs/a.md", "docs/x/y.md"}},
		{"src/**\n!src/**/*_test.go\nsrc/api/*_test.go", []string{"src/a.go", "src/api/x_test.go"}, []string{"src/b/x_test.go", "lib/a.go"}},
		{"  src/**  \n\n\t!src/gen/**\n", []string{"src/a.go"}, []string{"src/gen/a.go"}},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.patterns, "\n", ";"), func(t *testing.T) {
			t.Parallel()
			f, err := Parse(tt.patterns)
			if err != nil {
				t.Fatalf("Parse(%q) error = %v", tt.patterns, err)
			}
			for _, p := range tt.match {
				if !f.Match(p) {
					t.Errorf("%q does not match %q, want a match", tt.patterns, p)
				}
			}
			for _, p := range tt.miss {
				if f.Match(p) {
					t.Errorf("%q matches %q, want none", tt.patterns, p)
				}
			}
			if got, want := f.All(), strings.TrimSpace(tt.patterns) == ""; got != want {
				t.Errorf("All() = %v, want %v", got, want)
			}
		})
	}
}

// TestParseErrors refuses what GitHub's syntax does not allow, or what
// could never match, naming the pattern and what is wrong.
func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ patterns, want string }{
		{"!docs/**", "only excludes: every pattern starts with !"},
		{"!a\n!b", "only excludes: every pattern starts with !"},
		{"?a", `has the pattern "?a": ? repeats the character before it, and there is none`},
		{"src/*+", `has the pattern "src/*+": + repeats`},
		{"a??", `has the pattern "a??": ? repeats`},
		{"src/[abc", `has the pattern "src/[abc": [ has no closing ]`},
		{"src/[]x", "[] lists no character"},
		{"src/[._]x", `[._] holds '.'`},
		{"[a-Z]", "has the range a-Z"},
		{"[9-0]", "has the range 9-0"},
		{`src\`, `it ends with \`},
		{"ok/**\n![bad", `has the pattern "![bad": [ has no closing ]`},
	}
	for _, tt := range tests {
		t.Run(tt.patterns, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tt.patterns)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse(%q) error = %v, want one containing %q", tt.patterns, err, tt.want)
			}
		})
	}
}

// FuzzParse makes sure no pattern panics (translate writes only valid
// expressions: regexp.MustCompile would) and that a pattern written with
// every special character escaped matches itself.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"**/*.md", "!a", "[a-z]+.go", `\[x]`, "a?b", "*?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Parse(s)
		line := strings.TrimSpace(strings.NewReplacer("\n", "", "\r", "").Replace(s))
		if line == "" || strings.HasPrefix(line, "!") || !utf8.ValidString(line) {
			return
		}
		var b strings.Builder
		for _, r := range line {
			if strings.ContainsRune(`*?+[]\`, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		flt, err := Parse(b.String())
		if err != nil {
			t.Fatalf("Parse(%q) error = %v", b.String(), err)
		}
		if !flt.Match(line) {
			t.Errorf("escaped %q does not match itself", line)
		}
	})
}
