package shader

import . "d3dsim/gpu/shaderisa"

// Three components in one pass (issue 32; the default build): a mul or mad
// writing three components, one of whose sources reads one component of a
// register for all three (HLSL's float3 * scalar: the loop's `mad r0.xyz,
// v1.xyzx, r5.x, r0.xyzx`, Phong's `mul r2.xyz, r1.x, r0.xyzx` and `mad
// o0.xyz, v1.xyzx, r0.x, r1.x`), runs as one pass over the lanes, four at
// a time, the broadcast source's four lanes loaded once for the three
// components, instead of a pass a component that loads them each time.
//
// The results are the per-component kernels' bits: the same float32
// operations (a product rounded before its sum), a product's operands in
// either order (IEEE multiplication commutes; a NaN is made canonical), NaNs
// canonical. Only direct instructions (no component reads what an earlier
// one wrote, setDirect) with every lane active are taken, so that writing a
// group of four lanes' three components before the next group reads its
// sources is what the passes one component at a time compute: a later
// component never reads an earlier one's destination, and the broadcast
// source, if it is a destination at all, is the last component's, loaded
// before the group's stores. TestBroadcastKernels compares random
// instructions of these shapes with the general kernels.

// bcastKernel runs in for every lane, straight to its destination.
type bcastKernel func(in *xinst)

// broadcastKernel returns the one-pass kernel of x, or nil.
func broadcastKernel(x *xinst) bcastKernel {
	if vecOK || !x.plain || !x.direct || x.sat || x.folded || x.dstRel || x.mask == 0 {
		return nil
	}
	var cs [3]int
	n := 0
	for c := range 4 {
		if x.mask>>c&1 != 0 {
			if n == 3 {
				return nil
			}
			cs[n] = c
			n++
		}
	}
	if n != 3 {
		return nil
	}
	// one reports whether source k reads one array for the three
	// components, and returns the arrays it reads.
	arrays := func(k int) (*[Lanes]float32, *[Lanes]float32, *[Lanes]float32) {
		s := &x.src[k]
		return f32(s.c[cs[0]]), f32(s.c[cs[1]]), f32(s.c[cs[2]])
	}
	one := func(k int) bool {
		a, b, c := arrays(k)
		return a == b && b == c
	}
	d0, d1, d2 := f32(x.dst[cs[0]]), f32(x.dst[cs[1]]), f32(x.dst[cs[2]])
	switch x.op {
	case OpMul:
		var a0, a1, a2, k *[Lanes]float32
		switch {
		case one(1):
			a0, a1, a2 = arrays(0)
			k, _, _ = arrays(1)
		case one(0):
			a0, a1, a2 = arrays(1)
			k, _, _ = arrays(0)
		default:
			return nil
		}
		return func(*xinst) { mul3B(d0, d1, d2, a0, a1, a2, k) }
	case OpMad:
		var a0, a1, a2, k *[Lanes]float32
		switch {
		case one(1) && !one(0):
			a0, a1, a2 = arrays(0)
			k, _, _ = arrays(1)
		case one(0) && !one(1):
			a0, a1, a2 = arrays(1)
			k, _, _ = arrays(0)
		default:
			return nil
		}
		c0, c1, c2 := arrays(2)
		if one(2) {
			return func(*xinst) { mad3BB(d0, d1, d2, a0, a1, a2, k, c0) }
		}
		return func(*xinst) { mad3B(d0, d1, d2, a0, a1, a2, k, c0, c1, c2) }
	}
	return nil
}

// nan4 returns four lanes with NaNs made canonical: the sum of four lanes
// is NaN when one is (or for infinities of both signs), as the kernels test.
func nan4(x0, x1, x2, x3 float32) (float32, float32, float32, float32) {
	if s := (x0 + x1) + (x2 + x3); s != s {
		return cn(x0), cn(x1), cn(x2), cn(x3)
	}
	return x0, x1, x2, x3
}

// mul3B is dC = aC * k for three components C.
func mul3B(d0, d1, d2, a0, a1, a2, k *[Lanes]float32) {
	for i := 0; i < Lanes; i += 4 {
		k0, k1, k2, k3 := k[i], k[i+1], k[i+2], k[i+3]
		x0, x1, x2, x3 := nan4(a0[i]*k0, a0[i+1]*k1, a0[i+2]*k2, a0[i+3]*k3)
		y0, y1, y2, y3 := nan4(a1[i]*k0, a1[i+1]*k1, a1[i+2]*k2, a1[i+3]*k3)
		z0, z1, z2, z3 := nan4(a2[i]*k0, a2[i+1]*k1, a2[i+2]*k2, a2[i+3]*k3)
		d0[i], d0[i+1], d0[i+2], d0[i+3] = x0, x1, x2, x3
		d1[i], d1[i+1], d1[i+2], d1[i+3] = y0, y1, y2, y3
		d2[i], d2[i+1], d2[i+2], d2[i+3] = z0, z1, z2, z3
	}
}

// mad3B is dC = aC * k + cC for three components C.
func mad3B(d0, d1, d2, a0, a1, a2, k, c0, c1, c2 *[Lanes]float32) {
	for i := 0; i < Lanes; i += 4 {
		k0, k1, k2, k3 := k[i], k[i+1], k[i+2], k[i+3]
		x0, x1, x2, x3 := nan4(float32(a0[i]*k0)+c0[i], float32(a0[i+1]*k1)+c0[i+1], float32(a0[i+2]*k2)+c0[i+2], float32(a0[i+3]*k3)+c0[i+3])
		y0, y1, y2, y3 := nan4(float32(a1[i]*k0)+c1[i], float32(a1[i+1]*k1)+c1[i+1], float32(a1[i+2]*k2)+c1[i+2], float32(a1[i+3]*k3)+c1[i+3])
		z0, z1, z2, z3 := nan4(float32(a2[i]*k0)+c2[i], float32(a2[i+1]*k1)+c2[i+1], float32(a2[i+2]*k2)+c2[i+2], float32(a2[i+3]*k3)+c2[i+3])
		d0[i], d0[i+1], d0[i+2], d0[i+3] = x0, x1, x2, x3
		d1[i], d1[i+1], d1[i+2], d1[i+3] = y0, y1, y2, y3
		d2[i], d2[i+1], d2[i+2], d2[i+3] = z0, z1, z2, z3
	}
}

// mad3BB is dC = aC * k + c for three components C.
func mad3BB(d0, d1, d2, a0, a1, a2, k, c *[Lanes]float32) {
	for i := 0; i < Lanes; i += 4 {
		k0, k1, k2, k3 := k[i], k[i+1], k[i+2], k[i+3]
		e0, e1, e2, e3 := c[i], c[i+1], c[i+2], c[i+3]
		x0, x1, x2, x3 := nan4(float32(a0[i]*k0)+e0, float32(a0[i+1]*k1)+e1, float32(a0[i+2]*k2)+e2, float32(a0[i+3]*k3)+e3)
		y0, y1, y2, y3 := nan4(float32(a1[i]*k0)+e0, float32(a1[i+1]*k1)+e1, float32(a1[i+2]*k2)+e2, float32(a1[i+3]*k3)+e3)
		z0, z1, z2, z3 := nan4(float32(a2[i]*k0)+e0, float32(a2[i+1]*k1)+e1, float32(a2[i+2]*k2)+e2, float32(a2[i+3]*k3)+e3)
		d0[i], d0[i+1], d0[i+2], d0[i+3] = x0, x1, x2, x3
		d1[i], d1[i+1], d1[i+2], d1[i+3] = y0, y1, y2, y3
		d2[i], d2[i+1], d2[i+2], d2[i+3] = z0, z1, z2, z3
	}
}
