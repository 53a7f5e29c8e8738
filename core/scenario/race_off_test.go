//go:build !race

package scenario

// raceDetector: see race_on_test.go.
const raceDetector = false
