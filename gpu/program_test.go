package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shaderisa"
	"encoding/binary"
	"strings"
	"testing"
)

// program assembles src into memory: its address and size in words.
func (r *rig) program(src string) (uint64, uint32) {
	r.t.Helper()
	p, err := shaderisa.Assemble(src)
	if err != nil {
		r.t.Fatal(err)
	}
	return r.buffer(progBytes(p.Encode())), uint32(len(p.Encode()))
}

func progBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// isaScene is scene with programs from memory: vs and ps (assembly) bound
// with SET_PROGRAM, the built-in vertex's layout.
func (r *rig) isaScene(t target, vs, ps string, verts []vtx) *isa.Builder {
	b := r.scene(t, "", verts)
	b.SetLayout(isa.BuiltinLayout())
	a, n := r.program(vs)
	b.SetProgram(isa.StageVS, a, n, 0)
	if ps != "" {
		a, n = r.program(ps)
		b.SetProgram(isa.StagePS, a, n, 0)
	}
	return b
}

const vsPass = "vs inputs=3 outputs=3\nmov o0, v0\nmov o1, v1\nmov o2, v2"

// Bad programs and bindings fault the draw (never a panic) with a reason
// that says what was wrong.
func TestProgramFaults(t *testing.T) {
	quad := quadVerts(0, 0, 16, 16, 16, 16, white)
	tests := []struct {
		name  string
		build func(r *rig, rt target) *isa.Builder
		want  string
	}{
		{"garbage words", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, vsPass, "", quad)
			b.SetProgram(isa.StagePS, r.buffer(progBytes([]uint32{1, 2, 3, 4, 5})), 5, isa.NoReg)
			b.Draw(6, 0)
			return b
		}, "pixel program: shader:"},
		{"program past its memory", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, vsPass, "", quad)
			b.SetProgram(isa.StageVS, r.buffer(make([]byte, 16)), 1<<12, 0)
			return b
		}, "page fault: program"},
		{"too many words", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, vsPass, "", quad)
			b.SetProgram(isa.StageVS, 0x1000, maxProgramWords+1, 0)
			return b
		}, "words outside"},
		{"pixel program on the vertex stage", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, "ps inputs=2 outputs=1\nmov o0, v1", "", quad)
			b.Draw(6, 0)
			return b
		}, "vertex program is a"},
		{"step limit", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, vsPass, BuiltinSource("ps_fault"), quad)
			b.Draw(6, 0)
			return b
		}, "step limit"},
		{"vertex step limit", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, "vs inputs=1 outputs=1\nloop\nendloop\nmov o0, v0", "", quad)
			b.Draw(6, 0)
			return b
		}, "vertex program: shader: instruction"},
		{"geometry step limit", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, vsPass, "", quad)
			a, n := r.program("gs inputs=11 outputs=1\ndcl_gs l(259, 5, 3, 3)\nloop\nendloop\nmov o0, v0\nemit\nret")
			b.SetProgram(isa.StageGS, a, n, 0)
			b.Draw(6, 0)
			return b
		}, "geometry program: shader: instruction"},
		{"pixel program, vertex program unbound", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, vsPass, "ps inputs=2 outputs=1\nmov o0, v1", quad)
			b.SetProgram(isa.StageVS, 0, 0, 0)
			b.Draw(6, 0)
			return b
		}, "no vertex program"},
		{"the old SET_SHADER opcode", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, vsPass, "ps inputs=2 outputs=1\nmov o0, v1", quad)
			b.Words = append(b.Words, 0x08<<24|2, isa.StagePS, 1)
			b.Draw(6, 0)
			return b
		}, "unknown opcode 0x08"},
		{"position register", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, vsPass, "", quad)
			a, n := r.program(vsPass)
			b.SetProgram(isa.StageVS, a, n, 7)
			b.Draw(6, 0)
			return b
		}, "SV_Position in o7"},
		{"bad layout", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, vsPass, "", quad)
			b.Words = append(b.Words, uint32(isa.OpSetLayout)<<24|4, 0xFFFF, 99<<16, 0, 0)
			return b
		}, "vertex format 99"},
		{"constant buffer slot", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, vsPass, "ps inputs=1 outputs=1\nmov o0, cb13[0]", quad)
			b.Draw(6, 0)
			return b
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			rt := r.target(16, 16, isa.FmtRGBA8)
			fs := r.exec(tc.build(r, rt))
			if tc.want == "" {
				if len(fs) != 0 {
					t.Errorf("faults %v, want none", fs)
				}
				return
			}
			if !hasFault(fs, tc.want) {
				t.Errorf("faults %v, want one with %q", fs, tc.want)
			}
		})
	}
}

// The GPU sees a program rewritten in place, within a buffer (WRITE) and
// across buffers: its cache is keyed by the words, not the address.
func TestProgramRewritten(t *testing.T) {
	r := newRig(t)
	rt := r.target(8, 8, isa.FmtRGBA8)
	red, _ := shaderisa.Assemble("ps inputs=1 outputs=1\nmov o0, l(1.0, 0.0, 0.0, 1.0)")
	green, _ := shaderisa.Assemble("ps inputs=1 outputs=1\nmov o0, l(0.0, 1.0, 0.0, 1.0)")
	blue, _ := shaderisa.Assemble("ps inputs=1 outputs=1\nmov o0, l(0.0, 0.0, 1.0, 1.0)")
	if len(red.Encode()) != len(green.Encode()) || len(red.Encode()) != len(blue.Encode()) {
		t.Fatal("the programs should be the same size")
	}
	addr := r.buffer(progBytes(red.Encode()))
	n := uint32(len(red.Encode()))
	b := r.isaScene(rt, vsPass, "", quadVerts(0, 0, 8, 8, 8, 8, white))
	b.SetProgram(isa.StagePS, addr, n, isa.NoReg)
	b.Draw(6, 0)
	r.mustExec(b)
	if got := r.px(rt, 3, 3); got != [4]byte{255, 0, 0, 255} {
		t.Fatalf("first draw %v, want red", got)
	}
	b = r.isaScene(rt, vsPass, "", quadVerts(0, 0, 8, 8, 8, 8, white))
	b.SetProgram(isa.StagePS, addr, n, isa.NoReg)
	b.Write(addr, progBytes(green.Encode()))
	b.Draw(6, 0)
	r.mustExec(b)
	if got := r.px(rt, 3, 3); got != [4]byte{0, 255, 0, 255} {
		t.Fatalf("after a WRITE %v, want green", got)
	}
	copy(r.mem(addr, 4*int(n)), progBytes(blue.Encode()))
	b = r.isaScene(rt, vsPass, "", quadVerts(0, 0, 8, 8, 8, 8, white))
	b.SetProgram(isa.StagePS, addr, n, isa.NoReg)
	b.Draw(6, 0)
	r.mustExec(b)
	if got := r.px(rt, 3, 3); got != [4]byte{0, 0, 255, 255} {
		t.Fatalf("after a rewrite %v, want blue", got)
	}
}

// The fetch descriptor: an RGBA8 element from another slot, SV_VertexID,
// per-instance data; and the pixel stage's SV_Position and discard.
func TestLayoutAndSystemValues(t *testing.T) {
	tests := []struct {
		name   string
		layout isa.Layout
		vs, ps string
		draw   func(b *isa.Builder)
		at     [2]int
		want   [4]byte
	}{
		{"rgba8 from slot 1", isa.Layout{VertexIDReg: isa.NoReg, InstanceIDReg: isa.NoReg, Elements: []isa.VertexElement{
			{Reg: 0, Format: isa.VtxRGB32F}, {Reg: 1, Slot: 1, Format: isa.VtxRGBA8, Offset: 4},
		}}, "vs inputs=2 outputs=2\nmov o0, v0\nmov o1, v1", "ps inputs=2 outputs=1\nmov o0, v1",
			func(b *isa.Builder) { b.Draw(6, 0) }, [2]int{5, 5}, [4]byte{0x40, 0x80, 0xC0, 0xFF}},
		{"per-instance colour", isa.Layout{VertexIDReg: isa.NoReg, InstanceIDReg: isa.NoReg, Elements: []isa.VertexElement{
			{Reg: 0, Format: isa.VtxRGB32F}, {Reg: 1, Slot: 1, Format: isa.VtxBGRA8, Offset: 0, PerInstance: true, StepRate: 1},
		}}, "vs inputs=2 outputs=2\nmov o0, v0\nmov o1, v1", "ps inputs=2 outputs=1\nmov o0, v1",
			func(b *isa.Builder) { b.Draw(6, 0) }, [2]int{5, 5}, [4]byte{0x30, 0x20, 0x10, 0x00}},
		{"SV_VertexID", isa.Layout{VertexIDReg: 1, InstanceIDReg: isa.NoReg, Elements: []isa.VertexElement{
			{Reg: 0, Format: isa.VtxRGB32F},
		}}, "vs inputs=2 outputs=2 temps=1\nutof r0, v1.xxxx\nmul o1, r0, l(0.25, 0.5, 0.0, 1.0)\nmov o0, v0", "ps inputs=2 outputs=1\nmov_sat o0, v1",
			func(b *isa.Builder) { b.SetTopology(isa.TopoPointList); b.Draw(1, 2) }, [2]int{8, 8}, [4]byte{128, 255, 0, 255}},
		{"SV_Position and discard", isa.BuiltinLayout(), vsPass,
			"ps inputs=2 outputs=1 temps=1\nlt r0.x, v0.x, l(8.0, 0.0, 0.0, 0.0)\ndiscard_nz r0.x\nmov o0, l(0.0, 1.0, 0.0, 1.0)",
			func(b *isa.Builder) { b.Draw(6, 0) }, [2]int{7, 3}, [4]byte{0, 0, 0, 0}},
		{"discard: the pixel right of it", isa.BuiltinLayout(), vsPass,
			"ps inputs=2 outputs=1 temps=1\nlt r0.x, v0.x, l(8.0, 0.0, 0.0, 0.0)\ndiscard_nz r0.x\nmov o0, l(0.0, 1.0, 0.0, 1.0)",
			func(b *isa.Builder) { b.Draw(6, 0) }, [2]int{8, 3}, [4]byte{0, 255, 0, 255}},
		{"SV_Position: kept", isa.BuiltinLayout(), vsPass,
			"ps inputs=2 outputs=1 temps=1\nlt r0.x, v0.x, l(8.0, 0.0, 0.0, 0.0)\ndiscard_nz r0.x\nmul o0, v0.xyxy, l(0.0625, 0.0625, 0.0, 0.0)",
			func(b *isa.Builder) { b.Draw(6, 0) }, [2]int{11, 3}, [4]byte{183, 56, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			rt := r.target(16, 16, isa.FmtRGBA8)
			var verts []vtx
			if strings.Contains(tc.name, "VertexID") {
				// Point 2 (the one drawn) at the centre of pixel (8, 8).
				verts = []vtx{{}, {}, pxv(8.5, 8.5, 16, 16, white)}
			} else {
				verts = quadVerts(0, 0, 16, 16, 16, 16, white)
			}
			b := r.scene(rt, "", verts)
			rt.clear(b, [4]float32{})
			b.SetVB(1, r.buffer([]byte{0x10, 0x20, 0x30, 0x00, 0x40, 0x80, 0xC0, 0xFF}), 8, 0, 0)
			b.SetLayout(tc.layout)
			a, n := r.program(tc.vs)
			b.SetProgram(isa.StageVS, a, n, 0)
			a, n = r.program(tc.ps)
			b.SetProgram(isa.StagePS, a, n, 0)
			tc.draw(b)
			r.mustExec(b)
			if got := r.px(rt, tc.at[0], tc.at[1]); got != tc.want {
				t.Errorf("pixel %v = %v, want %v", tc.at, got, tc.want)
			}
		})
	}
}

// shadedPS is a pixel program the built-in ones cannot express: texture ×
// vertex colour, dimmed by a sine of the pixel's x, with discard.
const shadedPS = `ps inputs=3 outputs=1 temps=2
sample r0, v2.xyxx, t0, s0
mul r0, r0, v1
mul r1.x, v0.x, l(0.2, 0.0, 0.0, 0.0)
sin r1.x, r1.x
mad r1.x, r1.x, l(0.25, 0.0, 0.0, 0.0), l(0.75, 0.0, 0.0, 0.0)
mul o0.xyz, r0.xyzx, r1.xxxx
mov o0.w, r0.w
lt r1.y, r0.x, l(0.05, 0.0, 0.0, 0.0)
discard_nz r1.y`

// TestGoldenISAShaded: the perspective cube of "cube" with the ISA vertex
// transform and shadedPS, a golden image of its own
// (testdata/isa-shaded.*). Its hash is checked natively and in
// WebAssembly (make test-wasm): the shader ISA draws the same bits on both.
func TestGoldenISAShaded(t *testing.T) {
	const w, h = 128, 96
	r := newRig(t)
	rt := r.target(w, h, isa.FmtRGBA8)
	b := &isa.Builder{}
	rt.set(b)
	rt.clear(b, [4]float32{0.1, 0.1, 0.12, 1})
	b.SetViewport(0, 0, w, h, 0, 1)
	ds := r.target(w, h, isa.FmtD32F)
	ds.setDS(b)
	b.ClearDS(ds.addr, w, h, uint32(ds.pitch), isa.FmtD32F, 1)
	b.SetRaster(isa.CullBack, false, true)
	m := mul(mul(rotY(0.6), rotX(0.45)), mul(translate(0, 0, 3.2), perspectiveFovLH(1.0, float64(w)/float64(h), 0.5, 10)))
	b.SetCB(isa.StageVS, 0, r.buffer(f32bytes(m[:]...)), 64)
	var tex []byte
	for i := range 64 {
		x, y := i%8, i/8
		tex = append(tex, byte(40+x*30), byte(40+y*30), byte(200-(x^y)*20), 255)
	}
	b.SetTex(0, r.buffer(tex), 8, 8, 32, isa.FmtRGBA8)
	b.SetSampler(0, isa.FilterLinear, isa.AddrWrap, isa.AddrMirror, 0)
	vs := cube()
	for i := range vs {
		vs[i][7], vs[i][8] = vs[i][0]+vs[i][2]+1, vs[i][1]+0.5
	}
	r.useVerts(b, vs)
	b.SetLayout(isa.BuiltinLayout())
	a, n := r.program(BuiltinSource("vs_transform"))
	b.SetProgram(isa.StageVS, a, n, 0)
	a, n = r.program(shadedPS)
	b.SetProgram(isa.StagePS, a, n, 0)
	b.Draw(uint32(len(vs)), 0)
	r.mustExec(b)
	checkGolden(t, "isa-shaded", w, h, r.rgba(rt))
}

// DRAW_INSTANCED: per-instance elements step by their rate from
// startInstance, SV_InstanceID counts the instances from 0.
func TestInstancing(t *testing.T) {
	const vs = `vs inputs=3 outputs=2 temps=1
add o0, v0, v1
utof r0.x, v2.x
mad o1, r0.xxxx, l(0.5, 0.0, 0.0, 0.0), l(0.5, 0.0, 0.0, 1.0)`
	const ps = "ps inputs=2 outputs=1\nmov o0, v1"
	tests := []struct {
		name                    string
		step, instances, startI uint32
		want                    [4][4]byte // pixels (4,4) (12,4) (4,12) (12,12)
	}{
		{"step 1", 1, 2, 0, [4][4]byte{{128, 0, 0, 255}, {255, 0, 0, 255}, {}, {}}},
		{"step 1 from instance 1", 1, 2, 1, [4][4]byte{{}, {128, 0, 0, 255}, {255, 0, 0, 255}, {}}},
		{"step 2", 2, 2, 0, [4][4]byte{{255, 0, 0, 255}, {}, {}, {}}},
		{"step 0", 0, 3, 2, [4][4]byte{{}, {}, {255, 0, 0, 255}, {}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			rt := r.target(16, 16, isa.FmtRGBA8)
			b := r.scene(rt, "", quadVerts(0, 0, 8, 8, 16, 16, white))
			rt.clear(b, [4]float32{})
			// Offsets in clip space: none, right, down.
			b.SetVB(1, r.buffer(f32bytes(0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0)), 48, 16, 0)
			b.SetLayout(isa.Layout{VertexIDReg: isa.NoReg, InstanceIDReg: 2, Elements: []isa.VertexElement{
				{Reg: 0, Format: isa.VtxRGB32F}, {Reg: 1, Slot: 1, Format: isa.VtxRGBA32F, PerInstance: true, StepRate: tc.step},
			}})
			a, n := r.program(vs)
			b.SetProgram(isa.StageVS, a, n, 0)
			a, n = r.program(ps)
			b.SetProgram(isa.StagePS, a, n, 0)
			b.DrawInstanced(6, 0, tc.instances, tc.startI)
			r.mustExec(b)
			for i, at := range [][2]int{{4, 4}, {12, 4}, {4, 12}, {12, 12}} {
				if got := r.px(rt, at[0], at[1]); got != tc.want[i] {
					t.Errorf("pixel %v = %v, want %v", at, got, tc.want[i])
				}
			}
		})
	}
}
