package event

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestReadMergeGroup reads a merge queue's request for checks: the commit
// the queue asks them on, the base it is built on and the branches, and
// no request of anyone's, so no permission decides whether it is read.
func TestReadMergeGroup(t *testing.T) {
	t.Parallel()
	got, err := Read(context.Background(), "merge_group", filepath.Join("testdata", "merge_group_checks_requested.json"), "acme/code")
	if err != nil {
		t.Fatalf("Read() error = %v", err)
	}
	want := MergeGroup{
		HeadSHA: "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00",
		BaseSHA: "ba5e0000ba5e0000ba5e0000ba5e0000ba5e0000",
		HeadRef: "refs/heads/gh-readonly-queue/main/pr-12-a11ce00a11ce00a11ce00a11ce00a11ce00a11c",
		BaseRef: "refs/heads/main",
	}
	if got.Group == nil || *got.Group != want {
		t.Fatalf("Group = %+v, want %+v", got.Group, want)
	}
	if got.Action != "checks_requested" || got.Sender != "ann" || got.Own != nil || got.Number != 0 {
		t.Errorf("Read() = action %q, sender %q, own %+v, number %d; want checks_requested, ann, no request, no number",
			got.Action, got.Sender, got.Own, got.Number)
	}
	if b := got.Group.Branch(); b != "main" {
		t.Errorf("Branch() = %q, want main", b)
	}
}

// TestReadMergeGroupErrors refuses a merge group the run cannot set a
// check on: without the payload, or without the commits it names.
func TestReadMergeGroupErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := map[string]string{
		"no merge group": `{"action":"checks_requested","sender":{"login":"ann"}}`,
		"no head":        `{"action":"checks_requested","merge_group":{"base_sha":"ba5e0000ba5e0000ba5e0000ba5e0000ba5e0000","base_ref":"refs/heads/main"}}`,
		"no base":        `{"action":"checks_requested","merge_group":{"head_sha":"c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00","base_ref":"refs/heads/main"}}`,
	}
	for name, payload := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := filepath.Join(dir, name+".json")
			if err := os.WriteFile(p, []byte(payload), 0o600); err != nil {
				t.Fatal(err)
			}
			if got, err := Read(context.Background(), "merge_group", p, "acme/code"); err == nil {
				t.Errorf("Read() = %+v, want an error", got)
			}
		})
	}
	if _, err := Read(context.Background(), "merge_group", "", "acme/code"); err == nil {
		t.Error("Read() without a payload: no error")
	}
}
