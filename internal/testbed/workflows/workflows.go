// Package workflows plays the workflows a page of the docs shows, as a
// reader copies them: which of their jobs an event starts, which a
// job-level if: skips (a skip bills nothing), and what each started job
// bills. It reads the page's Markdown with goldmark and the workflows with
// the YAML library the project's tests use (CI's actionlint checks them
// as written; its own parser needs another version of that library), and
// evaluates if: conditions over the event as GitHub's expression language
// does, for the part of it the pages use (expr.go): anything else is an
// error, never a guess. Tests use it to hold the figures the pages print.
package workflows

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"go.yaml.in/yaml/v4"
)

// Workflow is one complete workflow a page shows.
type Workflow struct {
	Name   string
	Source string
	w      workflow
}

// workflow is the part of a workflow's syntax this package reads.
type workflow struct {
	Name string                `yaml:"name"`
	On   map[string]*trigger   `yaml:"-"`
	Jobs map[string]*jobSyntax `yaml:"jobs"`
}

type trigger struct {
	Types    []string         `yaml:"types"`
	Schedule []map[string]any `yaml:"-"`
	Branches []string         `yaml:"branches"`
	Paths    []string         `yaml:"paths"`
}

type jobSyntax struct {
	If             any            `yaml:"if"`
	RunsOn         any            `yaml:"runs-on"`
	TimeoutMinutes float64        `yaml:"timeout-minutes"`
	Steps          []stepSyntax   `yaml:"steps"`
	Extra          map[string]any `yaml:",inline"`
}

type stepSyntax struct {
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
}

// Page returns the complete workflows of the Markdown file at path: each
// yaml block that starts with name: or has an on: line, as CI's actionlint
// step collects them.
func Page(path string) ([]*Workflow, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []*Workflow
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		block, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok || string(block.Language(src)) != "yaml" {
			return ast.WalkContinue, nil
		}
		var body bytes.Buffer
		for i := 0; i < block.Lines().Len(); i++ {
			line := block.Lines().At(i)
			body.Write(line.Value(src))
		}
		s := body.String()
		if !strings.HasPrefix(s, "name:") && !strings.Contains(s, "\non:") {
			return ast.WalkContinue, nil
		}
		w, err := parse(body.Bytes())
		if err != nil {
			return ast.WalkStop, fmt.Errorf("%s: a workflow does not parse: %w", path, err)
		}
		out = append(out, &Workflow{Name: w.Name, Source: s, w: w})
		return ast.WalkSkipChildren, nil
	})
	return out, err
}

// Parse reads a workflow file as init writes it, or a page shows it.
func Parse(src []byte) (*Workflow, error) {
	w, err := parse(src)
	if err != nil {
		return nil, err
	}
	return &Workflow{Name: w.Name, Source: string(src), w: w}, nil
}

// parse reads a workflow; on: must be a mapping (the pages' form), and a
// schedule's entries are kept as cron lines.
func parse(src []byte) (workflow, error) {
	var raw struct {
		workflow `yaml:",inline"`
		On       map[string]any `yaml:"on"`
	}
	if err := yaml.Unmarshal(src, &raw); err != nil {
		return workflow{}, err
	}
	w := raw.workflow
	w.On = map[string]*trigger{}
	for name, v := range raw.On {
		t := &trigger{}
		switch v := v.(type) {
		case nil:
		case []any:
			for _, e := range v {
				entry, _ := e.(map[string]any)
				cron, ok := entry["cron"].(string)
				if name != "schedule" || !ok {
					return w, fmt.Errorf("on.%s: a list this package does not read", name)
				}
				t.Schedule = append(t.Schedule, map[string]any{"cron": cron})
			}
		case map[string]any:
			b, err := yaml.Marshal(v)
			if err == nil {
				err = yaml.Unmarshal(b, t)
			}
			if err != nil {
				return w, fmt.Errorf("on.%s: %w", name, err)
			}
		default:
			return w, fmt.Errorf("on.%s: %T is not a trigger this package reads", name, v)
		}
		w.On[name] = t
	}
	return w, nil
}

// Named returns the workflow called name among ws, or an error.
func Named(ws []*Workflow, name string) (*Workflow, error) {
	for _, w := range ws {
		if w.Name == name {
			return w, nil
		}
	}
	return nil, fmt.Errorf("no workflow is named %q", name)
}

// Event is what may start a workflow: the event's name and its payload
// (github.event) as GitHub sends it.
type Event struct {
	Name    string
	Payload map[string]any
}

// Job is one job of a workflow that an event starts.
type Job struct {
	ID string
	// Runs is false when the job's if: skipped it: GitHub bills nothing.
	Runs bool
	// RunsOn are the runner's labels.
	RunsOn []string
	// Uses are the actions its steps use, as written.
	Uses []string
	// With are the inputs of its step that uses this project's action, as
	// written; nil when no step does.
	With map[string]string
	// Run are its steps' scripts, as written.
	Run []string
	// Timeout is its timeout-minutes (0 when not set).
	Timeout time.Duration
}

// Start returns the jobs of w that ev starts, in the order of their ids;
// none when w does not listen to ev. An if: this package cannot evaluate
// is an error.
func (w *Workflow) Start(ev Event) ([]Job, error) {
	if listens, err := w.listens(ev); !listens || err != nil {
		return nil, err
	}
	var jobs []Job
	for _, id := range w.JobIDs() {
		j := w.w.Jobs[id]
		if _, ok := j.Extra["needs"]; ok {
			return nil, fmt.Errorf("job %s: needs: is not modelled", id)
		}
		job := Job{ID: id, Runs: true, Timeout: time.Duration(j.TimeoutMinutes * float64(time.Minute))}
		switch c := j.If.(type) {
		case nil:
		case bool:
			job.Runs = c
		case string:
			v, err := Eval(c, ev)
			if err != nil {
				return nil, fmt.Errorf("job %s: if: %w", id, err)
			}
			job.Runs = truthy(v)
		default:
			return nil, fmt.Errorf("job %s: if: %T", id, c)
		}
		switch r := j.RunsOn.(type) {
		case string:
			job.RunsOn = []string{r}
		case []any:
			for _, l := range r {
				job.RunsOn = append(job.RunsOn, fmt.Sprint(l))
			}
		}
		for _, st := range j.Steps {
			if st.Uses != "" {
				job.Uses = append(job.Uses, st.Uses)
			}
			if strings.HasPrefix(st.Uses, "agentjob/agent-job-action") && job.With == nil {
				job.With = st.With
				if job.With == nil {
					job.With = map[string]string{}
				}
			}
			if st.Run != "" {
				job.Run = append(job.Run, st.Run)
			}
		}
		jobs = append(jobs, job)
	}
	return jobs, nil
}

// JobIDs are w's job ids, in order.
func (w *Workflow) JobIDs() []string {
	return slices.Sorted(maps.Keys(w.w.Jobs))
}

// Schedules are the cron lines of w's schedule, as written.
func (w *Workflow) Schedules() []string {
	var out []string
	if t := w.w.On["schedule"]; t != nil {
		for _, e := range t.Schedule {
			out = append(out, e["cron"].(string))
		}
	}
	return out
}

// Input is what the step that uses an action whose reference starts with
// uses passes as input name ("" when none does).
func (w *Workflow) Input(uses, name string) string {
	return w.Inputs(uses)[name]
}

// Inputs are the inputs (with:) of the first step that uses an action
// whose reference starts with uses, as written; nil when no step does.
func (w *Workflow) Inputs(uses string) map[string]string {
	for _, id := range w.JobIDs() {
		for _, st := range w.w.Jobs[id].Steps {
			if strings.HasPrefix(st.Uses, uses) {
				if st.With == nil {
					return map[string]string{}
				}
				return st.With
			}
		}
	}
	return nil
}

// defaultTypes are the activity types a pull_request trigger without
// types: listens to.
var defaultTypes = []string{"opened", "synchronize", "reopened"}

// listens reports whether w's on: takes ev: a pull_request (or
// pull_request_target) of one of its types, a repository_dispatch of one
// of its types, any other event it names. A branches or paths filter on
// the event is an error: this package does not model them.
func (w *Workflow) listens(ev Event) (bool, error) {
	t, ok := w.w.On[ev.Name]
	switch {
	case !ok:
		return false, nil
	case len(t.Branches) > 0 || len(t.Paths) > 0:
		return false, fmt.Errorf("on.%s: branches and paths filters are not modelled", ev.Name)
	}
	action, _ := ev.Payload["action"].(string)
	switch {
	case ev.Name == "pull_request" || ev.Name == "pull_request_target":
		types := t.Types
		if len(types) == 0 {
			types = defaultTypes
		}
		return slices.Contains(types, action), nil
	case ev.Name == "repository_dispatch" && len(t.Types) > 0:
		return slices.Contains(t.Types, action), nil
	}
	return true, nil
}

// truthy is GitHub's: false, 0, -0, "", null and NaN are false.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0 && !math.IsNaN(v)
	case string:
		return v != ""
	}
	return true
}

// equal is GitHub's loose equality: strings without regard to case,
// values of two types compared as numbers, objects by identity.
func equal(l, r any) bool {
	ls, lok := l.(string)
	rs, rok := r.(string)
	switch {
	case lok && rok:
		return strings.EqualFold(ls, rs)
	case l == nil && r == nil:
		return true
	}
	switch l.(type) {
	case map[string]any, []any:
		return false
	}
	switch r.(type) {
	case map[string]any, []any:
		return false
	}
	ln, rn := num(l), num(r)
	return ln == rn
}

// num is GitHub's coercion to a number.
func num(v any) float64 {
	switch v := v.(type) {
	case nil:
		return 0
	case bool:
		if v {
			return 1
		}
		return 0
	case float64:
		return v
	case string:
		if strings.TrimSpace(v) == "" {
			return 0
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	return math.NaN()
}

// str is GitHub's coercion to a string.
func str(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	return "Object"
}

// Billed is what GitHub bills for a job that holds a runner for d: rounded
// up to a whole minute.
func Billed(d time.Duration) int {
	return int(math.Ceil(d.Minutes()))
}
