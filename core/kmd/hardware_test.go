package kmd

import "d3dsim/gpu"

// The simulated GPU is the hardware the driver is written for.
var _ Hardware = (*gpu.GPU)(nil)
