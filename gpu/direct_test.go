package gpu

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// TestDirectOutsMatchLanes: the vertices directOuts reads straight from the
// buffers are those fetchLinear and vertexOuts make through the input lanes,
// bit for bit, for random programs of movs (swizzles, write masks,
// immediates, outputs never written, inputs no element fetches), random layouts (elements
// of one to four words, float and integer, two writing the same register, at
// any offset), the position in any output or none, flat (raw) registers, any
// number of varyings, and blocks of 1 to 64 vertices; one executor, so that
// the tables kept for a state generation and a program must follow both.
func TestDirectOutsMatchLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	formats := linearFormats
	odd := []uint32{0, 0x80000000, 0x7fc00000, 0xff800000, 1, math.Float32bits(1), math.Float32bits(-2.5), 0x00000007}
	ex := &executor{}
	ps := &ex.draw.prog
	took := 0
	for range 2000 {
		if r.IntN(3) == 0 {
			ex.gen++ // the state packets that set the layout and the buffers
			s := &ex.st
			s.layout.n = 1 + r.IntN(4)
			s.layout.vid, s.layout.iid = isa.NoReg, isa.NoReg
			for k := range s.layout.n {
				s.layout.els[k] = isa.VertexElement{Reg: uint8(r.IntN(4)), Slot: uint8(r.IntN(2)), Format: formats[r.IntN(len(formats))], Offset: uint32(4 * r.IntN(4))}
			}
			for slot := range 2 {
				mem := make([]byte, 4*(64+r.IntN(400)))
				for i := 0; i < len(mem); i += 4 {
					w := r.Uint32()
					if r.IntN(4) == 0 {
						w = odd[r.IntN(len(odd))]
					}
					binary.LittleEndian.PutUint32(mem[i:], w)
				}
				s.vb[slot] = vbuf{mem: mem, stride: uint64(4 * (1 + r.IntN(8))), offset: uint64(4 * r.IntN(4)), bound: true}
			}
		}
		if ps.vs == nil || r.IntN(3) == 0 {
			ins, outs := 1+r.IntN(5), 1+r.IntN(5)
			var src strings.Builder
			fmt.Fprintf(&src, "vs inputs=%d outputs=%d\n", ins, outs)
			for range 1 + r.IntN(2*outs) {
				sw := "xyzw" // (most often: runs of consecutive words)
				if r.IntN(2) == 0 {
					sw = string([]byte{"xyzw"[r.IntN(4)], "xyzw"[r.IntN(4)], "xyzw"[r.IntN(4)], "xyzw"[r.IntN(4)]})
				}
				mask := ""
				if r.IntN(3) == 0 {
					mask = "." + []string{"x", "xy", "yw", "xyz", "w"}[r.IntN(5)]
				}
				if r.IntN(4) == 0 {
					fmt.Fprintf(&src, "mov o%d%s, l(%d, %d, %d, %d)\n", r.IntN(outs), mask, odd[r.IntN(len(odd))], odd[r.IntN(len(odd))], odd[r.IntN(len(odd))], odd[r.IntN(len(odd))])
				} else {
					fmt.Fprintf(&src, "mov o%d%s, v%d.%s\n", r.IntN(outs), mask, r.IntN(ins), sw)
				}
			}
			e := ps.program(assembleWords(t, src.String()))
			if e.err != nil {
				t.Fatalf("%v\n%s", e.err, src.String())
			}
			if e.movedOut == nil {
				t.Fatalf("not a program of movs:\n%s", src.String())
			}
			ps.vs, ps.vsIn = e, e.prog.Inputs
		}
		e := ps.vs
		flat := uint32(0)
		if r.IntN(3) == 0 {
			flat = r.Uint32()
		}
		if checkDirect(t, ex, r.IntN(e.prog.Outputs+1)-1, r.IntN(isa.MaxVaryings+1), flat, int64(r.IntN(40)), 1+r.IntN(shader.Lanes)) {
			took++
		}
	}
	if took < 200 {
		t.Fatalf("directOuts took %d blocks: the test draws too few", took)
	}
	// A run of words that goes on from a register into a flat one (its
	// words raw): o0's y, z, w are v0's three words, o1's x the next.
	ex.gen++
	ex.st.layout.n, ex.st.layout.vid, ex.st.layout.iid = 2, isa.NoReg, isa.NoReg
	ex.st.layout.els[0] = isa.VertexElement{Reg: 0, Format: isa.VtxRGB32F}
	ex.st.layout.els[1] = isa.VertexElement{Reg: 1, Format: isa.VtxR32UI, Offset: 12}
	ex.st.vb[0] = vbuf{mem: bytes.Repeat([]byte{1, 2, 3, 0x44}, 64), stride: 16, bound: true}
	e := ps.program(assembleWords(t, "vs inputs=2 outputs=2\nmov o0, v0.wxyz\nmov o1, v1"))
	ps.vs, ps.vsIn = e, 2
	if !checkDirect(t, ex, -1, 2, 2, 0, 3) {
		t.Fatal("directOuts did not take the flat register's block")
	}
}

// checkDirect compares directOuts with fetchLinear and vertexOuts for the
// executor's layout and vertex program on vertices v0..v0+n-1, if
// linearFetch takes them, and reports whether it does.
func checkDirect(t *testing.T, ex *executor, pos, vary int, flat uint32, v0 int64, n int) bool {
	t.Helper()
	ps := &ex.draw.prog
	e := ps.vs
	garbage := math.Float64frombits(0x7ff0dead0000beef)
	if !ex.linearFetch(v0, n) {
		return false
	}
	// The reference: the lanes, cleared as shadeVertices clears them.
	m := e.m
	for reg := range ps.vsIn {
		*m.In(reg) = shader.Vec{}
	}
	ex.fetchLinear(m, v0, n)
	mask := ^uint64(0) >> (shader.Lanes - n)
	var want, got [shader.Lanes]cvert
	for _, v := range []*[shader.Lanes]cvert{&want, &got} {
		for j := range v {
			v[j].p = [4]float64{garbage, garbage, garbage, garbage}
			for i := range v[j].a {
				v[j].a[i] = garbage
			}
		}
	}
	var ref outPlan
	vertexOuts(&ref, &want, mask, e.movedOut, pos, vary, e.prog.Outputs, flat)
	plan, dt, fc := &ps.outPlan, &ex.draw.direct, &ex.draw.fetch
	plan.ensure(e.movedOut, pos, vary, e.prog.Outputs, flat)
	plan.out = nil // (got is another block of vertices)
	dt.make(plan, fc, m, ps.vsIn)
	if !dt.usable {
		t.Fatalf("no table for\n%s", e.prog)
	}
	directOuts(dt, plan, &got, v0, n)
	for j := range n {
		for k := range 4 {
			if math.Float64bits(got[j].p[k]) != math.Float64bits(want[j].p[k]) {
				t.Fatalf("vertex %d: position %d is %v, want %v (layout %+v)", j, k, got[j].p[k], want[j].p[k], ex.st.layout)
			}
		}
		for i := range 4 * vary {
			if math.Float64bits(got[j].a[i]) != math.Float64bits(want[j].a[i]) {
				t.Fatalf("vertex %d: attribute %d is %v, want %v (layout %+v, flat %#x)", j, i, got[j].a[i], want[j].a[i], ex.st.layout, flat)
			}
		}
	}
	return true
}

// assembleWords is the program src assembled, as the bytes in memory.
func assembleWords(t *testing.T, src string) []byte {
	t.Helper()
	p, err := shaderisa.Assemble(src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return progBytes(p.Encode())
}

// TestDirectOutsDraws: draws of a program of movs whose outputs are read
// from the buffers (directOuts) draw the picture the same draws make through
// the input lanes, with the position in another output, the layout and the
// vertex buffer changed between them.
func TestDirectOutsDraws(t *testing.T) {
	red := [4]float32{1, 0, 0, 1}
	vs := []vtx{pxv(1, 1, 32, 32, red), pxv(20, 2, 32, 32, red), pxv(3, 25, 32, 32, [4]float32{0, 1, 0.5, 1}),
		pxv(30, 30, 32, 32, red), pxv(2, 30, 32, 32, [4]float32{0.25, 0.5, 1, 1}), pxv(28, 4, 32, 32, red)}
	got, want, hits, none := drawOnOff(t, vs, func(r *rig, on bool) { r.g.ex.draw.direct.off = !on },
		func(r *rig) uint64 { return r.g.ex.draw.direct.hits },
		func(r *rig, b *isa.Builder) []func() {
			prog, n := r.program("vs inputs=3 outputs=3\nmov o0, v0\nmov o1, v1.zyxw\nmov o2, v2")
			other := r.buffer(vbytes(vs[3:]...))
			return []func(){
				func() {},
				func() { b.SetProgram(isa.StageVS, prog, n, 0) },
				func() { b.SetProgram(isa.StageVS, prog, n, 1) },
				func() { b.SetVB(0, other, uint32(3*vertexBytes), vertexBytes, 0) },
				func() { b.SetProgram(isa.StageVS, prog, n, 0) },
			}
		},
		func(b *isa.Builder) {
			b.Draw(3, 0)
			b.Draw(3, 3)
		})
	if !bytes.Equal(got, want) {
		t.Error("the draws differ from the same draws through the input lanes")
	}
	if none != 0 || hits == 0 {
		t.Errorf("%d blocks read from the buffers with the table off, %d with it on", none, hits)
	}
}

// TestDirectOutsFixedOnceALane: directOuts writes a fixed component (here
// the position's w, 1 for a three-word element) into a lane of the block
// once, and again into every lane the block had not held (a longer block
// after a shorter) and after make (another table); the lanes keep it, so a
// component overwritten behind its back would show here as garbage.
func TestDirectOutsFixedOnceALane(t *testing.T) {
	ex := &executor{}
	ps := &ex.draw.prog
	ex.gen++
	ex.st.layout.n, ex.st.layout.vid, ex.st.layout.iid = 1, isa.NoReg, isa.NoReg
	ex.st.layout.els[0] = isa.VertexElement{Reg: 0, Format: isa.VtxRGB32F}
	mem := make([]byte, 12*64)
	for i := 0; i < len(mem); i += 4 {
		binary.LittleEndian.PutUint32(mem[i:], math.Float32bits(float32(i)))
	}
	ex.st.vb[0] = vbuf{mem: mem, stride: 12, bound: true}
	e := ps.program(assembleWords(t, "vs inputs=1 outputs=1\nmov o0, v0"))
	ps.vs, ps.vsIn = e, 1
	garbage := math.Float64frombits(0x7ff0dead0000beef)
	var got [shader.Lanes]cvert
	for j := range got {
		got[j].p = [4]float64{garbage, garbage, garbage, garbage}
	}
	plan, dt, fc := &ps.outPlan, &ex.draw.direct, &ex.draw.fetch
	check := func(n int, want uint64) {
		t.Helper()
		if !ex.linearFetch(0, n) {
			t.Fatalf("linearFetch(0, %d) refused", n)
		}
		plan.ensure(e.movedOut, 0, 1, 1, 0)
		if !dt.ok || dt.gen != fc.gen {
			dt.make(plan, fc, e.m, ps.vsIn)
		}
		directOuts(dt, plan, &got, 0, n)
		for j := range n {
			if got[j].p[3] != 1 || got[j].p[0] != float64(12*j) {
				t.Fatalf("block of %d: vertex %d is %v, want (%d, ..., 1)", n, j, got[j].p, 12*j)
			}
		}
		if dt.kept != want {
			t.Fatalf("block of %d: lanes kept %#x, want %#x", n, dt.kept, want)
		}
	}
	check(3, 0b111)
	check(5, 0b11111)
	for j := range got {
		got[j].p[3] = garbage // another table's block
	}
	dt.ok = false
	check(2, 0b11)
}

// TestDirectOutsPastPixelInputs: a block read from the buffers carries the
// vertex program's outputs past the pixel program's inputs only when
// something reads them; a clip distance in the texture coordinate (o2.x,
// which ps_vertexcolor does not read) still clips, after draws that left
// that output out, the same as through the input lanes.
func TestDirectOutsPastPixelInputs(t *testing.T) {
	tri := func(x float32, c [4]float32, u0, u1, u2 float32) []vtx {
		v := []vtx{pxv(x, 1, 32, 32, c), pxv(x+15, 2, 32, 32, c), pxv(x+2, 30, 32, 32, [4]float32{0, 0, 1, 1})}
		v[0][7], v[1][7], v[2][7] = u0, u1, u2
		return v
	}
	red, white := [4]float32{1, 0, 0, 1}, [4]float32{1, 1, 1, 1}
	vs := append(tri(0, red, 1, 1, 1), tri(16, red, 1, 1, 1)...)
	got, want, hits, none := drawOnOff(t, vs, func(r *rig, on bool) { r.g.ex.draw.direct.off = !on },
		func(r *rig) uint64 { return r.g.ex.draw.direct.hits },
		func(r *rig, b *isa.Builder) []func() {
			clipped := append(tri(0, white, 1, -1, 0.5), tri(16, white, -1, 1, -0.25)...)
			other := r.buffer(vbytes(clipped...))
			return []func(){
				func() {},
				func() {
					b.SetClipDist(isa.ClipDistWord([2]int{2, -1}, 1, 0))
					b.SetVB(0, other, uint32(len(clipped)*vertexBytes), vertexBytes, 0)
				},
			}
		},
		func(b *isa.Builder) {
			b.Draw(3, 0)
			b.Draw(3, 3)
		})
	if !bytes.Equal(got, want) {
		t.Error("the draws differ from the same draws through the input lanes")
	}
	if none != 0 || hits < 4 {
		t.Errorf("%d blocks read from the buffers with the table off, %d with it on", none, hits)
	}
}
