package scenario

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// unorm8f is a float stored in an 8-bit UNORM channel and read back: the
// conversion D3D11's float-to-UNORM rules give (clamp, scale, round to
// nearest), computed here.
func unorm8f(v float64) float32 {
	v = math.Max(0, math.Min(1, v))
	return float32(math.Floor(v*255+0.5)) / 255
}

func f32List(v ...float32) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "f32[" + strings.Join(s, " ") + "]"
}

// TestClearUnorderedAccessViews: the Float clear converts to a typed
// view's format (FLOAT as is, UNORM clamped and rounded); the Uint clear
// copies each value's low bits to its channel (8 of 0x1FF in an UNORM
// byte, 16 of 0x12345 in a 16-bit channel) and a raw or structured view's
// first value to every word; a buffer view clears its elements only.
func TestClearUnorderedAccessViews(t *testing.T) {
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
f = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32A32_FLOAT BindFlags=UNORDERED_ACCESS
fv = dev.CreateUnorderedAccessView f
n = dev.CreateTexture2D Width=3 Height=2 Format=R8G8B8A8_UNORM BindFlags=UNORDERED_ACCESS
nv = dev.CreateUnorderedAccessView n
raw = dev.CreateBuffer ByteWidth=16 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS
rawv = dev.CreateUnorderedAccessView raw Format=R32_TYPELESS Flags=RAW
st = dev.CreateBuffer ByteWidth=16 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_STRUCTURED StructureByteStride=8
stv = dev.CreateUnorderedAccessView st
typed = dev.CreateBuffer BindFlags=UNORDERED_ACCESS Data=u32[1 1 1 1 1 1]
typedv = dev.CreateUnorderedAccessView typed Format=R32_UINT FirstElement=2 NumElements=3
h = dev.CreateBuffer ByteWidth=16 BindFlags=UNORDERED_ACCESS
hv = dev.CreateUnorderedAccessView h Format=R16G16B16A16_UINT
imm.ClearUnorderedAccessViewFloat fv 0.5 1 -2 3
expect calls ClearUnorderedAccessViewFloat ClearUnorderedAccessViewFloat
expect probe f 0 0 4 4 == f32[0.5 1 -2 3]
imm.ClearUnorderedAccessViewFloat nv 0.5 0.25 -1 2
expect probe n 0 0 3 2 == `+f32List(unorm8f(0.5), unorm8f(0.25), 0, 1)+`
imm.ClearUnorderedAccessViewUint nv 511 2 3 4
expect calls ClearUnorderedAccessViewUint ClearUnorderedAccessViewUint
expect probe n 2 1 == `+f32List(1, unorm8f(2.0/255), unorm8f(3.0/255), unorm8f(4.0/255))+`
imm.ClearUnorderedAccessViewUint rawv 7 8 9 10
expect probe raw 0 0 == u32[7 7 7 7]
imm.ClearUnorderedAccessViewUint stv 4294967295 1
expect probe st 0 0 == u32[4294967295 4294967295 4294967295 4294967295]
imm.ClearUnorderedAccessViewUint typedv 9
expect probe typed 0 0 == u32[1 1 9 9 9 1]
imm.ClearUnorderedAccessViewUint hv 74565 65537 7 4294967295
expect probe h 0 0 == u32[74565 4294901767 74565 4294901767]
expect violations == 0
`)
}

// The runtime's refusals: the Float clear of a raw, a structured or an
// integer view does not reach the driver; CopyStructureCount needs a view
// with a hidden counter and an aligned offset inside the buffer.
func TestClearUnorderedAccessViewRefusals(t *testing.T) {
	pre := `dev, imm = D3D11CreateDevice Flags=DEBUG
raw = dev.CreateBuffer ByteWidth=16 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS
rawv = dev.CreateUnorderedAccessView raw Format=R32_TYPELESS Flags=RAW
st = dev.CreateBuffer ByteWidth=16 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_STRUCTURED StructureByteStride=4
stv = dev.CreateUnorderedAccessView st
ap = dev.CreateUnorderedAccessView st Flags=APPEND
u = dev.CreateBuffer ByteWidth=16 BindFlags=UNORDERED_ACCESS
uv = dev.CreateUnorderedAccessView u Format=R32_UINT
`
	for _, c := range []struct{ src, want string }{
		{"imm.ClearUnorderedAccessViewFloat rawv 1\n", "rawv is a raw view: ClearUnorderedAccessViewFloat is for FLOAT, UNORM and SNORM views"},
		{"imm.ClearUnorderedAccessViewFloat stv 1\n", "stv is a structured view"},
		{"imm.ClearUnorderedAccessViewFloat uv 1\n", "uv is a R32_UINT view"},
		{"imm.CopyStructureCount u 0 stv\n", "pSrcView: stv has no hidden counter"},
		{"imm.CopyStructureCount u 2 ap\n", "DstAlignedByteOffset 2: a multiple of 4"},
		{"imm.CopyStructureCount u 16 ap\n", "DstAlignedByteOffset 16"},
	} {
		r := runSource(t, pre+c.src)
		if sum := r.Summary(); sum.OK() || !strings.Contains(strings.Join(sum.Failures, "\n"), c.want) {
			t.Errorf("%q: failures %q, want %q", c.src, sum.Failures, c.want)
		}
	}
}

// TestCopyStructureCount: an append view's hidden counter, set by
// UAVInitialCounts and advanced by the histogram's appends (the threads
// whose value is below 8), copied into a buffer at an offset, on the
// immediate context and from a command list.
func TestCopyStructureCount(t *testing.T) {
	const n = 64
	vals := make([]uint32, n)
	small := uint32(0)
	for i := range vals {
		vals[i] = uint32(i*i*5+3) % 89
		if vals[i] < 8 {
			small++
		}
	}
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
vals = dev.CreateBuffer BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_STRUCTURED StructureByteStride=4 Data=`+u32List(vals)+`
valsv = dev.CreateUnorderedAccessView vals
hist = dev.CreateBuffer ByteWidth=68 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS
histv = dev.CreateUnorderedAccessView hist Format=R32_TYPELESS Flags=RAW
small = dev.CreateBuffer ByteWidth=`+fmt.Sprint(4*n+64)+` BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_STRUCTURED StructureByteStride=4
smallv = dev.CreateUnorderedAccessView small Flags=APPEND
out = dev.CreateBuffer ByteWidth=16 BindFlags=UNORDERED_ACCESS Data=u32[9 9 9 9]
cs = dev.CreateComputeShader `+computeBytes(t, "histogram")+`
imm.CSSetShader cs
imm.CSSetUnorderedAccessViews 0 valsv histv smallv UAVInitialCounts=u32[4294967295 4294967295 5]
imm.CopyStructureCount out 4 smallv
expect calls CopyStructureCount CopyStructureCount
expect probe out 0 0 == u32[9 5 9 9]
imm.Dispatch 1
imm.CopyStructureCount out 8 smallv
expect probe out 0 0 == u32[9 5 `+fmt.Sprint(5+small)+` 9]
dc = dev.CreateDeferredContext
dc.CopyStructureCount out 12 smallv
cl = dc.FinishCommandList
imm.ExecuteCommandList cl
expect probe out 0 0 == u32[9 5 `+fmt.Sprint(5+small)+` `+fmt.Sprint(5+small)+`]
expect violations == 0
`)
}
