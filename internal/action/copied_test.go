package action_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
	"github.com/agentjob/agent-job-action/internal/setup"
	"github.com/agentjob/agent-job-action/internal/testbed/step"
	"github.com/agentjob/agent-job-action/internal/testbed/workflows"
)

// What a started job takes besides the action's own waiting, on GitHub's
// runners. The action's requests take milliseconds against the fakes and
// no time on the simulated clock, so these stand for the real seconds.
const (
	// setUp is GitHub's job set-up, and, after a release, the download of
	// the release binary with its checksum (or the pull of the prebuilt
	// image of a few MiB), and the run's requests.
	setUp = 20 * time.Second
	// setupGo is actions/setup-go installing Go on a runner that has none
	// (ubuntu-slim).
	setupGo = 20 * time.Second
	// build is the binary action's build at a commit, before the first
	// release, with a cold cache on one vCPU and the modules to download
	// (docs/no-wait.md says how it was measured, and why it is counted
	// longer than that).
	build = 100 * time.Second
	// imageBuild is the container action's build of its Dockerfile at a
	// commit (README: Usage).
	imageBuild = time.Minute
	// plainJob is a job that runs no action of this project (a curl).
	plainJob = 5 * time.Second
)

// setupOf is what a job whose steps use uses takes besides the action's
// own waiting, after a release or before the first one.
func setupOf(uses []string, released bool) time.Duration {
	for _, u := range uses {
		switch {
		case !strings.HasPrefix(u, "agentjob/agent-job-action"):
		case released:
			return setUp
		case strings.HasPrefix(u, "agentjob/agent-job-action/binary"):
			return setUp + setupGo + build
		default:
			return setUp + imageBuild
		}
	}
	return plainJob
}

// The agent's app, which opens and pushes its pull requests.
const agentApp = "docs-agent[bot]"

// copiedWorld plays the workflows a page shows, as a reader copies them,
// on the code pull request #7 of a codeWorld: each event GitHub would send
// starts the jobs those workflows start (a job-level if: skips some,
// billing nothing), each started job runs the action with the inputs its
// step passes, and GitHub bills each job rounded up to a whole minute.
// The agent opens its pull request, and pushes to it after each follow-up,
// as its job ends; those events are GitHub's too.
type copiedWorld struct {
	*codeWorld
	// code holds the workflows of the code repository (acme/docs), docs
	// those of the docs repository when the docs live apart.
	code, docs []*workflows.Workflow
	// released says the workflows use a release of the action.
	released bool
	// ahead is how long before a job's end the agent pushes its pull
	// request (negative: after).
	ahead time.Duration
	// elsewhere says the agent's pull request is in acme/handbook.
	elsewhere bool
	base      map[string]string // the harness's variables, before any step's inputs
	queue     []timed
	runs      []ran
	stamped   []statusAt
	ends      []time.Time // when the job of each create and follow-up ends
	opened    bool        // the agent's pull request exists
	seen      int         // statuses stamped so far
}

// timed is an event due at a moment of the simulated clock.
type timed struct {
	at   time.Time
	what string
	fire func()
}

// ran is one job an event started, run or skipped.
type ran struct {
	// workflow names the workflow, and its job when it has more than one
	// ("Docs agent/settle").
	workflow, event string
	at              time.Time
	runs            bool
	took            time.Duration
	runner          string   // the job's first runs-on label
	writes          []string // what the run changed on GitHub
	requests        int      // the GitHub requests it sent
}

// statusAt is a commit status, with the end of the run that set it.
type statusAt struct {
	status string
	at     time.Time
	by     string // the workflow and the event of that run
}

// newCopiedWorld is code pull request #7, opened by a person at head1, in
// a repository that copied the workflows named in pages (a path and the
// workflows' names, in the code repository, and in the docs repository
// when elsewhere).
func newCopiedWorld(t *testing.T, sc fakeapi.Scenario, released bool, ahead time.Duration, elsewhere bool, page string, code []string, docs []string) *copiedWorld {
	t.Helper()
	all, err := workflows.Page(page)
	if err != nil {
		t.Fatal(err)
	}
	var named [2][]*workflows.Workflow
	for i, names := range [][]string{code, docs} {
		for _, n := range names {
			wf, err := workflows.Named(all, n)
			if err != nil {
				t.Fatalf("%s: %v", page, err)
			}
			named[i] = append(named[i], wf)
		}
	}
	return newWorldOf(t, sc, released, ahead, elsewhere, named[0], named[1])
}

// initCommit is the commit of the action a team's files pin before the
// first release (init --ref).
const initCommit = "0123456789abcdef0123456789abcdef01234567"

// newInitWorld is newCopiedWorld for the files init writes for c, in the
// code repository acme/docs and, elsewhere, the docs repository
// acme/handbook: after a release (--ref v1), or at a commit before one.
func newInitWorld(t *testing.T, sc fakeapi.Scenario, released bool, ahead time.Duration, elsewhere bool, c setup.Choices) *copiedWorld {
	t.Helper()
	c.CodeRepo, c.DocsRepo, c.Ref = "acme/docs", "", "v1"
	if elsewhere {
		c.DocsRepo = "acme/handbook"
	}
	if !released {
		c.Ref = initCommit
	}
	files, err := setup.Files(c)
	if err != nil {
		t.Fatal(err)
	}
	var wfs [2][]*workflows.Workflow
	for i, f := range files {
		wf, err := workflows.Parse(f.Body)
		if err != nil {
			t.Fatalf("init's file for %s: %v", f.Repo, err)
		}
		wfs[i] = append(wfs[i], wf)
	}
	return newWorldOf(t, sc, released, ahead, elsewhere, wfs[0], wfs[1])
}

// newWorldOf is code pull request #7, opened by a person at head1, in a
// repository with the workflows code, and, elsewhere, a docs repository
// with the workflows docs.
func newWorldOf(t *testing.T, sc fakeapi.Scenario, released bool, ahead time.Duration, elsewhere bool, code, docs []*workflows.Workflow) *copiedWorld {
	t.Helper()
	if elsewhere {
		// The job works in the docs repository, where its pull request is.
		sc.Repository = "https://github.com/acme/handbook"
	}
	sc.PRAhead = max(ahead, 0)
	w := &copiedWorld{codeWorld: newCodeWorld(t, sc, fakepreview.Options{}, "", codePR("opened", head1, nil)), released: released, ahead: ahead, elsewhere: elsewhere,
		code: code, docs: docs}
	if elsewhere {
		w.gh.SeedPull(fakegithub.Pull{Repo: "acme/handbook", Number: 101, Author: agentApp, HeadRef: "docs/agent-job_0001"})
	}
	w.base = maps.Clone(w.vars)
	for _, k := range []string{"INPUT_PROMPT", "INPUT_PATHS", "INPUT_PREVIEW", "INPUT_WAIT", "INPUT_TIMEOUT", "INPUT_SETTLE", "INPUT_DOCS-TOKEN", "INPUT_TRIGGER-PHRASE"} {
		delete(w.base, k)
	}
	return w
}

// copiedFrom is where a test's workflows come from: a page's, by their
// names in the code repository and the docs repository, or the files
// init writes for choices.
type copiedFrom struct {
	page       string
	code, docs []string
	init       *setup.Choices
}

// String names the source in a test's messages.
func (c copiedFrom) String() string {
	if c.init != nil {
		return "init's files"
	}
	return path.Base(c.page)
}

// world is the copied world of c's workflows (the docs repository's only
// when elsewhere).
func (c copiedFrom) world(t *testing.T, sc fakeapi.Scenario, released bool, ahead time.Duration, elsewhere bool) *copiedWorld {
	t.Helper()
	if c.init != nil {
		return newInitWorld(t, sc, released, ahead, elsewhere, *c.init)
	}
	docs := c.docs
	if !elsewhere {
		docs = nil
	}
	return newCopiedWorld(t, sc, released, ahead, elsewhere, c.page, c.code, docs)
}

// isSettleRun says r is a run of the settle workflow (a page's) or of the
// settle job (init's file).
func isSettleRun(r ran) bool {
	return r.workflow == "Docs jobs settle" || strings.HasSuffix(r.workflow, "/settle")
}

// schedule is the cron line of w's scheduled workflow.
func (w *copiedWorld) schedule() string {
	w.t.Helper()
	for _, wf := range w.code {
		if s := wf.Schedules(); len(s) > 0 {
			return s[0]
		}
	}
	w.t.Fatal("no workflow of the code repository has a schedule")
	return ""
}

// initNoWait are the choices of init for no-wait.md's setup: the check
// turns green when the docs pull request exists.
func initNoWait() *setup.Choices {
	c := setup.Defaults
	c.Approval, c.AgentApp, c.Paths = false, agentApp, []string{"src/**", "!src/**/*_test.go"}
	return &c
}

// at queues fire at the moment d after the pull request was opened.
func (w *copiedWorld) at(d time.Duration, what string, fire func()) {
	w.queue = append(w.queue, timed{at: step.Start.Add(d), what: what, fire: fire})
}

// play fires the queued events in the order they are due, until none is
// left or the next is due after until; an event due while a run holds
// the clock fires when it is free, as a queued run starts.
func (w *copiedWorld) play(until time.Duration) {
	for len(w.queue) > 0 {
		slices.SortStableFunc(w.queue, func(a, b timed) int { return a.at.Compare(b.at) })
		next := w.queue[0]
		if next.at.After(step.Start.Add(until)) {
			return
		}
		w.queue = w.queue[1:]
		if d := next.at.Sub(w.clk.Now()); d > 0 {
			w.clk.Advance(d)
		}
		next.fire()
	}
}

// pullRequest is a person's event on the code pull request.
func (w *copiedWorld) pullRequest(payload map[string]any) {
	w.event("code", workflows.Event{Name: "pull_request", Payload: payload})
}

// schedules queues the settle workflow's scheduled runs from the start
// until until.
func (w *copiedWorld) schedules(until time.Duration) {
	w.t.Helper()
	for _, wf := range w.code {
		for _, spec := range wf.Schedules() {
			for t := step.Start; ; {
				next, err := workflows.Next(spec, t)
				if err != nil {
					w.t.Fatal(err)
				}
				if next.After(step.Start.Add(until)) {
					break
				}
				w.queue = append(w.queue, timed{at: next, what: "schedule", fire: func() {
					w.event("code", workflows.Event{Name: "schedule", Payload: map[string]any{"schedule": spec}})
				}})
				t = next
			}
		}
	}
}

// event sends ev to the workflows of repo ("code" or "docs"): each job it
// starts runs, or is skipped, and is billed.
func (w *copiedWorld) event(repo string, ev workflows.Event) {
	w.t.Helper()
	w.deliver(repo, ev)
	if ev.Name == "pull_request" {
		// GitHub sends a pull request's activity as pull_request_target
		// too, to the workflows that hear it (init's files, for the
		// agent's pull request).
		w.deliver(repo, workflows.Event{Name: "pull_request_target", Payload: ev.Payload})
	}
}

// deliver sends ev to the workflows of repo.
func (w *copiedWorld) deliver(repo string, ev workflows.Event) {
	w.t.Helper()
	// As GitHub sends it: JSON, whose numbers are floats.
	data, err := json.Marshal(ev.Payload)
	if err != nil {
		w.t.Fatal(err)
	}
	ev.Payload = nil
	if err := json.Unmarshal(data, &ev.Payload); err != nil {
		w.t.Fatal(err)
	}
	wfs := w.code
	if repo == "docs" {
		wfs = w.docs
	}
	for _, wf := range wfs {
		jobs, err := wf.Start(ev)
		if err != nil {
			w.t.Fatalf("%s: %v", wf.Name, err)
		}
		for _, j := range jobs {
			name := wf.Name
			if len(wf.JobIDs()) > 1 {
				name += "/" + j.ID
			}
			r := ran{workflow: name, event: describe(ev), at: w.clk.Now(), runs: j.Runs}
			if len(j.RunsOn) > 0 {
				r.runner = j.RunsOn[0]
			}
			if j.Runs {
				from := len(w.gh.Requests())
				r.took = w.runJob(name, j, ev, data)
				r.writes, r.requests = w.writes(from), len(w.gh.Requests())-from
			}
			w.runs = append(w.runs, r)
		}
	}
}

func describe(ev workflows.Event) string {
	if a, ok := ev.Payload["action"].(string); ok {
		return ev.Name + " " + a
	}
	return ev.Name
}

// runJob runs job j of the workflow name for ev and returns how long it
// held a runner.
func (w *copiedWorld) runJob(name string, j workflows.Job, ev workflows.Event, payload []byte) time.Duration {
	w.t.Helper()
	var action string
	for _, u := range j.Uses {
		if strings.HasPrefix(u, "agentjob/agent-job-action") {
			action = u
		}
	}
	if action == "" {
		// The docs repository's workflow: it tells the code repository,
		// whose event comes as this job ends.
		link := ev.Payload["pull_request"].(map[string]any)["html_url"]
		dispatch := workflows.Event{Name: "repository_dispatch", Payload: map[string]any{
			"action": "docs-agent-settle", "client_payload": map[string]any{"pull_request": link},
			"repository": map[string]any{"full_name": "acme/docs"}, "sender": user("writer")}}
		if strings.Contains(strings.Join(j.Run, "\n"), "/actions/workflows/") {
			// init's docs file starts the code repository's with
			// workflow_dispatch, naming the pull request in its inputs.
			dispatch = workflows.Event{Name: "workflow_dispatch", Payload: map[string]any{
				"inputs": map[string]any{"pull_request": link}, "ref": "main", "workflow": ".github/workflows/docs-agent.yml",
				"repository": map[string]any{"full_name": "acme/docs"}, "sender": user("writer")}}
		}
		w.queue = append(w.queue, timed{at: w.clk.Now().Add(plainJob), what: "the docs repository's dispatch", fire: func() {
			w.event("code", dispatch)
		}})
		return setupOf(j.Uses, w.released)
	}
	w.vars = maps.Clone(w.base)
	// action.yml's defaults, which the runner passes when a step does not.
	for k, v := range map[string]string{"WAIT": "true", "TIMEOUT": "30m", "PREVIEW": "true", "SETTLE": "false"} {
		w.vars["INPUT_"+k] = v
	}
	for input, v := range j.With {
		w.vars["INPUT_"+strings.ToUpper(input)] = w.secret(v)
	}
	if err := os.WriteFile(w.vars["GITHUB_EVENT_PATH"], payload, 0o600); err != nil {
		w.t.Fatal(err)
	}
	w.vars["GITHUB_EVENT_NAME"] = ev.Name
	for _, f := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"} {
		if err := os.WriteFile(w.vars[f], nil, 0o600); err != nil {
			w.t.Fatal(err)
		}
	}
	start := w.clk.Now()
	w.stdout.Reset()
	if err := w.run(context.Background()); err != nil {
		w.t.Fatalf("%s on %s at %s: %v\n%s", name, describe(ev), start.Sub(step.Start), err, w.stdout.String())
	}
	now := w.clk.Now()
	for _, s := range w.statuses()[w.seen:] {
		w.stamped = append(w.stamped, statusAt{status: s, at: now, by: name + " on " + describe(ev)})
	}
	w.seen = len(w.statuses())
	ends := w.api.Ends()
	for _, end := range ends[len(w.ends):] {
		w.jobSent(end)
	}
	w.ends = ends
	return setupOf(j.Uses, w.released) + now.Sub(start)
}

// jobSent queues the agent's push of its pull request for a job that ends
// at end: ahead of it, or after it.
func (w *copiedWorld) jobSent(end time.Time) {
	if w.api.Scenario().NoPR || cmp.Or(w.api.Scenario().Outcome, "completed") != "completed" {
		return
	}
	action := "synchronize"
	if !w.opened {
		action, w.opened = "opened", true
	}
	repo, link := "code", "https://github.com/acme/docs/pull/101"
	if w.elsewhere {
		repo, link = "docs", "https://github.com/acme/handbook/pull/101"
	}
	w.queue = append(w.queue, timed{at: end.Add(-w.ahead), what: "the agent's " + action, fire: func() {
		w.event(repo, workflows.Event{Name: "pull_request", Payload: agentPREvent(action, link)})
	}})
}

// secret is an input's value as the runner passes it: the expressions the
// pages use, with this world's values.
func (w *copiedWorld) secret(v string) string {
	w.t.Helper()
	if !strings.Contains(v, "${{") {
		return v
	}
	switch strings.TrimSpace(v) {
	case "${{ vars.MINTLIFY_PROJECT_ID }}":
		return "proj-1"
	case "${{ secrets.MINTLIFY_API_KEY }}":
		return testKey
	case "${{ secrets.DOCS_REPO_TOKEN }}":
		if w.elsewhere {
			return "ghp_docs_token_0123456789"
		}
		// Docs in the same repository: the line is dropped, as an unset
		// secret is empty.
		return ""
	}
	w.t.Fatalf("the input value %q is not modelled", v)
	return ""
}

// billedOn is the runner minutes of the runs from the run from on, by
// runner label.
func (w *copiedWorld) billedOn(from int) map[string]int {
	out := map[string]int{}
	for _, r := range w.runs[from:] {
		if r.runs {
			out[r.runner] += workflows.Billed(r.took)
		}
	}
	return out
}

// billed is the runner minutes of the runs, and how many were skipped.
func (w *copiedWorld) billed() (minutes, started, skipped int) {
	for _, r := range w.runs {
		if !r.runs {
			skipped++
			continue
		}
		started++
		minutes += workflows.Billed(r.took)
	}
	return minutes, started, skipped
}

// final is head's final status, when and by which run it was set, and
// how many statuses head got.
func (w *copiedWorld) final(head string) (last statusAt, n int) {
	for _, s := range w.stamped {
		if strings.HasPrefix(s.status, head[:4]+" ") {
			n++
			if !strings.Contains(s.status, " pending: ") {
				last = s
			}
		}
	}
	return last, n
}

// agentPREvent is the agent's pull request at link, opened or pushed by
// its app.
func agentPREvent(action, link string) map[string]any {
	bot := user(agentApp)
	repo := strings.TrimSuffix(strings.TrimPrefix(link, "https://github.com/"), "/pull/101")
	pr := map[string]any{
		"number": 101, "title": "Docs: rate-limit headers", "body": "", "html_url": link, "draft": false, "user": bot, "state": "open", "comments": 0,
		"head": map[string]any{"ref": "docs/agent-job_0001", "sha": "abababababababababababababababababababab", "repo": map[string]any{"full_name": repo}},
		"base": map[string]any{"ref": "main", "sha": baseSHA, "repo": map[string]any{"full_name": repo}},
	}
	owner, name, _ := strings.Cut(repo, "/")
	return map[string]any{"action": action, "number": 101, "pull_request": pr, "sender": bot,
		"repository": map[string]any{"name": name, "full_name": repo, "owner": map[string]any{"login": owner}}}
}

// noWaitPage is the page whose workflows a team copies to hold no runner
// while the agent works.
const noWaitPage = "../../docs/no-wait.md"

// The workflows of docs/no-wait.md, by name.
var (
	noWaitCode = []string{"Docs follow code, without waiting", "Docs jobs settle"}
	noWaitDocs = []string{"Docs pull request moved"}
)

// TestSettledInEveryOrder plays the no-wait setup as copied for a code
// pull request opened while its 8-minute job works, in each order of
// events: the commit status and the comment are settled within 15
// minutes of the job's end when the agent opens a pull request, whether
// its event comes before the job's end or after, and when it is in
// another repository; a job that opens none, or fails, is settled by the
// page's schedule. Nothing is settled twice, and the agent is sent
// nothing but the create.
func TestSettledInEveryOrder(t *testing.T) {
	t.Parallel()
	const job = 8 * time.Minute
	tests := []struct {
		name      string
		sc        fakeapi.Scenario
		ahead     time.Duration
		elsewhere bool
		want      string // the final status of head1
		by        string // the run that sets it
	}{
		{"the agent's event after the job's end", fakeapi.Scenario{Runtime: job}, -20 * time.Second, false,
			"1111 success: Docs updated in a pull request; its preview is not ready https://github.com/acme/docs/pull/101", "Docs jobs settle on pull_request opened"},
		{"the agent's event before the job's end", fakeapi.Scenario{Runtime: job}, 40 * time.Second, false,
			"1111 success: Docs updated in a pull request; its preview is not ready https://github.com/acme/docs/pull/101", "Docs jobs settle on pull_request opened"},
		{"docs in another repository", fakeapi.Scenario{Runtime: job}, 40 * time.Second, true,
			"1111 success: Docs updated in a pull request; its preview is not ready https://github.com/acme/handbook/pull/101", "Docs jobs settle on repository_dispatch docs-agent-settle"},
		{"no pull request", fakeapi.Scenario{Runtime: job, NoPR: true}, 0, false,
			"1111 success: No docs change needed ", "Docs jobs settle on schedule"},
		{"a failed job", fakeapi.Scenario{Runtime: job, Outcome: "failed"}, 0, false,
			"1111 failure: The docs job failed: see the run https://github.com/acme/docs/actions/runs/4242", "Docs jobs settle on schedule"},
	}
	for _, from := range []copiedFrom{{page: noWaitPage, code: noWaitCode, docs: noWaitDocs}, {init: initNoWait()}} {
		for _, tt := range tests {
			if from.init != nil {
				// The same runs, in init's file: its settle job hears the
				// agent's pull request on pull_request_target, and the docs
				// repository's dispatch as workflow_dispatch.
				tt.by = strings.NewReplacer("Docs jobs settle on pull_request", "Docs agent/settle on pull_request_target",
					"Docs jobs settle on repository_dispatch docs-agent-settle", "Docs agent/settle on workflow_dispatch",
					"Docs jobs settle on schedule", "Docs agent/settle on schedule").Replace(tt.by)
			}
			settledInOrder(t, from, tt.name, tt.sc, tt.ahead, tt.elsewhere, tt.want, tt.by)
		}
	}
}

// settledInOrder is one row of TestSettledInEveryOrder, on the workflows
// of from.
func settledInOrder(t *testing.T, from copiedFrom, name string, sc fakeapi.Scenario, ahead time.Duration, elsewhere bool, want, by string) {
	tt := struct {
		sc        fakeapi.Scenario
		ahead     time.Duration
		elsewhere bool
		want, by  string
	}{sc, ahead, elsewhere, want, by}
	{
		t.Run(from.String()+": "+name, func(t *testing.T) {
			t.Parallel()
			w := from.world(t, tt.sc, true, tt.ahead, tt.elsewhere)
			const horizon = 3 * time.Hour
			// Opened at 20 past: the job ends long before the next
			// scheduled run, which settles only what nothing else does.
			w.at(20*time.Minute, "opened", func() { w.pullRequest(codePR("opened", head1, nil)) })
			w.schedules(horizon)
			w.play(horizon)

			final, n := w.final(head1)
			if final.status != tt.want || final.by != tt.by {
				t.Errorf("head1's final status %q, set by %s; want %q, set by %s\nruns: %+v\n%s", final.status, final.by, tt.want, tt.by, w.runs, w.stdout.String())
			}
			end := w.ends[0]
			late := 15 * time.Minute
			if strings.HasSuffix(tt.by, " on schedule") {
				next, err := workflows.Next(w.schedule(), end)
				if err != nil {
					t.Fatal(err)
				}
				late = next.Sub(end)
			}
			got := final.at.Sub(end)
			if got < 0 || got > late {
				t.Errorf("head1's final status came %v after the job's end, want within %v", got, late)
			}
			t.Logf("head1's final status came %v after the job's end, set by %s", got, final.by)
			if n != 2 {
				t.Errorf("head1 got %d statuses, want 2 (pending, then its end): %v", n, w.stamped)
			}
			w.wantRequests(1, 0)
			// The settle run writes the backlink on the agent's pull
			// request, in the docs repository with docs-token.
			if strings.Contains(tt.want, "/pull/101") {
				repo := "acme/docs"
				if tt.elsewhere {
					repo = "acme/handbook"
				}
				var backlinks []string
				for _, r := range w.runs {
					for _, c := range r.writes {
						if c == "POST /repos/"+repo+"/issues/101/comments" {
							backlinks = append(backlinks, r.workflow+" on "+r.event)
						}
					}
				}
				if len(backlinks) != 1 || backlinks[0] != tt.by {
					t.Errorf("backlinks on %s#101 written by %q, want one, by %s", repo, backlinks, tt.by)
				}
				// It tells reviewers the phrase the request workflow hears:
				// without it, a change asked for there would reach nothing.
				if c := w.gh.Comments(101); len(c) == 0 || !strings.Contains(c[len(c)-1].Body, "**To ask for changes**, write `/docs` and what to change") {
					t.Errorf("the backlink on #101 does not name /docs: %+v", c)
				}
			}
			c := w.gh.Comments(7)
			if len(c) != 1 || recordIn(c[0].Body).Unsettled {
				t.Errorf("the pull request's comments %+v, want its one comment, settled", c)
			}
			// Every later scheduled run wrote nothing.
			var settles []ran
			for _, r := range w.runs {
				if r.runs && isSettleRun(r) && r.at.After(final.at) {
					settles = append(settles, r)
				}
			}
			if len(settles) == 0 {
				t.Errorf("no settle run came after the final status: %+v", w.runs)
			}
			for _, r := range settles {
				if len(r.writes) != 0 {
					t.Errorf("the settle run on %s at %v, after the job was settled, wrote %q; want nothing", r.event, r.at.Sub(step.Start), r.writes)
				}
			}
		})
	}
}

// TestRunnerMinutesPerCodePR measures, on the simulated clock, what a code
// pull request opened and pushed three times bills in runner minutes with
// 8-minute jobs, playing every run the copied workflows start: the
// waiting setup (docs/scenarios.md) and the no-wait setup
// (docs/no-wait.md), in each order of events, after a release and before
// one. The table it measures is the one docs/no-wait.md prints, and the
// month figures the ones docs/cost.md prints: it fails when they differ.
// As copied, after a release, no order of events in one repository bills
// more than 9 runner minutes, the merge's closed run included.
func TestRunnerMinutesPerCodePR(t *testing.T) {
	t.Parallel()
	type setup struct {
		name      string
		page      string
		code      []string
		ahead     time.Duration
		elsewhere bool
		// pushes are when the three pushes come after the opening; none:
		// each a minute after the job before it ended.
		pushes []time.Duration
	}
	setups := []setup{
		{"Waiting (`wait: true`)", "../../docs/scenarios.md", []string{"Docs follow code"}, -10 * time.Second, false, nil},
		{"No wait; the agent's pull request moves after each job's end", noWaitPage, noWaitCode, -10 * time.Second, false, nil},
		{"No wait; it moves 30 s before each job's end", noWaitPage, noWaitCode, 30 * time.Second, false, nil},
		{"No wait; the three pushes while the first job works", noWaitPage, noWaitCode, -10 * time.Second, false, []time.Duration{2 * time.Minute, 4 * time.Minute, 6 * time.Minute}},
		{"No wait; docs in another repository", noWaitPage, noWaitCode, 30 * time.Second, true, nil},
	}
	var rows []string
	var measured []lifeCost
	for _, s := range setups {
		var cells [2]lifeCost
		for i, released := range []bool{true, false} {
			from := copiedFrom{page: s.page, code: s.code}
			if s.page == noWaitPage {
				from.docs = noWaitDocs
			}
			cells[i] = codePRLife(t, from, released, s.ahead, s.elsewhere, s.pushes, 0)
			t.Logf("%s, released: %v: %+v", s.name, released, cells[i])
		}
		if s.page == noWaitPage && !s.elsewhere && cells[0].minutes > 9 {
			t.Errorf("%s: %d runner minutes after a release, want at most 9", s.name, cells[0].minutes)
		}
		rows = append(rows, fmt.Sprintf("| %s | %d started, %d skipped | %d | %d | %d and %d |", s.name, cells[0].started, cells[0].skipped,
			cells[0].minutes, cells[1].minutes, cells[0].creates, cells[0].followUps))
		measured = append(measured, cells[0])
	}
	table := "| Setup, and the order of events | Runs | Runner minutes billed | Before the first release | Creates and follow-ups |\n|---|---|---|---|---|\n" + strings.Join(rows, "\n") + "\n"
	wantIn(t, noWaitPage, table)

	// The same lives on init's files: the same sends, and what they bill,
	// which docs/setup.md prints.
	var initRows []string
	for i, s := range setups {
		choices := initNoWait()
		if s.page != noWaitPage {
			choices.Wait = true
		}
		var cells [2]lifeCost
		for j, released := range []bool{true, false} {
			cells[j] = codePRLife(t, copiedFrom{init: choices}, released, s.ahead, s.elsewhere, s.pushes, 0)
		}
		if cells[0].creates != measured[i].creates || cells[0].followUps != measured[i].followUps {
			t.Errorf("%s, init's files: %d creates and %d follow-ups, want the page's %d and %d", s.name, cells[0].creates, cells[0].followUps, measured[i].creates, measured[i].followUps)
		}
		name := strings.Replace(s.name, "Waiting (`wait: true`)", "Waiting (`--wait`)", 1)
		initRows = append(initRows, fmt.Sprintf("| %s | %d started, %d skipped | %d | %d | %d and %d |", name, cells[0].started, cells[0].skipped,
			cells[0].minutes, cells[1].minutes, cells[0].creates, cells[0].followUps))
	}
	wantIn(t, "../../docs/setup.md", "| Setup, and the order of events | Runs | Runner minutes billed | At a commit, before the first release | Creates and follow-ups |\n|---|---|---|---|---|\n"+
		strings.Join(initRows, "\n")+"\n")

	// A team's month (docs/cost.md): 40 code pull requests, each opened
	// and pushed after its jobs ended; 30 /docs requests and 4 weekly
	// runs, whose figures are cost.md's table's, a settle run each added;
	// and the settle workflow's schedule, in a repository of 1,000
	// comments and more, whose every settle run reads 10 pages of them.
	waiting, noWait := measured[0], measured[1]
	big := codePRLife(t, copiedFrom{page: noWaitPage, code: noWaitCode, docs: noWaitDocs}, true, -10*time.Second, false, nil, 1000)
	perMonth := schedulesPerMonth(t)
	scheduled := scheduledSettle(t, 1000)
	const prs, docsRuns, weekly = 40, 30, 4
	// cost.md's table: a /docs request waiting 10 GitHub requests, 6 with
	// wait: false; a weekly run 5.
	const docsWaitingGH, docsNoWaitGH, weeklyGH = 10, 6, 5
	per := fmt.Sprintf("Per code pull request, as copied: waiting, %d runs, %d runner minutes, %d GitHub requests and %d Agent API requests; "+
		"without waiting ([no-wait.md](no-wait.md)), %d runs (%d more skipped), %d runner minutes, %d GitHub requests (%d in a repository of 1,000 "+
		"comments or more, where each settle run reads 10 pages of them, the backlinks on its event's pull request and the pull requests whose commit "+
		"status is pending) and %d Agent "+
		"API requests; the settle workflow's schedule, %d runs a month "+
		"of %d GitHub requests each in such a repository.",
		waiting.started, waiting.minutes, waiting.github, waiting.api,
		noWait.started, noWait.skipped, noWait.minutes, noWait.github, big.github, noWait.api, perMonth, scheduled)
	wantIn(t, "../../docs/cost.md", per)
	minutes := fmt.Sprintf("| Runner minutes billed | about %s (%d × %d + %d × 9 + %d × 9) | about %s (%d × %d + %d × 2 + %d × 2, and %d for the hourly settle schedule) |",
		thousands(round10(prs*waiting.minutes+docsRuns*9+weekly*9)), prs, waiting.minutes, docsRuns, weekly,
		thousands(round10(prs*noWait.minutes+docsRuns*2+weekly*2+perMonth)), prs, noWait.minutes, docsRuns, weekly, perMonth)
	wantIn(t, "../../docs/cost.md", minutes)
	gh := fmt.Sprintf("| GitHub requests | about %s | about %s in a repository of 1,000 comments or more (%d × %d + %d × %d + %d × %d + %d × %d) |",
		thousands(round10(prs*waiting.github+docsRuns*docsWaitingGH+weekly*weeklyGH)),
		thousands(round10(prs*big.github+docsRuns*(docsNoWaitGH+big.settleGitHub)+weekly*(weeklyGH+big.settleGitHub)+perMonth*scheduled)),
		prs, big.github, docsRuns, docsNoWaitGH+big.settleGitHub, weekly, weeklyGH+big.settleGitHub, perMonth, scheduled)
	wantIn(t, "../../docs/cost.md", gh)
}

// lifeCost is what a code pull request's life cost.
type lifeCost struct {
	minutes, started, skipped int
	creates, followUps        int
	github, api               int
	// settleGitHub is the GitHub requests of one settle run, on average.
	settleGitHub int
	// byRunner are the runner minutes by runner label.
	byRunner map[string]int
}

// codePRLife plays the workflows of page on code pull request #7 opened
// and pushed three times, with 8-minute jobs: at pushes after the opening,
// or, with none, each a minute after the job before it ended; in a
// repository that holds comments other comments besides.
func codePRLife(t *testing.T, from copiedFrom, released bool, ahead time.Duration, elsewhere bool, pushes []time.Duration, comments int) lifeCost {
	t.Helper()
	page := from.String()
	w := from.world(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, released, ahead, elsewhere)
	for i := range comments {
		w.gh.SeedComment(1, "someone", false, fmt.Sprintf("comment %d", i))
	}
	heads := []string{head1, head2, head3, head4}
	files := slices.Clone(codeFiles)
	pushed := 0
	pushNext := func() {
		pushed++
		f := fakegithub.File{Name: fmt.Sprintf("src/push%d.go", pushed), Status: "added", Additions: 1, Patch: "@@ +1 @@"}
		files = append(files, f)
		w.moveHead(heads[pushed-1], heads[pushed], []fakegithub.File{f}, files)
		w.pullRequest(push(heads[pushed-1], heads[pushed]))
	}
	w.at(0, "opened", func() { w.pullRequest(codePR("opened", head1, nil)) })
	for _, d := range pushes {
		w.at(d, "push", pushNext)
	}
	for w.play(24 * time.Hour); pushed < len(heads)-1 && pushes == nil; w.play(24 * time.Hour) {
		w.clk.Advance(max(0, w.ends[len(w.ends)-1].Add(time.Minute).Sub(w.clk.Now())))
		pushNext()
	}
	if final, _ := w.final(head4); !strings.Contains(final.status, " success: Docs updated") || final.at.Sub(w.ends[len(w.ends)-1]) > 15*time.Minute {
		t.Errorf("%s: head4's final status %q at %v, want a success within 15 minutes of the last job's end", page, final.status, final.at.Sub(step.Start))
	}
	// The pull request is merged a day later: its closed run is part of
	// its life, and sends the agent nothing.
	sends := w.api.Creates() + w.api.Messages()
	w.at(w.clk.Now().Add(24*time.Hour).Sub(step.Start), "merged", func() {
		w.pullRequest(codePR("closed", head4, func(pr map[string]any) { pr["state"], pr["merged"] = "closed", true }))
	})
	w.play(w.clk.Now().Add(48 * time.Hour).Sub(step.Start))
	if n := w.api.Creates() + w.api.Messages(); n != sends {
		t.Errorf("%s: the closed run sent the agent %d more", page, n-sends)
	}
	// The three pushes are ordinary ones, each a commit on the head before
	// it: the follow-ups say new commits were pushed, never that the branch
	// was rewritten, and together name each pushed file once, and no other.
	var told []string
	for _, r := range w.api.Requests() {
		if r.Method != "POST" || !strings.HasSuffix(r.Path, "/message") {
			continue
		}
		p := r.Prompt()
		if !strings.HasPrefix(p, "New commits were pushed to the code pull request #7 ") {
			t.Errorf("%s: a follow-up that is not of new commits:\n%.300s", page, p)
		}
		for _, l := range strings.Split(p, "\n") {
			if f, ok := strings.CutPrefix(l, "- "); ok {
				told = append(told, f)
			}
		}
	}
	slices.Sort(told)
	if want := []string{`"src/push1.go" (added, +1 -0)`, `"src/push2.go" (added, +1 -0)`, `"src/push3.go" (added, +1 -0)`}; !slices.Equal(told, want) {
		t.Errorf("%s: the follow-ups name %q, want %q", page, told, want)
	}
	c := lifeCost{creates: w.api.Creates(), followUps: w.api.Messages(), github: len(w.gh.Requests()), api: len(w.api.Requests())}
	c.minutes, c.started, c.skipped = w.billed()
	c.byRunner = w.billedOn(0)
	settles, requests := 0, 0
	for _, r := range w.runs {
		if r.runs && isSettleRun(r) {
			settles, requests = settles+1, requests+r.requests
		}
	}
	if settles > 0 {
		c.settleGitHub = (requests + settles/2) / settles
	}
	return c
}

// scheduledSettle is the GitHub requests of a scheduled settle run of the
// copied settle workflow with nothing to settle, in a repository that
// holds comments comments.
func scheduledSettle(t *testing.T, comments int) int {
	t.Helper()
	w := newCopiedWorld(t, fakeapi.Scenario{Runtime: 8 * time.Minute}, true, 0, false, noWaitPage, noWaitCode, noWaitDocs)
	for i := range comments {
		w.gh.SeedComment(1, "someone", false, fmt.Sprintf("comment %d", i))
	}
	from := len(w.gh.Requests())
	w.event("code", workflows.Event{Name: "schedule", Payload: map[string]any{"schedule": "17 * * * *"}})
	if len(w.runs) != 1 || !w.runs[0].runs {
		t.Fatalf("a schedule started %+v, want the one settle run", w.runs)
	}
	return len(w.gh.Requests()) - from
}

// schedulesPerMonth is how many runs the copied settle workflow's
// schedule starts in 30 days.
func schedulesPerMonth(t *testing.T) int {
	t.Helper()
	ws, err := workflows.Page(noWaitPage)
	if err != nil {
		t.Fatal(err)
	}
	settle, err := workflows.Named(ws, "Docs jobs settle")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, spec := range settle.Schedules() {
		for at := step.Start; ; n++ {
			next, err := workflows.Next(spec, at)
			if err != nil {
				t.Fatal(err)
			}
			if next.After(step.Start.AddDate(0, 0, 30)) {
				break
			}
			at = next
		}
	}
	return n
}

// wantIn fails when the page at path does not hold text.
func wantIn(t *testing.T, path, text string) {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), text) {
		t.Errorf("%s does not hold the measured figures; it should read:\n%s", path, text)
	}
}

func round10(n int) int { return (n + 5) / 10 * 10 }

// thousands writes n with a comma between thousands, as the pages do.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if len(s) > 3 {
		return s[:len(s)-3] + "," + s[len(s)-3:]
	}
	return s
}

// TestCopiedWorkflowsSkipWhatNothingNeeds: as copied, the no-wait
// workflows start a billed run only where one is needed. A title edit of
// the code pull request, and the agent's own pull request's events, skip
// the code workflow at the job level (billing nothing); a person's pull
// request skips the settle workflow; a new base runs the code workflow.
func TestCopiedWorkflowsSkipWhatNothingNeeds(t *testing.T) {
	t.Parallel()
	ws, err := workflows.Page(noWaitPage)
	if err != nil {
		t.Fatal(err)
	}
	edited := func(changes map[string]any) map[string]any {
		p := codePR("edited", head1, nil)
		p["changes"] = changes
		return p
	}
	tests := []struct {
		name    string
		payload map[string]any
		want    map[string]bool // workflow: whether its job runs; absent: not started
	}{
		{"a person opens a pull request", codePR("opened", head1, nil), map[string]bool{noWaitCode[0]: true, noWaitCode[1]: false}},
		{"a title edit", edited(map[string]any{"title": map[string]any{"from": "Old"}}), map[string]bool{noWaitCode[0]: false}},
		{"a new base", edited(map[string]any{"base": map[string]any{"ref": map[string]any{"from": "dev"}}}), map[string]bool{noWaitCode[0]: true}},
		{"the agent opens its pull request", agentPREvent("opened", "https://github.com/acme/docs/pull/101"), map[string]bool{noWaitCode[0]: false, noWaitCode[1]: true}},
		{"the agent pushes to it", agentPREvent("synchronize", "https://github.com/acme/docs/pull/101"), map[string]bool{noWaitCode[0]: false, noWaitCode[1]: true}},
		{"a person closes a pull request", codePR("closed", head1, nil), map[string]bool{noWaitCode[0]: true}},
	}
	for _, tt := range tests {
		data, err := json.Marshal(tt.payload)
		if err != nil {
			t.Fatal(err)
		}
		ev := workflows.Event{Name: "pull_request"}
		if err := json.Unmarshal(data, &ev.Payload); err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, name := range append(noWaitCode, noWaitDocs...) {
			wf, err := workflows.Named(ws, name)
			if err != nil {
				t.Fatal(err)
			}
			jobs, err := wf.Start(ev)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, j := range jobs {
				got[name] = j.Runs
			}
		}
		// The docs repository's workflow hears no event of this one.
		delete(got, noWaitDocs[0])
		if !maps.Equal(got, tt.want) {
			t.Errorf("%s: the copied workflows start %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSettleWaitLeavesTimeForTheRest: a settle run started by the agent's
// pull request's event waits for that pull request's job within its
// timeout, but stops a minute before it, so that the records after it
// and the run's last words still have time: a job that works on for long
// after it pushed is left for the next run, and the run ends well.
func TestSettleWaitLeavesTimeForTheRest(t *testing.T) {
	t.Parallel()
	w := newCopiedWorld(t, fakeapi.Scenario{Runtime: 30 * time.Minute}, true, 29*time.Minute, false, noWaitPage, noWaitCode, noWaitDocs)
	w.at(0, "opened", func() { w.pullRequest(codePR("opened", head1, nil)) })
	w.play(2 * time.Minute)
	var run *ran
	for i := range w.runs {
		if w.runs[i].runs && w.runs[i].workflow == "Docs jobs settle" {
			run = &w.runs[i]
		}
	}
	if run == nil {
		t.Fatalf("the agent's event started no settle run: %+v", w.runs)
	}
	timeout, err := time.ParseDuration(w.code[1].Input("agentjob/agent-job-action", "timeout"))
	if err != nil {
		t.Fatal(err)
	}
	const leave = time.Minute // the settle run's margin before its timeout, as the log says it
	if waited := run.took - setUp; waited > timeout-leave || waited < timeout-leave-time.Minute {
		t.Errorf("the settle run waited %v, want up to %v before its timeout of %v", waited, leave, timeout)
	}
	w.wantLog("was still active 1m0s before the run's timeout: the next run settles it")
	if final, n := w.final(head1); n != 1 || final.status != "" {
		t.Errorf("head1 got %d statuses, final %q: want it pending still", n, final.status)
	}
}
