package umd

import (
	"encoding/binary"
	"math"

	"d3dsim/core/ddi"
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shaderisa"
)

// GenerateMips as a driver does it on a GPU without a blit engine: one
// draw per level (and per array slice, per depth slice of a 3D level),
// the level as the render target, a full-screen triangle whose pixel
// program samples the level above at lod 0 with a linear filter halfway
// between its texels -- the 2x2 (2x2x2) box filter -- through a SET_VIEW
// of that one level of that one slice. The programs and their constants
// are the driver's own allocations, made at the first GenerateMips. The
// draws change the GPU's state: the application's is sent again before
// its next draw.

// blitVS is the full-screen triangle: vertex id 0, 1, 2 at (-1, -1),
// (-1, 3), (3, -1), texture coordinates (0, 1), (0, -1), (2, 1).
const blitVS = `vs inputs=1 outputs=2 temps=1
ushr r0.x, v0.xxxx, l(1, 1, 1, 1)
and r0.y, v0.xxxx, l(1, 1, 1, 1)
utof r0.xy, r0.xyxx
mad o0.xy, r0.xyxx, l(4.0, 4.0, 0, 0), l(-1.0, -1.0, 0, 0)
mov o0.zw, l(0, 0, 0, 1.0)
mad o1.xy, r0.xyxx, l(2.0, -2.0, 0, 0), l(0, 1.0, 0, 0)
mov o1.zw, l(0, 0, 0, 0)`

// blitPS samples the level above: the coordinates are (u, v) scaled and
// offset by cb0[0] and cb0[1], so that a 1D array's are (u, 0), a 2D
// array's (u, v, 0) and a 3D texture's (u, v, w).
const blitPS = `ps inputs=2 outputs=1 temps=1
mad r0, v1.xyxx, cb0[0], cb0[1]
sample_l o0, r0, t0, s0, l(0, 0, 0, 0)`

// mipBlit is the driver's GenerateMips programs and constant buffer.
type mipBlit struct {
	vs, ps, cb *resource
	vsWords    uint32
	psWords    uint32
}

const blitCBBytes = 32

// blitter makes the programs and the constant buffer at the first call.
func (d *Device) blitter() *mipBlit {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.blit != nil {
		return d.blit
	}
	alloc := func(words []uint32, n int, obj string) *resource {
		data := make([]byte, n)
		for i, w := range words {
			binary.LittleEndian.PutUint32(data[4*i:], w)
		}
		size := uint32(n)
		cb := ddi.AllocateCb{Allocations: []ddi.AllocationInfo{{Size: uint64(size), Width: size, Height: 1, Pitch: size, InitData: data, Obj: obj}}}
		if d.cb.PfnAllocateCb(d.rt, &cb) != nil {
			return nil
		}
		return &resource{args: ddi.CreateResourceArgs{Dimension: ddi.DimBuffer, Width: size, Obj: obj}, alloc: cb.Allocations[0].Allocation,
			size: uint64(size), pitch: size}
	}
	vs, err1 := shaderisa.Assemble(blitVS)
	ps, err2 := shaderisa.Assemble(blitPS)
	if err1 != nil || err2 != nil {
		panic("umd: the GenerateMips programs do not assemble") // the driver's own text
	}
	vw, pw := vs.Encode(), ps.Encode()
	b := &mipBlit{vs: alloc(vw, 4*len(vw), "GenerateMips.vs"), ps: alloc(pw, 4*len(pw), "GenerateMips.ps"),
		cb: alloc(nil, blitCBBytes, "GenerateMips.cb"), vsWords: uint32(len(vw)), psWords: uint32(len(pw))}
	if b.vs == nil || b.ps == nil || b.cb == nil {
		for _, r := range []*resource{b.vs, b.ps, b.cb} {
			if r != nil {
				d.cb.PfnDeallocateCb(d.rt, &ddi.DeallocateCb{Allocations: []ddi.HALLOCATION{r.alloc}, Obj: r.args.Obj})
			}
		}
		return nil
	}
	d.blit = b
	return b
}

// freeBlit deallocates the GenerateMips allocations (DestroyDevice).
func (d *Device) freeBlit() {
	if d.blit == nil {
		return
	}
	for _, r := range []*resource{d.blit.vs, d.blit.ps, d.blit.cb} {
		d.cb.PfnDeallocateCb(d.rt, &ddi.DeallocateCb{Allocations: []ddi.HALLOCATION{r.alloc}, Obj: r.args.Obj})
	}
	d.blit = nil
}

// generateMips draws the levels below a view's most detailed one.
func (c *context) generateMips(rec recorder, h uint32) {
	v, r := c.viewRes(h)
	if r == nil || v.kind != ddi.ViewSRV || isa.IsBuffer(viewKindOf(v)) {
		return
	}
	t := r.tex
	if t == nil || t.mips < 2 {
		return // one level: nothing below it
	}
	mip0, nmips := uint32(0), t.mips
	slice0, nslices := uint32(0), t.slices
	if v.srv != nil {
		mip0, nmips = isa.ViewRange(v.srv.mipRange)
		slice0, nslices = isa.ViewRange(v.srv.sliceRange)
	}
	bl := c.dev.blitter()
	if bl == nil {
		return
	}
	b, g := &c.cmd, &c.onGPU
	fm := v.gpu
	kind, scale := uint32(isa.ViewTex2DArray), [4]float32{1, 1, 0, 0}
	switch t.kind {
	case ddi.DimTexture1D:
		kind, scale = isa.ViewTex1DArray, [4]float32{1, 0, 0, 0}
	case ddi.DimTexture3D:
		kind = isa.ViewTex3D
	}
	depth := t.slices
	if t.kind == ddi.DimTexture3D {
		depth = t.d
	}
	for m := mip0 + 1; m < mip0+nmips; m++ {
		for s := slice0; s < slice0+nslices; s++ {
			sub := t.subs[s*t.mips+m]
			for z := range sub.D {
				rec.ensure(256, 8)
				off := sub.Offset + uint64(z)*uint64(sub.DepthPitch)
				b.SetRT(rec.ref(r, true, uint32(off)), sub.W, sub.H, sub.RowPitch, fm)
				g.rt = true
				for i := 1; i < isa.MaxRenderTargets; i++ {
					if g.rtMore&(1<<i) != 0 {
						b.SetRTSlot(uint32(i), isa.NullAddress, 0, 0, 0, 0)
					}
				}
				g.rtMore = 0
				if g.samples != 0 {
					b.SetSamples(1) // the levels have one sample (msaa.go)
					g.samples = 0
				}
				if g.ds {
					b.SetDS(isa.NullAddress, 0, 0, 0, 0)
					g.ds = false
				}
				b.SetDepth(false, false, isa.CmpAlways)
				if g.stencil {
					c.stencilOff()
				}
				b.SetRaster(isa.CullNone, false, true)
				b.SetBlend(false, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, 0xF)
				if g.om {
					b.SetBlendFactor([4]float32{1, 1, 1, 1}, ^uint32(0), 0)
					g.om = false
				}
				b.SetViewport(0, 0, float32(sub.W), float32(sub.H), 0, 1)
				b.SetTopology(isa.TopoTriangleList)
				b.SetLayout(isa.Layout{VertexIDReg: 0, InstanceIDReg: isa.NoReg})
				b.SetProgram(isa.StageVS, rec.ref(bl.vs, false, 0), bl.vsWords, 0)
				b.SetProgram(isa.StagePS, rec.ref(bl.ps, false, 0), bl.psWords, isa.NoReg)
				g.vs, g.ps = true, true
				b.SetView(0, rec.ref(r, false, 0), kind, fm, t.w, t.h, depth, t.mips, (m-1)|1<<16, s|1<<16)
				g.tex[isa.StagePS][0] |= 1
				b.SetSamplerEx(0, isa.FilterMinLinear|isa.FilterMagLinear|isa.FilterMipLinear, isa.AddrClamp, isa.AddrClamp, isa.AddrClamp, 0, 1,
					isa.CmpNever, [4]float32{}, -math.MaxFloat32, math.MaxFloat32)
				// The constants: scale, then offset (a 3D level's w at the
				// depth slice's centre).
				off4 := [4]float32{}
				if t.kind == ddi.DimTexture3D {
					off4[2] = (float32(z) + 0.5) / float32(sub.D)
				}
				var cb [blitCBBytes]byte
				for k := range 4 {
					binary.LittleEndian.PutUint32(cb[4*k:], math.Float32bits(scale[k]))
					binary.LittleEndian.PutUint32(cb[16+4*k:], math.Float32bits(off4[k]))
				}
				b.Write(rec.ref(bl.cb, true, 0), cb[:])
				b.SetCB(isa.StagePS, 0, rec.ref(bl.cb, false, 0), blitCBBytes)
				g.cb[isa.StagePS] |= 1
				b.Draw(3, 0)
			}
		}
	}
	c.st.dirty = true // the application's state goes again before its next draw
}

// viewKindOf is a view's SET_VIEW kind (a SET_TEX view's: 2D).
func viewKindOf(v *view) uint32 {
	if v.srv == nil {
		return isa.ViewTex2D
	}
	return v.srv.kind
}
