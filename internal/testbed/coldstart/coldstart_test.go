package coldstart

import (
	"bytes"
	"encoding/pem"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// binaryEnv names a prebuilt action binary to measure instead of the one the
// benchmarks build, so that two builds can be compared; demoBinaryEnv does
// the same for the demo's, a build with the demo in it.
const (
	binaryEnv     = "COLDSTART_BINARY"
	demoBinaryEnv = "COLDSTART_DEMO_BINARY"
)

// compareEnv names another build of the action that BenchmarkFirstRequest
// runs in the same iterations as the action, and compares with it run by
// run: on a noisy machine the only comparison of two builds that holds up.
const compareEnv = "COLDSTART_COMPARE"

// systemRoots is the CA bundle the image copies in from the build stage;
// the https runs load it as the action does in the image.
const systemRoots = "/etc/ssl/certs/ca-certificates.crt"

// How a run reaches the fake, and where it finds the CA bundle.
type transport int

const (
	plainHTTP transport = iota
	// httpsFile has the bundle where the image has it, /etc/ssl/cert.pem: a
	// file crypto/x509 reads, in no directory it scans. It is parsed once.
	httpsFile
	// httpsCertsDir has the bundle in /etc/ssl/certs, as Debian and the
	// image used to: crypto/x509 reads it as a file and again when it scans
	// that directory, so it is parsed twice.
	httpsCertsDir
)

func (t transport) String() string {
	return [...]string{"http", "https", "https-certs-dir"}[t]
}

const (
	project = "coldstart"
	apiKey  = "mint_coldstart_not_a_real_key"
)

// programs are the binaries under measurement, built once per test process.
var programs struct {
	once                             sync.Once
	dir                              string
	action, demo, baseline, launcher string
	err                              error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if programs.dir != "" {
		os.RemoveAll(programs.dir)
	}
	os.Exit(code)
}

// build builds the action exactly as the Dockerfile does (-tags nodemo:
// without the demo), with the baseline and the launcher beside it, and the
// build go run . demo makes for the demo. binaryEnv and demoBinaryEnv
// replace the action and the demo.
func build(b *testing.B) {
	programs.once.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			programs.err = fmt.Errorf("the benchmarks build the action with the go command: %w", err)
			return
		}
		if programs.dir, programs.err = os.MkdirTemp("", "coldstart"); programs.err != nil {
			return
		}
		const mod = "github.com/agentjob/agent-job-action"
		programs.demo = filepath.Join(programs.dir, "demo", "agent-job-action")
		for _, args := range [][]string{
			{"-tags", "nodemo", "-o", programs.dir + string(filepath.Separator),
				mod, mod + "/internal/testbed/coldstart/baseline", mod + "/internal/testbed/coldstart/launcher"},
			{"-o", programs.demo, mod},
		} {
			cmd := exec.Command(goTool, append([]string{"build", "-trimpath", "-ldflags", "-s -w"}, args...)...)
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				programs.err = fmt.Errorf("go build: %w\n%s", err, out)
				return
			}
		}
		programs.action = filepath.Join(programs.dir, "agent-job-action")
		if p := os.Getenv(binaryEnv); p != "" {
			programs.action = p
		}
		if p := os.Getenv(demoBinaryEnv); p != "" {
			programs.demo = p
		}
		programs.baseline = filepath.Join(programs.dir, "baseline")
		programs.launcher = filepath.Join(programs.dir, "launcher")
	})
	if programs.err != nil {
		b.Fatal(programs.err)
	}
}

// fake is a fake Agent Job API that notes when its first request arrives.
type fake struct {
	api   *fakeapi.Server
	front *httptest.Server
	once  sync.Once
	first chan time.Time
	// certEnv points crypto/x509 at a bundle of the system's roots and the
	// fake's own certificate (https only).
	certEnv []string
}

func newFake(b *testing.B, jobRuntime time.Duration, t transport) *fake {
	f := &fake{
		api:   fakeapi.New(project, fakeapi.Scenario{Key: apiKey, Runtime: jobRuntime}),
		first: make(chan time.Time, 1),
	}
	// A server in front, rather than a wrapped fakeapi handler, so the time
	// is taken before the fake does any work of its own.
	front := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		f.once.Do(func() { f.first <- now })
		f.api.Config.Handler.ServeHTTP(w, r)
	})
	if t == plainHTTP {
		f.front = httptest.NewServer(front)
	} else {
		f.front = httptest.NewTLSServer(front)
		bundle, err := os.ReadFile(systemRoots)
		if err != nil {
			b.Fatalf("the https runs load the system CA bundle, as the image does: %v", err)
		}
		bundle = append(bundle, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: f.front.Certificate().Raw})...)
		certs := filepath.Join(b.TempDir(), "certs") // the image's /etc/ssl/certs
		if err := os.Mkdir(certs, 0o700); err != nil {
			b.Fatal(err)
		}
		file := filepath.Join(filepath.Dir(certs), "cert.pem")
		if t == httpsCertsDir {
			file = filepath.Join(certs, "ca-certificates.crt")
		}
		if err := os.WriteFile(file, bundle, 0o600); err != nil {
			b.Fatal(err)
		}
		f.certEnv = []string{"SSL_CERT_FILE=" + file, "SSL_CERT_DIR=" + certs}
	}
	return f
}

// close stops the fake; a benchmark starts hundreds.
func (f *fake) close() {
	f.front.Close()
	f.api.Close()
}

// firstRequest returns when the first request arrived.
func (f *fake) firstRequest() (time.Time, bool) {
	select {
	case t := <-f.first:
		return t, true
	default:
		return time.Time{}, false
	}
}

// stepEnv is the whole environment of a step that creates a job, as the
// runner would pass it. Nothing is inherited, so a GITHUB_EVENT_PATH in CI
// cannot make the run talk to GitHub.
func stepEnv(b *testing.B, f *fake, wait bool) []string {
	dir := b.TempDir()
	// The runner creates both files, empty, before each step
	// (FileCommandManager.InitializeFiles in actions/runner); a step that
	// had to create them would pay the file system's cost of a new file.
	for _, name := range []string{"output", "summary"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	env := []string{
		"INPUT_PROMPT=Add a FAQ page about rate limits.",
		"INPUT_PROJECT-ID=" + project,
		"INPUT_API-KEY=" + apiKey,
		"INPUT_BASE-URL=" + f.front.URL,
		fmt.Sprintf("INPUT_WAIT=%t", wait),
		"INPUT_POLL-INTERVAL=1s",
		"INPUT_TIMEOUT=1m",
		"GITHUB_ACTIONS=true",
		"GITHUB_OUTPUT=" + filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY=" + filepath.Join(dir, "summary"),
	}
	return append(env, f.certEnv...)
}

// BenchmarkFirstRequest runs programs as whole processes and measures from
// just before exec to the arrival of their create request at the fake API:
// exec, the runtime and package init, reading the inputs, building the
// client, dialling loopback and, over https, loading the CA bundle and the
// TLS handshake. The action runs with wait: false. The baseline is the least
// any Go program needs to send the same request.
//
// The machine is shared and noisy, so each iteration runs every variant once,
// in rotating order, and the log compares them run by run: the ratio column
// is the median of the ratios between runs of the same iteration.
func BenchmarkFirstRequest(b *testing.B) {
	build(b)
	type variant struct {
		name string
		bin  string
		t    transport
		ref  int // the variant to compare with, or -1
	}
	vs := []variant{
		{"action/http", programs.action, plainHTTP, 1},
		{"baseline/http", programs.baseline, plainHTTP, -1},
		{"action/https", programs.action, httpsFile, 3},
		{"baseline/https", programs.baseline, httpsFile, -1},
		{"action/https-certs-dir", programs.action, httpsCertsDir, 2},
	}
	if other := os.Getenv(compareEnv); other != "" {
		vs = append(vs, variant{"compare/http", other, plainHTTP, 0}, variant{"compare/https", other, httpsFile, 2})
	}
	first := make([][]float64, len(vs))
	for i := 0; i < b.N; i++ {
		for k := range vs {
			j := (i + k) % len(vs)
			first[j] = append(first[j], firstRequest(b, vs[j].bin, vs[j].t))
		}
	}
	b.ReportMetric(quantile(first[0], 0.5), "ms-to-first-request")
	b.ReportMetric(quantile(first[0], 0.9), "p90-ms-to-first-request")
	b.ReportMetric(quantile(first[2], 0.5), "https-ms-to-first-request")
	b.ReportMetric(0, "ns/op") // a mean over a handful of processes says little

	if b.N == 1 {
		// The round the testing package runs first to size the benchmark: the
		// log keeps only ten lines, so leave them to the real one.
		return
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%d runs of each; ms from exec to the first request\n", b.N)
	fmt.Fprintf(&table, "%-24s %8s %8s  %s\n", "variant", "median", "p90", "median ratio")
	for j, v := range vs {
		ratio := "-"
		if v.ref >= 0 {
			r := make([]float64, b.N)
			for i := range r {
				r[i] = first[j][i] / first[v.ref][i]
			}
			ratio = fmt.Sprintf("%.2f x %s", quantile(r, 0.5), vs[v.ref].name)
		}
		fmt.Fprintf(&table, "%-24s %8.2f %8.2f  %s\n", v.name, quantile(first[j], 0.5), quantile(first[j], 0.9), ratio)
	}
	b.Log("\n" + strings.TrimSuffix(table.String(), "\n"))
}

// firstRequest runs bin once against a fresh fake and returns the
// milliseconds from just before exec to the arrival of its first request.
func firstRequest(b *testing.B, bin string, t transport) float64 {
	f := newFake(b, 0, t)
	defer f.close()
	var out bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Env = stepEnv(b, f, false)
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v\n%s", filepath.Base(bin), err, out.Bytes())
	}
	at, ok := f.firstRequest()
	if !ok {
		b.Fatalf("%s sent no request\n%s", filepath.Base(bin), out.Bytes())
	}
	return ms(at.Sub(start))
}

// BenchmarkPeakRSS measures the most memory a whole run holds: a run that
// creates a job, polls it once and reports (wait: true, a job that ends
// after half a second, poll-interval 1s) over http, over https with the CA
// bundle where the image has it and where it used to be, and the in-process
// demo.
func BenchmarkPeakRSS(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("the launcher reads peak RSS on Linux only")
	}
	build(b)
	for _, t := range []transport{plainHTTP, httpsFile, httpsCertsDir} {
		b.Run("run/"+t.String(), func(b *testing.B) {
			peaks := make([]float64, 0, b.N)
			for i := 0; i < b.N; i++ {
				f := newFake(b, 500*time.Millisecond, t)
				peaks = append(peaks, peakRSS(b, programs.action, stepEnv(b, f, true)))
				creates, gets := f.api.Creates(), f.api.Gets()
				f.close()
				if creates != 1 || gets < 1 {
					b.Fatalf("run %d: %d creates and %d polls, want 1 and at least 1", i, creates, gets)
				}
			}
			reportPeaks(b, peaks)
		})
	}
	b.Run("demo", func(b *testing.B) {
		peaks := make([]float64, 0, b.N)
		for i := 0; i < b.N; i++ {
			peaks = append(peaks, peakRSS(b, programs.demo, []string{}, "demo"))
		}
		reportPeaks(b, peaks)
	})
}

// peakRSS runs bin with env and args through the launcher and returns its
// peak RSS in MiB.
func peakRSS(b *testing.B, bin string, env []string, args ...string) float64 {
	report := filepath.Join(b.TempDir(), "rss")
	var out bytes.Buffer
	cmd := exec.Command(programs.launcher, append([]string{report, bin}, args...)...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v\n%s", err, out.Bytes())
	}
	data, err := os.ReadFile(report)
	if err != nil {
		b.Fatal(err)
	}
	var peak, own int64
	if _, err := fmt.Sscanf(string(data), "%d %d", &peak, &own); err != nil {
		b.Fatalf("launcher report %q: %v", data, err)
	}
	if peak <= own {
		b.Fatalf("peak RSS %d KiB is not above the launcher's own %d KiB, so it may be the launcher's", peak, own)
	}
	b.ReportMetric(float64(own)/1024, "launcher-rss-MiB")
	return float64(peak) / 1024
}

func reportPeaks(b *testing.B, peaks []float64) {
	b.ReportMetric(quantile(peaks, 0.5), "peak-rss-MiB")
	b.ReportMetric(slices.Max(peaks), "max-peak-rss-MiB")
	b.ReportMetric(0, "ns/op")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// quantile returns the q-quantile of xs by the nearest-rank method: always
// one of the samples, never an interpolation between two.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func TestQuantile(t *testing.T) {
	xs := []float64{9, 1, 8, 2, 7, 3, 6, 4, 5, 10}
	for _, c := range []struct{ q, want float64 }{{0.5, 5}, {0.9, 9}, {1, 10}, {0, 1}} {
		if got := quantile(xs, c.q); got != c.want {
			t.Errorf("quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	if got := quantile([]float64{3}, 0.5); got != 3 {
		t.Errorf("quantile of one sample = %v, want 3", got)
	}
}
