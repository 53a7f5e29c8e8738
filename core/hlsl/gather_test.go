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

// TestGatherFourOffsets: GatherGreen(s, uv, o1, o2, o3, o4) gathers once
// per texel, each with its offset (immediate, or gather4_po's operand),
// writing its component of the result.
func TestGatherFourOffsets(t *testing.T) {
	src := "Texture2D t; SamplerState s; int2 o;\n" +
		"float4 main(float2 uv : TEXCOORD0) : SV_Target { return t.GatherGreen(s, uv, int2(1, 0), int2(0, 1), o, int2(-1, -1)); }"
	r := compileOK(t, src, "main", "ps_5_0")
	var masks []uint8
	var ops []Op
	for _, in := range r.Program.Code {
		if in.Op == OpGather4 || in.Op == OpGather4Po {
			masks = append(masks, in.Dst[0].Mask)
			ops = append(ops, in.Op)
		}
	}
	if len(masks) != 4 || masks[0] != 1 || masks[1] != 2 || masks[2] != 4 || masks[3] != 8 || ops[2] != OpGather4Po || ops[0] != OpGather4 {
		t.Errorf("gathers %v writing %v; want four, x y z w, the third by gather4_po\n%s", ops, masks, r.Program)
	}
	if _, err := Compile([]byte("Texture2D t; SamplerState s;\nfloat4 main() : SV_Target { return t.GatherGreen(s, 0, 0, 0, 0, 0); }"), "t.hlsl", "main", "ps_4_1"); err == nil {
		t.Error("four offsets at shader model 4.1: compiled")
	}
}
