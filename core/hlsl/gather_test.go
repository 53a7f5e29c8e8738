package hlsl

import (
	"testing"

	"d3dsim/core/dxbc"
)

// TestGatherChannel: GatherRed .. GatherAlpha (and their Cmp forms) write
// the channel as the sampler operand's selected component, s0.x .. s0.w,
// as fxc does, so that a driver reads it (a sampler operand without
// components read as red: GatherGreen returned the red channel).
func TestGatherChannel(t *testing.T) {
	for _, c := range []struct {
		call, target string
		op           dxbc.Opcode
		ch           uint8
	}{
		{"t.Gather(s, uv)", "ps_4_1", dxbc.OpGather4, 0},
		{"t.GatherRed(s, uv)", "ps_5_0", dxbc.OpGather4, 0},
		{"t.GatherGreen(s, uv)", "ps_5_0", dxbc.OpGather4, 1},
		{"t.GatherBlue(s, uv, int2(1, 0))", "ps_5_0", dxbc.OpGather4, 2},
		{"t.GatherAlpha(s, uv, o)", "ps_5_0", dxbc.OpGather4PO, 3},
		{"t.GatherCmpGreen(c, uv, 0.5)", "ps_5_0", dxbc.OpGather4C, 1},
	} {
		t.Run(c.call, func(t *testing.T) {
			src := "Texture2D t; SamplerState s; SamplerComparisonState c; int2 o;\n" +
				"float4 main(float2 uv : TEXCOORD0) : SV_Target { return " + c.call + "; }"
			r := compileOK(t, src, "main", c.target)
			sh, err := dxbc.Validate(r.Bytecode, dxbc.PixelShader)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, in := range sh.Program.Instructions {
				if in.Op != c.op {
					continue
				}
				found = true
				smp := in.Operands[len(in.Operands)-1]
				if in.Op == dxbc.OpGather4C {
					smp = in.Operands[len(in.Operands)-2]
				}
				if smp.Type != dxbc.RegSampler || smp.Components != 4 || smp.Mode != dxbc.SelectOne || smp.Swiz[0] != c.ch {
					t.Errorf("sampler operand %+v, want s#.%c\n%s", smp, "xyzw"[c.ch], sh.Program.Disassemble())
				}
			}
			if !found {
				t.Errorf("no %v\n%s", c.op, sh.Program.Disassemble())
			}
		})
	}
}
