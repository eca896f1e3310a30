package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"go.yaml.in/yaml/v4"
)

// TestActionDescriptionFitsMarketplace: the Marketplace
// refuses an action whose description is 125 characters or more.
func TestActionDescriptionFitsMarketplace(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"action.yml", "binary/action.yml"} {
		src, err := os.ReadFile(filepath.FromSlash(file))
		if err != nil {
			t.Fatal(err)
		}
		var action struct {
			Description string `yaml:"description"`
		}
		if err := yaml.Unmarshal(src, &action); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if n := len([]rune(action.Description)); n == 0 || n >= 125 {
			t.Errorf("%s: description of %d characters, want 1 to 124: %q", file, n, action.Description)
		}
	}
}

// TestPinnedByDigest: the release workflow, which may
// write tags, releases and packages, runs each action at a full commit SHA
// (its version in a comment), the Dockerfile builds on a base image named
// by digest, and Dependabot proposes updates for both and for Go modules.
func TestPinnedByDigest(t *testing.T) {
	t.Parallel()
	release, err := os.ReadFile(filepath.FromSlash(".github/workflows/release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	uses := regexp.MustCompile(`(?m)^\s*(?:- )?uses:\s*(\S+)(.*)$`)
	pinned := regexp.MustCompile(`^[\w.-]+/[\w.-]+(?:/[\w./-]+)?@[0-9a-f]{40}$`)
	version := regexp.MustCompile(`^\s*# v\d+\.\d+\.\d+\s*$`)
	steps := uses.FindAllStringSubmatch(string(release), -1)
	if len(steps) < 5 {
		t.Fatalf("%d uses: lines in release.yml", len(steps))
	}
	for _, m := range steps {
		if !pinned.MatchString(m[1]) || !version.MatchString(m[2]) {
			t.Errorf("release.yml: uses: %s%s is not pinned by commit SHA with its version in a comment", m[1], m[2])
		}
	}

	dockerfile, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	from := regexp.MustCompile(`(?m)^FROM\s+(?:--platform=\S+\s+)?(\S+)`)
	for _, m := range from.FindAllStringSubmatch(string(dockerfile), -1) {
		if m[1] != "scratch" && !regexp.MustCompile(`@sha256:[0-9a-f]{64}$`).MatchString(m[1]) {
			t.Errorf("Dockerfile: FROM %s is not pinned by digest", m[1])
		}
	}

	src, err := os.ReadFile(filepath.FromSlash(".github/dependabot.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Updates []struct {
			Ecosystem string `yaml:"package-ecosystem"`
			Directory string `yaml:"directory"`
		} `yaml:"updates"`
	}
	if err := yaml.Unmarshal(src, &cfg); err != nil {
		t.Fatalf("dependabot.yml: %v", err)
	}
	var got []string
	for _, u := range cfg.Updates {
		got = append(got, u.Ecosystem+" "+u.Directory)
	}
	for _, want := range []string{"github-actions /", "docker /", "gomod /"} {
		if !slices.Contains(got, want) {
			t.Errorf("dependabot.yml updates %q, want %q among them", got, want)
		}
	}
}
