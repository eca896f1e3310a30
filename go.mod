module github.com/agentjob/agent-job-action

go 1.26

require (
	github.com/google/go-github/v62 v62.0.0
	github.com/hashicorp/go-retryablehttp v0.7.8
	github.com/sethvargo/go-githubactions v1.4.0
)

require (
	github.com/google/go-querystring v1.1.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
)
