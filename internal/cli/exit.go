package cli

// Exit statuses of the program. main maps how a run ended to one of them;
// --help and the README's "Exit status" table list them from ExitStatuses.
const (
	ExitOK        = 0   // completed or archived, skipped, dry run, started without waiting
	ExitJobFailed = 1   // the job ended failed
	ExitUsage     = 2   // a flag or input is wrong or missing; nothing was sent
	ExitTimedOut  = 3   // the timeout passed; the job goes on running
	ExitError     = 4   // the API or GitHub refused or failed, or the run's report could not be written
	ExitFindings  = 5   // doctor found a problem in the setup
	ExitNotProven = 6   // doctor found none, but could not tell every check
	ExitCancelled = 130 // interrupted (Ctrl+C, SIGTERM, a cancelled workflow); the job goes on running
)

// ExitStatus is one documented exit status.
type ExitStatus struct {
	Code    int
	Meaning string
}

// ExitStatuses documents every exit status, in order.
var ExitStatuses = []ExitStatus{
	{ExitOK, "the job ended completed or archived; or it was started with --wait=false; or a dry run; or the run rightly did nothing (status skipped)"},
	{ExitJobFailed, "the job ended failed"},
	{ExitUsage, "usage: an unknown flag, a secret given as a flag, a missing or invalid input; nothing was sent"},
	{ExitTimedOut, "the timeout passed before the job ended; it goes on running (wait for it with --job-id and no --prompt, which sends it nothing)"},
	{ExitError, "an API or GitHub error (after the retries that are safe), or the outputs could not be written"},
	{ExitFindings, "doctor found a problem in the setup (each with its fix)"},
	{ExitNotProven, "doctor found no problem, but could not tell every check (each says how to tell it)"},
	{ExitCancelled, "interrupted (Ctrl+C, SIGTERM, a cancelled workflow); the job goes on running"},
}
