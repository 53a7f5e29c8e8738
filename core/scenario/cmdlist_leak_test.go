package scenario

import (
	"strings"
	"testing"
)

// Nothing leaks around command-list and deferred-context recycling
// ("Supporting command lists"): releasing a deferred context frees every
// command-list handle it retired or cached, and a failing
// RecycleCreateCommandList or RecycleCreateDeferredContext leaves nothing
// behind.
func TestCommandListRecyclingLeaksNothing(t *testing.T) {
	for _, tc := range []struct{ desc, src string }{
		{"release the context with retired and cached lists", `
dc.ClearRenderTargetView rtv 1 0 0 1
cl1 = dc.FinishCommandList FALSE
dc.ClearRenderTargetView rtv 1 0 0 1
cl2 = dc.FinishCommandList FALSE
cl1.Release
cl2.Release
dc.ClearRenderTargetView rtv 1 0 0 1
cl3 = dc.FinishCommandList FALSE
expect calls RecycleCommandList RecycleCommandList RecycleCreateCommandList
cl3.Release
dc.Release
expect calls AbandonCommandList DestroyCommandList DestroyCommandList DestroyDevice
`},
		{"RecycleCreateCommandList fails", `
dc.ClearRenderTargetView rtv 1 0 0 1
cl = dc.FinishCommandList FALSE
cl.Release
dc.ClearRenderTargetView rtv 0 0 1 1
inject E_OUTOFMEMORY at=imm.RecycleCreateCommandList
cl2 = dc.FinishCommandList FALSE
expect hr == E_OUTOFMEMORY
expect calls RecycleCreateCommandList DestroyCommandList AbandonCommandList RecycleCreateDeferredContext
dc.Release
`},
		{"RecycleCreateDeferredContext fails", `
dc.ClearRenderTargetView rtv 0 0 1 1
inject E_OUTOFMEMORY at=imm.RecycleCreateDeferredContext
cl = dc.FinishCommandList FALSE
expect hr == E_OUTOFMEMORY
expect calls CreateCommandList RecycleCreateDeferredContext DestroyCommandList
dc.ClearRenderTargetView rtv 0 0 1 1
cl2 = dc.FinishCommandList FALSE
cl2.Release
dc.Release
`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			src := `
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
dc = dev.CreateDeferredContext
` + tc.src + `
rtv.Release
bb.Release
sc.Release
dev.Release
expect live == 0
expect violations == 0
`
			if s := runSource(t, src).Summary(); !s.OK() {
				t.Errorf("%s", strings.Join(s.Failures, "\n"))
			}
		})
	}
}
