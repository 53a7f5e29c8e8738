//go:build !linux && !darwin

package gpu

// cpuSeconds is not measured here (WebAssembly, Windows): 0.
func cpuSeconds() float64 { return 0 }
