package gpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// TestRunMovesMatchesMachine: a program of movs only (movesOnly) gives, by
// movedLanes, the outputs the machine gives, bit for bit, on random programs
// (swizzles, write masks, immediates, outputs written twice or never),
// random input bits (NaNs, infinities, denormals included) and lane masks.
func TestRunMovesMatchesMachine(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	odd := []uint32{0x7fc00000, 0x7f800001, 0xff800000, 0x00000001, 0x80000000, math.Float32bits(1)}
	comps := "xyzw"
	for n := range 300 {
		var b strings.Builder
		fmt.Fprintf(&b, "vs inputs=3 outputs=3 temps=2\n")
		for range 1 + r.IntN(7) {
			var mask, swz string
			for c := range 4 {
				if r.IntN(2) == 0 {
					mask += comps[c : c+1]
				}
				k := r.IntN(4)
				swz += comps[k : k+1]
			}
			if mask == "" {
				mask = "x"
			}
			src := fmt.Sprintf("v%d.%s", r.IntN(3), swz)
			switch r.IntN(4) {
			case 0:
				src = fmt.Sprintf("l(%d.5, -2.0, %d.25, 1.0)", r.IntN(9), r.IntN(9))
			case 1: // a temp, perhaps never written (it reads zero)
				src = fmt.Sprintf("r%d.%s", r.IntN(2), swz)
			}
			dst := fmt.Sprintf("o%d", r.IntN(3))
			if r.IntN(3) == 0 {
				dst = fmt.Sprintf("r%d", r.IntN(2))
			}
			fmt.Fprintf(&b, "mov %s.%s, %s\n", dst, mask, src)
		}
		if r.IntN(2) == 0 {
			b.WriteString("ret\n")
		}
		p, err := shaderisa.Assemble(b.String())
		if err != nil {
			t.Fatalf("%s: %v", b.String(), err)
		}
		if movesOnly(p) == nil {
			t.Fatalf("not recognised: %s", b.String())
		}
		// The same words decoded, as the GPU would have them.
		dec, err := shaderisa.Decode(p.Encode())
		if err != nil {
			t.Fatal(err)
		}
		want, got := shader.NewMachine(dec), shader.NewMachine(dec)
		mask := r.Uint64()
		if n%3 == 0 {
			mask &= 7 // a draw's three vertices
		}
		for reg := range 3 {
			for c := range 4 {
				for j := range shader.Lanes {
					v := r.Uint32()
					if r.IntN(8) == 0 {
						v = odd[r.IntN(len(odd))]
					}
					want.In(reg)[c][j], got.In(reg)[c][j] = v, v
				}
			}
		}
		// Outputs left from an earlier chunk: whatever a component the
		// program never writes held must not show.
		for reg := range 3 {
			for c := range 4 {
				for j := range shader.Lanes {
					g := r.Uint32()
					want.Out(reg)[c][j], got.Out(reg)[c][j] = g, g
				}
			}
		}
		if _, err := want.Run(mask); err != nil {
			t.Fatal(err)
		}
		moves := movesOnly(dec)
		if len(moves) != 4*dec.Outputs {
			t.Fatalf("%s: %d moves for %d outputs", b.String(), len(moves), dec.Outputs)
		}
		for reg := range 3 {
			for c := range 4 {
				for j := range shader.Lanes {
					lanes, g := movedLanes(got, &moves[4*reg+c])
					if lanes != nil {
						g = lanes[j]
					}
					if mask>>j&1 != 0 && want.Out(reg)[c][j] != g {
						t.Fatalf("%s lane %d o%d.%c: %#x, the machine %#x", b.String(), j, reg, comps[c], g, want.Out(reg)[c][j])
					}
				}
			}
		}
	}
}

// TestMovesOnly: what is and is not a program of movs only.
func TestMovesOnly(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{"vs inputs=3 outputs=3\nmov o0, v0\nmov o1, v1\nmov o2, v2", true},
		{"vs inputs=1 outputs=1\nmov o0.w, l(1.0, 1.0, 1.0, 1.0)\nmov o0.xyz, v0.xyzx", true},
		{"vs inputs=1 outputs=1\nmov_sat o0, v0", false},
		{"vs inputs=1 outputs=1\nmov o0, -v0", false},
		{"vs inputs=1 outputs=1 temps=1\nmov r0, v0\nmov o0, r0\nret", true},
		{"vs inputs=1 outputs=1 temps=1\nret\nmov o0, v0", false},
		{"vs inputs=1 outputs=1\nadd o0, v0, v0", false},
	} {
		p, err := shaderisa.Assemble(tt.src)
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		if got := movesOnly(p) != nil; got != tt.want {
			t.Errorf("%q: movesOnly %v, want %v", tt.src, got, tt.want)
		}
	}
}

// linearFormats are vertex formats of 32-bit components (fetchLinear's),
// one to four words, float and integer.
var linearFormats = []isa.VertexFormat{isa.VtxRGBA32F, isa.VtxRGB32F, isa.VtxRG32F, isa.VtxR32F, isa.VtxRGBA32UI, isa.VtxRG32SI, isa.VtxR32UI}

// TestFetchLinearMatchesFetchElement: for random layouts of 32-bit formats
// (two elements may share a register; SV_VertexID and SV_InstanceID among
// them), strides, offsets and buffer sizes, fetchLinear either declines or
// writes, lane by lane, the words fetchElement writes — the last vertex
// partly outside its buffer makes it decline. Its checks are kept for the
// state generation: one executor draws every case, some after another
// draw of other vertices in the same state.
func TestFetchLinearMatchesFetchElement(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	formats := linearFormats
	took := 0
	ex := &executor{} // one executor: its checks, kept for a state generation, must follow the state
	for range 400 {
		ex.gen++ // (the state packets that set the layout and the buffers)
		s := &ex.st
		s.layout.n = 1 + r.IntN(4)
		s.layout.vid, s.layout.iid = isa.NoReg, isa.NoReg
		if r.IntN(3) == 0 {
			s.layout.vid = uint8(r.IntN(5))
		}
		if r.IntN(3) == 0 {
			s.layout.iid = uint8(r.IntN(5))
		}
		for k := range s.layout.n {
			s.layout.els[k] = isa.VertexElement{Reg: uint8(r.IntN(5)), Slot: uint8(r.IntN(2)), Format: formats[r.IntN(len(formats))], Offset: uint32(4 * r.IntN(4))}
		}
		for slot := range 2 {
			mem := make([]byte, 4*r.IntN(200))
			for i := range mem {
				mem[i] = byte(r.Uint32())
			}
			s.vb[slot] = vbuf{mem: mem, stride: uint64(4 * r.IntN(8)), offset: uint64(4 * r.IntN(4)), bound: true}
		}
		ex.draw.prog.vsIn = 4
		ex.draw.params.instance = r.Uint32()
		p, err := shaderisa.Assemble("vs inputs=5 outputs=1\nmov o0, v0")
		if err != nil {
			t.Fatal(err)
		}
		got, want := shader.NewMachine(p), shader.NewMachine(p)
		v0, n := int64(r.IntN(12)), 1+r.IntN(shader.Lanes)
		// A draw before this one, of other vertices, with the same state.
		if v, m := int64(r.IntN(12)), 1+r.IntN(shader.Lanes); r.IntN(2) == 0 {
			ex.fetchLinear(shader.NewMachine(p), v, m)
		}
		if !ex.fetchLinear(got, v0, n) {
			for reg := range 5 {
				if *got.In(reg) != (shader.Vec{}) {
					t.Fatal("declined, but wrote")
				}
			}
			continue
		}
		took++
		for j := range n {
			v := v0 + int64(j)
			for k := range s.layout.n {
				if e := &s.layout.els[k]; int(e.Reg) < ex.draw.prog.vsIn {
					fetchElement(&s.vb[e.Slot], v, e, want.In(int(e.Reg)), j)
				}
			}
			if r := int(s.layout.vid); r < ex.draw.prog.vsIn {
				want.In(r)[0][j] = uint32(v)
			}
			if r := int(s.layout.iid); r < ex.draw.prog.vsIn {
				want.In(r)[0][j] = ex.draw.params.instance
			}
		}
		for reg := range 5 {
			if *got.In(reg) != *want.In(reg) {
				t.Fatalf("v%d differs: layout %+v, v0 %d, n %d", reg, s.layout, v0, n)
			}
		}
	}
	if took < 50 {
		t.Fatalf("fetchLinear took %d of 400 draws: the test draws too few in bounds", took)
	}
}

// TestVertexOutsPlan: vertexOuts through its kept table (outPlan) writes,
// bit for bit, what a walk component by component over the arguments
// writes (the form before the table), on random sources (lanes, immediates
// zero and not, NaN bits), positions, varyings, outputs, constant registers
// and lane masks, with the table kept across calls whose key changes or not.
// The vertices start as garbage, so a component left unwritten fails.
func TestVertexOutsPlan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	odd := []uint32{0, 0, 0, 0x80000000, 0x7fc00000, 0xff800000, 1, math.Float32bits(1), math.Float32bits(-2.5)}
	var regs [isa.MaxVaryings][4][shader.Lanes]uint32
	for i := range regs {
		for c := range regs[i] {
			for j := range shader.Lanes {
				regs[i][c][j] = r.Uint32()
			}
		}
	}
	srcs := make([]*[isa.MaxVaryings][4]laneSrc, 4)
	for k := range srcs {
		srcs[k] = new([isa.MaxVaryings][4]laneSrc)
		for i := range srcs[k] {
			for c := range 4 {
				if r.IntN(3) == 0 {
					srcs[k][i][c].v = &regs[r.IntN(isa.MaxVaryings)][r.IntN(4)]
				} else {
					srcs[k][i][c].imm = odd[r.IntN(len(odd))]
				}
			}
		}
	}
	var plan outPlan
	// Two sets of vertices, each written only by vertexOuts (as the
	// chunk's are), so that what the table keeps in them is tested; the
	// reference is made afresh over garbage every time.
	gots := [2]*[shader.Lanes]cvert{new([shader.Lanes]cvert), new([shader.Lanes]cvert)}
	want := new([shader.Lanes]cvert)
	garbage := math.Float64frombits(0x7ff0dead0000beef)
	fill := func(v *[shader.Lanes]cvert) {
		for j := range shader.Lanes {
			o := &v[j]
			o.p = [4]float64{garbage, garbage, garbage, garbage}
			for i := range o.a {
				o.a[i] = garbage
			}
		}
	}
	fill(gots[0])
	fill(gots[1])
	src, outs, pos, vary, flat := srcs[0], 1, -1, 0, uint32(0)
	for n := range 4000 {
		// One argument changed at a time (or none), so that a key that
		// missed one of them would keep a stale table.
		switch r.IntN(7) {
		case 0:
			src = srcs[r.IntN(len(srcs))]
		case 1:
			outs = 1 + r.IntN(isa.MaxVaryings)
			pos = min(pos, outs-1)
		case 2:
			pos = r.IntN(outs+1) - 1
		case 3:
			vary = r.IntN(isa.MaxVaryings + 1)
		case 4:
			flat = r.Uint32() & uint32(r.IntN(2)-1)
		}
		got := gots[0]
		if r.IntN(8) == 0 {
			got = gots[1]
		}
		mask := r.Uint64() >> r.IntN(shader.Lanes)
		if n%3 == 0 {
			mask = ^uint64(0) >> (shader.Lanes - 1 - r.IntN(4)) // a small draw's few lanes
		}
		fill(want)
		for range 1 + r.IntN(2) { // the second call finds the table kept
			vertexOuts(&plan, got, mask, src, pos, vary, outs, flat)
		}
		vertexOutsWalk(want, mask, src, pos, vary, outs, flat)
		for j := range shader.Lanes {
			if mask>>j&1 == 0 {
				continue
			}
			g, w := &got[j], &want[j]
			for k := range 4 {
				if math.Float64bits(g.p[k]) != math.Float64bits(w.p[k]) {
					t.Fatalf("case %d lane %d: p[%d] = %x, want %x", n, j, k, math.Float64bits(g.p[k]), math.Float64bits(w.p[k]))
				}
			}
			for i := range 4 * vary { // (the attributes past the draw's are not read)
				if math.Float64bits(g.a[i]) != math.Float64bits(w.a[i]) {
					t.Fatalf("case %d lane %d (outs %d pos %d vary %d flat %#x): a[%d] = %x, want %x", n, j, outs, pos, vary, flat, i, math.Float64bits(g.a[i]), math.Float64bits(w.a[i]))
				}
			}
		}
	}
}

// vertexOutsWalk is vertexOuts as it was written before its table: every
// component of every register looked up and written over the mask's lanes.
func vertexOutsWalk(out *[shader.Lanes]cvert, mask uint64, src *[isa.MaxVaryings][4]laneSrc, pos, vary, outs int, flat uint32) {
	var zero laneSrc
	for j := range shader.Lanes {
		if mask>>j&1 == 0 {
			continue
		}
		for k := range 4 {
			s := &zero
			if pos >= 0 {
				s = &src[pos][k]
			}
			if s.v == nil {
				out[j].p[k] = float64(math.Float32frombits(s.imm))
			} else {
				out[j].p[k] = float64(math.Float32frombits(s.v[j]))
			}
		}
		for r := range min(vary, isa.MaxVaryings) {
			fl := flat>>r&1 != 0
			for c := range 4 {
				s := &zero
				if r < outs && r != pos {
					s = &src[r][c]
				}
				x := &out[j].a[4*r+c]
				switch {
				case s.v == nil && fl:
					*x = float64(s.imm)
				case s.v == nil:
					*x = float64(math.Float32frombits(s.imm))
				case fl:
					*x = float64(s.v[j])
				default:
					*x = float64(math.Float32frombits(s.v[j]))
				}
			}
		}
	}
}

// TestLinearFetchClearsUnfetchedInputs: a linear fetch leaves uncleared
// only the registers its elements write whole; an input register no element
// of the layout writes reads zero in a draw that follows one whose layout
// wrote it (the same program, the same lanes).
func TestLinearFetchClearsUnfetchedInputs(t *testing.T) {
	r := newRig(t)
	rt := r.fmtTarget(4, 1, isa.FmtRGBA32F)
	b := r.scene(rt, "", nil)
	vs, vn := r.program("vs inputs=4 outputs=2\nmov o0, v0\nmov o1, v3")
	b.SetProgram(isa.StageVS, vs, vn, 0)
	r.omProgram(b, "ps inputs=2 outputs=1\nmov o0, v1", 0)
	data := quadBytes(rt)
	b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
	var green []float32
	for range 6 {
		green = append(green, 0, 1, 0, 1)
	}
	col := f32bytes(green...)
	b.SetVB(1, r.buffer(col), uint32(len(col)), 16, 0)
	l := isa.BuiltinLayout()
	l.Elements = append(l.Elements, isa.VertexElement{Reg: 3, Slot: 1, Format: isa.VtxRGBA32F})
	b.SetLayout(l)
	b.Draw(6, 0)
	r.mustExec(b)
	if got := f4(t, r, rt, 1, 0); got != [4]float32{0, 1, 0, 1} {
		t.Fatalf("the first draw, with v3 fetched: %v, want green", got)
	}
	b = r.scene(rt, "", nil)
	b.SetProgram(isa.StageVS, vs, vn, 0)
	r.omProgram(b, "ps inputs=2 outputs=1\nmov o0, v1", 0)
	b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
	b.SetLayout(isa.BuiltinLayout()) // no element writes v3
	b.Draw(6, 0)
	r.mustExec(b)
	if got := f4(t, r, rt, 1, 0); got != [4]float32{} {
		t.Fatalf("the second draw, v3 in no element: %v, want zeros", got)
	}
}
