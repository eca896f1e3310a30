package workflows

import (
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

func pr(action, userType string, extra map[string]any) Event {
	p := map[string]any{"action": action, "pull_request": map[string]any{"user": map[string]any{"login": "x", "type": userType}}}
	for k, v := range extra {
		p[k] = v
	}
	return Event{Name: "pull_request", Payload: p}
}

func TestEval(t *testing.T) {
	t.Parallel()
	ev := pr("opened", "Bot", map[string]any{"n": 2.0})
	tests := []struct {
		src  string
		want any
		err  string
	}{
		{"github.event_name == 'pull_request'", true, ""},
		{"${{ github.event_name == 'PULL_REQUEST' }}", true, ""}, // strings compare without case
		{"github.event.pull_request.user.type != 'Bot'", false, ""},
		{"github.event.pull_request.user['type']", "Bot", ""},
		{"github.event.changes.base", nil, ""}, // a missing property is null
		{"github.event.changes.base || 'none'", "none", ""},
		{"github.event.action && 'yes'", "yes", ""},
		{"!github.event.changes", true, ""},
		{"github.event.n == '2'", true, ""}, // two types compare as numbers
		{"null == 0", true, ""},
		{"'it''s' == 'IT''S'", true, ""},
		{"(github.event_name != 'pull_request') || github.event.pull_request.user.type == 'bot'", true, ""},
		{"startsWith(github.event.action, 'OPEN')", true, ""},
		{"contains(github.event.pull_request.user.login, 'y')", false, ""},
		{"github.event.n > 1", nil, "not modelled"},
		{"vars.X == 'y'", nil, "not modelled"},
		{"format('{0}', 1)", nil, "not modelled"},
		{"github.event_name == ", nil, "ends too soon"},
		{"'open", nil, "does not end"},
	}
	for _, tt := range tests {
		got, err := Eval(tt.src, ev)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Eval(%q) = %v, %v; want an error with %q", tt.src, got, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("Eval(%q) = %#v, %v; want %#v", tt.src, got, err, tt.want)
		}
	}
}

func TestPageAndStart(t *testing.T) {
	t.Parallel()
	ws, err := Page("testdata/page.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 2 || ws[0].Name != "Code" || ws[1].Name != "Settle" {
		t.Fatalf("Page found %d workflows %v, want Code and Settle (a fragment is none)", len(ws), ws)
	}
	code, settle := ws[0], ws[1]
	if got := settle.Schedules(); !slices.Equal(got, []string{"17 * * * *"}) {
		t.Errorf("Schedules = %q", got)
	}
	if got := code.Input("actions/setup-go", "go-version"); got != "1.26" {
		t.Errorf("setup-go's go-version = %q", got)
	}
	runs := func(w *Workflow, ev Event) string {
		t.Helper()
		jobs, err := w.Start(ev)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, j := range jobs {
			out = append(out, j.ID+map[bool]string{true: " runs", false: " skipped"}[j.Runs])
		}
		return strings.Join(out, ", ")
	}
	tests := []struct {
		name     string
		ev       Event
		code     string
		settle   string
		settleOn []string
	}{
		{"a person opens a pull request", pr("opened", "User", nil), "docs runs", "settle skipped", nil},
		{"the agent opens its pull request", pr("opened", "Bot", nil), "docs skipped", "settle runs", nil},
		{"a person's title edit", pr("edited", "User", map[string]any{"changes": map[string]any{"title": map[string]any{"from": "x"}}}), "docs skipped", "", nil},
		{"a person's new base", pr("edited", "User", map[string]any{"changes": map[string]any{"base": map[string]any{}}}), "docs runs", "", nil},
		{"a close (no type listed)", pr("closed", "User", nil), "", "", nil},
		{"reopened (a default type of Settle's)", pr("reopened", "User", nil), "", "settle skipped", nil},
		{"the schedule", Event{Name: "schedule"}, "", "settle runs", nil},
		{"the docs repository's dispatch", Event{Name: "repository_dispatch", Payload: map[string]any{"action": "docs-agent-settle"}}, "", "settle runs", nil},
		{"another dispatch", Event{Name: "repository_dispatch", Payload: map[string]any{"action": "deploy"}}, "", "", nil},
	}
	for _, tt := range tests {
		if got := runs(code, tt.ev); got != tt.code {
			t.Errorf("%s: Code starts %q, want %q", tt.name, got, tt.code)
		}
		if got := runs(settle, tt.ev); got != tt.settle {
			t.Errorf("%s: Settle starts %q, want %q", tt.name, got, tt.settle)
		}
	}
	jobs, _ := code.Start(pr("opened", "User", nil))
	if j := jobs[0]; !slices.Equal(j.RunsOn, []string{"ubuntu-slim"}) || j.Timeout != 10*time.Minute || len(j.Uses) != 2 {
		t.Errorf("the code job: %+v", j)
	}
}

func TestBilled(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]int{0: 0, time.Second: 1, time.Minute: 1, time.Minute + time.Second: 2, 8*time.Minute + 3*time.Second: 9} {
		if got := Billed(d); got != want {
			t.Errorf("Billed(%v) = %d, want %d", d, got, want)
		}
	}
}

func TestNext(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 9, 8, 30, 0, time.UTC) // a Sunday
	tests := []struct {
		spec string
		want time.Time
	}{
		{"17 * * * *", time.Date(2026, 11, 22, 9, 17, 0, 0, time.UTC)},
		{"17 */6 * * *", time.Date(2026, 11, 22, 12, 17, 0, 0, time.UTC)},
		{"*/5 * * * *", time.Date(2026, 11, 22, 9, 10, 0, 0, time.UTC)},
		{"0 8-18 * * 1-5", time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)},
		{"8 9 * * *", time.Date(2026, 11, 23, 9, 8, 0, 0, time.UTC)}, // strictly after
		{"0 0 1,15 * *", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		if got, err := Next(tt.spec, at); err != nil || !got.Equal(tt.want) {
			t.Errorf("Next(%q) = %v, %v; want %v", tt.spec, got, err, tt.want)
		}
	}
	for _, bad := range []string{"17 * * *", "60 * * * *", "*/0 * * * *", "a * * * *"} {
		if _, err := Next(bad, at); err == nil {
			t.Errorf("Next(%q) took it", bad)
		}
	}
}
