package shader

import (
	"testing"
	"unsafe"
)

func kMadKK(r, a *[Lanes]uint32, b, c float32) {
	rf, af := f32(r), f32(a)
	for i := 0; i < Lanes; i += 4 {
		x0 := float32(af[i]*b) + c
		x1 := float32(af[i+1]*b) + c
		x2 := float32(af[i+2]*b) + c
		x3 := float32(af[i+3]*b) + c
		if s := (x0 + x1) + (x2 + x3); s != s {
			x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
		}
		rf[i], rf[i+1], rf[i+2], rf[i+3] = x0, x1, x2, x3
	}
}

func fill64(d *[Lanes]uint32, v uint32) {
	p := (*[Lanes / 2]uint64)(unsafe.Pointer(d))
	w := uint64(v) | uint64(v)<<32
	for i := range p {
		p[i] = w
	}
}

func BenchmarkTmpSpec(b *testing.B) {
	var r, a [Lanes]uint32
	for i := range a {
		f32(&a)[i] = float32(i) / 64
	}
	b.Run("madkk", func(b *testing.B) {
		for range b.N {
			kMadKK(&r, &a, 1.9, 0.13)
		}
	})
	b.Run("fill64", func(b *testing.B) {
		for range b.N {
			fill64(&r, 7)
		}
	})
}
