package isa

// Conservative depth ("Semantics": SV_DepthGreaterEqual,
// SV_DepthLessEqual): a pixel program's SET_PROGRAM word has the output
// register of its depth plus one in bits 8..13, and in bits 14..15 how
// the output merger takes that depth: DepthOutAny (SV_Depth, as written),
// DepthOutGE (never less than the rasterized depth) or DepthOutLE (never
// greater).
const (
	DepthOutShift = 14
	DepthOutAny   = 0
	DepthOutGE    = 1
	DepthOutLE    = 2
)

// EarlyDepthStencil is the bit of a pixel program's SET_PROGRAM word that
// runs the depth and stencil tests before it ([earlydepthstencil]): it
// gets only the pixels that pass them.
const EarlyDepthStencil = 1 << 22
