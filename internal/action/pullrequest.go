package action

import (
	"context"
	"fmt"

	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
	"github.com/agentjob/agent-job-action/internal/ghclient"
	"github.com/agentjob/agent-job-action/internal/request"
)

// readLines adds a submitted review's line comments to its request, with
// their places in the diff, before it is judged: they are part of what it
// asks. A review whose comments cannot be read is judged by its body alone.
func (r *run) readLines(ctx context.Context, gh *ghclient.Client, review *request.Request) {
	comments, err := gh.ReviewComments(ctx, r.trig.Owner, r.trig.Repo, r.trig.Number, review.ID)
	if err != nil {
		r.log.Warning(fmt.Sprintf("could not read the review's line comments: %s; sending the review's body alone", escape.Log(err.Error())))
		return
	}
	for _, c := range comments {
		review.Lines = append(review.Lines, conversation.LineRequest(c))
	}
}
