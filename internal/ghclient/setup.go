package ghclient

import (
	"context"
	"fmt"
	"net/url"
	"strings"
)

// Repository is what a read of a repository shows of it, and of the token
// that read it.
type Repository struct {
	DefaultBranch string
	// Scopes are a classic token's scopes, as GitHub lists them with each
	// answer (X-OAuth-Scopes); nil when it lists none, as for a
	// fine-grained token or an app's, whose permissions no answer shows.
	Scopes []string
	// Push says the token's user may push to it, where the answer says
	// (permissions); false when it does not.
	Push bool
}

// Repository reads owner/repo with the client's token: a 404 is a
// repository the token cannot see (IsNotFound), or none.
func (c *Client) Repository(ctx context.Context, owner, repo string) (Repository, error) {
	if err := CheckRepo(owner, repo); err != nil {
		return Repository{}, fmt.Errorf("read %s/%s: %w", owner, repo, err)
	}
	var r struct {
		DefaultBranch string `json:"default_branch"`
		Permissions   struct {
			Push bool `json:"push"`
		} `json:"permissions"`
	}
	resp, err := c.get(ctx, fmt.Sprintf("repos/%s/%s", owner, repo), &r)
	if err != nil {
		return Repository{}, fmt.Errorf("read %s/%s: %w", owner, repo, clean(err))
	}
	out := Repository{DefaultBranch: r.DefaultBranch, Push: r.Permissions.Push}
	if h, ok := resp.Header["X-Oauth-Scopes"]; ok {
		out.Scopes = []string{}
		for _, s := range strings.Split(strings.Join(h, ","), ",") {
			if s = strings.TrimSpace(s); s != "" {
				out.Scopes = append(out.Scopes, s)
			}
		}
	}
	return out, nil
}

// BranchRules are the active rules of a branch that doctor reads: the
// status checks they require, by context, and whether a merge queue
// merges into it.
type BranchRules struct {
	Required   []string
	MergeQueue bool
}

// maxRulePages bounds the pages of a branch's rules read: a branch has
// a handful of rules; past 300 the rest are not read.
const maxRulePages = 3

// BranchRules reads the active rules that apply to branch of owner/repo,
// from every ruleset (the repository's and its organization's), as any
// token that can read the repository can.
func (c *Client) BranchRules(ctx context.Context, owner, repo, branch string) (BranchRules, error) {
	var out BranchRules
	if err := CheckRepo(owner, repo); err != nil {
		return out, fmt.Errorf("read the rules of %s: %w", branch, err)
	}
	for page := 1; page <= maxRulePages; page++ {
		var rules []struct {
			Type       string `json:"type"`
			Parameters struct {
				Checks []struct {
					Context string `json:"context"`
				} `json:"required_status_checks"`
			} `json:"parameters"`
		}
		resp, err := c.get(ctx, fmt.Sprintf("repos/%s/%s/rules/branches/%s?per_page=%d&page=%d", owner, repo, url.PathEscape(branch), PerPage, page), &rules)
		if err != nil {
			return out, fmt.Errorf("read the rules of %s: %w", branch, clean(err))
		}
		for _, r := range rules {
			switch r.Type {
			case "merge_queue":
				out.MergeQueue = true
			case "required_status_checks":
				for _, c := range r.Parameters.Checks {
					out.Required = append(out.Required, c.Context)
				}
			}
		}
		if resp.NextPage == 0 {
			break
		}
	}
	return out, nil
}

// Protection is what a branch's protection summary shows to a token that
// can read the repository: whether the branch is protected, and the
// status checks its protection requires, by context.
type Protection struct {
	Protected bool
	Required  []string
}

// Protection reads branch of owner/repo (the client refuses a redirect
// to another host, as for every request).
func (c *Client) Protection(ctx context.Context, owner, repo, branch string) (Protection, error) {
	if err := CheckRepo(owner, repo); err != nil {
		return Protection{}, fmt.Errorf("read the branch %s: %w", branch, err)
	}
	var b struct {
		Protected  bool `json:"protected"`
		Protection struct {
			Checks struct {
				Contexts []string `json:"contexts"`
				Checks   []struct {
					Context string `json:"context"`
				} `json:"checks"`
			} `json:"required_status_checks"`
		} `json:"protection"`
	}
	if _, err := c.get(ctx, fmt.Sprintf("repos/%s/%s/branches/%s", owner, repo, url.PathEscape(branch)), &b); err != nil {
		return Protection{}, fmt.Errorf("read the branch %s: %w", branch, clean(err))
	}
	out := Protection{Protected: b.Protected, Required: b.Protection.Checks.Contexts}
	for _, c := range b.Protection.Checks.Checks {
		out.Required = append(out.Required, c.Context)
	}
	return out, nil
}

// App reads the public page of the GitHub App slug: the permissions it
// asks of the repositories it is installed on, by name ("workflows":
// "write").
func (c *Client) App(ctx context.Context, slug string) (map[string]string, error) {
	if slug == "" || len(slug) > 100 || strings.ContainsFunc(slug, notNameChar) {
		return nil, fmt.Errorf("read the app %q: not an app's name", slug)
	}
	var a struct {
		Permissions map[string]string `json:"permissions"`
	}
	if _, err := c.get(ctx, "apps/"+slug, &a); err != nil {
		return nil, fmt.Errorf("read the app %s: %w", slug, clean(err))
	}
	if a.Permissions == nil {
		a.Permissions = map[string]string{}
	}
	return a.Permissions, nil
}
