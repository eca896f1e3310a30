// Package coldstart measures the action as whole processes: how long from
// exec to its first request, and how much memory a run takes at its peak.
// Its benchmarks build the binary as the Dockerfile does and run it against
// the fake Agent Job API; scripts/measure.sh runs them and docs/performance.md
// keeps the figures.
package coldstart
