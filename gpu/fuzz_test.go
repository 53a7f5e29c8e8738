package gpu

import (
	"d3dsim/core/memlimit"
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shaderisa"
	"encoding/binary"
	"strings"
	"testing"

	"d3dsim/core/sim"
)

func words(data []byte) []uint32 {
	w := make([]uint32, (len(data)+3)/4)
	for i := range data {
		w[i/4] |= uint32(data[i]) << (8 * (i % 4))
	}
	return w
}

func wordBytes(w []uint32) []byte {
	var b []byte
	for _, x := range w {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}

// fuzzPrograms writes the reference programs vs and ps (builtins.go) to
// the fuzz GPU's memory at progs with WRITE and binds them with the
// built-in vertex's layout.
func fuzzPrograms(b *isa.Builder, vs, ps string) {
	const progs = VRAMBase + 0xA000
	b.SetLayout(isa.BuiltinLayout())
	for i, name := range []string{vs, ps} {
		p, err := shaderisa.Assemble(BuiltinSource(name))
		if err != nil {
			panic(err) // the reference programs: a bug
		}
		at := progs + 0x800*uint64(i)
		b.Write(at, progBytes(p.Encode()))
		b.SetProgram(uint32(i), at, uint32(len(p.Encode())), 0)
	}
}

// fuzzSeeds are valid buffers over the fuzz GPU's memory (64 KiB of VRAM at
// VRAMBase), so the fuzzer starts from packets that do something; and one
// with 0x08, no opcode (programs are bound with SET_PROGRAM), which faults
// as unknown.
func fuzzSeeds() [][]uint32 {
	const rt, vb, ds = VRAMBase, VRAMBase + 0x4000, VRAMBase + 0x8000
	var seeds [][]uint32
	b := &isa.Builder{}
	b.SetRT(rt, 32, 32, 128, isa.FmtRGBA8)
	b.SetDS(ds, 32, 32, 128, isa.FmtD24S8)
	b.ClearRT(rt, 32, 32, 128, isa.FmtRGBA8, [4]float32{0, 0, 1, 1})
	b.ClearDS(ds, 32, 32, 128, isa.FmtD24S8, 1)
	b.Write(vb, vbytes(vtx{-1, 1, 0.5, 1, 0, 0, 1}, vtx{1, 1, 0.5, 0, 1, 0, 1}, vtx{-1, -1, 0.5, 0, 0, 1, 1}, vtx{1, -1, 2, 1, 1, 1, 1, 1, 1}))
	b.SetVB(0, vb, 4*vertexBytes, vertexBytes, 0)
	fuzzPrograms(b, "vs_passthrough", "ps_vertexcolor")
	b.SetViewport(0, 0, 32, 32, 0, 1)
	b.SetTopology(isa.TopoTriangleStrip)
	b.Draw(4, 0)
	b.Fence(1)
	seeds = append(seeds, b.Words)

	b = &isa.Builder{}
	b.SetRT(rt, 32, 32, 128, isa.FmtBGRA8)
	b.Write(vb+0x1000, []byte{0, 0, 1, 0, 2, 0, 3, 0})
	b.SetIB(vb+0x1000, 8, 2, 0)
	b.SetVB(0, vb, 4*vertexBytes, vertexBytes, 0)
	b.SetCB(isa.StageVS, 0, vb+0x1000, 64)
	fuzzPrograms(b, "vs_transform", "ps_texture")
	b.SetTex(0, rt, 4, 4, 128, isa.FmtRGBA8)
	b.SetSampler(0, isa.FilterLinear, isa.AddrMirror, isa.AddrBorder, 0xFF00FF00)
	b.SetBlend(true, isa.BlendSrcAlpha, isa.BlendInvSrcAlpha, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpMax, 0xF)
	b.SetRaster(isa.CullFront, true, false)
	b.DrawIndexed(4, 0, 0)
	b.Query(isa.QueryOcclusionBegin, vb+0x2000)
	b.Query(isa.QueryOcclusionEnd, vb+0x2000)
	b.Query(isa.QueryTimestamp, vb+0x2008)
	b.Copy(vb+0x3000, rt, 256)
	b.Fill(vb+0x3000, 64, 0xDEADBEEF)
	b.Scanout(rt, 32, 32, 128, isa.FmtBGRA8)
	b.Fence(2)
	seeds = append(seeds, b.Words)
	b = &isa.Builder{}
	b.SetRT(rt, 32, 32, 128, isa.FmtRGBA8)
	b.SetVB(0, vb, 4*vertexBytes, vertexBytes, 0)
	fuzzPrograms(b, "vs_passthrough", "ps_solid")
	b.SetCB(isa.StagePS, 0, vb, 16)
	b.SetTopology(isa.TopoLineStrip)
	b.Draw(4, 0)
	b.SetTopology(isa.TopoPointList)
	b.Draw(4, 0)
	b.Fence(3)
	seeds = append(seeds, b.Words)
	seeds = append(seeds, []uint32{0xEE000000, uint32(isa.OpFence)<<24 | 2, 7, 0})
	seeds = append(seeds, []uint32{0x08<<24 | 2, isa.StagePS, 1, uint32(isa.OpFence)<<24 | 2, 8, 0})

	// Programs from memory: the words written, bound, a layout, draws.
	b = &isa.Builder{}
	b.SetRT(rt, 32, 32, 128, isa.FmtRGBA8)
	b.Write(vb, vbytes(vtx{-1, 1, 0.5, 1, 0, 0, 1}, vtx{1, 1, 0.5, 0, 1, 0, 1}, vtx{-1, -1, 0.5, 0, 0, 1, 1}, vtx{1, -1, 2, 1, 1, 1, 1, 1, 1}))
	b.SetVB(0, vb, 4*vertexBytes, vertexBytes, 0)
	b.SetViewport(0, 0, 32, 32, 0, 1)
	b.SetLayout(isa.BuiltinLayout())
	for i, src := range []string{BuiltinSource("vs_passthrough"), shadedPS} {
		p, err := shaderisa.Assemble(src)
		if err != nil {
			panic(err)
		}
		at := vb + 0x1000 + 0x800*uint64(i)
		b.Write(at, progBytes(p.Encode()))
		b.SetProgram(uint32(i), at, uint32(len(p.Encode())), 0)
	}
	b.SetTex(0, rt, 4, 4, 128, isa.FmtRGBA8)
	b.SetTopology(isa.TopoTriangleStrip)
	b.Draw(4, 0)
	b.SetTopology(isa.TopoLineList)
	b.Draw(4, 0)
	b.Fence(4)
	seeds = append(seeds, b.Words)

	// Views and samplers of the general path: a 2D array with levels, a
	// cube, a buffer; a comparison and an anisotropic sampler; a program
	// that samples at a level, compares, gathers, asks the level of detail
	// and reads the buffer.
	b = &isa.Builder{}
	b.SetRT(rt, 32, 32, 128, isa.FmtRGBA8)
	b.Write(vb, vbytes(vtx{-1, 1, 0.5, 1, 0, 0, 1}, vtx{1, 1, 0.5, 0, 1, 0, 1}, vtx{-1, -1, 0.5, 0, 0, 1, 1}, vtx{1, -1, 2, 1, 1, 1, 1, 1, 1}))
	b.SetVB(0, vb, 4*vertexBytes, vertexBytes, 0)
	b.SetViewport(0, 0, 32, 32, 0, 1)
	b.SetLayout(isa.BuiltinLayout())
	for i, src := range []string{BuiltinSource("vs_passthrough"), viewsPS} {
		p, err := shaderisa.Assemble(src)
		if err != nil {
			panic(err)
		}
		at := vb + 0x1000 + 0x800*uint64(i)
		b.Write(at, progBytes(p.Encode()))
		b.SetProgram(uint32(i), at, uint32(len(p.Encode())), 0)
	}
	b.SetView(0, ds, isa.ViewTex2DArray, isa.FmtRGBA8, 8, 8, 2, 4, 0|4<<16, 0|2<<16)
	b.SetView(1, ds, isa.ViewTexCube, isa.FmtR32F, 4, 4, 6, 2, 0|2<<16, 0|6<<16)
	b.SetView(2, ds, isa.ViewStructured, 0, 256, 12, 0, 0, 1, 8)
	b.SetSamplerEx(0, isa.FilterAniso|0x15, isa.AddrWrap, isa.AddrMirrorOnce, isa.AddrBorder, 0.5, 8, 0, [4]float32{1, 0, 0, 1}, 0, 3)
	b.SetSamplerEx(1, isa.FilterComparison|0x15, isa.AddrClamp, isa.AddrClamp, isa.AddrClamp, 0, 1, isa.CmpLessEqual, [4]float32{}, -1e30, 1e30)
	b.SetTopology(isa.TopoTriangleStrip)
	b.Draw(4, 0)
	b.Fence(5)
	seeds = append(seeds, b.Words)
	return seeds
}

// viewsPS reads the general path's views: FuzzExecute's seed.
const viewsPS = `ps inputs=3 outputs=1 temps=3
sample r0, v1.xyxx, t0, s0
sample_l_aoffimmi(1,-1,0) r1, v1.xyyy, t0, s0, l(1.5, 0, 0, 0)
add r0, r0, r1
sample_c r1.x, v2.xyzx, t1, s1, v1.x
gather4_c_x r2, v2.xyzx, t1, s1, v1.y
lod r1.zw, v1.xyxx, t0, s0
ld_structured r2.w, l(3, 3, 3, 3), l(4, 4, 4, 4), t2
bufinfo r2.y, t2
add r0, r0, r1
add o0, r0, r2
`

// FuzzExecute runs arbitrary words as a DMA buffer: the GPU must not panic,
// must finish the buffer, must honour a FENCE at its end, and must leave
// none of the buffer's state behind.
func FuzzExecute(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(wordBytes(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// No input may make it allocate past a ceiling.
		memlimit.Check(t, 256<<20, "FuzzExecute", func() {
			s := sim.New(1)
			g := New(Config{VRAM: 1 << 20, Aperture: 1 << 16, Engines: 1, PaintPageFaults: true}, s, nil)
			if err := g.Memory().Commit(VRAMBase, 64<<10); err != nil {
				t.Fatal(err)
			}
			if err := g.Memory().Commit(ApertureBase, 4096); err != nil {
				t.Fatal(err)
			}
			g.OnScanout(func(Frame) {})
			buf := words(data)
			g.Submit(0, 1, buf)
			for steps := 0; g.Busy(0); steps++ {
				if steps > 10 || !s.Step() {
					t.Fatal("the buffer did not complete")
				}
			}
			for _, f := range g.Faults() {
				if strings.HasPrefix(f.Reason, internalError) {
					t.Fatalf("panic while executing: %v", f)
				}
			}
			// The fence register holds the last FENCE executed, or, after a
			// framing error, a FENCE in the last three words past the error.
			pkts, err := isa.Decode(buf)
			var want uint64
			end := 0
			for _, p := range pkts {
				if p.Op == isa.OpFence {
					want = uint64(p.Args[0]) | uint64(p.Args[1])<<32
				}
				end = p.At + 1 + len(p.Args)
			}
			if n := len(buf); err != nil && n-3 > end && buf[n-3] == uint32(isa.OpFence)<<24|2 {
				want = uint64(buf[n-2]) | uint64(buf[n-1])<<32
			}
			if got := g.CompletedFence(0); got != want {
				t.Fatalf("fence %d, want %d", got, want)
			}
			// Nothing the buffer set outlives it (reset clears by marks).
			if left := stateLeft(&g.ex.st); left != "" {
				t.Fatalf("fields the buffer set outlive it:%s", left)
			}
		})
	})
}
