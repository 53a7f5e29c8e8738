package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// The texture instructions keep their operands: the ISA's coordinate
// layouts are SM4's for every view kind ("sample (sm4 - asm)", "ld (sm4 -
// asm)"): sample reads u, then v or a 1D array's slice, then w, a 2D
// array's slice or a cube's direction z, then a cube array's slice; ld
// reads integers the same way with the mip level in w; a buffer's ld the
// element in x. The GPU's view bound at the slot (SET_VIEW) gives the
// kind, so the ISA op is the same for all of them.

// resource kinds, one bit per dxbc.ResourceDimension.
type kinds uint32

func kindsOf(dims ...dxbc.ResourceDimension) kinds {
	var k kinds
	for _, d := range dims {
		k |= 1 << d
	}
	return k
}

var (
	kindsSample = kindsOf(dxbc.DimTexture1D, dxbc.DimTexture1DArray, dxbc.DimTexture2D, dxbc.DimTexture2DArray,
		dxbc.DimTexture3D, dxbc.DimTextureCube, dxbc.DimTextureCubeArray)
	kindsCmp    = kindsSample &^ kindsOf(dxbc.DimTexture3D)
	kindsGather = kindsOf(dxbc.DimTexture2D, dxbc.DimTexture2DArray, dxbc.DimTextureCube, dxbc.DimTextureCubeArray)
	kindsLd     = kindsOf(dxbc.DimBuffer, dxbc.DimTexture1D, dxbc.DimTexture1DArray, dxbc.DimTexture2D,
		dxbc.DimTexture2DArray, dxbc.DimTexture3D)
	kindsBuffer = kindsOf(dxbc.DimBuffer, dxbc.DimRawBuffer, dxbc.DimStructuredBuffer)
)

// texForm is how one DXBC texture instruction's operands map onto its ISA
// op: the address operand, t#, s# (0: none) and the further register
// sources in the ISA's order (before: between the address and t#, as
// ld_structured's byte offset; after: following s#).
type texForm struct {
	op            shaderisa.Op
	n             int
	addr, res     int
	smp           int
	before, after []int
	kinds         kinds
}

var texForms = map[dxbc.Opcode]texForm{
	dxbc.OpSample:       {op: shaderisa.OpSample, n: 4, addr: 1, res: 2, smp: 3, kinds: kindsSample},
	dxbc.OpSampleL:      {op: shaderisa.OpSampleL, n: 5, addr: 1, res: 2, smp: 3, after: []int{4}, kinds: kindsSample},
	dxbc.OpSampleB:      {op: shaderisa.OpSampleB, n: 5, addr: 1, res: 2, smp: 3, after: []int{4}, kinds: kindsSample},
	dxbc.OpSampleD:      {op: shaderisa.OpSampleD, n: 6, addr: 1, res: 2, smp: 3, after: []int{4, 5}, kinds: kindsSample},
	dxbc.OpSampleC:      {op: shaderisa.OpSampleC, n: 5, addr: 1, res: 2, smp: 3, after: []int{4}, kinds: kindsCmp},
	dxbc.OpSampleCLZ:    {op: shaderisa.OpSampleCLZ, n: 5, addr: 1, res: 2, smp: 3, after: []int{4}, kinds: kindsCmp},
	dxbc.OpGather4:      {op: shaderisa.OpGather4, n: 4, addr: 1, res: 2, smp: 3, kinds: kindsGather},
	dxbc.OpGather4C:     {op: shaderisa.OpGather4C, n: 5, addr: 1, res: 2, smp: 3, after: []int{4}, kinds: kindsGather},
	dxbc.OpGather4PO:    {op: shaderisa.OpGather4PO, n: 5, addr: 1, res: 3, smp: 4, after: []int{2}, kinds: kindsGather},
	dxbc.OpGather4POC:   {op: shaderisa.OpGather4POC, n: 6, addr: 1, res: 3, smp: 4, after: []int{2, 5}, kinds: kindsGather},
	dxbc.OpLod:          {op: shaderisa.OpLod, n: 4, addr: 1, res: 2, smp: 3, kinds: kindsSample},
	dxbc.OpLd:           {op: shaderisa.OpLd, n: 3, addr: 1, res: 2, kinds: kindsLd},
	dxbc.OpLdRaw:        {op: shaderisa.OpLdRaw, n: 3, addr: 1, res: 2, kinds: kindsOf(dxbc.DimRawBuffer)},
	dxbc.OpLdStructured: {op: shaderisa.OpLdStructured, n: 4, addr: 1, res: 3, before: []int{2}, kinds: kindsOf(dxbc.DimStructuredBuffer)},
	dxbc.OpBufinfo:      {op: shaderisa.OpBufInfo, n: 2, res: 1, kinds: kindsBuffer},
	dxbc.OpResinfo:      {op: shaderisa.OpResInfo, n: 3, addr: 1, res: 2, kinds: kindsSample},
}

// declResource records dcl_resource (every dimension but the multisampled
// ones), dcl_resource_raw and dcl_resource_structured.
func (t *translator) declResource(in *dxbc.Instruction, o *dxbc.Operand) error {
	slot, err := t.index(o, 0)
	if err != nil || o.Type != dxbc.RegResource || slot >= shaderisa.MaxTextures {
		return t.fail("the GPU has shader resources t0..t%d", shaderisa.MaxTextures-1)
	}
	tex := Texture{Slot: slot}
	switch in.Op {
	case dxbc.OpDclResourceRaw:
		tex.Dimension = dxbc.DimRawBuffer
	case dxbc.OpDclResourceStructured:
		tex.Dimension = dxbc.DimStructuredBuffer
		if len(in.Extra) != 1 || in.Extra[0] == 0 || in.Extra[0]%4 != 0 || in.Extra[0] > 2048 {
			return t.fail("dcl_resource_structured t%d: a structure stride of 4..2048 bytes, a multiple of 4", slot)
		}
		tex.Stride = in.Extra[0]
	default:
		tex.Dimension = dxbc.ResourceDimension(in.Controls & 0x1F)
		switch tex.Dimension {
		case dxbc.DimTexture2DMS, dxbc.DimTexture2DMSArray:
			if err := t.declMS(in, &tex); err != nil {
				return err // (msaa.go)
			}
		case dxbc.DimBuffer:
		default:
			if kindsSample&kindsOf(tex.Dimension) == 0 {
				return t.fail("dcl_resource with dimension %d: not a shader resource kind", tex.Dimension)
			}
		}
		for c := range tex.Return {
			if len(in.Extra) == 0 {
				break
			}
			tex.Return[c] = dxbc.ReturnType(in.Extra[0] >> (4 * c) & 0xF)
		}
	}
	t.dims[slot] = tex.Dimension
	t.out.Textures = append(t.out.Textures, tex)
	return nil
}

// texture translates the texture instructions of texForms one for one:
// the resource operand's swizzle is the ISA t# operand's (it picks the
// result's components), aoffimmi's offsets the ISA instruction's, a
// gather's channel the sampler operand's selected component, resinfo's
// return type (float, _uint, _rcpFloat) the ISA op's.
func (t *translator) texture(in *dxbc.Instruction) error {
	form := texForms[in.Op]
	ops := in.Operands
	if len(ops) != form.n {
		return t.fail("%d operands, want %d", len(ops), form.n)
	}
	res := &ops[form.res]
	slot, err := t.index(res, 0)
	if err != nil || res.Type != dxbc.RegResource {
		return t.fail("the resource operand is not t#")
	}
	dim, ok := t.dims[slot]
	if !ok {
		return t.fail("t%d is not declared", slot)
	}
	if dim == dxbc.DimTexture2DMS || dim == dxbc.DimTexture2DMSArray {
		return t.textureMS(in, slot) // (msaa.go)
	}
	if form.kinds&kindsOf(dim) == 0 {
		return t.fail("%s of t%d, a %s resource: %s", in.Op, slot, dim, wrongKind(in.Op))
	}
	x := shaderisa.Inst{Op: form.op, Sat: in.Saturate()}
	if x.Offset, err = t.offsets(in); err != nil {
		return err
	}
	tex := shaderisa.T(slot)
	if tex.Swizzle, err = t.swizzle(res); err != nil {
		return err
	}
	dst, ok, err := t.dst(&ops[0])
	if err != nil || !ok {
		return err
	}
	x.Dst = dst
	if form.addr > 0 {
		a, err := t.src(&ops[form.addr])
		if err != nil {
			return err
		}
		x.Src = append(x.Src, a)
	}
	for _, k := range form.before {
		o, err := t.src(&ops[k])
		if err != nil {
			return err
		}
		x.Src = append(x.Src, o)
	}
	x.Src = append(x.Src, tex)
	if form.smp > 0 {
		smp := &ops[form.smp]
		s, err := t.index(smp, 0)
		if err != nil || smp.Type != dxbc.RegSampler || !t.samps[s] {
			return t.fail("the sampler operand is not a declared s#")
		}
		x.Src = append(x.Src, shaderisa.S(s))
		if form.op.TakesChannel() && smp.Components == 4 && smp.Mode != dxbc.SelectMask {
			// gather4's sampler s#.x/.y/.z/.w: GatherRed .. GatherAlpha.
			x.Channel = smp.Swiz[0] & 3
		}
	}
	for _, k := range form.after {
		o, err := t.src(&ops[k])
		if err != nil {
			return err
		}
		x.Src = append(x.Src, o)
	}
	switch in.Op {
	case dxbc.OpResinfo:
		// The mip level is an unsigned integer: the ISA takes it bare.
		if x.Src[0].Neg || x.Src[0].Abs {
			return t.fail("a modifier on resinfo's mip level")
		}
		switch in.Controls & 3 {
		case dxbc.ResinfoFloat:
		case dxbc.ResinfoRcpFloat:
			x.Op = shaderisa.OpResInfoRcp
		case dxbc.ResinfoUint:
			x.Op = shaderisa.OpResInfoUint
			if x.Sat {
				return t.fail("resinfo_uint with _sat")
			}
		default:
			return t.fail("resinfo with return type %d", in.Controls&3)
		}
	case dxbc.OpSample, dxbc.OpSampleB, dxbc.OpSampleC, dxbc.OpLod:
		if t.out.Stage != shaderisa.StagePixel {
			return t.fail("%s (implicit derivatives) in a vertex shader", in.Op)
		}
	}
	t.emit(x)
	return nil
}

// wrongKind says which resources an instruction reads.
func wrongKind(op dxbc.Opcode) string {
	switch op {
	case dxbc.OpLdRaw:
		return "ld_raw reads ByteAddressBuffers (dcl_resource_raw)"
	case dxbc.OpLdStructured:
		return "ld_structured reads StructuredBuffers (dcl_resource_structured)"
	case dxbc.OpBufinfo:
		return "bufinfo reads buffers"
	case dxbc.OpLd:
		return "ld reads buffers and 1D, 2D and 3D textures and arrays"
	case dxbc.OpGather4, dxbc.OpGather4C, dxbc.OpGather4PO, dxbc.OpGather4POC:
		return "gather reads 2D and cube textures and arrays"
	case dxbc.OpResinfo:
		return "resinfo reads textures; buffers have bufinfo"
	case dxbc.OpSampleC, dxbc.OpSampleCLZ:
		return "comparison sampling reads 1D, 2D and cube textures and arrays"
	}
	return "it reads textures, not buffers"
}

// offsets is aoffimmi's (u, v, w) of an instruction's sample-controls
// extended token: only the ops that take offsets may have non-zero ones.
func (t *translator) offsets(in *dxbc.Instruction) ([3]int8, error) {
	var off [3]int8
	for _, e := range in.Extended {
		if e&0x3F != 1 {
			continue
		}
		for k := range off {
			off[k] = int8(int32(e<<(28-9-4*k)) >> 28)
		}
	}
	if off != [3]int8{} && !texForms[in.Op].op.TakesOffset() {
		return off, t.fail("%s with immediate texel offsets (aoffimmi)", in.Op)
	}
	return off, nil
}

// sampleInfo translates sampleinfo and samplepos. The GPU renders and
// samples at one sample and has no multisampled resource, so their
// answers are constants ("sampleinfo (sm4.1 - asm)", "samplepos (sm4.1 -
// asm)"): the rasterizer's sample count is 1 (x, the others 0, through
// the operand's swizzle), and every sample position (0, 0) -- the one
// sample at the pixel's centre, 0 for an index past it.
func (t *translator) sampleInfo(in *dxbc.Instruction) error {
	want := map[dxbc.Opcode]int{dxbc.OpSampleInfo: 2, dxbc.OpSamplePos: 3}[in.Op]
	ops := in.Operands
	if len(ops) != want {
		return t.fail("%d operands, want %d", len(ops), want)
	}
	if ops[1].Type == dxbc.RegResource {
		return t.sampleInfoMS(in) // (msaa.go)
	}
	if ops[1].Type != dxbc.RegRasterizer {
		return t.fail("%s of a %v operand", in.Op, ops[1].Type)
	}
	if t.out.Stage == shaderisa.StagePixel {
		return t.sampleInfoRast(in) // the render target's count (msaa.go)
	}
	dst, ok, err := t.dst(&ops[0])
	if err != nil || !ok {
		return err
	}
	var v [4]uint32
	if in.Op == dxbc.OpSampleInfo {
		one := uint32(0x3F800000) // 1.0
		if in.Controls&1 != 0 {   // _uint
			one = 1
		}
		swz, err := t.swizzle(&ops[1])
		if err != nil && ops[1].Components != 0 {
			return err
		}
		if ops[1].Components == 0 {
			swz = shaderisa.Identity
		}
		for k := range v {
			if swz[k] == 0 {
				v[k] = one
			}
		}
	} else if _, err := t.src(&ops[2]); err != nil {
		return err
	}
	t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Sat: in.Saturate(), Dst: dst, Src: []shaderisa.Operand{shaderisa.L(v[0], v[1], v[2], v[3])}})
	return nil
}
