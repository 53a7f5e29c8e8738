package shaderisa

import (
	"math"
	"testing"
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

// specials are bit patterns that print in each of the immediate's forms:
// zeros, ones, denormals, the normal extremes, infinities, NaNs (two
// payloads), and integers.
var specials = []uint32{
	fbits(0), 0x80000000, fbits(1), fbits(-1), fbits(0.5), fbits(2), fbits(3.7), fbits(-2.5),
	1, 0x80000001, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FA00001, 0xFFC00000,
	fbits(1e10), fbits(-1e10), fbits(100), fbits(0.1), fbits(-0.75), fbits(1.5), fbits(2.5), fbits(-1.5),
	fbits(4294967296), fbits(2147483648), fbits(-2147483648), fbits(16777217), fbits(3e9),
	0x7FFFFFFF, 0xFFFFFFFF, 5, 31, 32, 33, 0x12345678, 7,
}

// vertexColor is the pixel program "out = vertex colour".
const vertexColor = `ps inputs=1 outputs=1 temps=0
mov o0, v0
`

// texturedColor is the ImGui pixel shader: texture sample × vertex colour.
const texturedColor = `ps inputs=2 outputs=1 temps=1
sample r0, v1.xyxx, t0, s0
mul o0, r0, v0
`
