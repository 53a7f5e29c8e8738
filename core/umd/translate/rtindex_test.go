package translate

import (
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// TestRenderTargetArrayIndex: a geometry shader's SV_RenderTargetArrayIndex
// output is listed with its system value and register (the UMD's
// SET_PROGRAM word names it for layered rendering); a vertex shader's is
// refused by name (feature level 11_0 takes it from a geometry shader
// only).
func TestRenderTargetArrayIndex(t *testing.T) {
	text, err := os.ReadFile("testdata/geometry/billboard.asm")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.NewReplacer(
		"// COLOR                    0   xyzw        1     NONE   float   xyzw\n//\ngs_4_0",
		"// COLOR                    0   xyzw        1     NONE   float   xyzw\n// SV_RenderTargetArrayIndex     0   x           2  RTINDEX    uint   x\n//\ngs_4_0",
		"dcl_output o1.xyzw\n", "dcl_output o1.xyzw\ndcl_output_siv o2.x, rendertarget_array_index\n",
		"mov r0.zw, l(0,0,0,0)\n", "mov o2.x, l(3)\nmov r0.zw, l(0,0,0,0)\n").Replace(string(text))
	bc, err := dxbc.Assemble(src)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Translate(bc, dxbc.GeometryShader)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range sh.Outputs {
		found = found || o.SystemValue == dxbc.SVRenderTargetIndex && o.ISA == 2
	}
	if !found {
		t.Fatalf("outputs %+v: want SV_RenderTargetArrayIndex in o2", sh.Outputs)
	}
	vs, err := dxbc.Assemble("// Output signature:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n" +
		"// -------------------- ----- ------ -------- -------- ------- ------\n" +
		"// SV_Position              0   xyzw        0      POS   float   xyzw\n" +
		"// SV_RenderTargetArrayIndex     0   x           1  RTINDEX    uint   x\n//\n" +
		"vs_5_0\ndcl_output_siv o0.xyzw, position\ndcl_output_siv o1.x, rendertarget_array_index\nret\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Translate(vs, dxbc.VertexShader); err == nil || !strings.Contains(err.Error(), "SV_RenderTargetArrayIndex as an output of a vs shader: this GPU takes it from a geometry shader only") {
		t.Fatalf("a vertex shader's SV_RenderTargetArrayIndex: %v", err)
	}
}
