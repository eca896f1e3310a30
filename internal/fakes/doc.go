// Package fakes groups the stand-ins for the services the action talks to:
// a fake Agent Job API (fakeapi), a fake of its preview deployments
// (fakepreview), a fake GitHub (fakegithub) and the named faults the Agent
// Job API and GitHub fakes can be made to answer with (faults). They are in-process
// HTTP servers that record what they receive.
//
// Tests use them, and so does `go run . demo`, which is why they live here
// and not under internal/testbed, which holds what tests alone use: the
// product's code imports nothing from there. A release build (-tags
// nodemo) has no demo and links none of these.
package fakes
