package translate

import (
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// TestTextureOperands: aoffimmi's offsets, a gather's channel (the
// sampler's selected component) and the declared resources reach the
// translated program as the ISA and the UMD read them.
func TestTextureOperands(t *testing.T) {
	r := dxbc.Temp
	b := newTestBuilder(dxbc.PixelShader)
	declLaterResources(b)
	b.Emit(dxbc.OpGather4C, r(0), r(1), dxbc.Texture(2), selSampler(2, 2), r(2).Swz("x"))
	b.Emit(dxbc.OpSample, r(0), r(1), dxbc.Texture(0), dxbc.Sampler(0))
	b.Offset(-8, 7, -1)
	p := finishProgram(t, b)
	sh, err := translateProgram(p, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var saw int
	for _, in := range sh.Program.Code {
		switch in.Op {
		case shaderisa.OpGather4C:
			saw++
			if in.Channel != 2 || in.Offset != [3]int8{} {
				t.Errorf("gather4_c: channel %d offset %v, want 2 and none", in.Channel, in.Offset)
			}
		case shaderisa.OpSample:
			saw++
			if in.Offset != [3]int8{-8, 7, -1} {
				t.Errorf("sample: offset %v, want [-8 7 -1]", in.Offset)
			}
		}
	}
	if saw != 2 {
		t.Fatalf("%d of the two texture instructions found:\n%s", saw, sh.Listing())
	}
	want := map[uint32]Texture{
		2: {Slot: 2, Dimension: dxbc.DimTextureCube, Return: [4]dxbc.ReturnType{dxbc.ReturnFloat, dxbc.ReturnFloat, dxbc.ReturnFloat, dxbc.ReturnFloat}},
		3: {Slot: 3, Dimension: dxbc.DimStructuredBuffer, Stride: 20},
		4: {Slot: 4, Dimension: dxbc.DimRawBuffer},
	}
	for _, tex := range sh.Textures {
		if w, ok := want[tex.Slot]; ok && tex != w {
			t.Errorf("t%d: %+v, want %+v", tex.Slot, tex, w)
		}
	}
}
