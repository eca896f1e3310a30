package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInitAsAPersonRunsIt: the built program's init, in a checkout whose
// remote origin is on GitHub, writes the code repository's workflow file
// and prints what a person must still do, in order; run again it changes
// nothing and says so; a flag it cannot take is a usage error (exit 2) in
// one line of standard error, with nothing written and no value repeated.
func TestInitAsAPersonRunsIt(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[remote \"origin\"]\n\turl = https://github.com/acme/app.git\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"init", "--ref", "v1", "--docs-merge", "squash", "--merge-queue"}
	first := cliRun{args: args, dir: dir}.exec(t, bin)
	if first.code != 0 || first.stderr != "" {
		t.Fatalf("init: exit %d\n%s", first.code, first.stderr)
	}
	body, err := os.ReadFile(filepath.Join(dir, ".github", "workflows", "docs-agent.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"uses: agentjob/agent-job-action/binary@v1", "docs-merge: squash", "merge_group:", "allowed-bots: \"github-merge-queue[bot]\""} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the file lacks %q", want)
		}
	}
	steps := []string{"wrote .github/workflows/docs-agent.yml (for acme/app)", "gh variable set MINTLIFY_PROJECT_ID --repo acme/app",
		"gh secret set MINTLIFY_API_KEY --repo acme/app", "gh label create 'docs-not-needed' --repo acme/app", "gh api repos/acme/app/rulesets --method POST",
		`"type":"merge_queue"`, `"merge_method":"SQUASH"`}
	at := 0
	for _, s := range steps {
		i := strings.Index(first.stdout[at:], s)
		if i < 0 {
			t.Fatalf("init's steps lack %q after the earlier ones:\n%s", s, first.stdout)
		}
		at += i
	}
	again := cliRun{args: args, dir: dir}.exec(t, bin)
	if again.code != 0 || !strings.HasPrefix(again.stdout, "unchanged .github/workflows/docs-agent.yml (for acme/app)\n") {
		t.Errorf("init again: exit %d\n%s%s", again.code, again.stdout, again.stderr)
	}
	empty := t.TempDir()
	bad := cliRun{args: []string{"init", "--ref", "v1", "--repo", "acme/app", "--max-sends-per-day", "mint_0123456789"}, dir: empty}.exec(t, bin)
	if bad.code != 2 || strings.Count(bad.stderr, "\n") != 2 || !strings.Contains(bad.stderr, "-max-sends-per-day") || strings.Contains(bad.stderr, "mint_") ||
		!strings.HasSuffix(bad.stderr, "\nRun agent-job-action init --help for every flag.\n") {
		t.Errorf("init with a bad value: exit %d\n%s", bad.code, bad.stderr)
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("a refused init wrote %d entries", len(entries))
	}
}

// TestDoctorAsAPersonRunsIt: the program's doctor, built as go run builds
// it, in a checkout init wrote, with no credentials in its environment,
// sends nothing, says what it cannot tell and finds no problem, which
// proves nothing: not proven, with its own exit status (6); in a checkout
// with no workflow file it names the problem and its fix (5); a flag it
// does not have is a usage error (2). A release build has no doctor, and
// says where it is.
func TestDoctorAsAPersonRunsIt(t *testing.T) {
	t.Parallel()
	if r := (cliRun{args: []string{"doctor", "--repo", "acme/app"}}).exec(t, buildCLI(t)); r.code != 2 || !strings.Contains(r.stderr, "go run github.com/agentjob/agent-job-action@<commit or release> doctor") {
		t.Errorf("a release build's doctor: exit %d\n%s", r.code, r.stderr)
	}
	bin := buildDevCLI(t)
	dir := t.TempDir()
	if r := (cliRun{args: []string{"init", "--repo", "acme/app", "--ref", "v1"}, dir: dir}).exec(t, bin); r.code != 0 {
		t.Fatalf("init: %d %s", r.code, r.stderr)
	}
	ok := cliRun{args: []string{"doctor", "--repo", "acme/app"}, dir: dir}.exec(t, bin)
	if ok.code != 6 || !strings.Contains(ok.stdout, "ok           the workflow file: ") || !strings.Contains(ok.stdout, "cannot tell  the API key: doctor was given no key") ||
		!strings.Contains(ok.stdout, "fix: set MINTLIFY_API_KEY") || !strings.HasSuffix(ok.stdout, "\n7 checks: 2 ok, 5 cannot tell. Not proven: no problem found, but 5 checks could not be told.\n") {
		t.Errorf("doctor in init's checkout: exit %d\n%s%s", ok.code, ok.stdout, ok.stderr)
	}
	empty := cliRun{args: []string{"doctor", "--repo", "acme/app"}}.exec(t, bin)
	if empty.code != 5 || !strings.Contains(empty.stdout, "problem      the workflow file: ") || !strings.Contains(empty.stdout, "fix: run agent-job-action init") ||
		!strings.HasSuffix(empty.stdout, ", 1 problem. doctor found 1 problem.\n") {
		t.Errorf("doctor without a workflow file: exit %d\n%s%s", empty.code, empty.stdout, empty.stderr)
	}
	bad := cliRun{args: []string{"doctor", "--api-key", "mint_0123456789"}}.exec(t, bin)
	if bad.code != 2 || !strings.Contains(bad.stderr, "doctor has no flag -api-key") || strings.Contains(bad.stderr, "mint_") ||
		!strings.HasSuffix(bad.stderr, "\nRun agent-job-action doctor --help for every flag.\n") {
		t.Errorf("doctor --api-key: exit %d\n%s", bad.code, bad.stderr)
	}
}
