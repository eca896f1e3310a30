// Package testbed groups what stands in for the world in tests and in the
// demo: fake Agent Job API and GitHub servers, their named fault modes, the
// golden-file helper and the cold-start benchmarks. Nothing under it is part
// of the action's own logic; the packages beside it under internal/ are.
package testbed
