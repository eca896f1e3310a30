package action

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"

	"github.com/agentjob/agent-job-action/internal/agentapi"
	"github.com/agentjob/agent-job-action/internal/conversation"
	"github.com/agentjob/agent-job-action/internal/escape"
)

// startOrContinue creates the job or sends the follow-up, and writes job-id at once so
// that a failure or cancellation later still leaves it.
func (r *run) startOrContinue(ctx context.Context, api *agentapi.Client) (*agentapi.Job, error) {
	var (
		job  *agentapi.Job
		err  error
		note string
	)
	switch target := r.followUpTarget(ctx); {
	case r.cfg.JobID != "":
		// An explicit job-id never falls back to a new job.
		if job, err = r.message(ctx, api, r.cfg.JobID); err != nil {
			return nil, fmt.Errorf("%w (job %s)", err, escape.Log(r.cfg.JobID))
		}
	case target != "":
		job, err = r.message(ctx, api, target)
		var se *agentapi.StatusError
		if err != nil && errors.As(err, &se) && (se.Code == http.StatusBadRequest || se.Code == http.StatusNotFound) {
			r.logf("job %s from earlier in this thread cannot take a follow-up (%s); starting a new job", escape.Log(target), escape.Log(se.Error()))
			note = fmt.Sprintf("The earlier job %s could not take a follow-up (HTTP %d), so this started a new job.",
				conversation.JobRef(target), se.Code)
			// job-id named the refused job until now.
			r.res.JobID = ""
			if err := r.out.Set("job-id", ""); err != nil {
				return nil, err
			}
			job, err = r.create(ctx, api)
		}
	default:
		job, err = r.create(ctx, api)
	}
	if err != nil {
		return nil, err
	}
	r.res.JobID, r.res.Job, r.res.Status = job.ID, job, job.Status
	if err := r.out.Set("job-id", job.ID); err != nil {
		return nil, err
	}
	r.note = note
	r.show(ctx, conversation.Working, job)
	return job, nil
}

// followUpTarget returns the job an earlier run started in this thread, for
// a comment-triggered run without job-id.
func (r *run) followUpTarget(ctx context.Context) string {
	if r.thread == nil || r.cfg.JobID != "" || r.trig.CommentID == 0 {
		return ""
	}
	return r.thread.PreviousJob(ctx)
}

func (r *run) create(ctx context.Context, api *agentapi.Client) (*agentapi.Job, error) {
	job, err := api.Create(ctx, r.cfg.Prompt)
	if err != nil {
		return nil, err
	}
	r.logf("created job %s, status %s", escape.Log(job.ID), escape.Log(job.Status))
	return job, nil
}

func (r *run) message(ctx context.Context, api *agentapi.Client, id string) (*agentapi.Job, error) {
	r.res.JobID = id
	if err := r.out.Set("job-id", id); err != nil {
		return nil, err
	}
	job, err := api.Message(ctx, id, r.cfg.Prompt)
	if err != nil {
		return nil, err
	}
	r.followUp = true
	r.logf("sent follow-up to job %s, status %s", escape.Log(job.ID), escape.Log(job.Status))
	return job, nil
}

func (r *run) dryRun(api *agentapi.Client) error {
	req := api.CreateRequest(r.cfg.Prompt)
	if r.cfg.JobID != "" {
		req = api.MessageRequest(r.cfg.JobID, r.cfg.Prompt)
	}
	r.log.Printf("dry run: nothing is sent. The request would be:")
	r.log.Printf("%s %s", req.Method, escape.Log(req.URL))
	r.log.Printf("Authorization: Bearer ***")
	r.log.Printf("Content-Type: application/json")
	r.log.StopCommands(token(), string(req.Body))
	r.res.Status = "dry-run"
	r.res.JobID = r.cfg.JobID
	return r.finish(context.Background(), nil)
}

func token() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}
