package action

import (
	"context"

	"github.com/agentjob/agent-job-action/internal/agentapi"
)

// readOnce returns the job id as the run read it already (seen), or reads
// it when it did not: a run reads an earlier record's job once.
func readOnce(ctx context.Context, api *agentapi.Client, id string, seen *agentapi.Job) (*agentapi.Job, error) {
	if seen != nil {
		return seen, nil
	}
	return api.Get(ctx, id)
}
