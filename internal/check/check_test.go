package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/docspr"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/prlink"
	"github.com/agentjob/agent-job-action/internal/record"
	_ "github.com/agentjob/agent-job-action/internal/testbed/golden" // accepts -update (CONTRIBUTING.md)
)

const (
	run   = "https://github.com/acme/api/actions/runs/1"
	docs3 = "https://github.com/acme/docs/pull/3"
	h1    = "1111111111111111111111111111111111111111"
	h2    = "2222222222222222222222222222222222222222"
)

// said is a decision in words: "<head> <state>: <description>", a line a
// head, in the order the statuses are set.
func said(d Decision) []string {
	var out []string
	for _, s := range d.Sets {
		for _, h := range s.Heads {
			out = append(out, fmt.Sprintf("%s %s: %s", h[:1], s.Status.State, s.Status.Description))
		}
	}
	return out
}

func verdict(st docspr.State) *docspr.Verdict {
	return &docspr.Verdict{State: st, PR: prlink.PullRequest{Owner: "acme", Repo: "docs", Number: 3}, URL: docs3}
}

// state is where a code pull request's docs job stands when an event
// comes: the record as read, and the facts a run read beside the event's.
type state struct {
	name string
	rec  record.Record
	f    Facts
}

// states are every state the check tells apart. The findings of the
// round that made Decide the one rule are among them (see each).
var states = []state{
	{name: "working", f: Facts{Job: Working}},
	{name: "done, no docs change", f: Facts{Job: Done}},
	{name: "done, a docs pull request", f: Facts{Job: Done, PRLink: docs3}},
	{name: "done, its preview ready", f: Facts{Job: Done, PRLink: docs3, Preview: "https://acme-docs-x.mintlify.app", PreviewState: "success"}},
	{name: "done, its preview failed", f: Facts{Job: Done, PRLink: docs3, Preview: "https://acme-docs-x.mintlify.app", PreviewState: "failure"}},
	{name: "done, its preview building", f: Facts{Job: Done, PRLink: docs3, Preview: "https://acme-docs-x.mintlify.app", PreviewState: "in_progress"}},
	{name: "failed", f: Facts{Job: Failed}},
	{name: "errored", f: Facts{Job: Errored}},
	{name: "stopped", f: Facts{Job: Stopped}},
	{name: "no change under paths", f: Facts{Job: NoChange}},
	{name: "a cut listing this run read", f: Facts{Job: Done, Cut: true, PRLink: docs3}},
	// Finding: the cut listing the job heard was dropped by the approval.
	{name: "a cut listing the record keeps, approved", rec: record.Record{Cut: true, Approval: true, Docs: record.DocsWaiting, PR: docs3}, f: Facts{Job: Done, PRLink: docs3, Docs: verdict(docspr.Approved)}},
	{name: "approval asked, waiting", f: Facts{Job: Done, PRLink: docs3, Approval: true, Docs: verdict(docspr.Waiting)}},
	{name: "approval asked, approved", f: Facts{Job: Done, PRLink: docs3, Approval: true, Docs: verdict(docspr.Approved)}},
	{name: "approval asked, merged", f: Facts{Job: Done, PRLink: docs3, Approval: true, Docs: verdict(docspr.Merged)}},
	{name: "approval asked, closed", f: Facts{Job: Done, PRLink: docs3, Approval: true, Docs: verdict(docspr.Closed)}},
	{name: "approval asked, unread", f: Facts{Job: Done, PRLink: docs3, Approval: true, Docs: verdict(docspr.Unread)}},
	// Finding: a flood of comment-only reviews pushed a writer's change
	// request out of those read.
	{name: "approval asked, more reviews than one run reads", f: Facts{Job: Done, PRLink: docs3, Approval: true, Docs: &docspr.Verdict{State: docspr.Waiting, Crowded: true, PR: prlink.PullRequest{Owner: "acme", Repo: "docs", Number: 3}, URL: docs3}}},
	{name: "approval asked, no docs change", f: Facts{Job: Done, Approval: true}},
	// Finding: the no-wait setup's settle run, whose own docs-check is
	// exists, sets success: the record says the approval was asked.
	{name: "approval asked by the record only, unjudged", rec: record.Record{Approval: true}, f: Facts{Job: Done, PRLink: docs3}},
	// Finding: a record that follows a docs pull request, whose job now
	// names none the action can judge, got "No docs change needed".
	{name: "the record pairs a docs pull request, the job names none", rec: record.Record{Approval: true, Docs: record.DocsWaiting, PR: docs3}, f: Facts{Job: Done}},
}

// TestDecide holds the check for every state and every event: a row for
// each pair, on two heads, the older first.
func TestDecide(t *testing.T) {
	t.Parallel()
	// want[state][event]: the statuses in words (said), "" for none.
	capped := "2 success: Docs job cap reached: max-sends-per-day is 1"
	cappedAsked := "2 error: Docs job cap reached, so no approved docs for this push: max-sends-per-day is 1"
	cutNewest := fmt.Sprintf("2 error: GitHub listed only %d files: the rest went unseen, so no success is claimed; see the run", ghclient.MaxPullFiles)
	both := func(s string) string { return "1 " + s + "\n2 " + s }
	same := func(s string) map[Event]string {
		return map[Event]string{Push: s, Ended: s, Judged: s}
	}
	want := map[string]map[Event]string{
		"working":                                         same(both("pending: The docs agent is updating the docs for this change")),
		"done, no docs change":                            same(both("success: No docs change needed")),
		"done, a docs pull request":                       same(both("success: Docs updated in a pull request")),
		"done, its preview ready":                         same(both("success: Docs updated: preview ready")),
		"done, its preview failed":                        same(both("success: Docs updated in a pull request; its preview build failed")),
		"done, its preview building":                      same(both("success: Docs updated in a pull request; its preview is not ready")),
		"failed":                                          same(both("failure: The docs job failed: see the run")),
		"errored":                                         same(both("error: The docs job could not be started: see the run")),
		"stopped":                                         same(both("error: The run stopped before the docs job ended: re-run it")),
		"no change under paths":                           same(both("success: No change under paths: no docs job needed")),
		"a cut listing this run read":                     same(cutNewest),
		"a cut listing the record keeps, approved":        same(cutNewest),
		"approval asked, waiting":                         same(both("pending: Waits for an approving review of docs pull request #3")),
		"approval asked, approved":                        same("1 pending: Waits for an approving review of docs pull request #3\n2 success: Docs approved in pull request #3"),
		"approval asked, merged":                          same("1 pending: Waits for an approving review of docs pull request #3\n2 success: Docs merged in pull request #3"),
		"approval asked, closed":                          same(both("error: Docs pull request #3 was closed unmerged: reopen it, or push to start a new docs job")),
		"approval asked, unread":                          same(both("pending: Waits for docs pull request #3, whose reviews could not be read: see the run")),
		"approval asked, more reviews than one run reads": same(both("pending: Waits for docs pull request #3: too many reviews to read all, so no approval counts; see the run")),
		"approval asked, no docs change":                  same(both("success: No docs change needed")),
		"approval asked by the record only, unjudged":     same(both("error: The docs job names a pull request the action cannot judge: see the run")),
		"the record pairs a docs pull request, the job names none": same(both("error: The docs job names a pull request the action cannot judge: see the run")),
	}
	asked := map[string]bool{}
	for _, s := range states {
		asked[s.name] = s.f.Approval || s.rec.Approval || s.rec.Docs != ""
	}
	for _, s := range states {
		w := want[s.name]
		if w == nil {
			t.Fatalf("state %q has no row", s.name)
		}
		// The events that do not depend on how the job stands.
		w[Abandoned] = both("error: The docs job ended before it heard this push: push again")
		w[Gone] = both("error: The docs job is gone (the Agent Job API no longer knows it): push again")
		// Finding: the closed run set success on a head the job never heard.
		w[Closed] = both("error: Pull request closed before the docs job heard this push: reopen it and push again")
		w[Capped] = capped
		if asked[s.name] {
			w[Capped] = cappedAsked
		}
		// A release: the newest head, whatever the job, the docs pull
		// request, the cut or the cap.
		w[Released] = "2 success: Docs check released by ada: no docs job needed for this commit"
		// Held for the code's approval: the newest head waits, whatever
		// the job did before.
		w[Held] = "2 pending: Waits for the code's approval before writing the docs"
		for _, e := range Events {
			t.Run(s.name+"/"+e.String(), func(t *testing.T) {
				t.Parallel()
				f := s.f
				f.Event, f.RunURL, f.Heads = e, run, []string{h1, h2}
				if e == Capped {
					f.Heads, f.Cap = []string{h2}, "max-sends-per-day is 1"
				}
				if e == Released {
					f.ReleasedBy = "ada"
				}
				d := Decide(s.rec, f)
				got := strings.Join(said(d), "\n")
				if got != w[e] {
					t.Errorf("Decide() statuses\n%s\nwant\n%s", got, w[e])
				}
				for _, set := range d.Sets {
					if set.Status.Context != Context {
						t.Errorf("status context %q, want %q", set.Status.Context, Context)
					}
					if n := len([]rune(set.Status.Description)); n > ghclient.MaxStatusDescription {
						t.Errorf("description of %d characters, over GitHub's %d", n, ghclient.MaxStatusDescription)
					}
				}
			})
		}
	}
}

// TestDecideCapUncounted: a cap that only counts as reached, because a
// flood of comments cut the count, sends nothing and claims no success,
// whatever docs-check asks (finding: about a thousand outsiders' comments
// turned the check green with no docs job).
func TestDecideCapUncounted(t *testing.T) {
	t.Parallel()
	for _, approval := range []bool{false, true} {
		d := Decide(record.Record{}, Facts{Event: Capped, Heads: []string{h2}, Cap: "today's sends could not all be counted", CapUncounted: true, Approval: approval, RunURL: run})
		if got := said(d); len(got) != 1 || got[0] != "2 error: The docs job's sends could not all be counted, so nothing was sent and no success is claimed: see the run" || d.Sets[0].Status.TargetURL != run {
			t.Errorf("approval %v: Decide() = %q", approval, got)
		}
	}
}

// TestDecideLinks: a status links https addresses only, the run while the
// job works or failed, the docs pull request or its preview at its end.
func TestDecideLinks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    Facts
		want string
	}{
		{"working links the run", Facts{Job: Working}, run},
		{"failed links the run", Facts{Job: Failed}, run},
		{"done links the docs pull request", Facts{Job: Done, PRLink: docs3}, docs3},
		{"a preview ready is linked", Facts{Job: Done, PRLink: docs3, Preview: "https://acme-docs-x.mintlify.app", PreviewState: "success"}, "https://acme-docs-x.mintlify.app"},
		{"a preview that is no https link is not", Facts{Job: Done, PRLink: docs3, Preview: "javascript:x", PreviewState: "success"}, docs3},
		{"an approval links the docs pull request", Facts{Job: Done, PRLink: docs3, Approval: true, Docs: verdict(docspr.Approved)}, docs3},
		{"an unread docs pull request links the run", Facts{Job: Done, PRLink: docs3, Approval: true, Docs: verdict(docspr.Unread)}, run},
		{"no change links nothing", Facts{Job: NoChange}, ""},
	}
	for _, tt := range tests {
		tt.f.RunURL, tt.f.Heads = run, []string{h2}
		d := Decide(record.Record{}, tt.f)
		if len(d.Sets) != 1 || d.Sets[0].Status.TargetURL != tt.want {
			t.Errorf("%s: Decide() = %+v, want the link %q", tt.name, d.Sets, tt.want)
		}
	}
}

// TestDecideFollowing: what the record keeps of the docs pull request
// after each verdict: it follows one open, and keeps that one merged or
// closed, for the next push to start a new job.
func TestDecideFollowing(t *testing.T) {
	t.Parallel()
	for st, want := range map[docspr.State]string{
		docspr.Waiting: record.DocsWaiting, docspr.Unread: record.DocsWaiting, docspr.Approved: record.DocsApproved,
		docspr.Merged: record.DocsMerged, docspr.Closed: record.DocsClosed,
	} {
		d := Decide(record.Record{}, Facts{Event: Judged, Job: Done, Heads: []string{h2}, Approval: true, Docs: verdict(st)})
		if d.Docs != want {
			t.Errorf("%s: Docs = %q, want %q", st, d.Docs, want)
		}
	}
	if d := Decide(record.Record{}, Facts{Event: Ended, Job: Done, Heads: []string{h2}}); d.Docs != "" {
		t.Errorf("no verdict: Docs = %q, want none", d.Docs)
	}
}

// TestDecideNoHeads: an event on no head sets nothing.
func TestDecideNoHeads(t *testing.T) {
	t.Parallel()
	for _, e := range Events {
		if d := Decide(record.Record{}, Facts{Event: e, Job: Done}); len(d.Sets) != 0 {
			t.Errorf("%s: Decide() = %+v, want nothing set", e, d.Sets)
		}
	}
}

// TestDecideGroup: a merge group's check, from what was read of it.
func TestDecideGroup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		g     Group
		state string
		desc  string
	}{
		{Group{PRs: []int{12}}, "success", "Docs settled for #12, the merge group's one pull request"},
		{Group{PRs: []int{12, 13}}, "success", "Docs settled for all 2 pull requests in the merge group"},
		{Group{PRs: []int{12, 13}, Held: 13, HeldState: "pending"}, "failure", "#13 holds the merge group back: its docs check is pending"},
		{Group{PRs: []int{12, 13}, Held: 13, HeldState: "error"}, "failure", "#13 holds the merge group back: its docs check is failed"},
		{Group{PRs: []int{12, 13}, Held: 13}, "failure", "#13 holds the merge group back: its docs check is not set"},
		{Group{PRs: []int{12, 13}, Held: 13, HeldState: "closed"}, "failure", "#13 holds the merge group back: it is no longer open into the group's branch"},
		{Group{TooLarge: 51, MaxCommits: 50}, "failure", "The merge group holds 51 commits, over the 50 this check reads: it does not pass unread"},
		{Group{}, "failure", "The merge group's branch is no merge queue's: its pull requests cannot be checked"},
		{Group{Unread: true, PRs: []int{12}}, "error", "The merge group's pull requests could not be read: see the run"},
	}
	for _, tt := range tests {
		d := DecideGroup(tt.g, h2, run)
		if len(d.Sets) != 1 || d.Sets[0].Heads[0] != h2 {
			t.Fatalf("DecideGroup(%+v) = %+v, want one status on the group's head", tt.g, d)
		}
		s := d.Sets[0].Status
		if s.State != tt.state || s.Description != tt.desc || s.Context != Context || s.TargetURL != run {
			t.Errorf("DecideGroup(%+v) = %+v, want %s %q", tt.g, s, tt.state, tt.desc)
		}
	}
}

// TestDecideKeepsARelease: a head a person released (the record's
// released) gets no other status, whatever the event and the job.
func TestDecideKeepsARelease(t *testing.T) {
	t.Parallel()
	rec := record.Record{Released: h2, Approval: true}
	for _, e := range Events {
		for _, s := range states {
			f := s.f
			f.Event, f.Heads, f.RunURL, f.ReleasedBy, f.Cap = e, []string{h1, h2}, run, "ada", "max-sends-per-day is 1"
			for _, set := range Decide(rec, f).Sets {
				if slices.Contains(set.Heads, h2) && e != Released {
					t.Errorf("%s, %s: the released head got %s %q", s.name, e, set.Status.State, set.Status.Description)
				}
			}
		}
	}
}

// TestPaired: the agent's docs pull request in its code's repository may
// merge exactly when its code may: success while the code's latest head
// shows success, and once the code merged (or closed unmerged, when the
// docs stand on their own reviews); pending otherwise, whatever else the
// code's head shows. It links the code pull request, and goes on the docs
// pull request's head only.
func TestPaired(t *testing.T) {
	t.Parallel()
	const code = "https://github.com/acme/api/pull/7"
	tests := []struct {
		name  string
		p     Pairing
		state string
		desc  string
	}{
		{"the code's check passed", Pairing{Open: true, Shows: ghclient.CommitStatus{State: ghclient.StatusSuccess}}, ghclient.StatusSuccess, "Lands with code pull request #7, whose docs check passed"},
		{"the code's check waits", Pairing{Open: true, Shows: ghclient.CommitStatus{State: ghclient.StatusPending}}, ghclient.StatusPending, "Waits for code pull request #7's docs check: these docs land with the code"},
		{"the code's check failed", Pairing{Open: true, Shows: ghclient.CommitStatus{State: ghclient.StatusFailure}}, ghclient.StatusPending, "Waits for code pull request #7's docs check: these docs land with the code"},
		{"the code's head shows none", Pairing{Open: true}, ghclient.StatusPending, "Waits for code pull request #7's docs check: these docs land with the code"},
		{"the code merged", Pairing{Merged: true}, ghclient.StatusSuccess, "Code pull request #7 is merged: these docs may land"},
		{"the code closed unmerged", Pairing{}, ghclient.StatusSuccess, "Code pull request #7 was closed unmerged: these docs stand on their own reviews"},
		{"a request's, its job writing", Pairing{Request: true, Working: true, Open: true, Shows: ghclient.CommitStatus{State: ghclient.StatusSuccess}}, ghclient.StatusPending, "The docs agent works on it for the request in #7"},
		{"a request's, its job ended", Pairing{Request: true}, ghclient.StatusSuccess, "Opened for the request in #7, whose docs job ended: its reviews decide"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.p.Code, tt.p.URL, tt.p.DocsHead = 7, code, "d0c5"
			d := Paired(tt.p)
			want := []Set{{Heads: []string{"d0c5"}, Status: ghclient.CommitStatus{Context: Context, State: tt.state, Description: tt.desc, TargetURL: code}}}
			if fmt.Sprint(d.Sets) != fmt.Sprint(want) || d.Docs != "" {
				t.Errorf("Paired() = %+v, want %+v", d, want)
			}
			if n := len([]rune(tt.desc)); n > ghclient.MaxStatusDescription {
				t.Errorf("the description is %d characters, over GitHub's %d", n, ghclient.MaxStatusDescription)
			}
		})
	}
}

// TestDecideOutside: the check of a pull request no code job follows, by
// kind and what its run read: a fork's and an unnamed bot's wait for a
// person's release; a release-bots bot's passes; a person's release passes
// that head; every status is the pull request's (For: its success waits
// for the others at the head, which the writer reads); the schedule's pass
// writes only where a head shows none (IfNone), which the writer holds.
func TestDecideOutside(t *testing.T) {
	t.Parallel()
	const head, label = "f0f0", "docs-not-needed"
	tests := []struct {
		name  string
		o     Outside
		state string
		desc  string
	}{
		{"a fork's", Outside{Fork: true, Label: label}, ghclient.StatusPending, "From a fork, where no docs job runs: a maintainer adds the label docs-not-needed to release this commit"},
		{"a fork's, no release label", Outside{Fork: true}, ghclient.StatusPending, "From a fork, where no docs job runs: set release-label, so that a maintainer can release this commit"},
		{"a fork's opened by a bot release-bots names", Outside{Fork: true, Bot: "dependabot[bot]", Label: label}, ghclient.StatusPending, "From a fork, where no docs job runs: a maintainer adds the label docs-not-needed to release this commit"},
		{"an unnamed bot's", Outside{Bot: "some-app[bot]", Label: label}, ghclient.StatusPending, "Opened by some-app[bot], where no docs job runs: a maintainer adds the label docs-not-needed to release this commit"},
		{"a release-bots bot's", Outside{Bot: "dependabot[bot]", BotReleased: true, Label: label}, ghclient.StatusSuccess, "Opened by dependabot[bot], whose pull requests need no docs job (release-bots)"},
		{"a fork's released by a writer", Outside{Fork: true, ReleasedBy: "writer", Label: label}, ghclient.StatusSuccess, "Docs check released by writer: no docs job needed for this commit"},
		{"the schedule's pass: only where the head shows none", Outside{Fork: true, Label: label, IfNone: true}, ghclient.StatusPending, "From a fork, where no docs job runs: a maintainer adds the label docs-not-needed to release this commit"},
		{"a bot's login that would break a line", Outside{Bot: "x\n::error::y", Label: label}, ghclient.StatusPending, "Opened by x ::error::y, where no docs job runs: a maintainer adds the label docs-not-needed to release this commit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.o.Head, tt.o.RunURL, tt.o.Number = head, run, 9
			d := DecideOutside(tt.o)
			if len(d.Sets) != 1 || d.Sets[0].For != 9 || !slices.Equal(d.Sets[0].Heads, []string{head}) || d.Sets[0].Status.State != tt.state || d.Sets[0].IfNone != tt.o.IfNone ||
				d.Sets[0].Status.Description != tt.desc || d.Sets[0].Status.Context != Context || d.Sets[0].Status.TargetURL != run {
				t.Errorf("DecideOutside() = %+v, want %s %q on %s", d, tt.state, tt.desc, head)
			}
		})
	}
}

// TestWaits: another open pull request's record holds a success off its
// head while its job works on the head, has yet to hear it, waits for the
// code's approval or for the docs' own, or heard a cut listing; a release
// of the head, a head it moved on from, or docs approved hold nothing.
func TestWaits(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		rec  record.Record
		want bool
	}{
		{"no record", record.Record{}, false},
		{"its job works on the head", record.Record{JobID: "job_1", Head: h1, Owed: []string{h1}, Unsettled: true}, true},
		{"its job has yet to hear the head", record.Record{JobID: "job_1", Head: h2, Waiting: h1}, true},
		{"held for the code's approval", record.Record{Held: h1}, true},
		{"docs wait for their approval", record.Record{JobID: "job_1", Head: h1, Docs: record.DocsWaiting}, true},
		{"a cut listing", record.Record{JobID: "job_1", Head: h1, Cut: true}, true},
		{"its job failed there", record.Record{JobID: "job_1", Head: h1, Failed: true}, true},
		{"its docs closed unmerged", record.Record{JobID: "job_1", Head: h1, Docs: record.DocsClosed}, true},
		{"docs approved", record.Record{JobID: "job_1", Head: h1, Docs: record.DocsApproved}, false},
		{"the job's end is reported", record.Record{JobID: "job_1", Head: h1}, false},
		{"released, though held", record.Record{Held: h1, Released: h1}, false},
		{"another head owed", record.Record{JobID: "job_1", Head: h2, Owed: []string{h2}, Docs: record.DocsWaiting}, false},
	} {
		if got := Waits(tt.rec, h1); got != tt.want {
			t.Errorf("%s: Waits = %v, want %v", tt.name, got, tt.want)
		}
	}
	if Waits(record.Record{Held: ""}, "") {
		t.Error("Waits on no head")
	}
}

// TestShared: a success held off a shared head is pending and names the
// pull request that waits, or an error when they could not be read; a
// Set shares only a success that is a pull request's.
func TestShared(t *testing.T) {
	t.Parallel()
	if s := Shared(7, run); s.State != ghclient.StatusPending || s.Context != Context || !strings.HasPrefix(s.Description, "#7 heads this commit too") || s.TargetURL != run {
		t.Errorf("Shared(7) = %+v", s)
	}
	if s := Shared(-1, run); s.State != ghclient.StatusError || !strings.Contains(s.Description, "no success is claimed") {
		t.Errorf("Shared(-1) = %+v", s)
	}
	d := Decide(record.Record{}, Facts{Event: Ended, Heads: []string{h1}, Job: NoChange, PR: 8})
	if len(d.Sets) != 1 || !d.Sets[0].Shares() || d.Sets[0].For != 8 {
		t.Errorf("a pull request's success: %+v, want it For #8 and shared", d.Sets)
	}
	if d := Decide(record.Record{}, Facts{Event: Push, Heads: []string{h1}, Job: Working, PR: 8}); d.Sets[0].Shares() {
		t.Errorf("a pending check shares: %+v", d.Sets)
	}
	if d := DecideGroup(Group{PRs: []int{8}}, h1, run); d.Sets[0].Shares() {
		t.Errorf("a merge group's success shares: %+v", d.Sets)
	}
}

// TestDecideUnheard: a judgment of heads the job never heard is written
// only where GitHub shows a status it may change (Set.Back, Revisited),
// whatever it decides.
func TestDecideUnheard(t *testing.T) {
	t.Parallel()
	for _, v := range []docspr.State{docspr.Waiting, docspr.Approved} {
		d := Decide(record.Record{}, Facts{Event: Judged, Heads: []string{h2}, Job: Done, Unheard: true, Approval: true,
			Docs: &docspr.Verdict{State: v, PR: prlink.PullRequest{Owner: "acme", Repo: "docs", Number: 3}, URL: docs3}})
		if len(d.Sets) != 1 || !d.Sets[0].Back {
			t.Errorf("docs %v: %+v, want one set that only takes back", v, d.Sets)
		}
	}
	if d := Decide(record.Record{}, Facts{Event: Ended, Heads: []string{h2}, Job: Done}); d.Sets[0].Back {
		t.Errorf("a heard head's end only takes back: %+v", d.Sets)
	}
}

// TestRevisited: on a head its job never heard, a judgment of the docs
// changes a success (a person's release excepted) or a status that links
// those docs, and nothing else.
func TestRevisited(t *testing.T) {
	t.Parallel()
	released := Decide(record.Record{}, Facts{Event: Released, Heads: []string{h1}, ReleasedBy: "writer", RunURL: run}).Sets[0].Status
	for _, tt := range []struct {
		name  string
		shown ghclient.CommitStatus
		want  bool
	}{
		{"a success", ghclient.CommitStatus{State: ghclient.StatusSuccess, Description: "Looks good to me"}, true},
		{"a person's release", released, false},
		{"a judgment of the docs", ghclient.CommitStatus{State: ghclient.StatusPending, Description: "Waits for an approving review of docs pull request #3", TargetURL: docs3}, true},
		{"the job at work", ghclient.CommitStatus{State: ghclient.StatusPending, Description: "The docs agent is updating the docs for this change", TargetURL: run}, false},
		{"held for the code's approval", ghclient.CommitStatus{State: ghclient.StatusPending, Description: HeldDescription, TargetURL: run}, false},
		{"nothing", ghclient.CommitStatus{}, false},
	} {
		if got := Revisited(tt.shown, docs3); got != tt.want {
			t.Errorf("%s: Revisited = %v, want %v", tt.name, got, tt.want)
		}
	}
}
