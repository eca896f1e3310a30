#!/usr/bin/env bash
# Produces the figures in docs/performance.md: the image's size, package init,
# the time from exec to the first request, and peak memory.
#
#   scripts/measure.sh [RUNS [RSS_RUNS]]
#
# RUNS (default 40) is how many times each program is started for the cold
# start; RSS_RUNS (default 10) how many whole runs are measured for memory,
# each of which takes about a second. Needs only Go; when /usr/bin/time is
# installed it gives a second opinion on memory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs=${1:-40}
rss_runs=${2:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mib() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1048576 }'; }

echo "date: $(date -u +%F), $(go version), $(nproc) CPUs"

echo
echo "--- Image: the two files of the scratch image (Dockerfile), per platform"
bundle=/etc/ssl/certs/ca-certificates.crt # the file the Dockerfile copies from golang:alpine
[[ -r $bundle ]] || { echo "no CA bundle at $bundle to measure" >&2; exit 1; }
printf '%-6s %10s %10s %12s %14s\n' arch binary "CA bundle" "image MiB" "gzipped MiB"
for arch in amd64 arm64; do
  mkdir -p "$tmp/$arch/etc/ssl"
  # As the Dockerfile builds it: without the demo (-tags nodemo).
  CGO_ENABLED=0 GOOS=linux GOARCH=$arch go build -trimpath -tags nodemo -ldflags "-s -w -X main.version=measure" -o "$tmp/$arch/agent-job-action" .
  cp "$bundle" "$tmp/$arch/etc/ssl/cert.pem"
  # A layer is a tar of the files; registries store and send it gzipped.
  tar -C "$tmp/$arch" --owner=0 --group=0 -cf "$tmp/$arch.tar" agent-job-action etc
  gzip -6 -c "$tmp/$arch.tar" >"$tmp/$arch.tar.gz"
  bin_size=$(stat -c %s "$tmp/$arch/agent-job-action")
  ca_size=$(stat -c %s "$bundle")
  printf '%-6s %10s %10s %12s %14s\n' "$arch" "$bin_size" "$ca_size" \
    "$(mib "$(stat -c %s "$tmp/$arch.tar")")" "$(mib "$(stat -c %s "$tmp/$arch.tar.gz")")"
done

host=$(go env GOARCH)
bin=$tmp/$host/agent-job-action
[[ -x $bin ]] || { mkdir -p "$tmp/$host" && CGO_ENABLED=0 go build -trimpath -tags nodemo -ldflags "-s -w" -o "$bin" .; }
# The demo is in the build go run . demo makes, not in the image's.
demo_bin=$tmp/demo/agent-job-action
mkdir -p "$tmp/demo" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$demo_bin" .

echo
echo "--- Package init: GODEBUG=inittrace=1 $bin --version"
for _ in $(seq 30); do
  GODEBUG=inittrace=1 "$bin" --version 2>&1 >/dev/null | awk '/^init / { t += $5 } END { print t }'
done | median | xargs printf 'all packages, median of 30 runs: %s ms\n'
echo "the costliest, one run:"
GODEBUG=inittrace=1 "$bin" --version 2>&1 >/dev/null | sort -k5 -gr | awk 'NR <= 5'

echo
echo "--- Cold start: go test -bench FirstRequest -benchtime ${runs}x ./internal/testbed/coldstart"
COLDSTART_BINARY=$bin go test -run '^$' -bench FirstRequest -benchtime "${runs}x" ./internal/testbed/coldstart

echo
echo "--- Peak RSS: go test -bench PeakRSS -benchtime ${rss_runs}x ./internal/testbed/coldstart"
COLDSTART_BINARY=$bin COLDSTART_DEMO_BINARY=$demo_bin go test -run '^$' -bench PeakRSS -benchtime "${rss_runs}x" ./internal/testbed/coldstart

if [[ -x /usr/bin/time ]]; then
  echo
  echo "--- Peak RSS, second opinion: /usr/bin/time -v $demo_bin demo, median of 5"
  for _ in $(seq 5); do
    /usr/bin/time -v "$demo_bin" demo 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ { print $2 }'
  done | median | xargs -I{} awk -v k={} 'BEGIN { printf "demo: %.2f MiB\n", k / 1024 }'
fi
