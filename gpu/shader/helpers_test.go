package shader

import (
	"math"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

func mustAsm(t testing.TB, src string) *Program {
	t.Helper()
	p, err := Assemble(src)
	if err != nil {
		t.Fatalf("Assemble: %v\n%s", err, src)
	}
	return p
}

func fbits(f float32) uint32 { return math.Float32bits(f) }
func bitsf(u uint32) float32 { return math.Float32frombits(u) }

// specials are the float values every op is tried on: zeros, ones,
// denormals, the normal extremes, infinities, NaNs (two payloads), and
// integers that matter to the integer ops.
var specials = []uint32{
	fbits(0), 0x80000000, fbits(1), fbits(-1), fbits(0.5), fbits(2), fbits(3.7), fbits(-2.5),
	1, 0x80000001, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FA00001, 0xFFC00000,
	fbits(1e10), fbits(-1e10), fbits(100), fbits(0.1), fbits(-0.75), fbits(1.5), fbits(2.5), fbits(-1.5),
	fbits(4294967296), fbits(2147483648), fbits(-2147483648), fbits(16777217), fbits(3e9),
	0x7FFFFFFF, 0xFFFFFFFF, 5, 31, 32, 33, 0x12345678, 7,
}

// triples are the operand combinations tried: every pair of specials, the
// third operand cycling.
func triples() [][3]uint32 {
	var out [][3]uint32
	n := len(specials)
	for i, a := range specials {
		for j, b := range specials {
			out = append(out, [3]uint32{a, b, specials[(i*7+j*3)%n]})
		}
	}
	return out
}

// runTriples runs a one-instruction program (sources v0, v1, v2, result in
// o0) over the triples, 256 per block (64 lanes, 4 components), and calls
// check for each.
func runTriples(t *testing.T, src string, check func(a, b, c, got uint32) bool) {
	t.Helper()
	p := mustAsm(t, src)
	m := NewMachine(p)
	ts := triples()
	bad := 0
	for base := 0; base < len(ts); base += 4 * Lanes {
		for k := 0; k < 4*Lanes; k++ {
			tr := ts[(base+k)%len(ts)]
			c, i := k/Lanes, k%Lanes
			for s := range p.Inputs {
				m.In(s)[c][i] = tr[s]
			}
		}
		if _, err := m.Run(AllLanes); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 4*Lanes && base+k < len(ts); k++ {
			tr := ts[base+k]
			got := m.Out(0)[k/Lanes][k%Lanes]
			if !check(tr[0], tr[1], tr[2], got) {
				if bad++; bad <= 10 {
					t.Errorf("%s: (%#08x %g, %#08x %g, %#08x %g) = %#08x %g", src, tr[0], bitsf(tr[0]), tr[1], bitsf(tr[1]), tr[2], bitsf(tr[2]), got, bitsf(got))
				}
			}
		}
	}
}

// canonRef makes a reference float result's NaN the machine's one NaN.
func canonRef(f float32) uint32 {
	if f != f {
		return canonNaN
	}
	return fbits(f)
}

// batteryOps are the per-lane ALU ops (a destination, not a texture op,
// not pixel-only) of the first instruction set, before the shader model 5
// bit ops (OpUBfe on): the golden hash and the random programs of the
// reference test draw from them, so that the hash of the ops that were
// there stays the same as ops are added (TestGoldenHashSM5 hashes the
// later ones).
func batteryOps() []Op {
	var out []Op
	for i := range int(OpUBfe) {
		op := Op(i)
		if op.HasDst() && op.Kind() != KindTex && !op.PixelOnly() {
			out = append(out, op)
		}
	}
	return out
}

// A program using every op and operand form (as gpu/shaderisa's tests).
const everything = `ps inputs=3 outputs=2 temps=4
mov r0, v0
mov_sat r0.xz, -|v1.yxwz|
movc r1, r0.x, l(1.5, -0.0, 0x7fc00000, -7), cb3[4095].w
add r1.yzw, r1, cb0[r2.w + 17]
mad o0, v2.xyzz, r1.wwzy, -r0
dp4 r2.x, r0, r1
iadd r3.x, -v0.x, l(1, 2, 3, 4)
loop
  breakc_z r3.x
  continuec_nz r2.y
  if_nz r2.x
    break
  else
    discard_z r1.w
  endif
  retc_nz r3.w
endloop
sample r0, v1.xyxx, t127.wzyx, s15
sample_l r1, v1, t0, s0, cb1[2].x
ld r2, r3, t1.x
sample_d r1, v1, t2, s1, r2.xyxx, -r3
sample_b r0, v0, t3.x, s2, cb0[1].y
resinfo_uint r2.xy, r3.z, t4.yxzw
resinfo_rcpfloat r1, l(1, 0, 0, 0), t5
resinfo r1.w, cb0[r1.x + 1].x, t6
deriv_rtx_fine r3.y, r2
round_ne_sat o1, r0
ret
`
