package ghclient

import (
	"context"
	"slices"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
)

// TestSetupReads: what doctor reads of a setup, as GitHub answers a token
// that can read the repository: its default branch, a classic token's
// scopes (none for another token), the rules on the default branch (the
// required checks, the merge queue), the branch's protection summary, and
// an app's public permissions. Each is one GET, under the API's prefix on
// GitHub Enterprise Server; a repository out of the token's reach and an
// unknown app are 404s.
func TestSetupReads(t *testing.T) {
	t.Parallel()
	forEachPrefix(t, func(t *testing.T, prefix string) {
		c, srv := newFake(t, fakegithub.Options{Prefix: prefix, Repos: []string{"acme/app"}, Scopes: map[string]string{token: "repo, workflow"}})
		srv.SeedRepository(fakegithub.Repository{Name: "acme/app", DefaultBranch: "trunk", Required: []string{"ci", "docs / agent-job"}, MergeQueue: true,
			Protected: true, ProtectionRequired: []string{"lint"}})
		srv.SeedApp(fakegithub.App{Slug: "mintlify", Permissions: map[string]string{"contents": "write", "workflows": "write"}})
		ctx := context.Background()
		repo, err := c.Repository(ctx, "acme", "app")
		if err != nil || repo.DefaultBranch != "trunk" || !slices.Equal(repo.Scopes, []string{"repo", "workflow"}) || !repo.Push {
			t.Errorf("Repository() = %+v, %v", repo, err)
		}
		rules, err := c.BranchRules(ctx, "acme", "app", "trunk")
		if err != nil || !slices.Equal(rules.Required, []string{"ci", "docs / agent-job"}) || !rules.MergeQueue {
			t.Errorf("BranchRules() = %+v, %v", rules, err)
		}
		prot, err := c.Protection(ctx, "acme", "app", "trunk")
		if err != nil || !prot.Protected || !slices.Contains(prot.Required, "lint") {
			t.Errorf("Protection() = %+v, %v", prot, err)
		}
		perms, err := c.App(ctx, "mintlify")
		if err != nil || perms["workflows"] != "write" || perms["contents"] != "write" {
			t.Errorf("App() = %v, %v", perms, err)
		}
		if _, err := c.Repository(ctx, "acme", "handbook"); !IsNotFound(err) {
			t.Errorf("a repository out of reach: %v, want a 404", err)
		}
		if _, err := c.App(ctx, "nobody"); !IsNotFound(err) {
			t.Errorf("an unknown app: %v, want a 404", err)
		}
		if _, err := c.App(ctx, "../user"); err == nil {
			t.Errorf("an app's name with a slash was sent")
		}
		var paths []string
		for _, r := range srv.Requests() {
			if r.Method != "GET" {
				t.Errorf("%s %s: doctor's reads send only GET", r.Method, r.Path)
			}
			paths = append(paths, r.Path)
		}
		want := []string{prefix + "/repos/acme/app", prefix + "/repos/acme/app/rules/branches/trunk", prefix + "/repos/acme/app/branches/trunk",
			prefix + "/apps/mintlify", prefix + "/repos/acme/handbook", prefix + "/apps/nobody"}
		if !slices.Equal(paths, want) {
			t.Errorf("requests %q, want %q", paths, want)
		}
	})
	c, _ := newFake(t, fakegithub.Options{})
	if repo, err := c.Repository(context.Background(), "acme", "app"); err != nil || repo.Scopes != nil || repo.DefaultBranch != "main" {
		t.Errorf("a fine-grained token's read: %+v, %v; want no scopes listed", repo, err)
	}
}
