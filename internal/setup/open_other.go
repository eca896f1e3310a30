//go:build !unix

package setup

// oNonblock is 0 where opening a file cannot wait for a writer in the way
// a Unix named pipe does.
const oNonblock = 0
