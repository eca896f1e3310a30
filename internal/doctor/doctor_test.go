package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/check"
	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/faults"
	"github.com/agentjob/agent-job-action/internal/setup"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

const (
	key         = "mint_doctor_key_0123456789"
	personToken = "ghp_person_token_0123456789"
	docsToken   = "github_pat_docs_0123456789"
	dispatchTok = "github_pat_dispatch_0123456789"
)

// world is a setup as init writes it, for the code repository acme/app
// and the docs repository acme/handbook, with the services doctor reads,
// each answering as it documents; break changes one thing in it.
type world struct {
	code, docs string // the checkouts
	api        *fakeapi.Server
	gh         *fakegithub.Server
	env        map[string]string
}

func newWorld(t *testing.T, breaks func(*fakegithub.Options, *fakeapi.Scenario)) *world {
	t.Helper()
	w := &world{code: t.TempDir(), docs: t.TempDir()}
	ghOpt := fakegithub.Options{Token: personToken, Check: ghspec.Checker(),
		OtherTokens: map[string][]string{docsToken: {"acme/handbook"}, dispatchTok: {"acme/app"}}}
	sc := fakeapi.Scenario{Key: key}
	if breaks != nil {
		breaks(&ghOpt, &sc)
	}
	w.gh = fakegithub.New(ghOpt)
	w.api = fakeapi.New("proj-1", sc)
	t.Cleanup(func() {
		w.gh.Close()
		w.api.Close()
		if u := w.gh.Unexpected(); len(u) > 0 {
			t.Errorf("GitHub got unexpected requests: %q", u)
		}
		if u := w.api.Unexpected(); len(u) > 0 {
			t.Errorf("the Agent API got unexpected requests: %q", u)
		}
	})
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/app", DefaultBranch: "main", Required: []string{"build", check.Context}, MergeQueue: true})
	w.gh.SeedApp(fakegithub.App{Slug: "mintlify", Permissions: map[string]string{"contents": "write", "pull_requests": "write", "metadata": "read"}})
	w.gh.SeedRef("agentjob/agent-job-action", "v1", "924ae3a1cded613372ab5595356fb5720e22ba16") // the release init's files name
	c := setup.Defaults
	c.CodeRepo, c.DocsRepo, c.Ref, c.Merge, c.Close, c.MergeQueue, c.Paths = "acme/app", "acme/handbook", "v1", "squash", true, true, []string{"src/**"}
	files, err := setup.Files(c)
	if err != nil {
		t.Fatal(err)
	}
	for i, dir := range []string{w.code, w.docs} {
		path := filepath.Join(dir, filepath.FromSlash(files[i].Path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, files[i].Body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w.env = map[string]string{"MINTLIFY_API_KEY": key, "MINTLIFY_PROJECT_ID": "proj-1", "GITHUB_TOKEN": personToken, "GITHUB_API_URL": w.gh.APIURL(),
		"DOCS_REPO_TOKEN": docsToken, "CODE_REPO_DISPATCH_TOKEN": dispatchTok}
	return w
}

// doctor runs the doctor command as a person does, in JSON, and returns
// its findings by check, what it printed and its error.
func (w *world) doctor(t *testing.T) (map[string]Finding, string, error) {
	t.Helper()
	o, err := Parse([]string{"--repo", "acme/app", "--dir", w.code, "--docs-repo", "acme/handbook", "--docs-dir", w.docs,
		"--base-url", w.api.URL, "--json"}, func(k string) string { return w.env[k] })
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	runErr := Run(context.Background(), o, Env{Getenv: func(k string) string { return w.env[k] }, Version: "test"}, &out)
	var got struct {
		Findings []Finding `json:"findings"`
		Problems int       `json:"problems"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("--json printed %q: %v", out.String(), err)
	}
	by := map[string]Finding{}
	for _, f := range got.Findings {
		if _, dup := by[f.Check]; dup {
			t.Errorf("two findings of %q", f.Check)
		}
		by[f.Check] = f
	}
	return by, out.String(), runErr
}

// TestDoctor: against services that answer as they document, doctor
// reports a correct setup as correct (and what the services cannot tell
// as that), and each broken setup as the problem it is, with its fix: a
// wrong key, a token without access to the docs repository, a missing
// dispatch, a check that is not required, an app that can change
// workflows. Its exit is ProblemsError only when it found a problem;
// every request it sends, to GitHub and to the Agent Job API, is a read;
// and nothing it prints holds a secret of its environment.
func TestDoctor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		breaks func(*fakegithub.Options, *fakeapi.Scenario)
		mend   func(*world)
		check  string // the finding that is a problem; "" for none
		says   string
		fix    string
	}{
		{name: "a correct setup"},
		{name: "a wrong key", breaks: func(_ *fakegithub.Options, sc *fakeapi.Scenario) { sc.Key = "mint_another" },
			check: "the API key", says: "refused the key (HTTP 401)", fix: "set it as the secret MINTLIFY_API_KEY"},
		{name: "a docs token without access to the docs repository", breaks: func(o *fakegithub.Options, _ *fakeapi.Scenario) {
			o.OtherTokens[docsToken] = []string{"acme/other"}
		}, check: "DOCS_REPO_TOKEN", says: "DOCS_REPO_TOKEN cannot read acme/handbook", fix: "give DOCS_REPO_TOKEN access to acme/handbook"},
		{name: "a missing dispatch", mend: func(w *world) {
			if err := os.Remove(filepath.Join(w.docs, ".github", "workflows", setup.File)); err != nil {
				t.Fatal(err)
			}
		}, check: "the docs repository's dispatch", says: "nothing in", fix: "--docs-repo acme/handbook --docs-dir"},
		{name: "a check that is not required", mend: func(w *world) {
			w.gh.SeedRepository(fakegithub.Repository{Name: "acme/app", DefaultBranch: "main", Required: []string{"build"}, MergeQueue: true})
		}, check: "the required check", says: "main does not require docs / agent-job", fix: "add it to a ruleset"},
		{name: "a merge queue the file does not hear", mend: func(w *world) {
			path := filepath.Join(w.code, ".github", "workflows", setup.File)
			body, _ := os.ReadFile(path)
			body = bytes.Replace(body, []byte("  merge_group: # the check of a merge queue's group\n    types: [checks_requested]\n"), nil, 1)
			if err := os.WriteFile(path, body, 0o644); err != nil {
				t.Fatal(err)
			}
		}, check: "the merge queue", says: "does not hear merge_group", fix: "--merge-queue"},
		{name: "an app that can change workflows", mend: func(w *world) {
			w.gh.SeedApp(fakegithub.App{Slug: "mintlify", Permissions: map[string]string{"contents": "write", "workflows": "write"}})
		}, check: "the agent's app", says: "asks workflows: write", fix: "take pull_request_review out of the settle job's if:"},
		{name: "a classic dispatch token", breaks: func(o *fakegithub.Options, _ *fakeapi.Scenario) {
			o.Scopes = map[string]string{dispatchTok: "repo, workflow"}
		}, check: "CODE_REPO_DISPATCH_TOKEN", says: "it can push code to acme/app", fix: "Actions: read and write on acme/app alone"},
		{name: "docs-when: approved with no review event", mend: func(w *world) {
			path := filepath.Join(w.code, ".github", "workflows", setup.File)
			body, _ := os.ReadFile(path)
			body = bytes.Replace(body, []byte("          docs-close: true\n"), []byte("          docs-close: true\n          docs-when: approved\n"), 1)
			body = bytes.Replace(body, []byte("  pull_request_review: # /docs in a review\n    types: [submitted]\n"), nil, 1)
			if err := os.WriteFile(path, body, 0o644); err != nil {
				t.Fatal(err)
			}
		}, check: "the workflow file", says: "passes docs-when: approved, but the file does not hear pull_request_review", fix: "run agent-job-action init again"},
		{name: "a ref the action does not have", mend: func(w *world) {
			path := filepath.Join(w.code, ".github", "workflows", setup.File)
			body, _ := os.ReadFile(path)
			if err := os.WriteFile(path, bytes.ReplaceAll(body, []byte("agent-job-action/binary@v1"), []byte("agent-job-action/binary@v9")), 0o644); err != nil {
				t.Fatal(err)
			}
		}, check: "the action's ref", says: "agentjob/agent-job-action has no v9", fix: "--ref naming a release or a commit"},
		{name: "an input the action does not take", mend: func(w *world) {
			path := filepath.Join(w.code, ".github", "workflows", setup.File)
			body, _ := os.ReadFile(path)
			body = bytes.Replace(body, []byte("          docs-close: true\n"), []byte("          docs-close: sometimes\n          doc-merge: squash\n"), 1)
			if err := os.WriteFile(path, body, 0o644); err != nil {
				t.Fatal(err)
			}
		}, check: "the workflow file", says: "job code passes doc-merge, which is no input of the action", fix: "run agent-job-action init again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, tc.breaks)
			if tc.mend != nil {
				tc.mend(w)
			}
			found, out, err := w.doctor(t)
			for check, f := range found {
				switch {
				case check == tc.check:
					if f.State != Problem || !strings.Contains(f.Says, tc.says) || !strings.Contains(f.Fix, tc.fix) {
						t.Errorf("%s: %+v; want a problem saying %q, fixed by %q", check, f, tc.says, tc.fix)
					}
				case f.State == Problem:
					t.Errorf("%s: %+v; want no problem", check, f)
				case f.State == CannotTell && f.Fix == "":
					t.Errorf("%s: cannot tell, with no way to tell: %+v", check, f)
				}
			}
			if tc.check != "" {
				if _, ok := found[tc.check]; !ok {
					t.Errorf("no finding of %q in %s", tc.check, out)
				}
			}
			var problems *ProblemsError
			if errors.As(err, &problems) != (tc.check != "") {
				t.Errorf("doctor ended %v; want problems: %v", err, tc.check != "")
			}
			// What it cannot tell leaves even a correct setup not proven.
			var notProven *NotProvenError
			if tc.check == "" && (!errors.As(err, &notProven) || notProven.N != 3) {
				t.Errorf("doctor ended %v; want not proven, 3 checks it cannot tell", err)
			}
			// What the services documented cannot tell doctor, it says it
			// cannot tell.
			for check, says := range map[string]string{"the API key": "cannot tell whether project-id is right", "DOCS_REPO_TOKEN": "fine-grained token"} {
				if f := found[check]; check != tc.check && (f.State != CannotTell || !strings.Contains(f.Says, says)) {
					t.Errorf("%s: %+v; want cannot tell, %q", check, f, says)
				}
			}
			for _, r := range w.gh.Requests() {
				if r.Method != "GET" {
					t.Errorf("GitHub got %s %s: doctor sends reads only", r.Method, r.Path)
				}
			}
			for _, r := range w.api.Requests() {
				if r.Method != "GET" || r.Path != "/v2/agent/proj-1/job/"+Probe {
					t.Errorf("the Agent API got %s %s: doctor sends one read", r.Method, r.Path)
				}
			}
			if len(w.api.Requests()) != 1 || len(w.gh.Requests()) > 9 {
				t.Errorf("%d Agent API requests, %d GitHub requests; want 1 and at most 9", len(w.api.Requests()), len(w.gh.Requests()))
			}
			for _, secret := range []string{key, personToken, docsToken, dispatchTok} {
				if strings.Contains(out, secret) {
					t.Errorf("doctor printed a secret")
				}
			}
		})
	}
}

// TestDoctorWithoutCredentials: given no key and no tokens, doctor sends
// nothing, checks the files, and says for the rest that it cannot tell
// and how it could.
func TestDoctorWithoutCredentials(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.env = map[string]string{"GITHUB_API_URL": w.gh.APIURL()}
	found, out, err := w.doctor(t)
	var notProven *NotProvenError
	if !errors.As(err, &notProven) || notProven.N != 7 {
		t.Errorf("doctor ended %v, want not proven: 7 checks it cannot tell", err)
	}
	if !strings.Contains(out, `"ok":3,"cannot_tell":7,"problems":0,"proven":false`) {
		t.Errorf("--json printed %s; want the counts, and not proven", out)
	}
	for _, c := range []string{"the action's ref", "the API key", "GitHub", "DOCS_REPO_TOKEN", "CODE_REPO_DISPATCH_TOKEN", "the required check", "the agent's app"} {
		if f := found[c]; f.State != CannotTell || f.Fix == "" {
			t.Errorf("%s: %+v; want cannot tell, with how to tell", c, f)
		}
	}
	if f := found["the workflow file"]; f.State != OK {
		t.Errorf("the workflow file: %+v", f)
	}
	if n := len(w.gh.Requests()) + len(w.api.Requests()); n != 0 {
		t.Errorf("doctor without credentials sent %d requests", n)
	}
}

// TestDoctorUnreachable: services that cannot be reached are no problem
// of the setup: doctor says it cannot tell, names how to tell, finds no
// problem, and prints no secret.
func TestDoctorUnreachable(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	w.env["GITHUB_API_URL"] = gone.URL
	o, err := Parse([]string{"--repo", "acme/app", "--dir", w.code, "--docs-repo", "acme/handbook", "--docs-dir", w.docs, "--base-url", gone.URL, "--json"},
		func(k string) string { return w.env[k] })
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	runErr := Run(context.Background(), o, Env{Getenv: func(k string) string { return w.env[k] }, Clock: clock.NewFake(time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC))}, &out)
	var notProven *NotProvenError
	if !errors.As(runErr, &notProven) {
		t.Errorf("doctor ended %v, want not proven: no problem found, what it could not reach untold", runErr)
	}
	var got struct {
		Findings []Finding `json:"findings"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%q: %v", out.String(), err)
	}
	for _, f := range got.Findings {
		switch f.Check {
		case "the API key", "GitHub", "DOCS_REPO_TOKEN", "CODE_REPO_DISPATCH_TOKEN":
			if f.State != CannotTell || f.Fix == "" {
				t.Errorf("%s: %+v; want cannot tell, with how to tell", f.Check, f)
			}
		}
	}
	for _, secret := range []string{key, personToken, docsToken, dispatchTok} {
		if strings.Contains(out.String(), secret) {
			t.Errorf("doctor printed a secret")
		}
	}
}

// TestDoctorFixesNameItsFlags: a fix that tells a person to run doctor
// otherwise names only flags doctor takes: given no credentials, each
// finding's fix that is not init's names flags Parse reads.
func TestDoctorFixesNameItsFlags(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	w.env = map[string]string{"GITHUB_API_URL": w.gh.APIURL()}
	found, _, _ := w.doctor(t)
	flagOf := regexp.MustCompile(`--[a-z][a-z-]*`)
	for check, f := range found {
		if strings.Contains(f.Fix, "init") {
			continue
		}
		for _, name := range flagOf.FindAllString(f.Fix, -1) {
			args := []string{"--repo", "acme/app", name}
			if name != "--json" && name != "--help" {
				args = append(args, "x")
			}
			if _, err := Parse(args, func(string) string { return "" }); err != nil && strings.Contains(err.Error(), "no flag") {
				t.Errorf("%s: the fix %q names %s, which doctor does not take: %v", check, f.Fix, name, err)
			}
		}
	}
}

// TestDoctorAsksForTheDocsRepository: a file whose jobs pass docs-token
// has its docs apart; doctor told of no docs repository says it cannot
// tell whether the dispatch is there, and how to tell.
func TestDoctorAsksForTheDocsRepository(t *testing.T) {
	t.Parallel()
	w := newWorld(t, nil)
	o, err := Parse([]string{"--repo", "acme/app", "--dir", w.code, "--base-url", w.api.URL, "--json"}, func(k string) string { return w.env[k] })
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	_ = Run(context.Background(), o, Env{Getenv: func(k string) string { return w.env[k] }}, &out)
	if !strings.Contains(out.String(), `"check":"the docs repository's dispatch","state":"cannot tell"`) || !strings.Contains(out.String(), "give doctor --docs-repo") {
		t.Errorf("doctor without --docs-repo on a docs-apart file:\n%s", out.String())
	}
}

// TestDoctorServiceErrorsCannotTell: an Agent Job API that answers 5xx or
// 429 (after the retries that are safe) says nothing of the key: doctor
// cannot tell, and says to run it again; it is no problem of the setup.
func TestDoctorServiceErrorsCannotTell(t *testing.T) {
	t.Parallel()
	for _, fault := range []faults.Fault{faults.Status(http.StatusInternalServerError), faults.Status(http.StatusBadGateway), faults.RateLimited("1")} {
		w := newWorld(t, nil)
		for n := 1; n <= 10; n++ {
			w.api.FailOn(n, fault)
		}
		o, err := Parse([]string{"--repo", "acme/app", "--dir", w.code, "--docs-repo", "acme/handbook", "--docs-dir", w.docs, "--base-url", w.api.URL, "--json"},
			func(k string) string { return w.env[k] })
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		runErr := Run(context.Background(), o, Env{Getenv: func(k string) string { return w.env[k] }, Clock: clock.NewFake(time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC))}, &out)
		var got struct{ Findings []Finding }
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("%q: %v", out.String(), err)
		}
		for _, f := range got.Findings {
			if f.Check == "the API key" && (f.State != CannotTell || !strings.Contains(f.Fix, "run doctor again")) {
				t.Errorf("the API key, the API failing: %+v; want cannot tell, and to run doctor again", f)
			}
		}
		var problems *ProblemsError
		if errors.As(runErr, &problems) {
			t.Errorf("doctor ended %v: a service's failure is no problem of the setup", runErr)
		}
	}
}

// TestPrintSaysWhatWasProven: the last line counts the findings, and says
// "No problem found" only when every check was told.
func TestPrintSaysWhatWasProven(t *testing.T) {
	t.Parallel()
	ok, unknown, bad := Finding{Check: "a", State: OK}, Finding{Check: "b", State: CannotTell, Fix: "f"}, Finding{Check: "c", State: Problem, Fix: "f"}
	for _, tt := range []struct {
		fs   []Finding
		last string
	}{
		{[]Finding{ok, ok}, "2 checks: 2 ok. No problem found."},
		{[]Finding{ok, unknown}, "2 checks: 1 ok, 1 cannot tell. Not proven: no problem found, but 1 check could not be told."},
		{[]Finding{ok, unknown, bad}, "3 checks: 1 ok, 1 cannot tell, 1 problem. doctor found 1 problem."},
	} {
		var out bytes.Buffer
		Print(&out, tt.fs)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if got := lines[len(lines)-1]; got != tt.last {
			t.Errorf("last line %q, want %q", got, tt.last)
		}
	}
}
