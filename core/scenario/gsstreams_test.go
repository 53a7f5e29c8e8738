package scenario

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// streamsBytes assembles the two-stream geometry shader (testdata
// geometry/streams.asm, its output signature's rows m0:... and m1:...)
// into bytes:HEX with an OSG5 chunk, as fxc writes a gs_5_0 shader's.
func streamsBytes(t *testing.T) string {
	t.Helper()
	text, err := os.ReadFile("../umd/translate/testdata/geometry/streams.asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(string(text))
	if err != nil {
		t.Fatal(err)
	}
	back, err := dxbc.Parse(bc)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := back.Signature(false); err != nil || back.Chunk("OSG5") == nil || s.Elements[3].Stream != 1 || s.Elements[3].Name != "COLOR" || s.Elements[1].Stream != 0 {
		t.Fatalf("OSG5 read back: %+v, %v", s, err)
	}
	return "bytes:" + hex.EncodeToString(bc)
}

// streamScene is gsScene's four points (a point at clip (-0.5, 0.5)
// covers pixel (15, 15), stream 1's copy a quarter of clip space right
// pixel (23, 15)),
// with two stream-output buffers and a query of each stream.
func streamScene(t *testing.T, create string) string {
	scene := strings.Replace(gsScene, "gs = dev.CreateGeometryShader GS\nexpect calls CreateGeometryShader CalcPrivateShaderSize CreateGeometryShader pfnAllocateCb",
		`so0 = dev.CreateBuffer ByteWidth=64 BindFlags=STREAM_OUTPUT
so1 = dev.CreateBuffer ByteWidth=128 BindFlags=STREAM_OUTPUT
`+create, 1)
	return strings.Replace(scene, "GS", streamsBytes(t), 1) + `q0 = dev.CreateQuery Query=SO_STATISTICS_STREAM0
q1 = dev.CreateQuery Query=SO_STATISTICS_STREAM1
p1 = dev.CreateQuery Query=SO_OVERFLOW_PREDICATE_STREAM1
p0 = dev.CreateQuery Query=SO_OVERFLOW_PREDICATE_STREAM0
pa = dev.CreateQuery Query=SO_OVERFLOW_PREDICATE
imm.SOSetTargets so0 so1
imm.Begin q0
imm.Begin q1
imm.Begin p0
imm.Begin p1
imm.Begin pa
imm.Draw 4 0
imm.End q0
imm.End q1
imm.End p0
imm.End p1
imm.End pa
until hr == S_OK max 100 {
  imm.GetData pa
}
imm.GetData q0
imm.GetData q1
imm.GetData p0
imm.GetData p1
`
}

// TestGeometryStreamsScenario: emit_stream m0 and m1 of a gs_5_0 shader.
// Stream 0's points go to slot 0 (their positions' xy) and, rasterized,
// to the target in their own colours; stream 1's go to slot 1 (their
// colour) and are not drawn. Each stream's SO_STATISTICS counts its own
// four points; slot 0's 64 bytes hold all four xy pairs.
func TestGeometryStreamsScenario(t *testing.T) {
	src := streamScene(t, `gs = dev.CreateGeometryShaderWithStreamOutput GS Decl="SV_Position.xy" Decl1="1:COLOR"`) + `expect data q0.NumPrimitivesWritten == 4
expect data q1.NumPrimitivesWritten == 4
expect data q1.PrimitivesStorageNeeded == 4
expect data p0 == FALSE
expect data p1 == FALSE
expect data pa == FALSE
expect pixel bb 15 15 == #ff0000ff
expect pixel bb 47 47 == #0000ffff
expect pixel bb 23 15 == #000000ff
expect probe so0 0 0 == ` + f32Words(-0.5, 0.5, 0.5, 0.5, 0.5, -0.5, -0.5, -0.5) + `
expect probe so1 0 0 == ` + f32Words(1, 1, 0, 1, 1, 1, 0, 1) + `
expect violations == 0
`
	mustRun(t, src)
}

// TestGeometryStreamsRasterized: RasterizedStream=1 draws stream 1's
// points (yellow, a quarter of clip space right: pixel (23, 15)) and not
// stream 0's; stream 1's buffer of 16 bytes holds one point of four, so
// its overflow predicate and SO_OVERFLOW_PREDICATE (any stream) are
// TRUE, stream 0's FALSE; STREAM1 counts 1 written of 4 needed.
func TestGeometryStreamsRasterized(t *testing.T) {
	src := streamScene(t, `gs = dev.CreateGeometryShaderWithStreamOutput GS Decl="SV_Position.xy" Decl1="1:COLOR" RasterizedStream=1`)
	src = strings.Replace(src, "so1 = dev.CreateBuffer ByteWidth=128", "so1 = dev.CreateBuffer ByteWidth=16", 1)
	mustRun(t, src+`expect data q0.NumPrimitivesWritten == 4
expect data q1.NumPrimitivesWritten == 1
expect data q1.PrimitivesStorageNeeded == 4
expect data p0 == FALSE
expect data p1 == TRUE
expect data pa == TRUE
expect pixel bb 23 15 == #ffff00ff
expect pixel bb 15 15 == #000000ff
expect pixel bb 55 47 == #ffff00ff
expect violations == 0
`)
}

// TestGeometryStreamsNoSO: created with CreateGeometryShader, the shader
// draws stream 0 (D3D11 rasterizes stream 0 without a stream-output
// declaration) and stream 1's points go nowhere.
func TestGeometryStreamsNoSO(t *testing.T) {
	mustRun(t, strings.Replace(gsScene, "GS", streamsBytes(t), 1)+`imm.Draw 4 0
expect pixel bb 15 15 == #ff0000ff
expect pixel bb 23 15 == #000000ff
expect violations == 0
`)
}

// The runtime's checks of streams, as CreateGeometryShaderWithStreamOutput's
// reference page and the debug layer state them: a stream past 0 needs
// gs_5_0, a buffer takes one stream, RasterizedStream is 0..3 or
// D3D11_SO_NO_RASTERIZED_STREAM, a semantic is looked up in its stream.
func TestGeometryStreamsValidation(t *testing.T) {
	gs4, gs5 := geometryBytes(t, "billboard"), streamsBytes(t)
	tests := []struct{ line, want string }{
		{`gs = dev.CreateGeometryShaderWithStreamOutput ` + gs4 + ` Decl="SV_Position" Decl1="1:COLOR"`, "pSODeclaration[1].Stream 1: a stream past 0 needs a gs_5_0 shader (this bytecode is gs_4_0)"},
		{`gs = dev.CreateGeometryShaderWithStreamOutput ` + gs4 + ` Decl="SV_Position" RasterizedStream=2`, "RasterizedStream 2: a stream past 0 needs a gs_5_0 shader"},
		{`gs = dev.CreateGeometryShaderWithStreamOutput ` + gs5 + ` Decl="SV_Position" Decl1="COLOR"`, "pSODeclaration[1]: OutputSlot 0 takes stream 0 already, and this entry is stream 1's"},
		{`gs = dev.CreateGeometryShaderWithStreamOutput ` + gs5 + ` Decl="SV_Position" RasterizedStream=4`, "RasterizedStream 4: 0..3 or D3D11_SO_NO_RASTERIZED_STREAM"},
		{`gs = dev.CreateGeometryShaderWithStreamOutput ` + gs5 + ` Decl="SV_Position" Decl2="2:COLOR"`, "pSODeclaration[1].SemanticName COLOR0: not an output"},
	}
	for _, tc := range tests {
		r := mustRun(t, strings.Replace(gsScene, "GS", gs4, 1)+tc.line+"\nexpect hr == E_INVALIDARG\n")
		if msgs := strings.Join(r.Summary().Messages, "\n"); !strings.Contains(msgs, tc.want) {
			t.Errorf("%s: messages\n%s\nwant one with %q", tc.line[len(tc.line)-40:], msgs, tc.want)
		}
	}
}
