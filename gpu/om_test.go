package gpu

import (
	"encoding/binary"
	"math"
	"testing"

	"d3dsim/gpu/isa"
	tfmt "d3dsim/gpu/texel"
)

// omProgram binds a pixel program (assembled) with sysReg.
func (r *rig) omProgram(b *isa.Builder, src string, sys uint32) {
	a, n := r.program(src)
	b.SetProgram(isa.StagePS, a, n, sys)
}

// consts binds float constants to PS cb0.
func (r *rig) consts(b *isa.Builder, vs ...float32) {
	b.SetCB(isa.StagePS, 0, r.buffer(f32bytes(vs...)), uint32(4*len(vs)))
}

// quad draws a full-target quad, whatever pixel program is bound.
func (r *rig) quad(b *isa.Builder, t target) {
	w := [4]float32{1, 1, 1, 1}
	data := vbytes(pxv(0, 0, t.w, t.h, w), pxv(float32(t.w), 0, t.w, t.h, w), pxv(0, float32(t.h), t.w, t.h, w),
		pxv(float32(t.w), 0, t.w, t.h, w), pxv(float32(t.w), float32(t.h), t.w, t.h, w), pxv(0, float32(t.h), t.w, t.h, w))
	b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
	b.Draw(6, 0)
}

func f4(t *testing.T, r *rig, tg target, x, y int) [4]float32 {
	t.Helper()
	return floats(tfmt.Decode(tg.fmt, r.texelAt(tg, x, y)))
}

// TestMultipleRenderTargets: o0..o3 go to render targets 0..3 of different
// formats, each with its own blend (SET_BLEND sets every target,
// SET_BLEND_RT one), and a target past the program's outputs keeps its
// contents.
func TestMultipleRenderTargets(t *testing.T) {
	r := newRig(t)
	rt := []target{r.fmtTarget(4, 4, isa.FmtRGBA8), r.fmtTarget(4, 4, isa.FmtRGBA32F), r.fmtTarget(4, 4, isa.FmtRG16F), r.fmtTarget(4, 4, isa.FmtR32F), r.fmtTarget(4, 4, isa.FmtRGBA8)}
	b := r.scene(rt[0], "ps_solid", nil)
	for i, tg := range rt {
		tg.clear(b, [4]float32{0.5, 0.5, 0.5, 0.5})
		if i > 0 {
			b.SetRTSlot(uint32(i), tg.addr, 4, 4, uint32(tg.pitch), tg.fmt)
		}
	}
	r.omProgram(b, `ps inputs=1 outputs=4
mov o0, cb0[0]
mov o1, cb0[1]
mov o2, cb0[2]
mov o3, cb0[3]`, isa.NoReg)
	r.consts(b, 1, 0, 0, 1, 2, 3, 4, 5, 0.25, -1, 0, 0, 7, 0, 0, 0)
	// target 1 adds, target 2 writes green only
	b.SetBlendRT(1, true, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, 0xF)
	b.SetBlendRT(2, false, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, 0x2)
	r.quad(b, rt[0])
	r.mustExec(b)
	for i, want := range [][4]float32{{1, 0, 0, 1}, {2.5, 3.5, 4.5, 5.5}, {0.5, -1, 0, 1}, {7, 0, 0, 1}, {0.5019608, 0.5019608, 0.5019608, 0.5019608}} {
		if got := f4(t, r, rt[i], 2, 1); got != want {
			t.Errorf("target %d (%v): %v, want %v", i, rt[i].fmt, got, want)
		}
	}
}

// TestBlendFactorsAndDualSource blends with the blend factor and the
// pixel program's second output (SRC1), and checks the sample mask and
// alpha-to-coverage at one sample.
func TestBlendFactorsAndDualSource(t *testing.T) {
	r := newRig(t)
	prog := "ps inputs=1 outputs=2\nmov o0, cb0[0]\nmov o1, cb0[1]"
	for _, c := range []struct {
		name                 string
		src, dst, srcA, dstA uint32
		bf                   [4]float32
		mask, flags          uint32
		o0, o1               [4]float32
		want                 [4]float32
	}{
		{"blend factor", isa.BlendFactor, isa.BlendInvFactor, isa.BlendFactor, isa.BlendInvFactor, [4]float32{0.25, 0.5, 1, 0}, ^uint32(0), 0,
			[4]float32{4, 4, 4, 4}, [4]float32{}, [4]float32{0.25*4 + 0.75*2, 0.5*4 + 0.5*2, 4, 2}},
		{"dual source", isa.BlendSrc1Color, isa.BlendInvSrc1Alpha, isa.BlendSrc1Alpha, isa.BlendZero, [4]float32{1, 1, 1, 1}, ^uint32(0), 0,
			[4]float32{1, 2, 3, 4}, [4]float32{0.5, 0.25, 2, 0.75}, [4]float32{1*0.5 + 2*0.25, 2*0.25 + 2*0.25, 3*2 + 2*0.25, 4 * 0.75}},
		{"alpha saturate", isa.BlendSrcAlphaSat, isa.BlendZero, isa.BlendSrcAlphaSat, isa.BlendZero, [4]float32{1, 1, 1, 1}, ^uint32(0), 0,
			// f = min(As, 1 - Ad) = min(0.5, 1 - 2): a float target is not clamped
			[4]float32{2, 2, 2, 0.5}, [4]float32{}, [4]float32{-2, -2, -2, 0.5}},
		{"sample mask bit 0 clear", isa.BlendOne, isa.BlendZero, isa.BlendOne, isa.BlendZero, [4]float32{1, 1, 1, 1}, 0xFFFFFFFE, 0,
			[4]float32{9, 9, 9, 9}, [4]float32{}, [4]float32{2, 2, 2, 2}},
		{"alpha to coverage, alpha 0.4", isa.BlendOne, isa.BlendZero, isa.BlendOne, isa.BlendZero, [4]float32{1, 1, 1, 1}, ^uint32(0), isa.BlendAlphaToCoverage,
			[4]float32{9, 9, 9, 0.4}, [4]float32{}, [4]float32{2, 2, 2, 2}},
		{"alpha to coverage, alpha 0.5", isa.BlendOne, isa.BlendZero, isa.BlendOne, isa.BlendZero, [4]float32{1, 1, 1, 1}, ^uint32(0), isa.BlendAlphaToCoverage,
			[4]float32{9, 9, 9, 0.5}, [4]float32{}, [4]float32{9, 9, 9, 0.5}},
	} {
		tg := r.fmtTarget(4, 4, isa.FmtRGBA32F)
		b := r.scene(tg, "ps_solid", nil)
		tg.clear(b, [4]float32{2, 2, 2, 2})
		r.omProgram(b, prog, isa.NoReg)
		r.consts(b, c.o0[0], c.o0[1], c.o0[2], c.o0[3], c.o1[0], c.o1[1], c.o1[2], c.o1[3])
		b.SetBlend(true, c.src, c.dst, isa.BlendOpAdd, c.srcA, c.dstA, isa.BlendOpAdd, 0xF)
		b.SetBlendFactor(c.bf, c.mask, c.flags)
		r.quad(b, tg)
		r.mustExec(b)
		if got := f4(t, r, tg, 1, 1); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestStencil draws a quad that sets the stencil where it lands, then one
// that passes only where the stencil equals the reference, front and back
// faces with their own operations.
func TestStencil(t *testing.T) {
	r := newRig(t)
	for _, fm := range []isa.Format{isa.FmtD24S8, isa.FmtD32FS8} {
		rt := r.fmtTarget(8, 8, isa.FmtRGBA8)
		ds := r.fmtTarget(8, 8, fm)
		b := r.scene(rt, "ps_solid", nil)
		rt.clear(b, [4]float32{0, 0, 0, 1})
		b.SetDS(ds.addr, 8, 8, uint32(ds.pitch), fm)
		b.ClearDS(ds.addr, 8, 8, uint32(ds.pitch), fm, 1)
		b.ClearStencil(ds.addr, 8, 8, uint32(ds.pitch), fm, 1)
		keep := isa.StencilFace{Fail: isa.StencilKeep, DepthFail: isa.StencilKeep, Pass: isa.StencilKeep, Func: isa.CmpAlways}
		// Pass 1: the left half writes 5 (REPLACE), depth and colour off.
		b.SetDepth(false, false, isa.CmpAlways)
		b.SetStencil(true, 0xFF, 0xFF, 5, isa.StencilFace{Fail: isa.StencilKeep, DepthFail: isa.StencilKeep, Pass: isa.StencilReplace, Func: isa.CmpAlways}, keep)
		b.SetBlend(false, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, 0)
		r.consts(b, 1, 0, 0, 1)
		half := func() {
			w := [4]float32{1, 1, 1, 1}
			data := vbytes(pxv(0, 0, 8, 8, w), pxv(4, 0, 8, 8, w), pxv(0, 8, 8, 8, w), pxv(4, 0, 8, 8, w), pxv(4, 8, 8, 8, w), pxv(0, 8, 8, 8, w))
			b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
			b.Draw(6, 0)
		}
		half()
		// Pass 2: the whole target, drawn where stencil == 5 (the left
		// half), incrementing it there, the rest keeping 1.
		b.SetBlend(false, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, 0xF)
		b.SetStencil(true, 0xFF, 0xFF, 5, isa.StencilFace{Fail: isa.StencilKeep, DepthFail: isa.StencilKeep, Pass: isa.StencilIncr, Func: isa.CmpEqual}, keep)
		r.quad(b, rt)
		r.mustExec(b)
		at := map[isa.Format]int{isa.FmtD24S8: 3, isa.FmtD32FS8: 4}[fm]
		if got, s := r.px(rt, 1, 3), r.texelAt(ds, 1, 3)[at]; got != [4]byte{255, 0, 0, 255} || s != 6 {
			t.Errorf("%v: left half %v stencil %d, want red and 6", fm, got, s)
		}
		if got, s := r.px(rt, 6, 3), r.texelAt(ds, 6, 3)[at]; got != [4]byte{0, 0, 0, 255} || s != 1 {
			t.Errorf("%v: right half %v stencil %d, want black and 1", fm, got, s)
		}
	}
	// Back faces take the back face's operations: a counter-clockwise
	// quad with cull off decrements, through a write mask of 0x0F.
	rt := r.fmtTarget(4, 4, isa.FmtRGBA8)
	ds := r.fmtTarget(4, 4, isa.FmtD24S8)
	b := r.scene(rt, "ps_solid", nil)
	b.SetDS(ds.addr, 4, 4, uint32(ds.pitch), isa.FmtD24S8)
	b.ClearStencil(ds.addr, 4, 4, uint32(ds.pitch), isa.FmtD24S8, 0x30)
	b.SetDepth(false, false, isa.CmpAlways)
	b.SetStencil(true, 0xFF, 0x0F, 0, isa.StencilFace{Fail: isa.StencilKeep, DepthFail: isa.StencilKeep, Pass: isa.StencilIncr, Func: isa.CmpAlways},
		isa.StencilFace{Fail: isa.StencilKeep, DepthFail: isa.StencilKeep, Pass: isa.StencilDecr, Func: isa.CmpAlways})
	r.consts(b, 1, 1, 1, 1)
	w := [4]float32{1, 1, 1, 1}
	data := vbytes(pxv(0, 0, 4, 4, w), pxv(0, 4, 4, 4, w), pxv(4, 0, 4, 4, w)) // counter-clockwise on the screen
	b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
	b.Draw(3, 0)
	r.mustExec(b)
	// 0x30 - 1 = 0x2F, written through 0x0F: 0x3F
	if s := r.texelAt(ds, 0, 0)[3]; s != 0x3F {
		t.Errorf("back face DECR through write mask 0x0F: stencil %#x, want 0x3f", s)
	}
}

// TestDepthOutput: a pixel program that writes SV_Depth (SET_PROGRAM's
// system-value word, bits 8..15) is tested and written with that depth,
// clamped to the viewport's range; SV_IsFrontFace (bits 16..23) reads all
// ones for a front face.
func TestDepthOutput(t *testing.T) {
	r := newRig(t)
	rt := r.fmtTarget(4, 4, isa.FmtRGBA32UI)
	ds := r.fmtTarget(4, 4, isa.FmtD32F)
	b := r.scene(rt, "ps_solid", nil)
	b.SetDS(ds.addr, 4, 4, uint32(ds.pitch), isa.FmtD32F)
	b.ClearDS(ds.addr, 4, 4, uint32(ds.pitch), isa.FmtD32F, 0.5)
	b.SetDepth(true, true, isa.CmpLess)
	// o1 is SV_Depth (register 1, +1 in bits 8..15); v1 SV_IsFrontFace.
	r.omProgram(b, `ps inputs=2 outputs=2
mov o0, v1.xxxx
mov o1, cb0[0]`, isa.NoReg|(1+1)<<8|(1+1)<<16)
	r.consts(b, 0.25, 0, 0, 0)
	r.quad(b, rt)
	r.mustExec(b)
	if d := math.Float32frombits(binary.LittleEndian.Uint32(r.texelAt(ds, 1, 1))); d != 0.25 {
		t.Errorf("depth %v, want the program's 0.25", d)
	}
	if got := tfmt.Decode(isa.FmtRGBA32UI, r.texelAt(rt, 1, 1)); got[0] != ^uint32(0) {
		t.Errorf("SV_IsFrontFace read %#x, want all ones", got[0])
	}
	// 0.75 fails LESS against 0.25: nothing written
	b = r.scene(rt, "ps_solid", nil)
	b.SetDS(ds.addr, 4, 4, uint32(ds.pitch), isa.FmtD32F)
	b.SetDepth(true, true, isa.CmpLess)
	r.omProgram(b, "ps inputs=1 outputs=2\nmov o0, l(7, 7, 7, 7)\nmov o1, cb0[0]", isa.NoReg|2<<8)
	r.consts(b, 0.75, 0, 0, 0)
	r.quad(b, rt)
	r.mustExec(b)
	if d := math.Float32frombits(binary.LittleEndian.Uint32(r.texelAt(ds, 1, 1))); d != 0.25 {
		t.Errorf("depth %v after a failing SV_Depth, want 0.25", d)
	}
}
