package translate

import (
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// TestCoverageRegisters: a pixel shader's vCoverage reads the y of the
// rasterizer's register, given past the declared inputs and named in
// SampleCountReg, and its oMask is output CoverageOutput's x; vCoverage
// outside a pixel shader, an undeclared one and a pixel shader's o8 are
// refused by name.
func TestCoverageRegisters(t *testing.T) {
	const ps = `//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
// SV_Coverage              0   x      4294967295 COVERAGE    uint   x
//
ps_5_0
dcl_input vCoverage
dcl_output o0.xyzw
dcl_output oMask
mov o0.xyzw, l(1.0, 1.0, 1.0, 1.0)
mov oMask, vCoverage
ret
`
	bc, err := dxbc.Assemble(ps)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Translate(bc, dxbc.PixelShader)
	if err != nil {
		t.Fatal(err)
	}
	if sh.SampleCountReg != 1 || sh.Program.Inputs != 1 || sh.Program.Outputs != shaderisa.CoverageOutput+1 {
		t.Fatalf("SampleCountReg %d, %d inputs, %d outputs", sh.SampleCountReg, sh.Program.Inputs, sh.Program.Outputs)
	}
	found := false
	for _, o := range sh.Outputs {
		found = found || o.SystemValue == dxbc.SVCoverage && o.ISA == shaderisa.CoverageOutput
	}
	last := sh.Program.Code[len(sh.Program.Code)-2] // before ret
	if !found || last.Op != shaderisa.OpMov || last.Dst.File != shaderisa.O(0).File || last.Dst.Index != shaderisa.CoverageOutput || last.Dst.Mask != 1 ||
		last.Src[0].Index != 0 || last.Src[0].Swizzle != [4]uint8{1, 1, 1, 1} {
		t.Fatalf("outputs %+v, oMask's move %+v", sh.Outputs, last)
	}
	const sig8 = `//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                8   xyzw        8   TARGET   float   xyzw
//
`
	for _, tc := range []struct{ name, src, want string }{
		{"vertex", "vs_5_0\ndcl_input vCoverage\nret\n", "SV_Coverage is a pixel shader's"},
		{"undeclared", "ps_5_0\ndcl_temps 1\nutof r0.x, vCoverage\nret\n", "vCoverage is not declared"},
		{"o8", sig8 + "ps_5_0\ndcl_output o8.xyzw\nret\n", "o8: a pixel shader has 8 render targets' outputs"},
	} {
		bc, err := dxbc.Assemble(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		typ := dxbc.PixelShader
		if strings.HasPrefix(tc.src, "vs") {
			typ = dxbc.VertexShader
		}
		if _, err := Translate(bc, typ); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
	}
}
