#!/usr/bin/env bash
# Real-time check of the poll schedule (issue 12), run by hand, not in CI: it
# takes about two and a half minutes. It builds the action as the Dockerfile
# does and runs it, on the wall clock, against jobs of 20 s to 110 s of the
# fake Agent Job API, all side by side, once with poll-interval auto and once
# with a fixed 10 s loop; then prints each job's lag and the mean lag as a
# share of the length. BenchmarkPoll (go test -bench Poll ./internal/poll)
# gives the same figures on a simulated clock.
#
#   scripts/lagcheck.sh [-lengths 20s,35s,...] [-intervals auto,10s]
#
# LAGCHECK_BINARY=/path/to/agent-job-action measures that binary instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bin=${LAGCHECK_BINARY:-}
what=$bin
if [[ -z $bin ]]; then
  bin=$tmp/agent-job-action
  CGO_ENABLED=0 go build -trimpath -tags nodemo -ldflags "-s -w" -o "$bin" .
  what="built from $(git describe --always --dirty 2>/dev/null || echo 'this tree')"
fi
go build -o "$tmp/lagcheck" ./internal/testbed/lagcheck

echo "date: $(date -u '+%F %T') UTC, $(go version), $(nproc) CPUs; action binary $what"
"$tmp/lagcheck" -binary "$bin" "$@"
