package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// The error model of "Using context-local DDI handles": no create DDI
// returns an error; the driver reports it through pfnSetErrorCb with the
// core-layer handle of the context concerned -- the immediate context's for
// the device's creates, a deferred context's for the handles it opens -- and
// any DDI of a deferred context may fail that way, state calls included,
// after which the runtime abandons the recording and FinishCommandList
// returns E_OUTOFMEMORY.
func TestCreateErrorsGoThroughSetErrorCb(t *testing.T) {
	const setup = `
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
bs = dev.CreateBlendState
`
	for _, tc := range []struct {
		desc, src string
		ddi, ctx  string // the DDI that fails and the context whose core-layer handle reports it
	}{
		{"device create", `
inject E_OUTOFMEMORY at=imm.CreateResource
vb = dev.CreateBuffer ByteWidth=64 Usage=DEFAULT BindFlags=VERTEX_BUFFER
expect hr == E_OUTOFMEMORY
expect calls CreateBuffer CreateResource pfnSetErrorCb
`, "CreateResource", "IC"},
		{"state create", `
inject E_OUTOFMEMORY at=imm.CreateRasterizerState
rs = dev.CreateRasterizerState CullMode=NONE
expect hr == E_OUTOFMEMORY
`, "CreateRasterizerState", "IC"},
		{"deferred context create", `
inject E_OUTOFMEMORY at=imm.CreateDeferredContext
dc = dev.CreateDeferredContext
expect hr == E_OUTOFMEMORY
`, "CreateDeferredContext", "IC"},
		{"command list create", `
dc = dev.CreateDeferredContext
dc.ClearRenderTargetView rtv 1 0 0 1
inject E_OUTOFMEMORY at=imm.CreateCommandList
cl = dc.FinishCommandList FALSE
expect hr == E_OUTOFMEMORY
dc.ClearRenderTargetView rtv 0 1 0 1
cl = dc.FinishCommandList FALSE
imm.ExecuteCommandList cl FALSE
sc.Present
expect pixel bb 1 1 == #00ff00ff
cl.Release
dc.Release
`, "CreateCommandList", "IC"},
		{"deferred open", `
dc = dev.CreateDeferredContext
inject E_OUTOFMEMORY at=dc.CreateBlendState
dc.OMSetBlendState bs
dc.ClearRenderTargetView rtv 1 0 0 1
cl = dc.FinishCommandList FALSE
expect hr == E_OUTOFMEMORY
dc.Release
`, "CreateBlendState", "DC1"},
		{"deferred view open: no false CLS-DEP or CL-ABANDON", `
dc = dev.CreateDeferredContext
inject E_OUTOFMEMORY at=dc.CreateRenderTargetView
dc.OMSetRenderTargets rtv
expect calls OMSetRenderTargets CreateResource CreateRenderTargetView pfnSetErrorCb AbandonCommandList DestroyResource
dc.ClearRenderTargetView rtv 1 0 0 1
cl = dc.FinishCommandList FALSE
expect hr == E_OUTOFMEMORY
dc.OMSetRenderTargets rtv
dc.ClearRenderTargetView rtv 0 0 1 1
cl = dc.FinishCommandList FALSE
imm.ExecuteCommandList cl FALSE
sc.Present
expect pixel bb 1 1 == #0000ffff
cl.Release
dc.Release
`, "CreateRenderTargetView", "DC1"},
		{"deferred SetBlendState", `
dc = dev.CreateDeferredContext
dc.OMSetRenderTargets rtv
inject E_OUTOFMEMORY at=dc.SetBlendState
dc.OMSetBlendState bs
expect calls OMSetBlendState SetBlendState pfnSetErrorCb AbandonCommandList
dc.ClearRenderTargetView rtv 1 0 0 1
cl = dc.FinishCommandList FALSE
expect hr == E_OUTOFMEMORY
dc.Release
`, "SetBlendState", "DC1"},
		{"deferred QueryEnd", `
q = dev.CreateQuery Query=EVENT
dc = dev.CreateDeferredContext
dc.ClearRenderTargetView rtv 1 0 0 1
inject E_OUTOFMEMORY at=dc.QueryEnd
dc.End q
expect calls End QueryEnd pfnSetErrorCb AbandonCommandList
cl = dc.FinishCommandList FALSE
expect hr == E_OUTOFMEMORY
dc.Release
q.Release
`, "QueryEnd", "DC1"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := runSource(t, setup+tc.src+`
bs.Release
rtv.Release
bb.Release
sc.Release
dev.Release
expect live == 0
expect violations == 0
`)
			if s := r.Summary(); !s.OK() {
				t.Fatalf("%s", strings.Join(s.Failures, "\n"))
			}
			var found bool
			events := r.Events()
			byID := map[uint64]trace.Event{}
			for _, e := range events {
				byID[e.Seq] = e
			}
			for _, e := range events {
				if e.Kind != trace.Call || e.Name != "pfnSetErrorCb" {
					continue
				}
				p, ok := byID[e.Parent]
				if !ok || p.Name != tc.ddi || p.Layer != trace.UMD {
					continue
				}
				found = true
				if e.Ctx != tc.ctx || e.HR != "E_OUTOFMEMORY" {
					t.Errorf("%s reported %s through the pfnSetErrorCb of %s, want E_OUTOFMEMORY on %s", tc.ddi, e.HR, e.Ctx, tc.ctx)
				}
			}
			if !found {
				t.Errorf("%s did not report its failure through pfnSetErrorCb", tc.ddi)
			}
		})
	}
}
