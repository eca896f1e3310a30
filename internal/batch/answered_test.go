package batch

import (
	"strings"
	"testing"

	"github.com/agentjob/agent-job-action/internal/backlog"
)

// TestAnsweredBy: a request an earlier run sent is not sent again, and the
// log names that run's comment; one nobody answered is.
func TestAnsweredBy(t *testing.T) {
	t.Parallel()
	url := "https://github.com/acme/handbook/issues/12#issuecomment-40"
	if why, by := (&Answers{by: &backlog.Owned{URL: url}}).AnsweredBy(); !strings.HasSuffix(why, `#issuecomment-40"`) || by != url {
		t.Errorf("AnsweredBy: %q, %q", why, by)
	}
	if why, by := (&Answers{}).AnsweredBy(); why != "" || by != "" {
		t.Errorf("AnsweredBy of no earlier run = %q, %q", why, by)
	}
}
