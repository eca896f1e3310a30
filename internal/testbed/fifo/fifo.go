// Package fifo makes the named pipes that tests of a file reader put where
// a regular file belongs: a checkout can hold one, or a symbolic link to
// one, and opening or reading it waits for a writer for ever. Only tests
// import it; it builds on unix alone, where named pipes are.
package fifo
