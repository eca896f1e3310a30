package action_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakeapi"
	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/fakes/fakepreview"
)

const (
	forkHead  = "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0"
	forkHead2 = "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f2"
	botHead   = "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
)

// outsidePR is a pull_request_target event of pull request number of
// acme/docs, opened by author, at head, from headRepo's branch.
func outsidePR(number int, action, head, author, headRepo, sender string) map[string]any {
	return map[string]any{
		"action": action, "number": number,
		"pull_request": map[string]any{"number": number, "title": "Fix a typo", "body": "", "html_url": fmt.Sprintf("https://github.com/acme/docs/pull/%d", number),
			"user": user(author), "state": "open", "draft": false,
			"head": map[string]any{"ref": "patch-1", "sha": head, "repo": map[string]any{"full_name": headRepo}},
			"base": map[string]any{"ref": "main", "sha": baseSHA, "repo": map[string]any{"full_name": "acme/docs"}}},
		"repository": map[string]any{"name": "docs", "full_name": "acme/docs", "owner": map[string]any{"login": "acme"}},
		"sender":     user(sender),
	}
}

// outsideRun runs the settle job of init's file on ev, a pull_request_target
// event: settle: true, as that job passes it.
func (w *codeWorld) outsideRun(ev map[string]any) {
	w.t.Helper()
	w.setEvent("pull_request_target", ev)
	w.vars["INPUT_SETTLE"], w.vars["INPUT_WAIT"] = "true", "false"
	delete(w.vars, "INPUT_PROMPT")
	if err := w.run(context.Background()); err != nil {
		w.t.Fatalf("settle run on %s: %v\n%s", ev["action"], err, w.stdout.String())
	}
}

// TestForkPullRequestGetsAnHonestCheck: a fork's pull request, which no
// docs job can run for (GitHub gives its pull_request runs no secrets),
// gets a pending check that says what a maintainer does, on each head it
// is pushed; nothing its author does turns it green (the release label
// added by someone without required-permission); a writer's release label
// turns that head green, and only that head: the next push waits again.
// Under the ruleset, it merges only once released. Nothing is sent to the
// agent.
func TestForkPullRequestGetsAnHonestCheck(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/docs", DefaultBranch: "main", Required: []string{"docs / agent-job"}})
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 12, Author: "outsider", HeadRef: "patch-1", HeadRepo: "outsider/docs", HeadSHA: forkHead})
	const waits = "pending: From a fork, where no docs job runs: a maintainer adds the label docs-not-needed to release this commit https://github.com/acme/docs/actions/runs/4242"

	w.outsideRun(outsidePR(12, "opened", forkHead, "outsider", "outsider/docs", "outsider"))
	if got := w.shownOn(forkHead); got != waits {
		t.Errorf("the fork's head after opening: %q, want %q", got, waits)
	}
	// Its author adds the label: they have no write permission.
	w.outsideRun(outsideLabeled(outsidePR(12, "labeled", forkHead, "outsider", "outsider/docs", "outsider")))
	if got := w.shownOn(forkHead); got != waits {
		t.Errorf("the fork's head after its author's label: %q, want it waiting", got)
	}
	if ok, _ := w.gh.Mergeable("acme/docs", 12); ok {
		t.Error("the fork's pull request may merge before a maintainer's word")
	}
	// A writer adds it: that head is released.
	w.outsideRun(outsideLabeled(outsidePR(12, "labeled", forkHead, "outsider", "outsider/docs", "writer")))
	if got, want := w.shownOn(forkHead), "success: Docs check released by writer: no docs job needed for this commit https://github.com/acme/docs/actions/runs/4242"; got != want {
		t.Errorf("the fork's head after a writer's label: %q, want %q", got, want)
	}
	if ok, why := w.gh.Mergeable("acme/docs", 12); !ok {
		t.Errorf("the released fork's pull request may not merge: %s", why)
	}
	// The author pushes again: the new head waits.
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 12, Author: "outsider", HeadRef: "patch-1", HeadRepo: "outsider/docs", HeadSHA: forkHead2})
	w.outsideRun(outsidePR(12, "synchronize", forkHead2, "outsider", "outsider/docs", "outsider"))
	if got := w.shownOn(forkHead2); got != waits {
		t.Errorf("the fork's new head: %q, want it waiting", got)
	}
	if ok, _ := w.gh.Mergeable("acme/docs", 12); ok {
		t.Error("the fork's pull request may merge after a push no maintainer saw")
	}
	if n := len(w.api.Requests()); n != 0 {
		t.Errorf("the Agent API got %d requests", n)
	}
	for _, c := range w.gh.Requests() {
		if c.Method != "GET" && !strings.Contains(c.Path, "/statuses/") {
			t.Errorf("GitHub got %s %s: a fork's check writes nothing but its status", c.Method, c.Path)
		}
	}
}

// outsideLabeled adds the release label to a labeled event.
func outsideLabeled(ev map[string]any) map[string]any {
	ev["label"] = map[string]any{"name": "docs-not-needed"}
	return ev
}

// TestBotPullRequestIsReleased: the pull request of a bot the team names
// in release-bots (Dependabot's, by default), which the code job skips,
// gets a success that says why. Another bot's waits for a maintainer, as a
// fork's does: a bot nobody named is no one's word. The agent's own pull
// request is never released so, named by agent-app or not: its check
// waits for its code's.
func TestBotPullRequestIsReleased(t *testing.T) {
	t.Parallel()
	w := newCodeWorld(t, fakeapi.Scenario{}, fakepreview.Options{}, "src/**", codePR("opened", head1, nil))
	w.gh.SeedRepository(fakegithub.Repository{Name: "acme/docs", DefaultBranch: "main", Required: []string{"docs / agent-job"}})
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 13, Author: "dependabot[bot]", HeadRef: "dependabot/go/x", HeadSHA: botHead})
	w.outsideRun(outsidePR(13, "opened", botHead, "dependabot[bot]", "acme/docs", "dependabot[bot]"))
	if got, want := w.shownOn(botHead), "success: Opened by dependabot[bot], whose pull requests need no docs job (release-bots) https://github.com/acme/docs/actions/runs/4242"; got != want {
		t.Errorf("Dependabot's head: %q, want %q", got, want)
	}
	if ok, why := w.gh.Mergeable("acme/docs", 13); !ok {
		t.Errorf("Dependabot's pull request may not merge: %s", why)
	}

	const other = "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b1"
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 14, Author: "some-app[bot]", HeadRef: "some-app/x", HeadSHA: other})
	w.outsideRun(outsidePR(14, "opened", other, "some-app[bot]", "acme/docs", "some-app[bot]"))
	if got, want := w.shownOn(other), "pending: Opened by some-app[bot], where no docs job runs: a maintainer adds the label docs-not-needed to release this commit https://github.com/acme/docs/actions/runs/4242"; got != want {
		t.Errorf("another bot's head: %q, want %q", got, want)
	}

	// The agent's pull request is not another bot's, whether agent-app
	// names its app (the records' settle run takes it) or not (it waits).
	w.gh.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, Author: "docs-agent[bot]", HeadRef: "docs/agent-job_0001", HeadSHA: docsHead})
	for _, app := range []string{"docs-agent[bot]", ""} {
		w.vars["INPUT_AGENT-APP"] = app
		statuses := len(w.gh.Statuses())
		w.outsideRun(outsidePR(101, "opened", docsHead, "docs-agent[bot]", "acme/docs", "docs-agent[bot]"))
		if got := w.gh.Statuses()[statuses:]; slices.ContainsFunc(got, func(s fakegithub.Status) bool { return s.State == "success" }) {
			t.Errorf("agent-app %q: the agent's own pull request was released as another bot's: %+v", app, got)
		}
	}
}
