//go:build !unix && !js

package hlsl

// cpuTime is not known here.
func cpuTime() (int64, bool) { return 0, false }
