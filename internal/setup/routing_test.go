package setup

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/agentjob/agent-job-action/internal/testbed/workflows"
)

// pr is a pull_request (or pull_request_target) payload: #n in repo,
// opened by author (a bot when it ends in [bot]), from a branch of head.
func pr(action string, n int, author, head string) map[string]any {
	typ := "User"
	if strings.HasSuffix(author, "[bot]") {
		typ = "Bot"
	}
	return map[string]any{"action": action, "number": n, "repository": map[string]any{"full_name": "acme/app"},
		"sender": map[string]any{"login": author, "type": typ},
		"pull_request": map[string]any{"number": n, "user": map[string]any{"login": author, "type": typ},
			"head": map[string]any{"repo": map[string]any{"full_name": head}}}}
}

// TestEveryEventReachesItsJob holds docs/setup.md's table of what each
// event does on init's file for the landing setup with a merge queue: the
// jobs an event starts, and those it skips, billing nothing. A fork's
// pull request and another bot's reach outside through
// pull_request_target alone (their pull_request runs have no secrets),
// the agent's app's pull request reaches settle through
// pull_request_target alone, and a request reaches request whoever writes
// it (the action judges the author).
func TestEveryEventReachesItsJob(t *testing.T) {
	t.Parallel()
	c := Defaults
	c.CodeRepo, c.Ref, c.Merge, c.Close, c.MergeQueue, c.Bots = "acme/app", "v1", "squash", true, true, []string{"renovate[bot]"}
	files, err := Files(c)
	if err != nil {
		t.Fatal(err)
	}
	wf, err := workflows.Parse(files[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	labeled := func(name string) map[string]any {
		p := pr("labeled", 7, "ada", "acme/app")
		p["label"] = map[string]any{"name": name}
		return p
	}
	edited := func(changes map[string]any) map[string]any {
		p := pr("edited", 7, "ada", "acme/app")
		p["changes"] = changes
		return p
	}
	review := func(action, body, author string) map[string]any {
		p := pr(action, 101, author, "acme/app")
		p["review"] = map[string]any{"body": body}
		return p
	}
	draft := func(p map[string]any) map[string]any {
		p["pull_request"].(map[string]any)["draft"] = true
		return p
	}
	outsideLabeled := func(name string) map[string]any {
		p := pr("labeled", 8, "mallory", "mallory/app")
		p["label"] = map[string]any{"name": name}
		return p
	}
	forkEdited := func(changes map[string]any) map[string]any {
		p := pr("edited", 8, "mallory", "mallory/app")
		p["changes"] = changes
		return p
	}
	agentEdited := func() map[string]any {
		p := pr("edited", 101, "mintlify[bot]", "acme/app")
		p["changes"] = map[string]any{"base": map[string]any{}}
		return p
	}
	agentLabeled := func() map[string]any {
		p := pr("labeled", 101, "mintlify[bot]", "acme/app")
		p["label"] = map[string]any{"name": "docs-not-needed"}
		return p
	}
	comment := func(body string) map[string]any {
		return map[string]any{"action": "created", "issue": map[string]any{"number": 7}, "comment": map[string]any{"body": body},
			"repository": map[string]any{"full_name": "acme/app"}}
	}
	for _, tc := range []struct {
		name    string
		event   string
		payload map[string]any
		runs    []string // the jobs that run; every other job it starts is skipped
	}{
		{"a person opens a pull request", "pull_request", pr("opened", 7, "ada", "acme/app"), []string{"code"}},
		{"a person pushes", "pull_request", pr("synchronize", 7, "ada", "acme/app"), []string{"code"}},
		{"a draft is opened", "pull_request", draft(pr("opened", 7, "ada", "acme/app")), nil},
		{"a draft is pushed", "pull_request", draft(pr("synchronize", 7, "ada", "acme/app")), nil},
		{"a draft is released", "pull_request", draft(labeled("docs-not-needed")), []string{"code"}},
		{"a draft is closed", "pull_request", draft(pr("closed", 7, "ada", "acme/app")), []string{"code"}},
		{"a draft is ready for review", "pull_request", pr("ready_for_review", 7, "ada", "acme/app"), []string{"code"}},
		{"the same push, as pull_request_target", "pull_request_target", pr("synchronize", 7, "ada", "acme/app"), nil},
		{"a person closes it", "pull_request", pr("closed", 7, "ada", "acme/app"), []string{"code"}},
		{"its base changes", "pull_request", edited(map[string]any{"base": map[string]any{}}), []string{"code"}},
		{"its title changes", "pull_request", edited(map[string]any{"title": map[string]any{}}), nil},
		{"the release label", "pull_request", labeled("docs-not-needed"), []string{"code"}},
		{"another label", "pull_request", labeled("bug"), nil},
		{"a fork's pull request", "pull_request", pr("opened", 8, "mallory", "mallory/app"), nil},
		{"a bot's pull request", "pull_request", pr("opened", 9, "dependabot[bot]", "acme/app"), nil},
		{"an allowed bot's pull request", "pull_request", pr("opened", 9, "renovate[bot]", "acme/app"), []string{"code"}},
		{"the agent opens its pull request", "pull_request", pr("opened", 101, "mintlify[bot]", "acme/app"), nil},
		{"the same, as pull_request_target", "pull_request_target", pr("opened", 101, "mintlify[bot]", "acme/app"), []string{"settle"}},
		{"the agent pushes", "pull_request_target", pr("synchronize", 101, "mintlify[bot]", "acme/app"), []string{"settle"}},
		{"a person merges or closes the agent's pull request", "pull_request_target", pr("closed", 101, "mintlify[bot]", "acme/app"), []string{"settle"}},
		{"the same, as pull_request", "pull_request", pr("closed", 101, "mintlify[bot]", "acme/app"), nil},
		{"another bot's pull request, as pull_request_target", "pull_request_target", pr("opened", 9, "dependabot[bot]", "acme/app"), []string{"outside"}},
		{"an allowed bot's, as pull_request_target", "pull_request_target", pr("opened", 9, "renovate[bot]", "acme/app"), nil},
		{"a fork's, as pull_request_target", "pull_request_target", pr("opened", 8, "mallory", "mallory/app"), []string{"outside"}},
		{"a push to a fork's", "pull_request_target", pr("synchronize", 8, "mallory", "mallory/app"), []string{"outside"}},
		{"a fork's closed", "pull_request_target", pr("closed", 8, "mallory", "mallory/app"), nil},
		{"a fork's moved to another base", "pull_request_target", forkEdited(map[string]any{"base": map[string]any{}}), []string{"outside"}},
		{"a fork's title edited", "pull_request_target", forkEdited(map[string]any{"title": map[string]any{}}), nil},
		{"the agent's pull request edited", "pull_request_target", agentEdited(), nil},
		{"the release label on a fork's", "pull_request_target", outsideLabeled("docs-not-needed"), []string{"outside"}},
		{"another label on a fork's", "pull_request_target", outsideLabeled("bug"), nil},
		{"a label on the agent's pull request", "pull_request_target", agentLabeled(), nil},
		{"an approval of the agent's pull request", "pull_request_review", review("submitted", "", "mintlify[bot]"), []string{"settle"}},
		{"a dismissal", "pull_request_review", review("dismissed", "", "mintlify[bot]"), []string{"settle"}},
		{"a /docs review of the agent's pull request", "pull_request_review", review("submitted", "/docs shorter", "mintlify[bot]"), []string{"request", "settle"}},
		{"a /docs review of a code pull request", "pull_request_review", review("submitted", "/docs mention it", "ada"), []string{"request"}},
		{"a review of a code pull request", "pull_request_review", review("submitted", "LGTM", "ada"), nil},
		{"a /docs comment", "issue_comment", comment("/docs add a page"), []string{"request"}},
		{"another comment", "issue_comment", comment("thanks"), nil},
		{"a merge queue's group", "merge_group", map[string]any{"action": "checks_requested", "merge_group": map[string]any{"head_sha": "abc"}}, []string{"code"}},
		{"the schedule", "schedule", map[string]any{"schedule": "17 * * * *"}, []string{"settle"}},
		{"the docs repository's dispatch", "workflow_dispatch", map[string]any{"inputs": map[string]any{"pull_request": "https://github.com/acme/handbook/pull/101"}}, []string{"settle"}},
	} {
		// As GitHub sends it: JSON, whose numbers are floats.
		data, _ := json.Marshal(tc.payload)
		var payload map[string]any
		if err := json.Unmarshal(data, &payload); err != nil {
			t.Fatal(err)
		}
		jobs, err := wf.Start(workflows.Event{Name: tc.event, Payload: payload})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var runs []string
		for _, j := range jobs {
			if j.Runs {
				runs = append(runs, j.ID)
				if j.With["api-key"] == "" {
					t.Errorf("%s: job %s passes no api-key", tc.name, j.ID)
				}
			}
		}
		if !slices.Equal(runs, tc.runs) {
			t.Errorf("%s: runs %q, want %q", tc.name, runs, tc.runs)
		}
		if len(jobs) != 0 && len(jobs) != 4 {
			t.Errorf("%s: started %d jobs, want each of the four, run or skipped", tc.name, len(jobs))
		}
	}
}

// TestApprovalsReachTheCodeJob: with --docs-when approved, an approval
// of a person's code pull request runs the code job, which reads it and
// sends the change; no other review of it does, nor an approval of a
// fork's pull request or of the agent's (which the settle job judges).
func TestApprovalsReachTheCodeJob(t *testing.T) {
	t.Parallel()
	c := Defaults
	c.CodeRepo, c.Ref, c.WhenApproved = "acme/app", "v1", true
	files, err := Files(c)
	if err != nil {
		t.Fatal(err)
	}
	wf, err := workflows.Parse(files[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(files[0].Body), "          docs-when: approved\n") {
		t.Errorf("the code job does not pass docs-when: approved")
	}
	review := func(state, author, head string) map[string]any {
		p := pr("submitted", 7, author, head)
		p["review"] = map[string]any{"body": "", "state": state}
		data, _ := json.Marshal(p)
		var out map[string]any
		_ = json.Unmarshal(data, &out)
		return out
	}
	for _, tc := range []struct {
		name    string
		payload map[string]any
		runs    []string
	}{
		{"an approval of the code", review("approved", "ada", "acme/app"), []string{"code"}},
		{"a change request on it", review("changes_requested", "ada", "acme/app"), nil},
		{"a comment on it", review("commented", "ada", "acme/app"), nil},
		{"an approval of a fork's", review("approved", "mallory", "mallory/app"), nil},
		{"an approval of the agent's", review("approved", "mintlify[bot]", "acme/app"), []string{"settle"}},
	} {
		jobs, err := wf.Start(workflows.Event{Name: "pull_request_review", Payload: tc.payload})
		if err != nil {
			t.Fatal(err)
		}
		var runs []string
		for _, j := range jobs {
			if j.Runs {
				runs = append(runs, j.ID)
			}
		}
		if !slices.Equal(runs, tc.runs) {
			t.Errorf("%s: runs %q, want %q", tc.name, runs, tc.runs)
		}
	}
}

// TestTheAgentsPullRequestsGetNoDocsJob: whatever --allowed-bots names,
// the agent's own pull request never runs the code job of init's file
// (the docs here): its docs job would open a pull request that gets a
// docs job of its own, and so on, each a create. init refuses the choice,
// or the file skips the agent's events, its approvals included.
func TestTheAgentsPullRequestsGetNoDocsJob(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, app string
		bots      []string
	}{
		{"the agent's app in allowed-bots", "mintlify[bot]", []string{"renovate[bot]", "mintlify[bot]"}},
		{"in another case", "mintlify[bot]", []string{"Mintlify[bot]"}},
		{"another agent's app", "docs-agent[bot]", []string{"docs-agent[bot]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := Defaults
			c.CodeRepo, c.Ref, c.AgentApp, c.Bots, c.WhenApproved = "acme/app", "v1", tc.app, tc.bots, true
			files, err := Files(c)
			var e *Error
			if errors.As(err, &e) {
				if e.Flag != "allowed-bots" {
					t.Errorf("refused as %v, which does not name --allowed-bots", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			wf, err := workflows.Parse(files[0].Body)
			if err != nil {
				t.Fatal(err)
			}
			approval := pr("submitted", 101, tc.app, "acme/app")
			approval["review"] = map[string]any{"body": "", "state": "approved"}
			for _, ev := range []workflows.Event{
				{Name: "pull_request", Payload: pr("opened", 101, tc.app, "acme/app")},
				{Name: "pull_request", Payload: pr("synchronize", 101, tc.app, "acme/app")},
				{Name: "pull_request_review", Payload: approval},
			} {
				data, _ := json.Marshal(ev.Payload)
				ev.Payload = nil
				if err := json.Unmarshal(data, &ev.Payload); err != nil {
					t.Fatal(err)
				}
				jobs, err := wf.Start(ev)
				if err != nil {
					t.Fatal(err)
				}
				for _, j := range jobs {
					if j.Runs && j.ID == "code" {
						t.Errorf("the agent's %s %s runs the code job: its pull request gets a docs job", ev.Name, ev.Payload["action"])
					}
				}
			}
		})
	}
}

// TestOutsideJobHoldsNothing: the job that runs on a fork's
// pull_request_target events holds GITHUB_TOKEN with statuses: write and
// pull-requests: read alone, checks nothing out, runs no script, and passes settle: true (the
// run sets that pull request's check and sends the agent nothing), in
// every setup init writes; a fork's push runs it with the default branch's
// definition only (pull_request_target).
func TestOutsideJobHoldsNothing(t *testing.T) {
	t.Parallel()
	for _, c := range []Choices{
		func() Choices { c := Defaults; c.CodeRepo, c.Ref = "acme/app", "v1"; return c }(),
		func() Choices {
			c := Defaults
			c.CodeRepo, c.DocsRepo, c.Ref, c.Wait, c.Bots, c.AgentApp = "acme/app", "acme/handbook", "v1", true, []string{"renovate[bot]"}, "docs-agent[bot]"
			return c
		}(),
	} {
		files, err := Files(c)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Jobs map[string]struct {
				Permissions map[string]string `yaml:"permissions"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal([]byte(files[0].Body), &doc); err != nil {
			t.Fatal(err)
		}
		if got := doc.Jobs["outside"].Permissions; len(got) != 2 || got["statuses"] != "write" || got["pull-requests"] != "read" {
			t.Errorf("%+v: outside's permissions %v, want statuses: write and pull-requests: read alone", c, got)
		}
		wf, err := workflows.Parse(files[0].Body)
		if err != nil {
			t.Fatal(err)
		}
		fork := pr("synchronize", 8, "mallory", "mallory/app")
		jobs, err := wf.Start(workflows.Event{Name: "pull_request_target", Payload: roundTrip(t, fork)})
		if err != nil {
			t.Fatal(err)
		}
		ran := 0
		for _, j := range jobs {
			if !j.Runs {
				continue
			}
			ran++
			if j.ID != "outside" || len(j.Run) != 0 || j.With["settle"] != "true" || slices.ContainsFunc(j.Uses, func(u string) bool { return strings.Contains(u, "checkout") }) {
				t.Errorf("%+v: a fork's push runs %s (uses %q, runs %q, with %v), want outside alone: the action, settle: true, nothing checked out", c, j.ID, j.Uses, j.Run, j.With)
			}
			if c.AgentApp != Defaults.AgentApp && j.With["agent-app"] != c.AgentApp {
				t.Errorf("%+v: outside passes agent-app %q, want %q", c, j.With["agent-app"], c.AgentApp)
			}
		}
		if ran != 1 {
			t.Errorf("%+v: a fork's push ran %d jobs, want outside", c, ran)
		}
	}
}

// roundTrip is payload as GitHub sends it: JSON, whose numbers are floats.
func roundTrip(t *testing.T, payload map[string]any) map[string]any {
	t.Helper()
	data, _ := json.Marshal(payload)
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
