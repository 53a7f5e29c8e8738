package gpu

import (
	"encoding/binary"
	"testing"

	"d3dsim/gpu/isa"
	tfmt "d3dsim/gpu/texel"
)

// quadBytes is a full-target quad of the built-in vertex (two triangles).
func quadBytes(t target) []byte {
	w := [4]float32{1, 1, 1, 1}
	return vbytes(pxv(0, 0, t.w, t.h, w), pxv(float32(t.w), 0, t.w, t.h, w), pxv(0, float32(t.h), t.w, t.h, w),
		pxv(float32(t.w), 0, t.w, t.h, w), pxv(float32(t.w), float32(t.h), t.w, t.h, w), pxv(0, float32(t.h), t.w, t.h, w))
}

// u32bytes is little-endian words.
func u32bytes(ws ...uint32) []byte {
	var b []byte
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

// TestVertexStageTextures: the vertex program reads its own stage's
// textures and samplers (SET_TEX_STAGE, SET_SAMPLER_STAGE), not the pixel
// stage's in the same slots (SET_TEX, SET_SAMPLER); slot 127 is a slot;
// a stage without programs on this GPU faults.
func TestVertexStageTextures(t *testing.T) {
	r := newRig(t)
	// A 2x1 texture: red, green. The vertex stage's is at t5, the pixel
	// stage's t5 is blue.
	vtex := r.fmtTarget(2, 1, isa.FmtRGBA8)
	copy(r.mem(vtex.addr, 8), []byte{255, 0, 0, 255, 0, 255, 0, 255})
	ptex := r.fmtTarget(2, 1, isa.FmtRGBA8)
	copy(r.mem(ptex.addr, 8), []byte{0, 0, 255, 255, 0, 0, 255, 255})
	vs, vn := r.program("vs inputs=3 outputs=3\nmov o0, v0\nld o1, l(1, 0, 0, 0), t5\nsample_l o2, l(0.3, 0.5, 0, 0), t5, s3, l(0, 0, 0, 0)")
	for _, c := range []struct {
		name   string
		filter uint32
		want2  [4]float32 // o2: the sample at u 0.3
	}{
		{"point", isa.FilterPoint, [4]float32{1, 0, 0, 1}},
		{"linear", isa.FilterLinear, [4]float32{0.9, 0.1, 0, 1}},
	} {
		for _, out := range []struct {
			name string
			ps   string
			want [4]float32
		}{
			{"ld", "ps inputs=3 outputs=1\nmov o0, v1", [4]float32{0, 1, 0, 1}},
			{"sample", "ps inputs=3 outputs=1\nmov o0, v2", c.want2},
		} {
			rt := r.fmtTarget(2, 2, isa.FmtRGBA32F)
			b := r.scene(rt, "ps_solid", nil)
			b.SetProgram(isa.StageVS, vs, vn, 0)
			r.omProgram(b, out.ps, 0)
			b.SetTexStage(isa.StageVS, 5, vtex.addr, 2, 1, uint32(vtex.pitch), vtex.fmt)
			b.SetTex(5, ptex.addr, 2, 1, uint32(ptex.pitch), ptex.fmt)
			b.SetSamplerStage(isa.StageVS, 3, c.filter, isa.AddrClamp, isa.AddrClamp, 0)
			b.SetSampler(3, isa.FilterLinear, isa.AddrWrap, isa.AddrWrap, 0) // the pixel stage's: not used
			data := quadBytes(rt)
			b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
			b.Draw(6, 0)
			r.mustExec(b)
			got := f4(t, r, rt, 1, 1)
			for k := range got {
				if d := got[k] - out.want[k]; d > 1e-6 || d < -1e-6 {
					t.Errorf("%s %s: %v, want %v", c.name, out.name, got, out.want)
					break
				}
			}
		}
	}

	// t127 of the pixel stage.
	tex := r.fmtTarget(1, 1, isa.FmtR32UI)
	copy(r.mem(tex.addr, 4), u32bytes(4242))
	rt := r.fmtTarget(1, 1, isa.FmtRGBA32UI)
	b := r.scene(rt, "ps_solid", nil)
	r.omProgram(b, "ps inputs=1 outputs=1\nld o0, l(0, 0, 0, 0), t127", isa.NoReg)
	b.SetTex(127, tex.addr, 1, 1, uint32(tex.pitch), tex.fmt)
	r.solidQuad(b, rt, [4]uint32{})
	r.mustExec(b)
	if got := tfmt.Decode(isa.FmtRGBA32UI, r.texelAt(rt, 0, 0)); got != [4]uint32{4242, 0, 0, 1} {
		t.Errorf("t127: %v, want 4242 0 0 1", got)
	}

	for _, c := range []struct {
		name string
		set  func(b *isa.Builder)
		want string
	}{
		{"texture of a stage past the compute stage", func(b *isa.Builder) { b.SetTexStage(isa.StageCS+1, 0, tex.addr, 1, 1, 4, tex.fmt) }, "stage 6"},
		{"sampler of stage 7", func(b *isa.Builder) { b.SetSamplerStage(7, 0, 0, 0, 0, 0) }, "stage 7"},
		{"texture slot 128", func(b *isa.Builder) { b.SetTexStage(isa.StageVS, 128, tex.addr, 1, 1, 4, tex.fmt) }, "slot 128 outside 0..127"},
		{"sampler slot 16", func(b *isa.Builder) { b.SetSamplerStage(isa.StagePS, 16, 0, 0, 0, 0) }, "slot 16"},
		{"vertex buffer slot 32", func(b *isa.Builder) { b.SetVB(32, tex.addr, 4, 4, 0) }, "slot 32 outside 0..31"},
	} {
		b := &isa.Builder{}
		c.set(b)
		if fs := r.exec(b); !hasFault(fs, c.want) {
			t.Errorf("%s: faults %v, want one saying %q", c.name, fs, c.want)
		}
	}
}

// TestVertexSlot31AndStepRate: an element in vertex-buffer slot 31, per
// instance with step rate 2, gives instances 0 and 1 its first value and
// instances 2 and 3 its second (instance i draws into column i).
func TestVertexSlot31AndStepRate(t *testing.T) {
	r := newRig(t)
	rt := r.fmtTarget(4, 1, isa.FmtRGBA32F)
	b := r.scene(rt, "ps_solid", nil)
	l := isa.BuiltinLayout()
	l.InstanceIDReg = 4
	l.Elements = append(l.Elements, isa.VertexElement{Reg: 3, Slot: 31, Format: isa.VtxRGBA32F, PerInstance: true, StepRate: 2})
	b.SetLayout(l)
	// Column = instance: x' = x/4 - 0.75 + instance/2 (x in -1..1 of a full quad).
	vs, vn := r.program(`vs inputs=5 outputs=3 temps=1
utof r0.x, v4.x
mad r0.x, r0.x, l(0.5, 0, 0, 0), l(-0.75, 0, 0, 0)
mov o0, v0
mad o0.x, v0.x, l(0.25, 0, 0, 0), r0.x
mov o1, v3
mov o2, v2`)
	b.SetProgram(isa.StageVS, vs, vn, 0)
	r.omProgram(b, "ps inputs=2 outputs=1\nmov o0, v1", 0)
	data := quadBytes(rt)
	b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
	inst := f32bytes(1, 0, 0, 1, 0, 1, 0, 1)
	b.SetVB(31, r.buffer(inst), uint32(len(inst)), 16, 0)
	b.DrawInstanced(6, 0, 4, 0)
	r.mustExec(b)
	for x, want := range [][4]float32{{1, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}, {0, 1, 0, 1}} {
		if got := f4(t, r, rt, x, 0); got != want {
			t.Errorf("column %d: %v, want %v", x, got, want)
		}
	}
}

// TestDrawIndirect: DRAW_INDIRECT and DRAW_INDEXED_INDIRECT read their
// arguments from memory when they run (a WRITE before them in the same
// buffer changes them), in D3D11's order; arguments in no committed memory
// fault.
func TestDrawIndirect(t *testing.T) {
	r := newRig(t)
	rt := r.fmtTarget(4, 4, isa.FmtRGBA32F)
	args := r.alloc(64)
	for _, c := range []struct {
		name    string
		indexed bool
		words   []uint32
		want    [4]float32 // pixel (1, 1)
	}{
		{"draw", false, []uint32{6, 1, 0, 0}, [4]float32{1, 1, 1, 1}},
		{"no instances", false, []uint32{6, 0, 0, 0}, [4]float32{}},
		{"second triangle only", false, []uint32{3, 1, 3, 7}, [4]float32{}}, // (1, 1) is in the first
		{"indexed", true, []uint32{6, 2, 0, 0, 0}, [4]float32{1, 1, 1, 1}},
		{"indexed, base vertex 3", true, []uint32{3, 1, 0, 3, 0}, [4]float32{}},
		{"indexed, start index 3", true, []uint32{3, 1, 3, 0xFFFFFFFD, 0}, [4]float32{1, 1, 1, 1}}, // indices 3..5 + base -3: the first triangle
	} {
		b := r.scene(rt, "ps_vertexcolor", nil)
		rt.clear(b, [4]float32{})
		data := quadBytes(rt)
		b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
		b.SetIB(r.buffer(u32bytes(0, 1, 2, 3, 4, 5)), 24, 4, 0)
		b.Write(args, u32bytes(c.words...))
		if c.indexed {
			b.DrawIndexedIndirect(args)
		} else {
			b.DrawIndirect(args)
		}
		r.mustExec(b)
		if got := f4(t, r, rt, 1, 1); got != c.want {
			t.Errorf("%s: pixel %v, want %v", c.name, got, c.want)
		}
	}
	b := &isa.Builder{}
	b.DrawIndirect(0x7000_0000_0000)
	if fs := r.exec(b); !hasFault(fs, "indirect arguments") {
		t.Errorf("indirect arguments in no memory: faults %v", fs)
	}
}
