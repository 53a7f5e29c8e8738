package scenario

import (
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// omPrelude draws full-target quads of a float4 pixel shader whose two
// outputs come from a constant buffer (o0 the source, o1 the second
// source of dual-source blending) into a 4x4 R32G32B32A32_FLOAT target.
const omPrelude = `hlsl shaders {
cbuffer C : register(b0) { float4 src; float4 src1; };
struct PSOut { float4 c0 : SV_Target0; float4 c1 : SV_Target1; };
PSOut dual(float4 p : SV_Position) { PSOut o; o.c0 = src; o.c1 = src1; return o; }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader hlsl:shaders entry=dual
cb = dev.CreateBuffer BindFlags=CONSTANT_BUFFER Data=f32[0.5 0.25 2 0.75  0.125 1.5 0.25 0.5]
t = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 4 4
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.PSSetConstantBuffers 0 cb
`

// blendRef is an independent reference of D3D11's blend equation
// ("D3D11_BLEND enumeration", "D3D11_BLEND_OP enumeration") on a float
// target (no clamping): the factors and operations by their names.
type blendRef struct {
	src, src1, dst, bf [4]float32
}

func (r blendRef) factor(name string, c int) float32 {
	s, s1, d, bf := r.src, r.src1, r.dst, r.bf
	switch name {
	case "ZERO":
		return 0
	case "ONE":
		return 1
	case "SRC_COLOR":
		return s[c]
	case "INV_SRC_COLOR":
		return 1 - s[c]
	case "SRC_ALPHA":
		return s[3]
	case "INV_SRC_ALPHA":
		return 1 - s[3]
	case "DEST_ALPHA":
		return d[3]
	case "INV_DEST_ALPHA":
		return 1 - d[3]
	case "DEST_COLOR":
		return d[c]
	case "INV_DEST_COLOR":
		return 1 - d[c]
	case "SRC_ALPHA_SAT":
		if c == 3 {
			return 1
		}
		return min(s[3], 1-d[3])
	case "BLEND_FACTOR":
		return bf[c]
	case "INV_BLEND_FACTOR":
		return 1 - bf[c]
	case "SRC1_COLOR":
		return s1[c]
	case "INV_SRC1_COLOR":
		return 1 - s1[c]
	case "SRC1_ALPHA":
		return s1[3]
	case "INV_SRC1_ALPHA":
		return 1 - s1[3]
	}
	panic(name)
}

func (r blendRef) blend(sf, df, op, sfa, dfa, opa string) [4]float32 {
	var out [4]float32
	for c := range 4 {
		f, g, o := sf, df, op
		if c == 3 {
			f, g, o = sfa, dfa, opa
		}
		s := r.src[c] * r.factor(f, c)
		d := r.dst[c] * r.factor(g, c)
		switch o {
		case "ADD":
			out[c] = s + d
		case "SUBTRACT":
			out[c] = s - d
		case "REV_SUBTRACT":
			out[c] = d - s
		case "MIN":
			out[c] = min(r.src[c], r.dst[c])
		case "MAX":
			out[c] = max(r.src[c], r.dst[c])
		}
	}
	return out
}

var (
	blendNames = []string{"ZERO", "ONE", "SRC_COLOR", "INV_SRC_COLOR", "SRC_ALPHA", "INV_SRC_ALPHA", "DEST_ALPHA", "INV_DEST_ALPHA",
		"DEST_COLOR", "INV_DEST_COLOR", "SRC_ALPHA_SAT", "BLEND_FACTOR", "INV_BLEND_FACTOR", "SRC1_COLOR", "INV_SRC1_COLOR",
		"SRC1_ALPHA", "INV_SRC1_ALPHA"}
	blendOps = []string{"ADD", "SUBTRACT", "REV_SUBTRACT", "MIN", "MAX"}
)

// TestBlendEveryValue blends with every D3D11_BLEND value as the source
// and as the destination factor of colour (and, those allowed, of alpha),
// and with every D3D11_BLEND_OP, dual-source factors reading SV_Target1
// and the blend factor OMSetBlendState's BlendFactor; each result is
// compared with blendRef.
func TestBlendEveryValue(t *testing.T) {
	ref := blendRef{src: [4]float32{0.5, 0.25, 2, 0.75}, src1: [4]float32{0.125, 1.5, 0.25, 0.5},
		dst: [4]float32{0.25, 0.5, 1, 0.375}, bf: [4]float32{0.75, 0.5, 0.25, 2}}
	var sb strings.Builder
	sb.WriteString(omPrelude)
	n := 0
	check := func(sf, df, op, sfa, dfa, opa string) {
		want := ref.blend(sf, df, op, sfa, dfa, opa)
		fmt.Fprintf(&sb, "b%d = dev.CreateBlendState BlendEnable=TRUE SrcBlend=%s DestBlend=%s BlendOp=%s SrcBlendAlpha=%s DestBlendAlpha=%s BlendOpAlpha=%s\n",
			n, sf, df, op, sfa, dfa, opa)
		fmt.Fprintf(&sb, "imm.OMSetBlendState NULL\nimm.ClearRenderTargetView rtv %g %g %g %g\n", ref.dst[0], ref.dst[1], ref.dst[2], ref.dst[3])
		fmt.Fprintf(&sb, "imm.OMSetBlendState b%d BlendFactor=f32[%g %g %g %g]\nimm.Draw 6 0\n", n, ref.bf[0], ref.bf[1], ref.bf[2], ref.bf[3])
		fmt.Fprintf(&sb, "expect pixel t 2 1 == f32[%g %g %g %g] within 0.000001\n", want[0], want[1], want[2], want[3])
		n++
	}
	for _, f := range blendNames {
		alpha := f
		if strings.HasSuffix(f, "_COLOR") {
			alpha = "ONE" // the alpha factors cannot be *_COLOR ones
		}
		check(f, "ONE", "ADD", alpha, "ONE", "ADD")
		check("ONE", f, "SUBTRACT", "ONE", alpha, "REV_SUBTRACT")
	}
	for _, op := range blendOps {
		check("SRC_ALPHA", "INV_SRC_ALPHA", op, "ONE", "ONE", op)
	}
	sb.WriteString("expect violations == 0\n")
	r := runSource(t, sb.String())
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
}

// TestOutputMerger: several render targets with IndependentBlendEnable and
// per-target write masks, the sample mask and alpha-to-coverage at one
// sample, and the runtime's checks of OMSetRenderTargets and of blend
// descriptors.
func TestOutputMerger(t *testing.T) {
	src := `hlsl shaders {
struct PSOut { float4 c0 : SV_Target0; float4 c1 : SV_Target1; uint4 c2 : SV_Target2; };
PSOut mrt(float4 p : SV_Position) { PSOut o; o.c0 = float4(1, 0.5, 0, 0.25); o.c1 = float4(0.25, 0.5, 2, -1); o.c2 = uint4(7, 8, 9, 10); return o; }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader hlsl:shaders entry=mrt
t0 = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
t1 = dev.CreateTexture2D Width=4 Height=4 Format=R16G16B16A16_FLOAT BindFlags=RENDER_TARGET
t2 = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32A32_UINT BindFlags=RENDER_TARGET
t3 = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
small = dev.CreateTexture2D Width=2 Height=2 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
r0 = dev.CreateRenderTargetView t0
r1 = dev.CreateRenderTargetView t1
r2 = dev.CreateRenderTargetView t2
r3 = dev.CreateRenderTargetView t3
r0b = dev.CreateRenderTargetView t0
rs = dev.CreateRenderTargetView small
imm.RSSetViewports 0 0 4 4
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearRenderTargetView r1 1 1 1 1
imm.ClearRenderTargetView r3 #102030ff

# target 0 blends SRC_ALPHA/INV_SRC_ALPHA (alpha ONE/ZERO, the defaults),
# target 1 adds colour and writes red and alpha only; target 3 is past the
# shader's outputs: kept as cleared
b = dev.CreateBlendState IndependentBlendEnable=TRUE BlendEnable=TRUE SrcBlend=SRC_ALPHA DestBlend=INV_SRC_ALPHA BlendEnable1=TRUE SrcBlend1=ONE DestBlend1=ONE RenderTargetWriteMask1=9
imm.OMSetBlendState b
imm.ClearRenderTargetView r0 #000000ff
imm.OMSetRenderTargets r0 r1 r2 r3
imm.Draw 6 0
expect pixel t0 1 1 == #40200040
expect pixel t1 1 1 == f32[1.25 1 1 -1]
expect pixel t2 1 1 == u32[7 8 9 10]
expect pixel t3 1 1 == #102030ff

# SampleMask bit 0 clear: with one sample nothing is written
imm.OMSetBlendState NULL SampleMask=0xFFFFFFFE
imm.ClearRenderTargetView r0 #000000ff
imm.Draw 6 0
expect pixel t0 1 1 == #000000ff
# alpha-to-coverage: o0's alpha 0.25 is under one half: not covered
a2c = dev.CreateBlendState AlphaToCoverageEnable=TRUE
imm.OMSetBlendState a2c
imm.Draw 6 0
expect pixel t0 1 1 == #000000ff

# OMSetRenderTargets refuses two views of one resource, sizes that differ
# and nine views
imm.OMSetRenderTargets r0 r0b
expect hr == DROPPED
imm.OMSetRenderTargets r0 rs
expect hr == DROPPED
imm.OMSetRenderTargets r0 r1 r2 r3 NULL NULL NULL NULL r0b
expect hr == DROPPED
# a blend descriptor's alpha factor cannot be a colour one
bad = dev.CreateBlendState BlendEnable=TRUE SrcBlendAlpha=SRC_COLOR
expect hr == E_INVALIDARG
bad = dev.CreateBlendState IndependentBlendEnable=TRUE DestBlendAlpha3=INV_SRC1_COLOR
expect hr == E_INVALIDARG
bad = dev.CreateBlendState RenderTargetWriteMask=16
expect hr == E_INVALIDARG
expect violations == 0
`
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
	want := []string{"ppRenderTargetViews[0] and [1] are both views of resource t0", "differ in size", "NumViews 9",
		"RenderTarget[0].SrcBlendAlpha is D3D11_BLEND_SRC_COLOR", "RenderTarget[3].DestBlendAlpha is D3D11_BLEND_INV_SRC1_COLOR",
		"RenderTarget[0].RenderTargetWriteMask 0x10"}
	msgs := ""
	for _, e := range r.Events() {
		if e.Kind == trace.Message {
			msgs += e.Msg + "\n"
		}
	}
	for _, w := range want {
		if !strings.Contains(msgs, w) {
			t.Errorf("no debug message says %q", w)
		}
	}
}

// stencilPrelude: quads of the built-in vertex at a chosen depth (a left
// half, the whole target, and the whole target wound the other way) into
// a 4x4 target with a depth-stencil buffer.
const stencilPrelude = `dev, imm = D3D11CreateDevice Flags=DEBUG
left = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 1 0.5 1 0 0 1 0 0  0 1 0.5 1 0 0 1 0 0  -1 -1 0.5 1 0 0 1 0 0  0 1 0.5 1 0 0 1 0 0  0 -1 0.5 1 0 0 1 0 0  -1 -1 0.5 1 0 0 1 0 0]
full = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 1 0.25 0 1 0 1 0 0  1 1 0.25 0 1 0 1 0 0  -1 -1 0.25 0 1 0 1 0 0  1 1 0.25 0 1 0 1 0 0  1 -1 0.25 0 1 0 1 0 0  -1 -1 0.25 0 1 0 1 0 0]
back = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 1 0.75 0 0 1 1 0 0  -1 -1 0.75 0 0 1 1 0 0  1 1 0.75 0 0 1 1 0 0  1 1 0.75 0 0 1 1 0 0  -1 -1 0.75 0 0 1 1 0 0  1 -1 0.75 0 0 1 1 0 0]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
t = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
noCull = dev.CreateRasterizerState CullMode=NONE
imm.RSSetState noCull
imm.RSSetViewports 0 0 4 4
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
`

// TestStencilAndDepthFormats: the stencil (REPLACE with StencilRef, then
// EQUAL and INCR, back faces their own operations), in D24_UNORM_S8_UINT
// and D32_FLOAT_S8X24_UINT; the depth test in D16_UNORM; a read-only
// depth-stencil view tests and never writes.
func TestStencilAndDepthFormats(t *testing.T) {
	for _, f := range []string{"D24_UNORM_S8_UINT", "D32_FLOAT_S8X24_UINT"} {
		src := stencilPrelude + `d = dev.CreateTexture2D Width=4 Height=4 Format=` + f + ` BindFlags=DEPTH_STENCIL
dsv = dev.CreateDepthStencilView d
imm.OMSetRenderTargets rtv dsv
imm.ClearRenderTargetView rtv #000000ff
imm.ClearDepthStencilView dsv 1 0
# pass 1: the left half writes 3 into the stencil (REPLACE, StencilRef 3),
# no depth test
mark = dev.CreateDepthStencilState DepthEnable=FALSE StencilEnable=TRUE FrontFaceStencilPassOp=REPLACE BackFaceStencilPassOp=REPLACE
imm.OMSetDepthStencilState mark 3
imm.IASetVertexBuffers 0 left Stride=36
imm.Draw 6 0
# pass 2: the whole target where the stencil equals 3: the left half only
test = dev.CreateDepthStencilState StencilEnable=TRUE FrontFaceStencilFunc=EQUAL FrontFaceStencilPassOp=INCR BackFaceStencilFunc=NEVER
imm.OMSetDepthStencilState test 3
imm.IASetVertexBuffers 0 full Stride=36
imm.ClearRenderTargetView rtv #000000ff
imm.Draw 6 0
expect pixel t 0 2 == #00ff00ff
expect pixel t 3 2 == #000000ff
# the left half now holds 4: a back-facing quad with EQUAL 4 for back faces
# draws there (front faces NEVER)
test2 = dev.CreateDepthStencilState DepthEnable=FALSE StencilEnable=TRUE FrontFaceStencilFunc=NEVER BackFaceStencilFunc=EQUAL
imm.OMSetDepthStencilState test2 4
imm.IASetVertexBuffers 0 back Stride=36
imm.Draw 6 0
expect pixel t 1 1 == #0000ffff
expect pixel t 2 1 == #000000ff
# the stencil clears alone, keeping the depth (0.25, written by pass 2)
imm.ClearDepthStencilView dsv 0 4 Flags=STENCIL
imm.OMSetDepthStencilState test2 4
imm.ClearRenderTargetView rtv #000000ff
imm.Draw 6 0
expect pixel t 2 1 == #0000ffff
# the depth: 0.25 on the left half (pass 2 wrote it), 1 on the right
less = dev.CreateDepthStencilState
imm.OMSetDepthStencilState less
imm.IASetVertexBuffers 0 full Stride=36
imm.ClearRenderTargetView rtv #000000ff
imm.Draw 6 0
expect pixel t 0 2 == #000000ff
expect pixel t 3 2 == #00ff00ff
expect violations == 0
`
		r := runSource(t, src)
		if sum := r.Summary(); !sum.OK() {
			t.Fatalf("%s: failures: %q", f, sum.Failures)
		}
	}
	// D16_UNORM orders depth; a read-only view (R16_TYPELESS viewed
	// D16_UNORM READ_ONLY_DEPTH) tests without writing.
	src := stencilPrelude + `d = dev.CreateTexture2D Width=4 Height=4 Format=R16_TYPELESS BindFlags=DEPTH_STENCIL|SHADER_RESOURCE
dsv = dev.CreateDepthStencilView d Format=D16_UNORM
ro = dev.CreateDepthStencilView d Format=D16_UNORM Flags=READ_ONLY_DEPTH
srv = dev.CreateShaderResourceView d Format=R16_UNORM
imm.OMSetRenderTargets rtv dsv
imm.ClearRenderTargetView rtv #000000ff
imm.ClearDepthStencilView dsv 1
imm.IASetVertexBuffers 0 back Stride=36
imm.Draw 6 0
imm.IASetVertexBuffers 0 full Stride=36
imm.Draw 6 0
expect pixel t 1 1 == #00ff00ff
imm.IASetVertexBuffers 0 left Stride=36
imm.Draw 6 0
expect pixel t 1 1 == #00ff00ff
expect pixel d 1 1 as R16_UNORM == f32[0.25] within 0.00002
imm.OMSetRenderTargets rtv ro
imm.ClearDepthStencilView dsv 0.6
imm.Draw 6 0
expect pixel t 0 0 == #ff0000ff
expect pixel d 0 0 as D16_UNORM == f32[0.6] within 0.00002
expect violations == 0
`
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("D16: failures: %q", sum.Failures)
	}
}
