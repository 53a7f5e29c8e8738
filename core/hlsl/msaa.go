package hlsl

import "d3dsim/core/dxbc"

// Multisampled textures: Texture2DMS<T, N> and Texture2DMSArray<T, N>
// keep N, the sample count, which fxc writes in dcl_resource_texture2dms(N)
// (0 when the type leaves it out, as shader model 4.1 and 5.0 allow).

// texSamples is the sample count of a texture type's spelling: the
// number after the element type of a multisampled texture (1..128), 0
// when not given; another texture takes none.
func (g *gen) texSamples(ts *typeSpec, dim TexDim) (int, bool) {
	ms := dim == Tex2DMS || dim == Tex2DMSArray
	n := 0
	if len(ts.args) > 0 {
		n = ts.args[0]
	}
	if len(ts.argExprs) > 0 && ts.argExprs[0] != nil {
		// A constant expression (static const int size = 2; size - 1).
		v := g.expr(ts.argExprs[0])
		if v == poison {
			return 0, false
		}
		if !v.t.numeric() || v.t.comps() != 1 || !allImm(v.c) {
			g.errorf(ts.argExprs[0].at(), eSyntax, "syntax error: %s's sample count must be a literal expression", dim)
			return 0, false
		}
		n = int(max(min(immInt(v.c[0], v.t.Base), 1<<20), -1))
	}
	switch {
	case len(ts.args) == 0:
		return 0, true
	case !ms || len(ts.args) > 1:
		g.errorf(ts.pos, eSyntax, "syntax error: %s takes an element type%s", dim, map[bool]string{true: " and a sample count", false: ""}[ms])
		return 0, false
	case n < 1 || n > 128:
		g.errorf(ts.pos, eSyntax, "syntax error: %s's sample count %d is outside 1..128", dim, n)
		return 0, false
	}
	return n, true
}

// dclResource declares texture t, a multisampled one with its count.
func dclResource(b *dxbc.Builder, t TexDecl) {
	if t.Samples == 0 {
		b.DclResource(uint32(t.Slot), dxbcDim[t.Dim], dxbcRet(t.Base))
		return
	}
	r := uint32(dxbcRet(t.Base)) & 0xF
	b.Declare(dxbc.Instruction{Op: dxbc.OpDclResource, Controls: uint32(dxbcDim[t.Dim]) | uint32(t.Samples)<<5,
		Operands: []dxbc.Operand{{Type: dxbc.RegResource, Indices: []dxbc.Index{{Imm: uint64(t.Slot)}}}}, Extra: []uint32{r | r<<4 | r<<8 | r<<12}})
}
