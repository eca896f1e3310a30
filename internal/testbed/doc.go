// Package testbed groups what tests alone use: the golden-file helper,
// GitHub's REST description and the preview API's, the checkers built from
// them, a reader of action.yml's scalars, the cold-start benchmarks, the
// wall-clock lag check, the step's world both harnesses build on (step),
// the named pipes that tests of a file reader need (fifo), the census that
// holds tests and assertions to a floor (census), the structure figures
// held to a ceiling (shape), and the checks of the Markdown the action writes
// (escapetest: what GitHub would link, a table row's cells).
// Nothing under it is part of the action, nor of its demo: only tests and
// the measuring scripts import it. The fake services that tests and the
// demo share are in internal/fakes.
package testbed
