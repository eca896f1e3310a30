package main

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/clock"
	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

// TestMeasure: the lag runs from the create plus the job's length to the
// first GET answered with a terminal status; every GET before it counts,
// refused ones too.
func TestMeasure(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	for _, tt := range []struct {
		name    string
		events  []event
		length  time.Duration
		want    jobResult
		wantErr string
	}{
		{
			name: "seen by the third GET",
			events: []event{
				{at(0), http.MethodPost, http.StatusCreated, "active"},
				{at(20), http.MethodGet, http.StatusOK, "active"},
				{at(26), http.MethodGet, http.StatusOK, "active"},
				{at(33.5), http.MethodGet, http.StatusOK, "completed"},
			},
			length: 30 * time.Second,
			want:   jobResult{Gets: 3, Lag: 3500 * time.Millisecond, GetsAt: secs(20, 26, 33.5)},
		},
		{
			name: "a 429 counts but sees nothing",
			events: []event{
				{at(0), http.MethodPost, http.StatusCreated, "active"},
				{at(20), http.MethodGet, http.StatusTooManyRequests, ""},
				{at(80), http.MethodGet, http.StatusOK, "failed"},
			},
			length: 25 * time.Second,
			want:   jobResult{Gets: 2, Lag: 55 * time.Second, GetsAt: secs(20, 80)},
		},
		{
			name: "a failed create is not the start",
			events: []event{
				{at(0), http.MethodPost, http.StatusServiceUnavailable, ""},
				{at(1), http.MethodPost, http.StatusCreated, "active"},
				{at(21), http.MethodGet, http.StatusOK, "archived"},
			},
			length: 15 * time.Second,
			want:   jobResult{Gets: 1, Lag: 5 * time.Second, GetsAt: secs(20)},
		},
		{
			name:    "never created",
			events:  []event{{at(0), http.MethodPost, http.StatusUnauthorized, ""}},
			length:  time.Minute,
			wantErr: "no job created",
		},
		{
			name: "never seen to end",
			events: []event{
				{at(0), http.MethodPost, http.StatusCreated, "active"},
				{at(20), http.MethodGet, http.StatusOK, "active"},
			},
			length:  time.Minute,
			wantErr: "no GET saw the job end (1 GETs)",
		},
	} {
		got, err := measure(tt.events, tt.length)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got.Gets != tt.want.Gets || got.Lag != tt.want.Lag || !slices.Equal(got.GetsAt, tt.want.GetsAt) {
			t.Errorf("%s: measure = %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
}

func secs(s ...float64) []time.Duration {
	var out []time.Duration
	for _, x := range s {
		out = append(out, time.Duration(x*float64(time.Second)))
	}
	return out
}

// TestRecorder puts the recorder in front of the real fake, on a simulated
// clock, and checks that it passes answers through unchanged and notes each
// request with the job status it was answered.
func TestRecorder(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	api := fakeapi.New(project, fakeapi.Scenario{Key: apiKey, Runtime: time.Minute, Clock: clk})
	defer api.Close()
	rec := &recorder{next: api.Config.Handler}

	do := func(method, path, body string) (int, string) {
		req, err := http.NewRequest(method, "http://fake"+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+apiKey)
		w := httptest.NewRecorder()
		rec.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	code, body := do(http.MethodPost, "/v2/agent/"+project+"/job", `{"prompt":"hi"}`)
	if code != http.StatusCreated || !strings.Contains(body, `"job_0001"`) {
		t.Fatalf("create answered %d %s", code, body)
	}
	do(http.MethodGet, "/v2/agent/"+project+"/job/job_0001", "")
	clk.Advance(time.Minute)
	_, body = do(http.MethodGet, "/v2/agent/"+project+"/job/job_0001", "")
	if !strings.Contains(body, `"status":"completed"`) {
		t.Errorf("the GET after a minute passed %s through, want the completed job", body)
	}
	do(http.MethodGet, "/v2/agent/"+project+"/job/nope", "")

	var got []string
	for _, e := range rec.Events() {
		got = append(got, e.Method+" "+http.StatusText(e.Code)+" "+e.Status)
	}
	want := []string{"POST Created active", "GET OK active", "GET OK completed", "GET Not Found "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("events %q, want %q", got, want)
	}
	if n := len(api.Requests()); n != 4 {
		t.Errorf("the fake received %d requests, want 4", n)
	}
}

// TestFormatReport: the means are over the jobs that ran, and the target
// verdict appears only when every job was under two minutes, and says
// MISSED over the target.
func TestFormatReport(t *testing.T) {
	t.Parallel()
	jobs := []*jobRun{
		{Interval: "auto", Length: 20 * time.Second, Result: jobResult{Gets: 2, Lag: 2 * time.Second}},
		{Interval: "auto", Length: 40 * time.Second, Result: jobResult{Gets: 4, Lag: 6 * time.Second}},
		{Interval: "auto", Length: 60 * time.Second, Err: errors.New("exit status 1")},
		{Interval: "10s", Length: 20 * time.Second, Result: jobResult{Gets: 3, Lag: 5 * time.Second}},
		{Interval: "10s", Length: 3 * time.Minute, Result: jobResult{Gets: 18, Lag: 9 * time.Second}},
	}
	got := formatReport(jobs)
	for _, want := range []string{
		"auto      20s       2     2.0       10.0%\n",
		"auto      1m0s   failed\n",
		"auto      mean    3.0     4.0       12.5%   (worst 15.0%, the 40s job)\n",
		"Mean lag share, auto: 12.5% over 2 jobs (target for jobs under 2 min: at most 15%: met)\n",
		"Mean lag share, 10s: 15.0% over 2 jobs\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	late := formatReport([]*jobRun{{Interval: "auto", Length: 20 * time.Second, Result: jobResult{Gets: 1, Lag: 4 * time.Second}}})
	if want := "Mean lag share, auto: 20.0% over 1 jobs (target for jobs under 2 min: at most 15%: MISSED)\n"; !strings.Contains(late, want) {
		t.Errorf("report lacks %q:\n%s", want, late)
	}
}

// TestFormatGets: one line per job that ran, the GETs' times in seconds.
func TestFormatGets(t *testing.T) {
	t.Parallel()
	got := formatGets([]*jobRun{
		{Interval: "auto", Length: 22 * time.Second, Result: jobResult{Gets: 2, GetsAt: secs(20, 26.14)}},
		{Interval: "10s", Length: 22 * time.Second, Err: errors.New("exit status 1")},
	})
	want := "GETs, in seconds from the create:\nauto      22s    20.0 26.1\n\n"
	if got != want {
		t.Errorf("formatGets = %q, want %q", got, want)
	}
}

func TestParseLengths(t *testing.T) {
	t.Parallel()
	if got, err := parseLengths("20s, 1m5s"); err != nil || len(got) != 2 || got[0] != 20*time.Second || got[1] != 65*time.Second {
		t.Errorf("parseLengths = %v, %v", got, err)
	}
	for _, bad := range []string{"", "20", "0s", "-5s", "20s,,30s"} {
		if _, err := parseLengths(bad); err == nil {
			t.Errorf("parseLengths(%q) accepted", bad)
		}
	}
}
