package gpu_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/gpu"
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shaderisa"
)

// A KMD's view of the GPU: commit memory, build a DMA buffer, submit it and
// wait for its fence.
func Example() {
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	g := gpu.New(gpu.Config{VRAM: 1 << 20, Engines: 1}, s, rec)
	g.ConnectInterrupt(func(engine int) {
		fmt.Printf("interrupt from engine %d at %d ns: fence %d\n", engine, s.Now(), g.CompletedFence(engine))
	})

	// A 4x4 render target, a vertex buffer holding one triangle that
	// covers the whole target (x y z, r g b a, u v), and a page for the
	// programs.
	rt, vb, progs := gpu.VRAMBase, gpu.VRAMBase+4096, gpu.VRAMBase+8192
	for _, a := range []uint64{rt, vb, progs} {
		if err := g.Memory().Commit(a, 4096); err != nil {
			panic(err)
		}
	}
	var verts []byte
	for _, v := range [][9]float32{{-1, 1, 0, 1, 0, 0, 1}, {3, 1, 0, 1, 0, 0, 1}, {-1, -3, 0, 1, 0, 0, 1}} {
		for _, f := range v {
			verts = binary.LittleEndian.AppendUint32(verts, math.Float32bits(f))
		}
	}

	var b isa.Builder
	b.Write(vb, verts)
	b.SetRT(rt, 4, 4, 16, isa.FmtRGBA8)
	b.ClearRT(rt, 4, 4, 16, isa.FmtRGBA8, [4]float32{0, 0, 1, 1})
	b.SetViewport(0, 0, 4, 4, 0, 1) // no viewport, no pixels
	b.SetVB(0, vb, uint32(len(verts)), 36, 0)
	// The vertex and pixel programs, in the GPU's ISA: written to memory
	// and bound with SET_PROGRAM, the vertex fetched through SET_LAYOUT.
	b.SetLayout(isa.BuiltinLayout())
	for i, name := range []string{"vs_passthrough", "ps_vertexcolor"} {
		p, err := shaderisa.Assemble(gpu.BuiltinSource(name))
		if err != nil {
			panic(err)
		}
		var code []byte
		for _, w := range p.Encode() {
			code = binary.LittleEndian.AppendUint32(code, w)
		}
		at := progs + 1024*uint64(i)
		b.Write(at, code)
		b.SetProgram(uint32(i), at, uint32(len(code)/4), 0) // stage 0 VS, 1 PS
	}
	b.Draw(3, 0)
	b.Fence(1)
	g.Submit(0, 100, b.Words)
	s.RunUntil(func() bool { return g.CompletedFence(0) == 1 })

	px, _ := g.Memory().Bytes(rt+16+4, 4)
	fmt.Printf("pixel (1,1) = %v\n", px)
	st := g.Stats()
	fmt.Printf("%d packets, %d vertices, %d pixels\n", st.Packets, st.Vertices, st.Pixels)
	// Output:
	// interrupt from engine 0 at 2529 ns: fence 1
	// pixel (1,1) = [255 0 0 255]
	// 12 packets, 3 vertices, 16 pixels
}
