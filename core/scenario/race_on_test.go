//go:build race

package scenario

// raceDetector says the tests run under the race detector (go test -race):
// the stress tests of real goroutines run at full size only then (make
// race); without it they are functional checks, at the -short size.
const raceDetector = true
