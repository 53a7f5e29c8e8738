package scenario

import "d3dsim/gpu"

// GPUStats returns the simulated GPU's counters (for benchmarks).
func (r *Run) GPUStats() gpu.Stats { return r.gpu.Stats() }

// VirtualTime is the main thread's virtual time in nanoseconds.
func (r *Run) VirtualTime() int64 { return r.sim.ThreadTime("main") }
