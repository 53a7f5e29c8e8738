package scenario

import (
	"strings"
	"testing"
)

// TestEmulatedGeometryStreamOutput: with a driver that has no command
// lists, the runtime's emulation records the geometry stage, SOSetTargets
// and DrawAuto and makes them again on the immediate context at
// ExecuteCommandList: TestStreamOutputScenario's squares, streamed out by
// one list (the first square's two triangles read back, computed there)
// and drawn from the buffer by a second with DrawAuto.
func TestEmulatedGeometryStreamOutput(t *testing.T) {
	scene := strings.Replace(gsScene, "gs = dev.CreateGeometryShader GS\nexpect calls CreateGeometryShader CalcPrivateShaderSize CreateGeometryShader pfnAllocateCb",
		`so = dev.CreateBuffer ByteWidth=640 BindFlags=VERTEX_BUFFER|STREAM_OUTPUT
gs = dev.CreateGeometryShaderWithStreamOutput GS Decl="SV_Position.xy; $SKIP.zw; COLOR.xyz" Strides=u32[28] RasterizedStream=4294967295`, 1)
	scene = strings.Replace(scene, "GS", geometryBytes(t, "billboard"), 1)
	// The immediate context's setup is the deferred context's.
	scene = strings.Replace(scene, "imm.OMSetRenderTargets rtv", "dc = dev.CreateDeferredContext\ndc.OMSetRenderTargets rtv", 1)
	for _, call := range []string{"RSSetViewports", "IASetPrimitiveTopology", "IASetVertexBuffers", "VSSetShader", "GSSetShader", "GSSetConstantBuffers", "PSSetShader"} {
		scene = strings.Replace(scene, "imm."+call, "dc."+call, 1)
	}
	scene = strings.NewReplacer("expect calls GSSetShader GsSetShader\n", "", "expect calls GSSetConstantBuffers GsSetConstantBuffers\n", "").Replace(scene)
	x0, y0, x1, y1 := float32(-0.625), float32(0.625), float32(-0.375), float32(0.375)
	var want []float32
	for _, c := range [][2]float32{{x0, y0}, {x1, y0}, {x0, y1}, {x0, y1}, {x1, y0}, {x1, y1}} {
		want = append(want, c[0], c[1], 0, 0, 1, 0, 0)
	}
	mustRun(t, "option driver.commandlists=false\n"+scene+`dc.SOSetTargets so
dc.SOGetTargets 1
expect got == so
dc.Draw 4 0
cl = dc.FinishCommandList
expect probe so 0 0 == u32[0 0]
imm.ExecuteCommandList cl
expect calls ExecuteCommandList ClearState GSSetShader GsSetShader GSSetConstantBuffers GsSetConstantBuffers SOSetTargets SoSetTargets Draw Draw
expect probe so 0 0 == `+f32Words(want...)+`
expect pixel bb 16 16 == #000000ff
dc.OMSetRenderTargets rtv
dc.RSSetViewports 0 0 64 64
dc.VSSetShader vs
dc.PSSetShader ps
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT 0 0] elem[COLOR 0 R32G32B32_FLOAT 0 16] elem[TEXCOORD 0 R32G32_FLOAT 0 8]
dc.IASetInputLayout il
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetVertexBuffers 0 so Stride=28
dc.DrawAuto
cl2 = dc.FinishCommandList
imm.ExecuteCommandList cl2
expect calls ExecuteCommandList ClearState DrawAuto DrawAuto
expect pixel bb 16 16 == #ff0000ff
expect pixel bb 48 48 == #0000ffff
expect pixel bb 48 16 == #000000ff
expect violations == 0
`)
}

// TestEmulatedPixelShaderUAVs: OMSetRenderTargetsAndUnorderedAccessViews
// recorded by the runtime's emulation of command lists and made again at
// ExecuteCommandList: TestPixelShaderUAVs' count_pixels over the full
// quad counts 64 pixels, the largest x*16+y 7*16+7.
func TestEmulatedPixelShaderUAVs(t *testing.T) {
	mustRun(t, `option driver.commandlists=false
dev, imm = D3D11CreateDevice Flags=DEBUG
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
cnt = dev.CreateBuffer ByteWidth=8 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS
cntv = dev.CreateUnorderedAccessView cnt Format=R32_TYPELESS Flags=RAW
marks = dev.CreateTexture2D Width=8 Height=8 Format=R32_UINT BindFlags=UNORDERED_ACCESS
marksv = dev.CreateUnorderedAccessView marks
order = dev.CreateBuffer ByteWidth=512 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_STRUCTURED StructureByteStride=4
orderv = dev.CreateUnorderedAccessView order
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader `+pixelBytes(t, "count_pixels")+`
dc = dev.CreateDeferredContext
dc.OMSetRenderTargetsAndUnorderedAccessViews rtv cntv marksv orderv
dc.OMGetRenderTargetsAndUnorderedAccessViews 1 1 3
expect got == rtv NULL cntv marksv orderv
dc.RSSetViewports 0 0 8 8
dc.IASetPrimitiveTopology TRIANGLELIST
dc.VSSetShader vs
dc.PSSetShader ps
dc.IASetVertexBuffers 0 quad
dc.Draw 6
cl = dc.FinishCommandList
imm.ExecuteCommandList cl
expect calls ExecuteCommandList ClearState OMSetRenderTargetsAndUnorderedAccessViews SetRenderTargets Draw Draw
expect probe cnt 0 0 == u32[64 119]
expect pixel t 0 0 == #ff0000ff
expect violations == 0
`)
}

// TestDeferredStreamOutput: a driver's command lists carry stream output:
// the deferred context's SoSetTargets and DrawAuto (its context-local
// handle of the buffer), the list's draw sends every SET_SO_TARGET.
// TestStreamOutputScenario's squares streamed out by one list (the first
// square read back) and drawn from the buffer with DrawAuto by a second,
// after the immediate context streamed into another buffer, which the
// lists leave alone (ExecuteCommandList, restoring nothing, unbinds it).
func TestDeferredStreamOutput(t *testing.T) {
	scene := strings.Replace(gsScene, "gs = dev.CreateGeometryShader GS\nexpect calls CreateGeometryShader CalcPrivateShaderSize CreateGeometryShader pfnAllocateCb",
		`so = dev.CreateBuffer ByteWidth=640 BindFlags=VERTEX_BUFFER|STREAM_OUTPUT
so2 = dev.CreateBuffer ByteWidth=640 BindFlags=VERTEX_BUFFER|STREAM_OUTPUT
gs = dev.CreateGeometryShaderWithStreamOutput GS Decl="SV_Position.xy; $SKIP.zw; COLOR.xyz" Strides=u32[28] RasterizedStream=4294967295`, 1)
	scene = strings.Replace(scene, "GS", geometryBytes(t, "billboard"), 1)
	x0, y0, x1, y1 := float32(-0.625), float32(0.625), float32(-0.375), float32(0.375)
	var want []float32
	for _, c := range [][2]float32{{x0, y0}, {x1, y0}, {x0, y1}, {x0, y1}, {x1, y0}, {x1, y1}} {
		want = append(want, c[0], c[1], 0, 0, 1, 0, 0)
	}
	src := scene + `imm.SOSetTargets so2
imm.Draw 1 0
dc = dev.CreateDeferredContext
dc.OMSetRenderTargets rtv
dc.RSSetViewports 0 0 64 64
dc.IASetPrimitiveTopology POINTLIST
dc.IASetVertexBuffers 0 vb Stride=36
dc.VSSetShader vs
dc.GSSetShader gs
dc.GSSetConstantBuffers 0 cb
dc.PSSetShader ps
dc.SOSetTargets so
expect calls SOSetTargets CreateResource SoSetTargets
dc.SOGetTargets 1
expect got == so
dc.Draw 4 0
cl = dc.FinishCommandList
expect probe so 0 0 == u32[0 0]
imm.ExecuteCommandList cl
expect probe so 0 0 == ` + f32Words(want...) + `
expect probe so2 0 0 == ` + f32Words(want...) + `
expect pixel bb 16 16 == #000000ff
dc.OMSetRenderTargets rtv
dc.RSSetViewports 0 0 64 64
dc.VSSetShader vs
dc.PSSetShader ps
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT 0 0] elem[COLOR 0 R32G32B32_FLOAT 0 16] elem[TEXCOORD 0 R32G32_FLOAT 0 8]
dc.IASetInputLayout il
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetVertexBuffers 0 so Stride=28
dc.DrawAuto
expect calls DrawAuto DrawAuto
cl2 = dc.FinishCommandList
imm.ExecuteCommandList cl2
expect pixel bb 16 16 == #ff0000ff
expect pixel bb 48 48 == #0000ffff
expect pixel bb 48 16 == #000000ff
expect violations == 0
`
	mustRun(t, src)
}

// TestEmulatedTessellation: the runtime's emulation of command lists
// records the hull and domain stages (HSSetShader, HSSetConstantBuffers,
// DSSetShader) and makes them again on the immediate context:
// TestTessellationScenario's patch, drawn by a command list, the same
// pixels (each its domain location, worked out there).
func TestEmulatedTessellation(t *testing.T) {
	scene := strings.Replace(tessScene(t), "imm.OMSetRenderTargets rtv", "dc = dev.CreateDeferredContext\ndc.OMSetRenderTargets rtv", 1)
	for _, call := range []string{"RSSetViewports", "IASetPrimitiveTopology", "IASetVertexBuffers", "VSSetShader", "HSSetShader", "HSSetConstantBuffers", "DSSetShader", "PSSetShader"} {
		scene = strings.Replace(scene, "imm."+call, "dc."+call, 1)
	}
	scene = strings.NewReplacer("expect calls HSSetShader HsSetShader\n", "", "expect calls HSSetConstantBuffers HsSetConstantBuffers\n", "").Replace(scene)
	var b strings.Builder
	b.WriteString("option driver.commandlists=false\n" + scene + `dc.HSGetShader
expect got == hs
dc.Draw 4 0
cl = dc.FinishCommandList
imm.ExecuteCommandList cl
expect calls ExecuteCommandList ClearState HSSetShader HsSetShader HSSetConstantBuffers HsSetConstantBuffers DSSetShader DsSetShader
`)
	for _, p := range [][2]int{{0, 0}, {8, 40}, {63, 63}} {
		r := int(float64(p[0])*255/64 + 255/128.0 + 0.5)
		g := int(float64(p[1])*255/64 + 255/128.0 + 0.5)
		b.WriteString("expect pixel bb " + itoa(p[0]) + " " + itoa(p[1]) + " == #" + hex2(r) + hex2(g) + "00ff\n")
	}
	b.WriteString("expect violations == 0\n")
	mustRun(t, b.String())
}

// TestRestoreStreamOutputAndCompute: ExecuteCommandList's
// RestoreContextState gives the immediate context back its stream-output
// target, which goes on appending (the draw of points 0..2 after the
// first square: its squares 6 and 12 vertices of 28 bytes on, each
// square's first vertex computed as TestStreamOutputScenario's), and its
// compute shader and view (bound
// again: CSGetShader, CSGetUnorderedAccessViews), with a driver's command
// lists and with the runtime's emulation alike.
func TestRestoreStreamOutputAndCompute(t *testing.T) {
	scene := strings.Replace(gsScene, "gs = dev.CreateGeometryShader GS\nexpect calls CreateGeometryShader CalcPrivateShaderSize CreateGeometryShader pfnAllocateCb",
		`so = dev.CreateBuffer ByteWidth=640 BindFlags=VERTEX_BUFFER|STREAM_OUTPUT
gs = dev.CreateGeometryShaderWithStreamOutput GS Decl="SV_Position.xy; $SKIP.zw; COLOR.xyz" Strides=u32[28] RasterizedStream=4294967295`, 1)
	scene = strings.Replace(scene, "GS", geometryBytes(t, "billboard"), 1)
	// Point 2 (clip (0.5, -0.5), blue) is the second even primitive.
	bothPaths(t, scene+`buf = dev.CreateBuffer ByteWidth=16 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS
uav = dev.CreateUnorderedAccessView buf Format=R32_TYPELESS Flags=RAW
cs = dev.CreateComputeShader `+computeBytes(t, "prefix_sum")+`
imm.CSSetShader cs
imm.CSSetUnorderedAccessViews 0 uav
imm.SOSetTargets so
imm.Draw 1 0
dc = dev.CreateDeferredContext
dc.ClearRenderTargetView rtv 0 0 0 1
cl = dc.FinishCommandList
imm.ExecuteCommandList cl TRUE
imm.CSGetShader
expect got == cs
imm.CSGetUnorderedAccessViews 0
expect got == uav
imm.SOGetTargets 1
expect got == so
imm.Draw 3 0
expect probe so 0 0 == `+f32Words(-0.625, 0.625, 0, 0, 1, 0, 0)+`
expect probe so 42 0 == `+f32Words(-0.625, 0.625, 0, 0, 1, 0, 0)+`
expect probe so 84 0 == `+f32Words(0.375, -0.375, 0, 0, 0, 0, 1)+`
expect violations == 0
`)
}
