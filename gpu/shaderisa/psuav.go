package shaderisa

// PixelUAVOp reports whether op, an op of compute programs (ComputeOnly),
// is one a pixel program may use too: D3D11's pixel shaders read, write
// and run atomics on the unordered access views the output merger binds
// (ps_5_0), but have no thread groups, groupshared memory or barriers.
func PixelUAVOp(op Op) bool {
	switch op {
	case OpDclThreadGroup, OpDclTGSM, OpSync:
		return false
	}
	return op.ComputeOnly()
}
