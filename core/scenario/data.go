package scenario

import (
	"encoding/binary"
	"math"
)

// Built-in meshes in the built-in vertex format: nine float32 per vertex
// (position xyz, colour rgba, texcoord uv). Winding is clockwise in screen
// space, D3D11's default front face.
var meshes = map[string][]float32{
	"triangle": {
		0, 0.5, 0.5, 1, 0, 0, 1, 0.5, 0,
		0.5, -0.5, 0.5, 0, 1, 0, 1, 1, 1,
		-0.5, -0.5, 0.5, 0, 0, 1, 1, 0, 1,
	},
	// quad covers the whole viewport, white, uv (0,0) at the top left.
	"quad": {
		-1, 1, 0.5, 1, 1, 1, 1, 0, 0,
		1, 1, 0.5, 1, 1, 1, 1, 1, 0,
		-1, -1, 0.5, 1, 1, 1, 1, 0, 1,
		-1, -1, 0.5, 1, 1, 1, 1, 0, 1,
		1, 1, 0.5, 1, 1, 1, 1, 1, 0,
		1, -1, 0.5, 1, 1, 1, 1, 1, 1,
	},
	"cube": cube(),
}

// cube is a unit cube centred on the origin, 36 vertices, one colour per
// face, clockwise seen from outside in D3D's left-handed space.
func cube() []float32 {
	type v3 [3]float32
	faces := []struct {
		c       [4]float32
		a, b, d v3 // three corners: a is top-left, b top-right, d bottom-left (seen from outside)
	}{
		{[4]float32{1, 0, 0, 1}, v3{-.5, .5, -.5}, v3{.5, .5, -.5}, v3{-.5, -.5, -.5}},  // front (-z)
		{[4]float32{0, 1, 0, 1}, v3{.5, .5, .5}, v3{-.5, .5, .5}, v3{.5, -.5, .5}},      // back (+z)
		{[4]float32{0, 0, 1, 1}, v3{-.5, .5, .5}, v3{-.5, .5, -.5}, v3{-.5, -.5, .5}},   // left (-x)
		{[4]float32{1, 1, 0, 1}, v3{.5, .5, -.5}, v3{.5, .5, .5}, v3{.5, -.5, -.5}},     // right (+x)
		{[4]float32{0, 1, 1, 1}, v3{-.5, .5, .5}, v3{.5, .5, .5}, v3{-.5, .5, -.5}},     // top (+y)
		{[4]float32{1, 0, 1, 1}, v3{-.5, -.5, -.5}, v3{.5, -.5, -.5}, v3{-.5, -.5, .5}}, // bottom (-y)
	}
	var out []float32
	vert := func(p v3, c [4]float32, u, v float32) {
		out = append(out, p[0], p[1], p[2], c[0], c[1], c[2], c[3], u, v)
	}
	for _, f := range faces {
		// fourth corner: b + d - a
		e := v3{f.b[0] + f.d[0] - f.a[0], f.b[1] + f.d[1] - f.a[1], f.b[2] + f.d[2] - f.a[2]}
		vert(f.a, f.c, 0, 0)
		vert(f.b, f.c, 1, 0)
		vert(f.d, f.c, 0, 1)
		vert(f.d, f.c, 0, 1)
		vert(f.b, f.c, 1, 0)
		vert(e, f.c, 1, 1)
	}
	return out
}

func f32Bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// dataBytes turns a data value (f32/u8/u16/u32/i8/i16/i32 list, mesh, colour) into bytes.
func dataBytes(v Value) ([]byte, bool) {
	switch v.Kind {
	case VF32:
		return f32Bytes(v.F32), true
	case VU16:
		b := make([]byte, 2*len(v.U32))
		for i, x := range v.U32 {
			binary.LittleEndian.PutUint16(b[2*i:], uint16(x))
		}
		return b, true
	case VU32, VI32:
		b := make([]byte, 4*len(v.U32))
		for i, x := range v.U32 {
			binary.LittleEndian.PutUint32(b[4*i:], x)
		}
		return b, true
	case VI16:
		b := make([]byte, 2*len(v.U32))
		for i, x := range v.U32 {
			binary.LittleEndian.PutUint16(b[2*i:], uint16(x))
		}
		return b, true
	case VU8, VI8:
		b := make([]byte, len(v.U32))
		for i, x := range v.U32 {
			b[i] = byte(x)
		}
		return b, true
	case VMesh:
		m, ok := meshes[v.Ident]
		if !ok {
			return nil, false
		}
		return f32Bytes(m), true
	case VColor:
		return v.Color[:], true
	}
	return nil, false
}
