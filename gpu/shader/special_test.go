package shader

import (
	"math"
	"math/rand/v2"
	"testing"
)

// kconsts is a cb0 whose element 0 is k.
type kconsts struct{ k [4]uint32 }

func (c *kconsts) Constant(slot, elem int) ([4]uint32, error) { return c.k, nil }

// TestSpecialKernels: add, mul, mad, dp2, dp3 and dp4 with an operand the
// same in every lane (an immediate or a cb element, with or without modifiers, first or
// later, the destination a source too) give the general kernels' bits,
// for constants and lanes from the specials (NaNs, infinities, denormals,
// -0) and random floats; and the machine takes the specialised kernel
// (in the default build: none under GOEXPERIMENT=simd).
func TestSpecialKernels(t *testing.T) {
	forms := []string{
		"add o0, v0, cb0[0].x",
		"add o0, cb0[0].xyzw, v0",
		"mul o0, v0, cb0[0].y",
		"mul o0, -cb0[0].x, v0",
		"mul_sat o0, v0.yxwz, l(0.5, -3.0, 0x7fc00001, 1e-40)",
		"mad o0, v0, cb0[0].x, cb0[0].y",
		"mad o0, cb0[0].x, v0, cb0[0].yzwx",
		"mad o0, v0, cb0[0].x, v1",
		"mad o0, cb0[0].z, v0, v1",
		"mad o0, v0, v1, cb0[0].w",
		"mad o0, v0, -cb0[0].x, |cb0[0].y|",
		"mad_sat o0, v0, l(1.9, 0x7f800000, -0.0, 3.0), l(0.13, -1.0, 0x80000001, 2.5)",
		"mov r0, v0\nmad r0.xyz, r0.zxyw, cb0[0].x, r0\nmov o0, r0",
		"mov r0, v1\nmul r0.xy, cb0[0].y, r0.yxzw\nmov o0, r0",
		"dp3 o0, v0, cb0[0]",
		"dp3_sat o0.xz, cb0[0].zyxw, v1",
		"dp4 o0, -cb0[0], v0.wzyx",
		"dp2 o0.yw, v0, l(0.5, 0x7f800000, 1.0, 1.0)",
		"dp4_sat o0, v0, l(1e30, -1e30, 0x80000000, 3.0)",
		"mov r0, v0\ndp3 r0.yz, r0, cb0[0]\nmov o0, r0",
	}
	rng := rand.New(rand.NewPCG(32, 5))
	val := func() uint32 {
		if rng.IntN(2) == 0 {
			return specials[rng.IntN(len(specials))]
		}
		return fbits(float32(rng.NormFloat64() * 100))
	}
	for _, form := range forms {
		p := mustAsm(t, "ps inputs=2 outputs=1 temps=1\n"+form+"\nret\n")
		a, g := NewMachine(p), NewMachine(p)
		special := false
		for pc := range g.code {
			if x := &g.code[pc]; x.kernel != nil && specialKernel(&p.Code[pc]) != nil {
				x.kernel = kernels[x.op]
				special = true
			} else if x.konst != 0 {
				x.konst = 0 // dot's general sum
				special = true
			}
		}
		if !special && !vecOK {
			t.Errorf("%s: not specialised", form)
		}
		for range 200 {
			cb := runBoth(t, a, g, val)
			for c := range 4 {
				for l := range Lanes {
					if x, y := a.Out(0)[c][l], g.Out(0)[c][l]; x != y {
						t.Fatalf("%s: cb0[0] = %#x, lane %d: o0.%c = %#x (%g), the general kernel's %#x (%g)",
							form, cb.k, l, "xyzw"[c], x, bitsf(x), y, bitsf(y))
					}
				}
			}
		}
	}
}

// runBoth binds a cb0 of four values from val to a and g, gives both the
// same two inputs from val and runs them with every lane active.
func runBoth(t *testing.T, a, g *Machine, val func() uint32) *kconsts {
	t.Helper()
	cb := &kconsts{[4]uint32{val(), val(), val(), val()}}
	for _, m := range []*Machine{a, g} {
		if err := m.Bind(cb, nil); err != nil {
			t.Fatal(err)
		}
	}
	for v := range 2 {
		for c := range 4 {
			for l := range Lanes {
				a.In(v)[c][l] = val()
			}
			*g.In(v) = *a.In(v)
		}
	}
	for _, m := range []*Machine{a, g} {
		if _, err := m.Run(AllLanes); err != nil {
			t.Fatal(err)
		}
	}
	return cb
}

// TestFrcFourLanes: kFrc's integer path for four lanes in [+0, 2**23)
// gives the float64 floor's bits: every float32 bit pattern in groups of
// 64 consecutive ones (a group of four all in the range goes the integer
// way; -0, negatives, NaNs and 2**23 on go lane by lane), every 97th
// group under -short.
func TestFrcFourLanes(t *testing.T) {
	step := uint64(Lanes)
	if testing.Short() {
		step *= 97
	}
	var got, want, a [Lanes]uint32
	for x := uint64(0); x < 1<<32; x += step {
		for l := range a {
			a[l] = uint32(x) + uint32(l)
		}
		kFrc(&got, &a, nil, nil)
		for l, v := range f32(&a) {
			want[l] = canonRef(v - float32(math.Floor(float64(v))))
		}
		if got != want {
			for l := range a {
				if got[l] != want[l] {
					t.Fatalf("frc %#x (%g) = %#x, want %#x", a[l], bitsf(a[l]), got[l], want[l])
				}
			}
		}
	}
}

// TestSatFold: the instructions that saturate in their kernel (satFold in
// the default build, vecFold in the vector build: mad_sat with its first
// source negated, dp3_sat) give the bits of the same arithmetic followed
// by mov_sat, for lanes and constants from the specials and random floats;
// and the machine folds them (plain, no saturate pass left).
func TestSatFold(t *testing.T) {
	forms := [][2]string{
		{"mad_sat o0, -v0, v1, cb0[0].x", "mov r0, -v0\nmad r0, r0, v1, cb0[0].x\nmov_sat o0, r0"},
		{"mad_sat o0.xy, -v0.yxzw, v1.z, -l(0.7807, 0.5, 0x7fc00001, 1e-40)", "mad r0, -v0.yxzw, v1.z, -l(0.7807, 0.5, 0x7fc00001, 1e-40)\nmov_sat o0.xy, r0"},
		{"mad_sat o0, v0, v1.x, cb0[0].y", "mad r0, v0, v1.x, cb0[0].y\nmov_sat o0, r0"},
		{"dp3_sat o0.x, v0.xyzx, l(0.3904, 0.488, 0.7807, 0.3904)", "dp3 r0.x, v0.xyzx, l(0.3904, 0.488, 0.7807, 0.3904)\nmov_sat o0.x, r0.x"},
	}
	rng := rand.New(rand.NewPCG(32, 11))
	val := func() uint32 {
		if rng.IntN(2) == 0 {
			return specials[rng.IntN(len(specials))]
		}
		return fbits(float32(rng.NormFloat64()))
	}
	for i, f := range forms {
		a := NewMachine(mustAsm(t, "ps inputs=2 outputs=1 temps=1\n"+f[0]+"\nret\n"))
		g := NewMachine(mustAsm(t, "ps inputs=2 outputs=1 temps=1\n"+f[1]+"\nret\n"))
		if x := &a.code[0]; i < 3 && (x.sat || !x.plain) {
			t.Errorf("%s: not folded (sat %v, plain %v)", f[0], x.sat, x.plain)
		}
		for range 200 {
			runBoth(t, a, g, val)
			if *a.Out(0) != *g.Out(0) {
				t.Fatalf("%s: %x, want %x", f[0], *a.Out(0), *g.Out(0))
			}
		}
	}
}
