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

// TestFetchLinearMatchesFetchElement: for random layouts of 32-bit formats
// (two elements may share a register; SV_VertexID and SV_InstanceID among
// them), strides, offsets and buffer sizes, fetchLinear either declines or
// writes, lane by lane, the words fetchElement writes — the last vertex
// partly outside its buffer makes it decline.
func TestFetchLinearMatchesFetchElement(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	formats := []isa.VertexFormat{isa.VtxRGBA32F, isa.VtxRGB32F, isa.VtxRG32F, isa.VtxR32F, isa.VtxRGBA32UI, isa.VtxRG32SI, isa.VtxR32UI}
	took := 0
	for range 400 {
		ex := &executor{}
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
