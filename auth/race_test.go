//go:build race

package auth

// raceEnabled reports that the race detector is on: it allocates beside
// the code under test, so the tests that count allocations leave their
// bound to the run without it (the Makefile runs them both ways).
const raceEnabled = true
