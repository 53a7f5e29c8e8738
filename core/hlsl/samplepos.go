package hlsl

// Sample positions and counts ("Texture2DMS.GetSamplePosition",
// "GetRenderTargetSampleCount", "GetRenderTargetSamplePosition", HLSL
// reference): samplepos of a Texture2DMS or of the rasterizer (the bound
// render target) with a sample index gives a float2, the sample's offset
// from the pixel's centre in pixels (xy; fxc's destination mask), and
// sampleinfo of the rasterizer its sample count, a uint (sampleinfo_uint).
// Both are shader model 4.1 instructions.

// FileRasterizer is the rasterizer operand of sampleinfo and samplepos:
// the bound render target (a file apart from the SM4 register files').
const FileRasterizer File = 32

// samplePos lowers GetSamplePosition(s) of the texture or rasterizer src
// (nil args[0]: no argument) to samplepos.
func (g *gen) samplePos(e *callExpr, args []*value, src Operand) *value {
	if len(args) != 1 {
		g.errorf(e.pos, eNoOverload, "'%s': no matching %d parameter intrinsic", e.name, len(args))
		return poison
	}
	if !g.sm41(e) {
		return poison
	}
	idx := g.convert(e.args[0].at(), args[0], scalarT(Int), true)
	if idx == poison {
		return poison
	}
	r := g.alloc()
	src.Swz = [4]uint8{0, 1, 0, 0}
	g.emit(Instr{Op: OpSamplePos, Dst: []Operand{{File: FileTemp, Index: r, Mask: 3}}, Src: []Operand{src, g.srcOp(idx.c)}})
	return &value{t: vecT(Float, 2), c: regComps(FileTemp, r, 2), ro: true}
}

// rastSampleCount lowers GetRenderTargetSampleCount() to
// sampleinfo_uint of the rasterizer.
func (g *gen) rastSampleCount(e *callExpr, args []*value) *value {
	if len(args) != 0 {
		g.errorf(e.pos, eNoOverload, "'%s': no matching %d parameter intrinsic function", e.name, len(args))
		return poison
	}
	if !g.sm41(e) {
		return poison
	}
	r := g.alloc()
	g.emit(Instr{Op: OpSampleInfo, Uint: true, Dst: []Operand{{File: FileTemp, Index: r, Mask: 1}}, Src: []Operand{{File: FileRasterizer}}})
	return &value{t: scalarT(Uint), c: regComps(FileTemp, r, 1), ro: true}
}

// sm41 refuses shader model 4.0, which has neither instruction.
func (g *gen) sm41(e *callExpr) bool {
	if g.major < 4 || g.major == 4 && g.minor < 1 {
		g.errorf(e.pos, eNotImplemented, "'%s' requires shader model 4.1 or higher", e.name)
		return false
	}
	return true
}
