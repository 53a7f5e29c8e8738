package scenario

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// gsAdjEcho is a geometry shader (as fxc /T gs_4_0 lists it) that takes a
// triangle with adjacency and emits its six vertices as points in the
// order of its input array, each with its COLOR.
const gsAdjEcho = `//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
gs_4_0
dcl_input_siv v[6][0].xyzw, position
dcl_input v[6][1].xyzw
dcl_temps 1
dcl_inputprimitive triangleadj
dcl_outputtopology pointlist
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_maxout 6
mov r0.x, l(0)
loop
  uge r0.y, r0.x, l(6)
  breakc_nz r0.y
  mov o0.xyzw, v[r0.x + 0][0].xyzw
  mov o1.xyzw, v[r0.x + 0][1].xyzw
  emit
  iadd r0.x, r0.x, l(1)
endloop
ret
`

// TestGeometryTriangleStripAdjScenario: eight vertices of a triangle strip
// with adjacency, each vertex's COLOR.x its place in the strip, make two
// triangles whose six vertices are streamed out as the geometry shader
// receives them. The order is "Primitive Topologies"' table (OpenGL's
// "Triangle strips with adjacency" is the same), 1-based there: the first
// triangle 1 3 5 with 2 7 4 beside its edges, the last (odd, i = 1) 2i+3
// 2i+1 2i+5 with 2i-1 2i+4 2i+6. No render target and no viewport are
// bound: stream output comes before the rasterizer and needs neither.
// SO_STATISTICS_STREAM0 counts the 12 points written, STREAM1 none.
func TestGeometryTriangleStripAdjScenario(t *testing.T) {
	bc, err := dxbc.Assemble(gsAdjEcho)
	if err != nil {
		t.Fatal(err)
	}
	var vb strings.Builder
	for i := range 8 {
		fmt.Fprintf(&vb, "0 0 0.5 %d 0 0 1 0 0 ", i) // position, COLOR.x = i, uv
	}
	src := `dev, imm = D3D11CreateDevice Flags=DEBUG
vb = dev.CreateBuffer BindFlags=VERTEX_BUFFER Data=f32[` + strings.TrimSpace(vb.String()) + `]
so = dev.CreateBuffer ByteWidth=64 BindFlags=STREAM_OUTPUT
vs = dev.CreateVertexShader builtin:vs_passthrough
gs = dev.CreateGeometryShaderWithStreamOutput bytes:` + hex.EncodeToString(bc) + ` Decl="COLOR.x" RasterizedStream=4294967295
q = dev.CreateQuery Query=PIPELINE_STATISTICS
s0 = dev.CreateQuery Query=SO_STATISTICS_STREAM0
s1 = dev.CreateQuery Query=SO_STATISTICS_STREAM1
imm.IASetPrimitiveTopology TRIANGLESTRIP_ADJ
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.GSSetShader gs
imm.SOSetTargets so
imm.Begin q
imm.Begin s0
imm.Begin s1
imm.Draw 8 0
imm.End q
imm.End s0
imm.End s1
until hr == S_OK max 100 {
  imm.GetData q
}
expect data q.GSInvocations == 2
expect data q.GSPrimitives == 12
until hr == S_OK max 100 {
  imm.GetData s0
}
expect data s0.NumPrimitivesWritten == 12
expect data s0.PrimitivesStorageNeeded == 12
until hr == S_OK max 100 {
  imm.GetData s1
}
expect data s1.NumPrimitivesWritten == 0
expect probe so 0 0 == ` + f32Words(0, 1, 2, 6, 4, 3, 4, 0, 2, 5, 6, 7) + `
expect violations == 0
`
	mustRun(t, src)
}
