package shader

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestBroadcastKernels: mul and mad of three components with a broadcast
// source, in random forms (which source is broadcast and from which
// register and component, the others' swizzles, the destination a source
// or the broadcast register, a constant among the sources, _sat, masks of
// other sizes), give the per-component kernels' bits over lanes from the
// specials and random floats; the one-pass kernel is taken where it
// should be (the bench's loop and Phong forms among them).
func TestBroadcastKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 6))
	val := func() uint32 {
		if rng.IntN(3) == 0 {
			return specials[rng.IntN(len(specials))]
		}
		return fbits(float32(rng.NormFloat64() * 10))
	}
	swz := func() string {
		b := make([]byte, 4)
		for i := range b {
			b[i] = "xyzw"[rng.IntN(4)]
		}
		return string(b)
	}
	reg := func() string { return []string{"v0", "v1", "r0", "r1"}[rng.IntN(4)] }
	masks := []string{"xyz", "xyw", "xzw", "yzw", "xy", "xyzw", "z"}
	forms := []string{
		"mad r0.xyz, v1.xyzx, r1.x, r0.xyzx", // the loop's
		"mul r1.xyz, r0.x, r1.xyzx",          // Phong's
		"mad r0.xyz, v1.xyzx, r1.x, r1.y",    // Phong's last
		"mul r0.xyz, r0.xyzx, r0.z",          // the broadcast the last component written
		"mad r0.yzw, r1.z, v0.wzyx, r0",
	}
	for range 300 {
		op := []string{"mul", "mad"}[rng.IntN(2)]
		if rng.IntN(8) == 0 {
			op += "_sat"
		}
		mask := masks[rng.IntN(len(masks))]
		if rng.IntN(2) == 0 {
			mask = masks[0]
		}
		b := fmt.Sprintf("%s.%c", reg(), "xyzw"[rng.IntN(4)])
		a := reg() + "." + swz()
		srcs := []string{a, b}
		if rng.IntN(2) == 0 {
			srcs = []string{b, a}
		}
		if op[:3] == "mad" {
			switch rng.IntN(4) {
			case 0:
				srcs = append(srcs, fmt.Sprintf("%s.%c", reg(), "xyzw"[rng.IntN(4)]))
			case 1:
				srcs = append(srcs, "l(0.5, -1.0, 3.0, 0x7fc00000)")
			default:
				srcs = append(srcs, reg()+"."+swz())
			}
		}
		forms = append(forms, fmt.Sprintf("%s r%d.%s, %s", op, rng.IntN(2), mask, joinSrcs(srcs)))
	}
	taken := 0
	for i, form := range forms {
		p := mustAsm(t, "ps inputs=2 outputs=2 temps=2\nmov r0, v1.yzwx\nmov r1, v0.wxzy\n"+form+"\nmov o0, r0\nmov o1, r1\nret\n")
		a, g := NewMachine(p), NewMachine(p)
		b := false
		for pc := range g.code {
			if g.code[pc].bcast != nil {
				g.code[pc].bcast = nil
				b = true
			}
		}
		if b {
			taken++
		} else if i < 5 && !vecOK {
			t.Errorf("%s: not taken", form)
		}
		for range 20 {
			for v := range 2 {
				for c := range 4 {
					for l := range Lanes {
						a.In(v)[c][l] = val()
					}
					*g.In(v) = *a.In(v)
				}
			}
			mask := AllLanes
			if rng.IntN(4) == 0 {
				mask = rng.Uint64()
			}
			if _, err := a.Run(mask); err != nil {
				t.Fatal(err)
			}
			if _, err := g.Run(mask); err != nil {
				t.Fatal(err)
			}
			for o := range 2 {
				for c := range 4 {
					for l := range Lanes {
						if x, y := a.Out(o)[c][l], g.Out(o)[c][l]; x != y {
							t.Fatalf("%s: lane %d: o%d.%c = %#x (%g), the per-component kernels' %#x (%g)",
								form, l, o, "xyzw"[c], x, bitsf(x), y, bitsf(y))
						}
					}
				}
			}
		}
	}
	t.Logf("taken in %d forms of %d", taken, len(forms))
	if !vecOK && taken < 60 {
		t.Errorf("the one-pass kernel taken in %d forms of %d", taken, len(forms))
	}
}

func joinSrcs(s []string) string {
	out := s[0]
	for _, x := range s[1:] {
		out += ", " + x
	}
	return out
}
