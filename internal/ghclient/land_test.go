package ghclient

import (
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/agentjob/agent-job-action/internal/fakes/fakegithub"
	"github.com/agentjob/agent-job-action/internal/httpclient"
	"github.com/agentjob/agent-job-action/internal/testbed/ghspec"
)

// TestMerge merges on the head the caller names, with its method, and
// tells GitHub's refusals (not mergeable, head moved) from other errors.
func TestMerge(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		pull        fakegithub.Pull
		sha, method string
		wantErr     bool
		refused     string // MergeRefused's reason; "" for none
		wantMethod  string
	}{
		{name: "squash", pull: fakegithub.Pull{HeadSHA: sha(5)}, sha: sha(5), method: "squash", wantMethod: "squash"},
		{name: "the repository's default", pull: fakegithub.Pull{HeadSHA: sha(5)}, sha: sha(5), wantMethod: "merge"},
		{name: "not mergeable", pull: fakegithub.Pull{HeadSHA: sha(5), Unmergeable: "Merge conflict"}, sha: sha(5), method: "merge", wantErr: true, refused: "Merge conflict"},
		{name: "the head moved", pull: fakegithub.Pull{HeadSHA: sha(6)}, sha: sha(5), method: "merge", wantErr: true, refused: "Head branch was modified. Review and try the merge again."},
		{name: "closed", pull: fakegithub.Pull{HeadSHA: sha(5), State: "closed"}, sha: sha(5), method: "merge", wantErr: true, refused: "Pull Request is not mergeable"},
		{name: "no SHA", pull: fakegithub.Pull{HeadSHA: sha(5)}, sha: "main", method: "merge", wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newFake(t, fakegithub.Options{})
			tc.pull.Repo, tc.pull.Number, tc.pull.Author = "acme/docs", 101, "docs-agent[bot]"
			srv.SeedPull(tc.pull)
			merged, err := c.Merge(context.Background(), "acme", "docs", 101, tc.sha, tc.method)
			if (err != nil) != tc.wantErr {
				t.Fatalf("Merge() = %q, %v; want an error: %v", merged, err, tc.wantErr)
			}
			reason, refused := MergeRefused(err)
			if reason != tc.refused || refused != (tc.refused != "") {
				t.Errorf("MergeRefused(%v) = %q, %v; want %q", err, reason, refused, tc.refused)
			}
			pr, _ := srv.PullRequest("acme/docs", 101)
			if pr.MergeMethod != tc.wantMethod || pr.Merged != (tc.wantMethod != "") {
				t.Errorf("the pull request after: merged %v with %q, want %q", pr.Merged, pr.MergeMethod, tc.wantMethod)
			}
			if !tc.wantErr && !isSHA(merged) {
				t.Errorf("Merge() = %q, want the merge commit", merged)
			}
			reqs := srv.Requests()
			if tc.sha == "main" {
				if len(reqs) != 0 {
					t.Errorf("a merge of no SHA was sent: %+v", reqs)
				}
				return
			}
			var body map[string]string
			if len(reqs) != 1 || reqs[0].Method != http.MethodPut || json.Unmarshal(reqs[0].Body, &body) != nil || body["sha"] != tc.sha || body["merge_method"] != tc.method {
				t.Errorf("requests = %+v, want one PUT with sha %s and method %q", reqs, tc.sha, tc.method)
			}
		})
	}
}

// TestMergeSentOnce: a merge whose answer was lost is not sent again: a
// second one could merge what came after the first.
func TestMergeSentOnce(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := fakegithub.New(fakegithub.Options{Token: token, Check: ghspec.Checker(), Fault: func(w http.ResponseWriter, r *http.Request) bool {
		calls.Add(1)
		w.WriteHeader(http.StatusBadGateway)
		return true
	}})
	defer srv.Close()
	hc := httpclient.New(httpclient.Options{BackoffMin: 1, BackoffMax: 1, Transport: srv.Client().Transport})
	c, err := New(hc.HTTPClient(httpclient.Policy{Kind: httpclient.Repeatable}), hc.HTTPClient(httpclient.Policy{Kind: httpclient.Once}), srv.APIURL(), token)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Merge(context.Background(), "acme", "docs", 101, sha(5), "merge")
	if _, refused := MergeRefused(err); err == nil || refused {
		t.Errorf("Merge() error = %v, want the 502, not a refusal", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

// TestClosePull closes a pull request unmerged; a merged one GitHub
// refuses to close.
func TestClosePull(t *testing.T) {
	t.Parallel()
	c, srv := newFake(t, fakegithub.Options{})
	srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 101, HeadSHA: sha(5)})
	srv.SeedPull(fakegithub.Pull{Repo: "acme/docs", Number: 102, HeadSHA: sha(6), State: "closed", Merged: true})
	if err := c.ClosePull(context.Background(), "acme", "docs", 101); err != nil {
		t.Fatalf("ClosePull() error = %v", err)
	}
	if pr, _ := srv.PullRequest("acme/docs", 101); pr.State != "closed" || pr.Merged {
		t.Errorf("the pull request after: %+v", pr)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Method != http.MethodPatch || string(reqs[0].Body) != `{"state":"closed"}`+"\n" {
		t.Errorf("requests = %+v, want one PATCH of the state", reqs)
	}
	if err := c.ClosePull(context.Background(), "acme", "docs", 102); err == nil {
		t.Error("ClosePull() of a merged pull request: no error")
	}
	if err := c.ClosePull(context.Background(), "acme", "docs", 103); !IsNotFound(err) {
		t.Errorf("ClosePull() of none: %v, want a 404", err)
	}
}
