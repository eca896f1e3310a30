package pathfilter

import (
	"errors"
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
		{"a!b", []string{"a!b"}, nil},                                   // ! is special only at the start
		{"docs/#1.md\nit's.md", []string{"docs/#1.md", "it's.md"}, nil}, // # and ' are plain inside a name
		{`my file \#2.md` + "\n" + `\'q\'` + "\n" + `\- x` + "\n" + `\"d\"`, []string{"my file #2.md", "'q'", "- x", `"d"`}, []string{"my file"}},

		// A name may hold any character: ** and * match each as GitHub's
		// filter does, on the whole name.
		{"src/**", []string{"src/a\nb.go", "src/\n", "src/a/\n/b", "src/\tx", "src/a\r", "src/日本/語.go", "src/[x].go", "src/\x00", "src/\xff\xfe", "src/\u2028"}, []string{"lib/a\nsrc/b", "\nsrc/a", "src"}},
		{"**", []string{"a\nb", "\n", "x/\r\n/y", "\xff"}, nil},
		{"*.md", []string{"a\nb.md", "\t.md", "日本.md"}, []string{"a/\nb.md", "a.md\n"}},
		{"docs/*", []string{"docs/a\nb", "docs/[1]"}, []string{"docs/a\n/b"}},
		{"**/README.md", []string{"x\ny/README.md"}, []string{"README.md\n"}},
		{"src/**/*.go\n!src/**/*_test.go", []string{"src/a.go", "src/x\ny/a.go"}, []string{"src/a\nb_test.go"}},
		{"日本/*.md", []string{"日本/a.md"}, []string{"日/a.md"}},
		{"a+b", []string{"ab", "aaab"}, []string{"a\nb"}},
		{"[ab]\\[x]", []string{"a[x]"}, []string{"ax", "a[x]\n"}},

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
		{"?a", `has the pattern "?a" on line 1: ? repeats the character before it, and there is none`},
		{"src/*+", `has the pattern "src/*+" on line 1: + repeats`},
		{"a??", `has the pattern "a??" on line 1: ? repeats`},
		{"src/[abc", `has the pattern "src/[abc" on line 1: [ has no closing ]`},
		{"src/[]x", "[] lists no character"},
		{"src/[._]x", `[._] holds '.'`},
		{"[a-Z]", "has the range a-Z"},
		{"[9-0]", "has the range 9-0"},
		{`src\`, `it ends with \`},
		{"ok/**\n![bad", `has the pattern "![bad" on line 2: [ has no closing ]`},
		{"ok/**\n\n  \n\tx/[\n", `has the pattern "x/[" on line 4: [ has no closing ]`}, // blank lines count
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

// TestYAMLSyntax refuses a line that holds what YAML would take away in a
// workflow's on.pull_request.paths (a quote, a list marker, a comment),
// naming its line and all it holds, so that no pattern silently matches
// nothing.
func TestYAMLSyntax(t *testing.T) {
	t.Parallel()
	const (
		quotes  = `the quotes would be part of the pattern: write it without them, or \' and \" for quotes a name holds`
		marker  = `the list marker "- " would be part of the pattern: write one pattern a line, without a marker`
		comment = `it would be a pattern, not a comment: delete the line, or write \# for a name that starts with #`
		several = ` would be part of the pattern: write the pattern alone, one a line, with \ before a quote or # a name holds`
	)
	tests := []struct {
		patterns string
		line     int
		pattern  string
		problem  string
	}{
		{"'src/**'", 1, "'src/**'", quotes},
		{`"src/**"`, 1, `"src/**"`, quotes},
		{"src/**\n  '!src/gen/**'  ", 2, "'!src/gen/**'", quotes},
		{`!"src/gen/**"`, 1, `!"src/gen/**"`, quotes},
		{"src/**'", 1, "src/**'", quotes},
		{`src/**\\"`, 1, `src/**\\"`, quotes}, // \\ is a plain \, and the quote is bare
		{"- src/**", 1, "- src/**", marker},
		{"docs/**\n\n-\tsrc/**", 3, "-\tsrc/**", marker},
		{"-", 1, "-", marker},
		{"# the code", 1, "# the code", comment},
		{"src/**\n#", 2, "#", comment},
		{"!# x", 1, "!# x", comment},
		{"src/** # the code", 1, "src/** # the code", `the comment "# the code" would be part of the pattern: delete it, or write \# for a # a name holds`},
		{"src/**\t#x", 1, "src/**\t#x", `the comment "#x" would be part of the pattern: delete it, or write \# for a # a name holds`},
		{"- 'src/**'", 1, "- 'src/**'", `the list marker "- " and the quotes` + several},
		{`- "src/**" # code`, 1, `- "src/**" # code`, `the list marker "- ", the comment "# code" and the quotes` + several},
		{"'src/**' # code", 1, "'src/**' # code", `the comment "# code" and the quotes` + several},
		{"- # code", 1, "- # code", `the list marker "- " and the comment` + several},
	}
	for _, tt := range tests {
		t.Run(tt.patterns, func(t *testing.T) {
			t.Parallel()
			f, err := Parse(tt.patterns)
			var pe *PatternError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) = %v, %v; want a *PatternError", tt.patterns, f, err)
			}
			if want := (PatternError{Line: tt.line, Pattern: tt.pattern, Problem: tt.problem, YAML: true}); *pe != want {
				t.Errorf("Parse(%q) error =\n%+v\nwant\n%+v", tt.patterns, *pe, want)
			}
		})
	}
}

// FuzzParse makes sure no pattern panics (translate writes only valid
// expressions: regexp.MustCompile would), that a pattern written with
// every special character escaped matches itself, and that ** under a
// directory matches any name in it, whatever its bytes.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"**/*.md", "!a", "[a-z]+.go", `\[x]`, "a?b", "*?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Parse(s)
		if all, err := Parse("src/**"); err != nil || !all.Match("src/"+s) || all.Match("lib/"+s) {
			t.Errorf("src/** and %q: Parse error %v, or the wrong match", "src/"+s, err)
		}
		line := strings.TrimSpace(strings.NewReplacer("\n", "", "\r", "").Replace(s))
		if line == "" || strings.HasPrefix(line, "!") || !utf8.ValidString(line) {
			return
		}
		var b strings.Builder
		for _, r := range line {
			if strings.ContainsRune(`*?+[]\'"#-`, r) {
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
