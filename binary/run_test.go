package binary

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The test binary doubles as the release's binary: run.sh runs it with
// fakeRecordEnv set, and it then records what it was given instead of
// running the tests. So a test proves the binary ran, with which arguments
// and inputs, or that it did not.
const (
	fakeRecordEnv = "AGENT_JOB_ACTION_TEST_RECORD"
	fakeExitEnv   = "AGENT_JOB_ACTION_TEST_EXIT"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(fakeRecordEnv); path != "" {
		os.Exit(fakeBinary(path))
	}
	os.Exit(m.Run())
}

// record is what the fake binary saw.
type record struct {
	Args   []string
	Inputs map[string]string // the INPUT_* variables
}

func fakeBinary(path string) int {
	r := record{Args: os.Args[1:], Inputs: map[string]string{}}
	for _, kv := range os.Environ() {
		if name, value, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "INPUT_") {
			r.Inputs[name] = value
		}
	}
	data, err := json.Marshal(r)
	if err == nil {
		err = os.WriteFile(path, data, 0o600)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake binary:", err)
		return 99
	}
	code, _ := strconv.Atoi(os.Getenv(fakeExitEnv))
	return code
}

const tag = "v1.2.3"

// host is the runner OS and architecture of this machine, as the runner
// names them, and the release asset run.sh must pick for it.
func host(t *testing.T) (runnerOS, runnerArch, asset string) {
	t.Helper()
	oses := map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}
	arches := map[string]string{"amd64": "X64", "arm64": "ARM64"}
	runnerOS, runnerArch = oses[runtime.GOOS], arches[runtime.GOARCH]
	if runnerOS == "" || runnerArch == "" {
		t.Fatalf("the action has no binary for %s/%s, so these tests cannot run here", runtime.GOOS, runtime.GOARCH)
	}
	asset = "agent-job-action_" + runtime.GOOS + "_" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		asset += ".exe"
	}
	return runnerOS, runnerArch, asset
}

var fakeBinaryBytes = sync.OnceValues(func() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return os.ReadFile(exe)
})

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// releaseServer serves files under /<tag>/<name>, as GitHub serves release
// assets, and records every request.
type releaseServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string // method and path
}

func newReleaseServer(t *testing.T, files map[string][]byte) *releaseServer {
	t.Helper()
	s := &releaseServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		name, ok := strings.CutPrefix(r.URL.Path, "/"+tag+"/")
		data, found := files[name]
		if r.Method != http.MethodGet || !ok || !found {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(data)
	}))
	t.Cleanup(s.Close)
	return s
}

// mirror writes files as <dir>/<tag>/<name> and returns dir's file:/// URL.
func mirror(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "release mirror")
	if err := os.MkdirAll(filepath.Join(dir, tag), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, tag, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.ToSlash(dir)
	if !strings.HasPrefix(path, "/") {
		path = "/" + path // C:/x, on Windows
	}
	return (&url.URL{Scheme: "file", Path: path}).String()
}

func (s *releaseServer) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// result is what one run of run.sh did.
type result struct {
	exit     int
	stderr   string
	ran      *record // nil when the binary did not run
	leftover []string
}

// runScript runs a copy of run.sh beside the given SHA256SUMS (none when
// sums is nil), as binary/action.yml runs it, in an environment holding only
// what the system needs and env.
func runScript(t *testing.T, sums *string, env map[string]string, args ...string) result {
	t.Helper()
	script, err := os.ReadFile("run.sh")
	if err != nil {
		t.Fatal(err)
	}
	actionDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(actionDir, "run.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	if sums != nil {
		if err := os.WriteFile(filepath.Join(actionDir, "SHA256SUMS"), []byte(*sums), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return runScriptIn(t, actionDir, env, args...)
}

// runScriptIn runs actionDir's run.sh as runScript does.
func runScriptIn(t *testing.T, actionDir string, env map[string]string, args ...string) result {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("run.sh needs bash: %v", err)
	}
	runnerTemp := t.TempDir()
	recordPath := filepath.Join(t.TempDir(), "record.json")

	cmd := exec.Command(bash, filepath.Join(actionDir, "run.sh"))
	cmd.Args = append(cmd.Args, args...)
	// The test may itself run in Actions: nothing of that run, and no proxy
	// that would take the local download elsewhere, reaches the script.
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if strings.HasPrefix(upper, "INPUT_") || strings.HasPrefix(upper, "RUNNER_") ||
			strings.HasPrefix(upper, "GITHUB_") || strings.HasPrefix(upper, "AGENT_JOB_ACTION_") ||
			strings.HasSuffix(upper, "_PROXY") {
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, "RUNNER_TEMP="+runnerTemp, fakeRecordEnv+"="+recordPath)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	res := result{stderr: stderr.String()}
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		res.exit = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("run.sh did not run: %v", err)
	}

	data, err := os.ReadFile(recordPath)
	switch {
	case err == nil:
		res.ran = &record{}
		if err := json.Unmarshal(data, res.ran); err != nil {
			t.Fatalf("record: %v", err)
		}
	case !errors.Is(err, os.ErrNotExist):
		t.Fatal(err)
	}
	err = filepath.WalkDir(runnerTemp, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(runnerTemp, path)
			res.leftover = append(res.leftover, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRun runs run.sh against a local release server: only a binary whose
// checksum the action pins runs, with the inputs and arguments given.
func TestRun(t *testing.T) {
	t.Parallel()
	good, err := fakeBinaryBytes()
	if err != nil {
		t.Fatal(err)
	}
	runnerOS, runnerArch, asset := host(t)
	tampered := slices.Clone(good)
	tampered[len(tampered)/2] ^= 1
	otherSums := strings.Repeat("1", 64) + "  agent-job-action_plan9_amd64\n"
	goodSums := otherSums + sum(good) + "  " + asset + "\n"
	ptr := func(s string) *string { return &s }

	// Inputs as the runner passes them, with values Git Bash would rewrite
	// as paths on Windows if it were let.
	inputs := map[string]string{
		"INPUT_PROJECT-ID":     "proj_1",
		"INPUT_API-KEY":        "mint_secret",
		"INPUT_TRIGGER-PHRASE": "/docs",
		"INPUT_PROMPT-FILE":    "/docs/prompt file.md",
		"INPUT_PROMPT":         "two\nlines; $(not run) 'quoted' \"too\"",
		"INPUT_DRY-RUN":        "true",
	}
	tests := []struct {
		name      string
		files     map[string][]byte // the release's assets
		sums      *string           // SHA256SUMS beside run.sh; nil: none
		env       map[string]string // over the host's runner OS, arch, tag and server
		mirror    bool              // serve files from a file:/// URL, not the server
		exit      int               // of the binary, when it runs
		wantExit  int
		wantRun   bool
		wantErr   string   // in stderr
		wantReqs  []string // nil: none
		wantFiles int      // left in RUNNER_TEMP
	}{
		{
			name: "good binary", files: map[string][]byte{asset: good}, sums: ptr(goodSums),
			wantRun: true, wantErr: "agent-job-action v1.2.3 " + runtime.GOOS + "/" + runtime.GOARCH + ", SHA-256 " + sum(good) + " verified",
			wantReqs: []string{"GET /v1.2.3/" + asset}, wantFiles: 1,
		},
		{
			name: "good binary from a file:/// mirror", files: map[string][]byte{asset: good}, sums: ptr(goodSums),
			mirror: true, wantRun: true, wantErr: "SHA-256 " + sum(good) + " verified", wantFiles: 1,
		},
		{
			name: "tampered binary from a file:/// mirror", files: map[string][]byte{asset: tampered}, sums: ptr(goodSums),
			mirror: true, wantExit: 1, wantErr: "checksum mismatch for " + asset + " from file:///",
		},
		{
			name: "binary's exit status is the step's", files: map[string][]byte{asset: good}, sums: ptr(goodSums),
			exit: 7, wantExit: 7, wantRun: true, wantReqs: []string{"GET /v1.2.3/" + asset}, wantFiles: 1,
		},
		{
			name: "binary-mode line, upper-case hex, CRLF", files: map[string][]byte{asset: good},
			sums:    ptr(strings.ToUpper(sum(good)) + " *" + asset + "\r\n"),
			wantRun: true, wantReqs: []string{"GET /v1.2.3/" + asset}, wantFiles: 1,
		},
		{
			name: "tampered binary", files: map[string][]byte{asset: tampered}, sums: ptr(goodSums),
			wantExit: 1, wantErr: "checksum mismatch for " + asset + " from ",
			wantReqs: []string{"GET /v1.2.3/" + asset},
		},
		{
			name: "missing checksum", files: map[string][]byte{asset: good}, sums: ptr(otherSums),
			wantExit: 1, wantErr: "SHA256SUMS of v1.2.3 has no checksum for " + asset,
		},
		{
			name: "no SHA256SUMS", files: map[string][]byte{asset: good},
			wantExit: 1, wantErr: "no SHA256SUMS beside",
		},
		{
			name: "checksum listed twice", files: map[string][]byte{asset: good}, sums: ptr(goodSums + goodSums),
			wantExit: 1, wantErr: "SHA256SUMS names " + asset + " twice",
		},
		{
			name: "unknown OS", files: map[string][]byte{asset: good}, sums: ptr(goodSums),
			env:      map[string]string{"RUNNER_OS": "FreeBSD"},
			wantExit: 1, wantErr: "no binary for the runner OS 'FreeBSD'",
		},
		{
			name: "unknown architecture", files: map[string][]byte{asset: good}, sums: ptr(goodSums),
			env:      map[string]string{"RUNNER_ARCH": "X86"},
			wantExit: 1, wantErr: "no binary for the runner architecture 'X86'",
		},
		{
			name: "not a release", files: map[string][]byte{asset: good}, sums: ptr(goodSums),
			env:      map[string]string{"AGENT_JOB_ACTION_TAG": ""},
			wantExit: 1, wantErr: "this copy of the action is not a release",
		},
		{
			name: "tag that is no version", files: map[string][]byte{asset: good}, sums: ptr(goodSums),
			env:      map[string]string{"AGENT_JOB_ACTION_TAG": "../v1.2.3"},
			wantExit: 1, wantErr: "AGENT_JOB_ACTION_TAG '../v1.2.3' is not a release tag",
		},
		{
			name: "asset missing from the release", sums: ptr(goodSums),
			wantExit: 1, wantErr: "could not download ",
			wantReqs: []string{"GET /v1.2.3/" + asset},
		},
		{
			name: "credentials in the URL", files: map[string][]byte{asset: good}, sums: ptr(goodSums),
			env:      map[string]string{"AGENT_JOB_ACTION_DOWNLOAD_URL": "https://user:hunter2@mirror.example.com"},
			wantExit: 1, wantErr: "AGENT_JOB_ACTION_DOWNLOAD_URL must not hold credentials",
		},
		{
			name: "plain http to another host", files: map[string][]byte{asset: good}, sums: ptr(goodSums),
			env:      map[string]string{"AGENT_JOB_ACTION_DOWNLOAD_URL": "http://127.0.0.1.example.com"},
			wantExit: 1, wantErr: "AGENT_JOB_ACTION_DOWNLOAD_URL must start with https://",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newReleaseServer(t, tt.files)
			env := map[string]string{
				"RUNNER_OS":                     runnerOS,
				"RUNNER_ARCH":                   runnerArch,
				"AGENT_JOB_ACTION_TAG":          tag,
				"AGENT_JOB_ACTION_DOWNLOAD_URL": srv.URL + "/",
				fakeExitEnv:                     strconv.Itoa(tt.exit),
			}
			if tt.mirror {
				env["AGENT_JOB_ACTION_DOWNLOAD_URL"] = mirror(t, tt.files)
			}
			for k, v := range inputs {
				env[k] = v
			}
			for k, v := range tt.env {
				env[k] = v
			}
			res := runScript(t, tt.sums, env, "--flag", "an argument")

			if res.exit != tt.wantExit {
				t.Errorf("exit status %d, want %d; stderr:\n%s", res.exit, tt.wantExit, res.stderr)
			}
			if !strings.Contains(res.stderr, tt.wantErr) {
				t.Errorf("stderr does not say %q:\n%s", tt.wantErr, res.stderr)
			}
			if tt.wantExit != 0 && !tt.wantRun && !strings.Contains(res.stderr, "::error title=agent-job-action binary::") {
				t.Errorf("no error annotation in stderr:\n%s", res.stderr)
			}
			for _, secret := range []string{"mint_secret", "hunter2"} {
				if strings.Contains(res.stderr, secret) {
					t.Errorf("stderr shows the secret %q:\n%s", secret, res.stderr)
				}
			}
			if got := srv.seen(); !slices.Equal(got, tt.wantReqs) {
				t.Errorf("requests %q, want %q", got, tt.wantReqs)
			}
			if len(res.leftover) != tt.wantFiles {
				t.Errorf("RUNNER_TEMP holds %q, want %d files", res.leftover, tt.wantFiles)
			}
			switch {
			case !tt.wantRun && res.ran != nil:
				t.Fatalf("the binary ran: %+v", *res.ran)
			case tt.wantRun && res.ran == nil:
				t.Fatal("the binary did not run")
			case tt.wantRun:
				if want := []string{"--flag", "an argument"}; !slices.Equal(res.ran.Args, want) {
					t.Errorf("binary's arguments %q, want %q", res.ran.Args, want)
				}
				if !maps.Equal(res.ran.Inputs, inputs) {
					t.Errorf("binary's inputs\n%q\nwant\n%q", res.ran.Inputs, inputs)
				}
			}
			if res.ran == nil && strings.Contains(res.stderr, "verified") {
				t.Errorf("says verified, but did not run:\n%s", res.stderr)
			}
		})
	}
}

// TestRunPicksAsset checks the asset each runner OS and architecture asks
// for. Every download is refused by its checksum, so nothing foreign runs.
func TestRunPicksAsset(t *testing.T) {
	t.Parallel()
	tests := []struct{ os, arch, asset string }{
		{"Linux", "X64", "agent-job-action_linux_amd64"},
		{"Linux", "ARM64", "agent-job-action_linux_arm64"},
		{"macOS", "X64", "agent-job-action_darwin_amd64"},
		{"macOS", "ARM64", "agent-job-action_darwin_arm64"},
		{"Windows", "X64", "agent-job-action_windows_amd64.exe"},
		{"Windows", "ARM64", "agent-job-action_windows_arm64.exe"},
	}
	for _, tt := range tests {
		t.Run(tt.os+"/"+tt.arch, func(t *testing.T) {
			t.Parallel()
			srv := newReleaseServer(t, map[string][]byte{tt.asset: []byte("not the pinned binary")})
			sums := sum([]byte("the pinned binary")) + "  " + tt.asset + "\n"
			res := runScript(t, &sums, map[string]string{
				"RUNNER_OS":                     tt.os,
				"RUNNER_ARCH":                   tt.arch,
				"AGENT_JOB_ACTION_TAG":          tag,
				"AGENT_JOB_ACTION_DOWNLOAD_URL": srv.URL,
			})
			if want := []string{"GET /v1.2.3/" + tt.asset}; !slices.Equal(srv.seen(), want) {
				t.Errorf("requests %q, want %q", srv.seen(), want)
			}
			if res.exit != 1 || !strings.Contains(res.stderr, "checksum mismatch for "+tt.asset) {
				t.Errorf("exit %d, stderr:\n%s\nwant 1 and a checksum mismatch", res.exit, res.stderr)
			}
			if res.ran != nil || len(res.leftover) != 0 {
				t.Errorf("ran %v, left %q; want nothing run and nothing left", res.ran, res.leftover)
			}
		})
	}
}
