package scenario

import (
	"fmt"
	"testing"

	"d3dsim/core/trace"
)

// fetchPastSrc draws past its buffers, as Direct3D 11 allows: 3,000
// vertices from a 6-vertex buffer (the extra ones read zeros: degenerate
// triangles), six indices from a 5-index buffer (the sixth reads 0, so the
// second triangle is (3, 4, 0), back-facing), and an index (9) past the
// vertex buffer (a vertex of zeros, with the fetch's default w = 1 in
// each element: opaque black at the centre).
const fetchPastSrc = `%s
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer ByteWidth=216 Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
ib = dev.CreateBuffer ByteWidth=10 Usage=IMMUTABLE BindFlags=INDEX_BUFFER Data=u16[0 1 2 3 4]
ib2 = dev.CreateBuffer ByteWidth=12 Usage=IMMUTABLE BindFlags=INDEX_BUFFER Data=u16[0 1 2 9 4 5]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 64 64
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0 0 1 1
imm.Draw 3000 0
sc.Present 0
expect hr == S_OK
expect pixel bb 5 5 == #ffffffff
expect pixel bb 60 60 == #ffffffff
imm.ClearRenderTargetView rtv 0 0 1 1
imm.IASetIndexBuffer ib Format=R16_UINT
imm.DrawIndexed 6 0 0
sc.Present 0
expect hr == S_OK
expect pixel bb 5 5 == #ffffffff
expect pixel bb 60 60 == #0000ffff
imm.ClearRenderTargetView rtv 0 0 1 1
imm.IASetIndexBuffer ib2 Format=R16_UINT
imm.DrawIndexed 6 0 0
sc.Present 0
expect hr == S_OK
expect pixel bb 5 5 == #ffffffff
expect pixel bb 40 56 == #0000ffff
expect pixel bb 60 32 == #e3e3e3ff
expect violations == 0
`

// TestDrawPastTheBuffers: reads outside a bound buffer
// return zero and the device is not removed; nothing faults, the KMD rejects
// nothing, and the verifier finds nothing — with the KMD's validation on and
// off (bug=WDDM-ISOLATE): no reference leaves an allocation.
func TestDrawPastTheBuffers(t *testing.T) {
	for _, opt := range []string{"", "option bug=WDDM-ISOLATE"} {
		r := runSource(t, fmt.Sprintf(fetchPastSrc, opt))
		if sum := r.Summary(); !sum.OK() || sum.Violations != 0 {
			t.Fatalf("%q: failures %q, %d violations", opt, sum.Failures, sum.Violations)
		}
		for _, e := range r.Events() {
			if e.Name == "GpuFault" || (e.Kind == trace.Return && (e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent") && e.HR != "STATUS_SUCCESS") {
				t.Errorf("%q: %s %s %s", opt, e.Name, e.HR, e.Msg)
			}
		}
	}
}
