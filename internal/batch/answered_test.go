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
	if why := answeredBy(&backlog.Owned{URL: "https://github.com/acme/handbook/issues/12#issuecomment-40"}); !strings.HasSuffix(why, `#issuecomment-40"`) {
		t.Errorf("answeredBy: %q", why)
	}
	if got := answeredBy(nil); got != "" {
		t.Errorf("answeredBy(nil) = %q", got)
	}
}
