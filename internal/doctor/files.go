package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/agentjob/agent-job-action/internal/inputs"
	"github.com/agentjob/agent-job-action/internal/setup"
)

// maxWorkflowBytes bounds the read of a workflow file: GitHub refuses
// files far smaller than this.
const maxWorkflowBytes = 512 << 10

// workflow is what doctor reads of a workflow file.
type workflow struct {
	On          map[string]any  `yaml:"on"`
	Permissions any             `yaml:"permissions"`
	Jobs        map[string]*job `yaml:"jobs"`
}

type job struct {
	If          any    `yaml:"if"`
	Permissions any    `yaml:"permissions"`
	Steps       []step `yaml:"steps"`
}

type step struct {
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
}

// readWorkflow reads the workflow file at path: nil, nil when there is
// none. Only a regular file is read, opened without blocking: a named
// pipe (or a link to one, which a checkout can hold) would otherwise
// wait for a writer for ever.
func readWorkflow(path string) (*workflow, error) {
	data, err := setup.ReadRegular(path, maxWorkflowBytes+1)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(data) > maxWorkflowBytes {
		return nil, fmt.Errorf("it is over %d KiB", maxWorkflowBytes>>10)
	}
	var w workflow
	if err := yaml.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("it is not YAML a workflow can be: %s", oneLine(err.Error()))
	}
	return &w, nil
}

// role is what a job of the action does, by the inputs it passes.
type role string

const (
	roleCode    role = "code"
	roleRequest role = "request"
	roleSettle  role = "settle"
	// roleOutside is a settle job that hears only the pull requests no
	// code job follows (a fork's, another bot's), whose checks it sets.
	roleOutside role = "outside"
)

// actionJob is a job whose step uses the action.
type actionJob struct {
	id   string
	uses string // the step's uses:, the action at its ref
	role role
	with map[string]string
	// perms are the job's permissions for GITHUB_TOKEN (the workflow's
	// when it sets none); nil when neither sets any.
	perms map[string]string
	all   string // "read-all" or "write-all" when set so
}

// actionJobs are the jobs of w that use the action, in the order of their
// ids.
func (w *workflow) actionJobs() []actionJob {
	var out []actionJob
	ids := make([]string, 0, len(w.Jobs))
	for id := range w.Jobs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		j := w.Jobs[id]
		if j == nil {
			continue
		}
		for _, s := range j.Steps {
			if !strings.HasPrefix(s.Uses, "agentjob/agent-job-action") {
				continue
			}
			a := actionJob{id: id, uses: s.Uses, role: roleCode, with: s.With}
			if a.with == nil {
				a.with = map[string]string{}
			}
			// A request job is the one its if: passes comments to; a
			// label's request names its label.
			cond := fmt.Sprint(j.If)
			if v, _ := inputs.ParseBool(a.with["settle"]); v {
				a.role = roleSettle
				if strings.Contains(cond, "head.repo.full_name != github.repository") {
					a.role = roleOutside
				}
			} else if strings.Contains(cond, "comment.body") || strings.Contains(cond, "review.body") || a.with["trigger-label"] != "" {
				a.role = roleRequest
			}
			perms := j.Permissions
			if perms == nil {
				perms = w.Permissions
			}
			switch p := perms.(type) {
			case string:
				a.all = p
			case map[string]any:
				a.perms = map[string]string{}
				for k, v := range p {
					a.perms[k] = fmt.Sprint(v)
				}
			}
			out = append(out, a)
			break
		}
	}
	return out
}

// placeholders stand for the expressions a step passes, so that the
// inputs' own checks judge what is written.
var placeholders = map[string]string{"project-id": "project", "api-key": "mint_doctor", "docs-token": "token", "github-token": "token"}

// inputProblems are what the action's own checks say of the inputs a job
// passes: names action.yml does not have, and values it refuses.
func inputProblems(a actionJob) []string {
	var out []string
	raw := map[string]string{}
	for name, v := range a.with {
		if !slices.ContainsFunc(inputs.Inputs, func(in inputs.Input) bool { return in.Name == name }) {
			out = append(out, fmt.Sprintf("job %s passes %s, which is no input of the action", a.id, name))
			continue
		}
		if strings.Contains(v, "${{") {
			v = placeholders[name]
			if v == "" {
				// An expression the run fills in: judged then.
				continue
			}
		}
		raw[name] = v
	}
	for _, name := range []string{"project-id", "api-key"} {
		if _, ok := a.with[name]; !ok {
			out = append(out, fmt.Sprintf("job %s passes no %s", a.id, name))
			raw[name] = placeholders[name]
		}
	}
	if _, _, err := inputs.Read(raw, ""); err != nil {
		var each []*inputs.Error
		for _, e := range unjoin(err) {
			var ie *inputs.Error
			if errors.As(e, &ie) {
				each = append(each, ie)
			}
		}
		for _, ie := range each {
			out = append(out, fmt.Sprintf("job %s: %s", a.id, oneLine(ie.Error())))
		}
	}
	slices.Sort(out)
	return out
}

// unjoin is the errors errors.Join joined into err, or err.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// needs are the permissions of GITHUB_TOKEN a job of each role needs to
// write what it writes; merge adds contents: write to a code job that
// merges the docs pull request in its own repository.
func needs(r role, mergesHere bool) map[string]string {
	switch r {
	case roleSettle:
		return map[string]string{"contents": "read", "issues": "write", "pull-requests": "write", "statuses": "write"}
	case roleOutside:
		return map[string]string{"pull-requests": "read", "statuses": "write"}
	case roleRequest:
		return map[string]string{"contents": "read", "issues": "write", "pull-requests": "write"}
	}
	n := map[string]string{"contents": "read", "pull-requests": "write", "statuses": "write"}
	if mergesHere {
		n["contents"] = "write"
	}
	return n
}

// lacks are the permissions a lacks of what it needs, as "name: level";
// ok false when the job sets none (the repository's default applies,
// which no file shows).
func (a actionJob) lacks(need map[string]string) (missing []string, ok bool) {
	switch a.all {
	case "write-all":
		return nil, true
	case "read-all":
		for k, v := range need {
			if v == "write" {
				missing = append(missing, k+": write")
			}
		}
		slices.Sort(missing)
		return missing, true
	}
	if a.perms == nil {
		return nil, false
	}
	for k, v := range need {
		have := a.perms[k]
		if have == "write" || have == v {
			continue
		}
		missing = append(missing, k+": "+v)
	}
	slices.Sort(missing)
	return missing, true
}

// dispatchInput says the code repository's file takes the docs
// repository's dispatch: a workflow_dispatch with the pull_request input,
// or a repository_dispatch (of docs-agent-settle, when it names types).
func (w *workflow) dispatchInput() bool {
	if wd, ok := w.On["workflow_dispatch"].(map[string]any); ok {
		if in, ok := wd["inputs"].(map[string]any); ok {
			if _, ok := in["pull_request"]; ok {
				return true
			}
		}
	}
	rd, ok := w.On["repository_dispatch"]
	if !ok {
		return false
	}
	m, _ := rd.(map[string]any)
	types, _ := m["types"].([]any)
	return len(types) == 0 || slices.ContainsFunc(types, func(t any) bool { return t == "docs-agent-settle" })
}

// hears says w's on: names event.
func (w *workflow) hears(event string) bool {
	_, ok := w.On[event]
	return ok
}

// dispatches says a step of w's jobs starts codeRepo's file with a
// dispatch: a POST to its workflow's dispatches (workflow_dispatch), or
// to its dispatches with docs-agent-settle (repository_dispatch).
func (w *workflow) dispatches(codeRepo, file string) bool {
	wf := regexp.MustCompile(`(?i)/repos/` + regexp.QuoteMeta(codeRepo) + `/actions/workflows/` + regexp.QuoteMeta(file) + `/dispatches`)
	rd := regexp.MustCompile(`(?i)/repos/` + regexp.QuoteMeta(codeRepo) + `/dispatches`)
	for _, j := range w.Jobs {
		if j == nil {
			continue
		}
		for _, s := range j.Steps {
			if wf.MatchString(s.Run) && strings.Contains(s.Run, "pull_request") ||
				rd.MatchString(s.Run) && strings.Contains(s.Run, "docs-agent-settle") {
				return true
			}
		}
	}
	return false
}

// workflowPath is where a repository's checkout at dir keeps file.
func workflowPath(dir, file string) string {
	return filepath.Join(dir, ".github", "workflows", file)
}

// oneLine is s on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
