package doctor

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/setup"
)

// TestParseRefuses: each flag doctor cannot use is a usage error that
// names it, before doctor reads anything.
func TestParseRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		says string
	}{
		{"a repository without its owner", []string{"--repo", "app"}, "--repo must name the code repository as owner/name"},
		{"a repository name GitHub does not allow", []string{"--repo", "acme/app name"}, "--repo must name"},
		{"an owner longer than GitHub allows", []string{"--repo", strings.Repeat("a", 40) + "/app"}, "--repo must name"},
		{"a docs repository without its owner", []string{"--repo", "acme/app", "--docs-repo", "handbook"}, "--docs-repo must name the docs repository as owner/name"},
		{"a docs checkout without its repository", []string{"--repo", "acme/app", "--docs-dir", "../handbook"}, "--docs-dir is for --docs-repo's checkout"},
		{"a file that is not YAML", []string{"--repo", "acme/app", "--file", "docs.txt"}, "--file must be a workflow file's name"},
		{"a file in a directory", []string{"--repo", "acme/app", "--file", "../docs.yml"}, "--file must be a workflow file's name"},
		{"an argument that is not a flag", []string{"--repo", "acme/app", "now"}, "doctor takes flags only; 1 more arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tc.args, func(string) string { return "" })
			var usage *setup.UsageError
			if !errors.As(err, &usage) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Parse(%q) = %v, want a usage error saying %q", tc.args, err, tc.says)
			}
		})
	}
	if _, err := Parse([]string{"--repo", "acme/app", "--docs-repo", "acme/handbook", "--docs-dir", "../handbook", "--file", "docs.yaml"}, func(string) string { return "" }); err != nil {
		t.Errorf("Parse of good flags: %v", err)
	}
}

// refuseTransport fails the test on any request: doctor refused its flags
// and must send nothing.
type refuseTransport struct{ t *testing.T }

func (rt refuseTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.t.Errorf("doctor sent %s %s, want nothing sent", r.Method, r.URL.Redacted())
	return nil, errors.New("no request expected")
}

// TestRunRefusesTheBaseURLsTheActionRefuses: doctor sends the key to
// --base-url only where the action would (inputs.ParseBaseURL), and says
// why it will not.
func TestRunRefusesTheBaseURLsTheActionRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, says string }{
		{"http://api.example.com", "--base-url must use https:// (plain http:// is accepted only for localhost, 127.0.0.0/8 and ::1)"},
		{"https://user:pass@api.example.com", "--base-url must not contain a user name or password"},
		{"https://api.example.com/?project=1", "--base-url must not have a query or fragment"},
		{"ftp://api.example.com", "--base-url must use https://"},
		{"api.example.com", "--base-url must be an absolute URL"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"MINTLIFY_API_KEY": "mint_doctor_refused", "MINTLIFY_PROJECT_ID": "proj-1"}
			o, err := Parse([]string{"--repo", "acme/app", "--dir", t.TempDir(), "--base-url", tc.url}, func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			err = Run(context.Background(), o, Env{Getenv: func(k string) string { return env[k] }, Transport: refuseTransport{t}, Version: "test"}, &out)
			var usage *setup.UsageError
			if !errors.As(err, &usage) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Run with --base-url %s = %v, want a usage error saying %q", tc.url, err, tc.says)
			}
			if strings.Contains(err.Error()+out.String(), "mint_doctor_refused") {
				t.Errorf("the key in what doctor said: %v\n%s", err, out.String())
			}
		})
	}
}

// TestRunRefusesAGitHubAPIURLNoClientTakes: a GITHUB_API_URL that is not
// an http(s) URL is said as such, before anything is read, and not taken
// for a token doctor was not given.
func TestRunRefusesAGitHubAPIURLNoClientTakes(t *testing.T) {
	t.Parallel()
	for _, token := range []string{"GITHUB_TOKEN", "DOCS_REPO_TOKEN", "CODE_REPO_DISPATCH_TOKEN"} {
		t.Run(token, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"GITHUB_API_URL": "ftp://github.example.com", token: "ghp_doctor_refused"}
			o, err := Parse([]string{"--repo", "acme/app", "--dir", t.TempDir()}, func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			err = Run(context.Background(), o, Env{Getenv: func(k string) string { return env[k] }, Transport: refuseTransport{t}, Version: "test"}, &out)
			var usage *setup.UsageError
			if !errors.As(err, &usage) || !strings.Contains(err.Error(), `GITHUB_API_URL "ftp://github.example.com" is not an http(s) URL: unset it`) {
				t.Errorf("Run = %v, want a usage error naming GITHUB_API_URL\n%s", err, out.String())
			}
			if out.Len() != 0 || strings.Contains(err.Error(), "ghp_doctor_refused") {
				t.Errorf("doctor printed %q and said %v; want no findings and no token", out.String(), err)
			}
		})
	}
}
