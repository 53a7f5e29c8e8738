package translate

import (
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// TestDepthAndFrontFace: a pixel shader's oDepth (SV_Depth) is written to
// the ISA's output DepthOutput, x only, and SV_IsFrontFace is an input the
// rasterizer fills: both listed with their system values for the UMD's
// SET_PROGRAM word.
func TestDepthAndFrontFace(t *testing.T) {
	b := dxbc.NewBuilder(dxbc.PixelShader, 5, 0)
	b.DclInputPSSGV(1, dxbc.X, dxbc.SVIsFrontFace)
	b.DclOutput(0, dxbc.XYZW)
	b.DclOutputDepth()
	b.Emit(dxbc.OpMov, dxbc.Output(0), dxbc.Input(1).Swz("xxxx"))
	b.Emit(dxbc.OpMov, dxbc.OutputDepth(), dxbc.Imm(0.25))
	b.Ret()
	p, err := b.Program()
	if err != nil {
		t.Fatal(err)
	}
	s, err := translateProgram(p, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var depth, face bool
	for _, o := range s.Outputs {
		depth = depth || o.SystemValue == dxbc.SVDepth && o.ISA == DepthOutput
	}
	for _, in := range s.Inputs {
		face = face || in.SystemValue == dxbc.SVIsFrontFace && in.ISA == 1
	}
	if !depth || !face {
		t.Fatalf("outputs %+v inputs %+v: want SV_Depth in o%d and SV_IsFrontFace in v1", s.Outputs, s.Inputs, DepthOutput)
	}
	found := false
	for _, in := range s.Program.Code {
		if in.Op == shaderisa.OpMov && in.Dst.File == shaderisa.FileOutput && in.Dst.Index == DepthOutput && in.Dst.Mask == 1 {
			found = true
		}
	}
	if !found || s.Program.Outputs != DepthOutput+1 {
		t.Fatalf("no mov to o%d.x in\n%v", DepthOutput, s.Program.Code)
	}
}
