package scenario

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// rsPrelude: a 8x8 target, quads of the built-in vertex (vertex colour)
// at a depth, drawn with culling off.
const rsPrelude = `dev, imm = D3D11CreateDevice Flags=DEBUG
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 1 0.5 1 0 0 1 0 0  1 1 0.5 1 0 0 1 0 0  -1 -1 0.5 1 0 0 1 0 0  1 1 0.5 1 0 0 1 0 0  1 -1 0.5 1 0 0 1 0 0  -1 -1 0.5 1 0 0 1 0 0]
green = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 1 0.5 0 1 0 1 0 0  1 1 0.5 0 1 0 1 0 0  -1 -1 0.5 0 1 0 1 0 0  1 1 0.5 0 1 0 1 0 0  1 -1 0.5 0 1 0 1 0 0  -1 -1 0.5 0 1 0 1 0 0]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
`

// TestScissorAndViewports: RSSetScissorRects with ScissorEnable culls the
// pixels outside rectangle 0 (none set: everything), the rectangles do
// nothing without it, a clear ignores them; several viewports are taken
// and the first drawn with.
func TestScissorAndViewports(t *testing.T) {
	src := rsPrelude + `imm.OMSetRenderTargets rtv
imm.IASetVertexBuffers 0 quad Stride=36
imm.RSSetViewports 0 0 8 8  0 0 4 4
sc = dev.CreateRasterizerState CullMode=NONE ScissorEnable=TRUE
nosc = dev.CreateRasterizerState CullMode=NONE
imm.RSSetState sc
imm.ClearRenderTargetView rtv #000000ff
imm.Draw 6 0
expect pixel t 4 4 == #000000ff
imm.RSSetScissorRects 2 3 5 6  0 0 8 8
imm.ClearRenderTargetView rtv #000000ff
expect pixel t 0 0 == #000000ff
imm.Draw 6 0
expect pixel t 2 3 == #ff0000ff
expect pixel t 4 5 == #ff0000ff
expect pixel t 5 5 == #000000ff
expect pixel t 4 6 == #000000ff
expect pixel t 1 3 == #000000ff
imm.RSSetState nosc
imm.Draw 6 0
expect pixel t 7 7 == #ff0000ff
imm.RSSetScissorRects
imm.RSSetState sc
imm.ClearRenderTargetView rtv #0000ffff
imm.Draw 6 0
expect pixel t 4 4 == #0000ffff
# the runtime's checks, naming the field
imm.RSSetScissorRects 5 0 4 8
expect hr == DROPPED
imm.RSSetViewports 0 0 8 8 MaxDepth=2
expect hr == DROPPED
expect violations == 0
`
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
}

// TestDepthBiasScenario: a quad drawn twice at the same depth fails LESS
// the second time; with DepthBias -1000 (D24_UNORM_S8_UINT: r = 1/(2^24-1))
// it passes and writes z - 1000 r; DepthBiasClamp bounds the bias;
// SlopeScaledDepthBias scales the quad's slope. Expected depths computed
// here in float64 from the Depth Bias page's formulas.
func TestDepthBiasScenario(t *testing.T) {
	r24 := 1.0 / 16777215
	store := func(z float64) float64 { return math.Floor(z/r24+0.5) * r24 } // D24's quantization
	flat := store(0.5 + float64(float32(-1000*float32(r24))))
	clamped := store(0.5 - 0.0001)
	// the sloped quad: z from 0.25 (x -1) to 0.75 (x 1) over 8 pixels,
	// 0.0625 a pixel; pixel 4's centre is at x 4.5
	sloped := store(0.25 + 0.5*4.5/8 + 4*0.0625)
	src := rsPrelude + `d = dev.CreateTexture2D Width=8 Height=8 Format=R24G8_TYPELESS BindFlags=DEPTH_STENCIL|SHADER_RESOURCE
dsv = dev.CreateDepthStencilView d Format=D24_UNORM_S8_UINT
imm.OMSetRenderTargets rtv dsv
imm.RSSetViewports 0 0 8 8
imm.IASetVertexBuffers 0 quad Stride=36
nocull = dev.CreateRasterizerState CullMode=NONE
biased = dev.CreateRasterizerState CullMode=NONE DepthBias=-1000
clamped = dev.CreateRasterizerState CullMode=NONE DepthBias=-10000 DepthBiasClamp=-0.0001
sloped = dev.CreateRasterizerState CullMode=NONE SlopeScaledDepthBias=4
imm.RSSetState nocull
imm.ClearDepthStencilView dsv 1
imm.Draw 6 0
imm.IASetVertexBuffers 0 green Stride=36
imm.Draw 6 0
expect pixel t 3 3 == #ff0000ff
imm.RSSetState biased
imm.Draw 6 0
expect pixel t 3 3 == #00ff00ff
expect pixel d 3 3 as R24_UNORM_X8_TYPELESS == f32[%v] within 0.00000001
imm.ClearDepthStencilView dsv 1
imm.RSSetState clamped
imm.Draw 6 0
expect pixel d 3 3 as R24_UNORM_X8_TYPELESS == f32[%v] within 0.00000001
slope = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 1 0.25 1 1 1 1 0 0  1 1 0.75 1 1 1 1 0 0  -1 -1 0.25 1 1 1 1 0 0  1 1 0.75 1 1 1 1 0 0  1 -1 0.75 1 1 1 1 0 0  -1 -1 0.25 1 1 1 1 0 0]
always = dev.CreateDepthStencilState DepthFunc=ALWAYS
imm.OMSetDepthStencilState always
imm.RSSetState sloped
imm.IASetVertexBuffers 0 slope Stride=36
imm.Draw 6 0
expect pixel d 4 2 as R24_UNORM_X8_TYPELESS == f32[%v] within 0.00000001
expect violations == 0
`
	src = fmt.Sprintf(src, float32(flat), float32(clamped), float32(sloped))
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
}

// TestRasterizerStates: CullMode and FrontCounterClockwise, DepthClipEnable
// (a triangle past the far plane is clipped, or drawn with its depth
// clamped), the topologies with adjacency, and aliased lines (neither
// MultisampleEnable nor AntialiasedLineEnable; TestLineAlgorithms has
// the others).
func TestRasterizerStates(t *testing.T) {
	src := rsPrelude + `imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 8 8
imm.IASetVertexBuffers 0 quad Stride=36
# the quad is clockwise on the screen: front by default
front = dev.CreateRasterizerState CullMode=FRONT
ccw = dev.CreateRasterizerState FrontCounterClockwise=TRUE
imm.ClearRenderTargetView rtv #000000ff
imm.RSSetState front
imm.Draw 6 0
expect pixel t 3 3 == #000000ff
imm.RSSetState ccw
imm.Draw 6 0
expect pixel t 3 3 == #000000ff
imm.RSSetState NULL
imm.Draw 6 0
expect pixel t 3 3 == #ff0000ff

# z 1.5: outside the clip volume, unless DepthClipEnable is FALSE (its
# depth is then clamped to the viewport's 1)
far = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 1 1.5 0 1 0 1 0 0  1 1 1.5 0 1 0 1 0 0  -1 -1 1.5 0 1 0 1 0 0  1 1 1.5 0 1 0 1 0 0  1 -1 1.5 0 1 0 1 0 0  -1 -1 1.5 0 1 0 1 0 0]
noclip = dev.CreateRasterizerState DepthClipEnable=FALSE
imm.IASetVertexBuffers 0 far Stride=36
imm.ClearRenderTargetView rtv #000000ff
imm.Draw 6 0
expect pixel t 3 3 == #000000ff
imm.RSSetState noclip
imm.Draw 6 0
expect pixel t 3 3 == #00ff00ff

# adjacency: TRIANGLELIST_ADJ draws vertices 0, 2 and 4 of each six
adj = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 1 0.5 0 0 1 1 0 0  9 9 0.5 1 0 0 1 0 0  1 1 0.5 0 0 1 1 0 0  9 9 0.5 1 0 0 1 0 0  -1 -1 0.5 0 0 1 1 0 0  9 9 0.5 1 0 0 1 0 0]
imm.RSSetState NULL
imm.IASetPrimitiveTopology TRIANGLELIST_ADJ
imm.IASetVertexBuffers 0 adj Stride=36
imm.ClearRenderTargetView rtv #000000ff
imm.Draw 6 0
expect pixel t 1 1 == #0000ffff
expect pixel t 7 7 == #000000ff
imm.IASetPrimitiveTopology TRIANGLESTRIP_ADJ
imm.Draw 6 0
expect pixel t 1 1 == #0000ffff

# lines: aliased with neither flag (the hash of a run of its own)
line = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 -0.9 0.5 1 1 1 1 0 0  1 0.7 0.5 1 1 1 1 0 0]
imm.IASetPrimitiveTopology LINELIST
imm.IASetVertexBuffers 0 line Stride=36
imm.RSSetState NULL
imm.ClearRenderTargetView rtv #000000ff
imm.Draw 2 0
expect hash t == %s
expect violations == 0
`
	// The aliased line's hash, taken from a run of its own.
	probe := rsPrelude + `imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 8 8
line = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 -0.9 0.5 1 1 1 1 0 0  1 0.7 0.5 1 1 1 1 0 0]
imm.IASetPrimitiveTopology LINELIST
imm.IASetVertexBuffers 0 line Stride=36
imm.ClearRenderTargetView rtv #000000ff
imm.Draw 2 0
expect hash t == 0
`
	r := runSource(t, probe)
	fails := r.Summary().Failures
	if len(fails) != 1 || !strings.Contains(fails[0], "hash of t is ") {
		t.Fatalf("probe: %q", fails)
	}
	h := strings.TrimRight(strings.Fields(strings.SplitN(fails[0], "hash of t is ", 2)[1])[0], ",")
	src = fmt.Sprintf(src, h)
	r = runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
}
