package scenario

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// slicesBytes assembles testdata/compute/NAME.asm with its RWTexture2DArray
// read as dim (texture2darray or texture3d).
func slicesBytes(t *testing.T, name, dim string) string {
	t.Helper()
	text, err := os.ReadFile("../umd/translate/testdata/compute/" + name + ".asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(strings.ReplaceAll(string(text), "texture2darray", dim))
	if err != nil {
		t.Fatal(err)
	}
	return "bytes:" + hex.EncodeToString(bc)
}

// TestUAVSlices: a RWTexture2DArray of 3 slices and a RWTexture3D of depth
// 3, cleared to 7, written at every (x, y, slice) by one dispatch through
// a view of slices 1 and 2 (FirstArraySlice=1 ArraySize=2, FirstWSlice=1 WSize=2),
// then one slice read back through a view of it alone into a RWBuffer:
// view slice 0 of the write is resource slice 1, view slice 1 resource
// slice 2. The values, x + 10y + 100z + 1 with z the write view's slice,
// are computed here.
func TestUAVSlices(t *testing.T) {
	want := func(z int) []uint32 {
		var out []uint32
		for y := range 2 {
			for x := range 4 {
				out = append(out, uint32(x+10*y+100*z+1))
			}
		}
		return out
	}
	for _, c := range []struct{ dim, tex, write, read1, read2 string }{
		{"texture2darray", "dev.CreateTexture2D Width=4 Height=2 ArraySize=3 Format=R32_UINT BindFlags=UNORDERED_ACCESS",
			"FirstArraySlice=1 ArraySize=2", "FirstArraySlice=1 ArraySize=1", "FirstArraySlice=2 ArraySize=1"},
		{"texture3d", "dev.CreateTexture3D Width=4 Height=2 Depth=3 Format=R32_UINT BindFlags=UNORDERED_ACCESS",
			"FirstWSlice=1 WSize=2", "FirstWSlice=1 WSize=1", "FirstWSlice=2 WSize=1"},
	} {
		t.Run(c.dim, func(t *testing.T) {
			mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
tex = `+c.tex+`
wv = dev.CreateUnorderedAccessView tex `+c.write+`
r1 = dev.CreateUnorderedAccessView tex `+c.read1+`
r2 = dev.CreateUnorderedAccessView tex `+c.read2+`
all = dev.CreateUnorderedAccessView tex
outb = dev.CreateBuffer ByteWidth=32 BindFlags=UNORDERED_ACCESS
outv = dev.CreateUnorderedAccessView outb Format=R32_UINT
w = dev.CreateComputeShader `+slicesBytes(t, "slices_write", c.dim)+`
r = dev.CreateComputeShader `+slicesBytes(t, "slices_read", c.dim)+`
imm.ClearUnorderedAccessViewUint all 7
imm.CSSetShader w
imm.CSSetUnorderedAccessViews 0 wv
imm.Dispatch 1
expect probe tex 0 0 4 2 == u32[7]
imm.CSSetShader r
imm.CSSetUnorderedAccessViews 0 r1 outv
imm.Dispatch 1
expect probe outb 0 0 == `+u32List(want(0))+`
imm.CSSetUnorderedAccessViews 0 r2
imm.Dispatch 1
expect probe outb 0 0 == `+u32List(want(1))+`
dims = dev.CreateComputeShader `+dimsShader(t, c.dim)+`
imm.CSSetShader dims
imm.CSSetUnorderedAccessViews 0 wv
imm.Dispatch 1
expect probe outb 0 0 == u32[4 2 2]
expect violations == 0
`)
		})
	}
}

// The runtime's checks of a texture view's dimension and slices.
func TestUAVSliceValidation(t *testing.T) {
	pre := `dev, imm = D3D11CreateDevice Flags=DEBUG
a = dev.CreateTexture2D Width=4 Height=4 ArraySize=3 Format=R32_UINT BindFlags=UNORDERED_ACCESS
v = dev.CreateTexture3D Width=4 Height=4 Depth=4 MipLevels=2 Format=R32_UINT BindFlags=UNORDERED_ACCESS
`
	for _, c := range []struct{ src, want string }{
		{"u = dev.CreateUnorderedAccessView a ViewDimension=TEXTURE2D\n", "an array of 3 slices: its views are TEXTURE2DARRAY"},
		{"u = dev.CreateUnorderedAccessView a FirstArraySlice=2 ArraySize=2\n", "FirstArraySlice 2, ArraySize 2: a has 3 array slices"},
		{"u = dev.CreateUnorderedAccessView v ViewDimension=TEXTURE2D\n", "a view of v is D3D11_UAV_DIMENSION_TEXTURE3D"},
		{"u = dev.CreateUnorderedAccessView v MipSlice=1 FirstWSlice=1 WSize=2\n", "FirstWSlice 1, WSize 2: mip 1 of v has 2 depth slices"},
	} {
		r := runSource(t, pre+c.src)
		if sum := r.Summary(); sum.OK() || !strings.Contains(strings.Join(sum.Failures, "\n"), c.want) {
			t.Errorf("%q: failures %q, want %q", c.src, sum.Failures, c.want)
		}
	}
}

// dimsShader is GetDimensions of the view at u0 (resinfo_uint of a
// RWTexture2DArray or RWTexture3D) stored to u1's first three elements.
func dimsShader(t *testing.T, dim string) string {
	bc, err := dxbc.Assemble(`cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_typed_` + dim + ` (uint,uint,uint,uint) u0
dcl_uav_typed_buffer (uint,uint,uint,uint) u1
dcl_temps 1
dcl_thread_group 1, 1, 1
resinfo_uint r0.xyzw, l(0), u0.xyzw
store_uav_typed u1.xyzw, l(0,0,0,0), r0.xxxx
store_uav_typed u1.xyzw, l(1,1,1,1), r0.yyyy
store_uav_typed u1.xyzw, l(2,2,2,2), r0.zzzz
ret
`)
	if err != nil {
		t.Fatal(err)
	}
	return "bytes:" + hex.EncodeToString(bc)
}
