package translate

import (
	"math"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// standardPositions are the standard sample positions of 1, 2 and 4
// samples ("D3D11_STANDARD_MULTISAMPLE_QUALITY_LEVELS enumeration"), in
// sixteenths of a pixel from its centre: the GPU's pattern (the
// rasterizer's own table is gpu/isa's SamplePositions, a layer this one
// does not import).
var standardPositions = map[uint32][][2]int32{1: {{0, 0}}, 2: {{4, 4}, {-4, -4}}, 4: {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}}}

// Multisampled textures (Texture2DMS<T, N>, Texture2DMS<T>). The driver
// binds one as the plain 2D texture its allocation is, the N samples of a
// pixel side by side (a texture N times as wide, isa.OpSetSamples), with
// N in the view's descriptor (SET_VIEW's kind word): the GPU's sampleinfo
// reads it. So the count a shader works with is the bound view's, as
// Direct3D 11 has it, and not the declaration's (dcl_resource_texture2dms(N),
// which fxc writes for Texture2DMS<T, N> and as 0 for Texture2DMS<T>, legal
// since shader model 4.1; the runtime's debug layer reports a declared
// count that differs from the bound view's,
// DEVICE_DRAW_RESOURCE_SAMPLE_COUNT_MISMATCH). The translator makes
//
//   - ld2dms (Texture2DMS.Load(xy, s)) an ld of texel (x*N + s, y) at
//     level 0, N read with sampleinfo, sample indices outside 0..N-1
//     reading outside the texture (zeros, as an ld out of range does);
//   - resinfo (GetDimensions) the GPU's resinfo, which divides a
//     multisampled view's width by its samples;
//   - sampleinfo of t# (GetDimensions' sample count) the GPU's sampleinfo,
//     samplepos of t# (GetSamplePosition) the standard position of the
//     sample index at that count, in pixels from the centre, (0, 0) for an
//     index past N ("samplepos": out of range, a zero vector), and 0 for
//     an unbound slot.
//
// A Texture2DMSArray is bound as the 2D array its allocation is (each
// slice's samples side by side): ld2dms reads texel (x*N + s, y) of the
// address's slice (its z), resinfo's third component is the view's
// slices.

func init() {
	// ld2dms reads a Texture2DMS or Texture2DMSArray only (textureMS lowers it).
	texForms[dxbc.OpLdMS] = texForm{op: shaderisa.OpLd, n: 4, addr: 1, res: 2, kinds: kindsOf(dxbc.DimTexture2DMS, dxbc.DimTexture2DMSArray)}
}

// declMS records a dcl_resource_texture2dms(N)'s declared count (0: none,
// Texture2DMS<T>); the GPU reads the bound view's.
func (t *translator) declMS(in *dxbc.Instruction, tex *Texture) error {
	tex.Samples = in.Controls >> 5 & 0x7F
	return nil
}

// viewSamples emits sampleinfo of t# slot into a new scratch register and
// returns its x (the bound view's samples a pixel) in every component.
func (t *translator) viewSamples(slot uint32) shaderisa.Operand {
	n := t.newScratch()
	t.emit(shaderisa.Inst{Op: shaderisa.OpSampleInfo, Dst: shaderisa.R(n), Src: []shaderisa.Operand{shaderisa.T(slot)}})
	return shaderisa.R(n).WithSwizzle("xxxx")
}

// textureMS translates ld2dms and resinfo of a Texture2DMS or
// Texture2DMSArray (the other
// texture instructions do not read one: fxc refuses them).
func (t *translator) textureMS(in *dxbc.Instruction, slot uint32) error {
	ops := in.Operands
	switch in.Op {
	case dxbc.OpLdMS:
		if len(ops) != 4 {
			return t.fail("%d operands, want 4", len(ops))
		}
		if off, err := t.offsets(in); err != nil || off != [3]int8{} {
			if err != nil {
				return err
			}
			return t.fail("ld2dms with immediate texel offsets (aoffimmi)")
		}
		dst, ok, err := t.dst(&ops[0])
		if err != nil || !ok {
			return err
		}
		addr, err := t.src(&ops[1])
		if err != nil {
			return err
		}
		s, err := t.src(&ops[3])
		if err != nil {
			return err
		}
		tex := shaderisa.T(slot)
		if tex.Swizzle, err = t.swizzle(&ops[2]); err != nil {
			return err
		}
		// a.xy = (x*N + s, y), a.z the slice (an array's), a.w = 0
		// (level 0); a.x = -1 (outside) unless s < N.
		n := t.viewSamples(slot)
		a, ok2 := t.newScratch(), t.newScratch()
		sx := s
		sx.Swizzle = [4]uint8{s.Swizzle[0], s.Swizzle[0], s.Swizzle[0], s.Swizzle[0]}
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: shaderisa.R(a), Src: []shaderisa.Operand{addr}})
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: mask(shaderisa.R(a), 8), Src: []shaderisa.Operand{shaderisa.L(0, 0, 0, 0)}})
		t.emit(shaderisa.Inst{Op: shaderisa.OpIMul, Dst: mask(shaderisa.R(a), 1), Src: []shaderisa.Operand{shaderisa.R(a), n}})
		t.emit(shaderisa.Inst{Op: shaderisa.OpIAdd, Dst: mask(shaderisa.R(a), 1), Src: []shaderisa.Operand{shaderisa.R(a), sx}})
		t.emit(shaderisa.Inst{Op: shaderisa.OpULt, Dst: mask(shaderisa.R(ok2), 1), Src: []shaderisa.Operand{sx, n}})
		t.emit(shaderisa.Inst{Op: shaderisa.OpMovc, Dst: mask(shaderisa.R(a), 1),
			Src: []shaderisa.Operand{shaderisa.R(ok2), shaderisa.R(a), shaderisa.L(math.MaxUint32, 0, 0, 0)}})
		t.emit(shaderisa.Inst{Op: shaderisa.OpLd, Sat: in.Saturate(), Dst: dst, Src: []shaderisa.Operand{shaderisa.R(a), tex}})
		return nil
	case dxbc.OpResinfo:
		if len(ops) != 3 {
			return t.fail("%d operands, want 3", len(ops))
		}
		dst, ok, err := t.dst(&ops[0])
		if err != nil || !ok {
			return err
		}
		mip, err := t.src(&ops[1])
		if err != nil {
			return err
		}
		if mip.Neg || mip.Abs {
			return t.fail("a modifier on resinfo's mip level")
		}
		tex := shaderisa.T(slot) // the whole result, swizzled at the move
		swz, err := t.swizzle(&ops[2])
		if err != nil {
			return err
		}
		r := t.newScratch()
		op := shaderisa.OpResInfo
		switch in.Controls & 3 {
		case dxbc.ResinfoFloat:
		case dxbc.ResinfoRcpFloat:
			op = shaderisa.OpResInfoRcp
		case dxbc.ResinfoUint:
			if in.Saturate() {
				return t.fail("resinfo_uint with _sat")
			}
			op = shaderisa.OpResInfoUint
		default:
			return t.fail("resinfo with return type %d", in.Controls&3)
		}
		// (The GPU's resinfo gives a multisampled view's width in pixels.)
		t.emit(shaderisa.Inst{Op: op, Dst: shaderisa.R(r), Src: []shaderisa.Operand{mip, tex}})
		src := shaderisa.R(r)
		src.Swizzle = swz
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Sat: in.Saturate(), Dst: dst, Src: []shaderisa.Operand{src}})
		return nil
	}
	return t.fail("%s of t%d, a texture2dms resource: a Texture2DMS is read with Load (ld2dms) and GetDimensions", in.Op, slot)
}

// mask is o writing the components of m only.
func mask(o shaderisa.Operand, m uint8) shaderisa.Operand {
	o.Mask = m
	return o
}

// sampleInfoMS translates sampleinfo and samplepos of a Texture2DMS: the
// bound view's count (the GPU's sampleinfo), and the standard position of
// a sample index at that count (a chain of comparisons: the index may be
// a register; rastSamplePos).
func (t *translator) sampleInfoMS(in *dxbc.Instruction) error {
	ops := in.Operands
	slot, err := t.index(&ops[1], 0)
	if err != nil {
		return err
	}
	if d, ok := t.dims[slot]; !ok || d != dxbc.DimTexture2DMS && d != dxbc.DimTexture2DMSArray {
		return t.fail("%s of t%d: not a declared Texture2DMS", in.Op, slot)
	}
	return t.sampleQuery(in, t.viewSamples(slot))
}

// sampleQuery finishes sampleinfo and samplepos whose count (of a view or
// of the rasterizer) is cnt's first component: sampleinfo the vector
// (count, 0, 0, 0), float unless _uint; samplepos the standard position
// of the sample index at that count (rastSamplePos); either through the
// source's swizzle.
func (t *translator) sampleQuery(in *dxbc.Instruction, cnt shaderisa.Operand) error {
	ops := in.Operands
	dst, ok, err := t.dst(&ops[0])
	if err != nil || !ok {
		return err
	}
	swz := shaderisa.Identity
	if ops[1].Components != 0 {
		if swz, err = t.swizzle(&ops[1]); err != nil {
			return err
		}
	}
	r := t.newScratch()
	if in.Op == dxbc.OpSampleInfo {
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: shaderisa.R(r), Src: []shaderisa.Operand{shaderisa.L(0, 0, 0, 0)}})
		op := shaderisa.OpUToF
		if in.Controls&1 != 0 { // _uint
			op = shaderisa.OpMov
		}
		t.emit(shaderisa.Inst{Op: op, Dst: mask(shaderisa.R(r), 1), Src: []shaderisa.Operand{cnt}})
	} else {
		idx, err := t.src(&ops[2])
		if err != nil {
			return err
		}
		t.rastSamplePos(r, cnt, idx, shaderisa.Identity)
	}
	src := shaderisa.R(r)
	src.Swizzle = swz
	t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Sat: in.Saturate(), Dst: dst, Src: []shaderisa.Operand{src}})
	return nil
}

// sampleInfoRast translates sampleinfo and samplepos of the rasterizer in
// a pixel shader (GetRenderTargetSampleCount, GetRenderTargetSamplePosition):
// the count is the output merger's, which the GPU gives the program in an
// input register of its own past the declared ones (SampleCountReg,
// SET_PROGRAM's bits 24..31), and a position the standard pattern's of
// that count ((0, 0) for an index past it).
func (t *translator) sampleInfoRast(in *dxbc.Instruction) error {
	reg, err := t.rastReg(in.Op.String())
	if err != nil {
		return err
	}
	cnt := shaderisa.V(reg)
	cnt.Swizzle = [4]uint8{}
	return t.sampleQuery(in, cnt)
}

// rastSamplePos writes into temp r the standard position of sample idx
// (its first component) of the render target's sample count cnt, as
// offsets from the pixel's centre in pixels, swizzled by swz ((0, 0) at
// one sample or for an index past the count).
func (t *translator) rastSamplePos(r uint32, cnt, idx shaderisa.Operand, swz [4]uint8) {
	idx.Swizzle = [4]uint8{idx.Swizzle[0], idx.Swizzle[0], idx.Swizzle[0], idx.Swizzle[0]}
	c, d := t.newScratch(), t.newScratch()
	t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: shaderisa.R(r), Src: []shaderisa.Operand{shaderisa.L(0, 0, 0, 0)}})
	for _, n := range []uint32{2, 4} { // (one sample: the centre, r's zeros)
		t.emit(shaderisa.Inst{Op: shaderisa.OpIEq, Dst: shaderisa.R(c), Src: []shaderisa.Operand{cnt, shaderisa.L(n, n, n, n)}})
		for s, p := range standardPositions[n] {
			pos := [4]float32{float32(p[0]) / 16, float32(p[1]) / 16, 0, 0}
			var out [4]float32
			for k := range out {
				out[k] = pos[swz[k]]
			}
			t.emit(shaderisa.Inst{Op: shaderisa.OpIEq, Dst: shaderisa.R(d), Src: []shaderisa.Operand{idx, shaderisa.L(uint32(s), uint32(s), uint32(s), uint32(s))}})
			t.emit(shaderisa.Inst{Op: shaderisa.OpAnd, Dst: shaderisa.R(d), Src: []shaderisa.Operand{shaderisa.R(d), shaderisa.R(c)}})
			t.emit(shaderisa.Inst{Op: shaderisa.OpMovc, Dst: shaderisa.R(r), Src: []shaderisa.Operand{shaderisa.R(d), shaderisa.LF(out[0], out[1], out[2], out[3]), shaderisa.R(r)}})
		}
	}
}

// evalSampleIndex translates eval_sample_index dst, v#, index: the input
// at sample index's position, the value at the pixel (v#) moved by the
// sample's offset along the input's fine screen-space derivatives (exact
// for an input linear on the screen; at one sample the input's value).
func (t *translator) evalSampleIndex(in *dxbc.Instruction) error {
	ops := in.Operands
	dst, ok, err := t.dst(&ops[0])
	if err != nil || !ok {
		return err
	}
	v, err := t.src(&ops[1])
	if err != nil {
		return err
	}
	idx, err := t.src(&ops[2])
	if err != nil {
		return err
	}
	reg, err := t.rastReg(in.Op.String())
	if err != nil {
		return err
	}
	cnt := shaderisa.V(reg)
	cnt.Swizzle = [4]uint8{}
	pos, dx, dy := t.newScratch(), t.newScratch(), t.newScratch()
	t.rastSamplePos(pos, cnt, idx, shaderisa.Identity)
	t.emit(shaderisa.Inst{Op: shaderisa.OpDerivXFine, Dst: shaderisa.R(dx), Src: []shaderisa.Operand{v}})
	t.emit(shaderisa.Inst{Op: shaderisa.OpDerivYFine, Dst: shaderisa.R(dy), Src: []shaderisa.Operand{v}})
	t.emit(shaderisa.Inst{Op: shaderisa.OpMad, Dst: shaderisa.R(dx), Src: []shaderisa.Operand{shaderisa.R(dx), shaderisa.R(pos).WithSwizzle("xxxx"), v}})
	t.emit(shaderisa.Inst{Op: shaderisa.OpMad, Dst: shaderisa.R(dx), Src: []shaderisa.Operand{shaderisa.R(dy), shaderisa.R(pos).WithSwizzle("yyyy"), shaderisa.R(dx)}})
	// At one sample the input itself (an infinite derivative times a
	// zero offset must not make a NaN).
	t.emit(shaderisa.Inst{Op: shaderisa.OpULt, Dst: shaderisa.R(dy), Src: []shaderisa.Operand{shaderisa.L(1, 1, 1, 1), cnt}})
	t.emit(shaderisa.Inst{Op: shaderisa.OpMovc, Sat: in.Saturate(), Dst: dst, Src: []shaderisa.Operand{shaderisa.R(dy), shaderisa.R(dx), v}})
	return nil
}
