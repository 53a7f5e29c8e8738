package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
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
expect calls AbandonCommandList DestroyCommandList DestroyCommandList DeferredContextState
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

// Deferred contexts are recycled too: a released deferred context's driver
// handle is kept (no DestroyDevice), the next CreateDeferredContext makes it
// fresh with RecycleCreateDeferredContext, and what is still kept goes with
// the device. Without D3D11DDICAPS_COMMANDLISTS_BUILD_2 (option
// driver.recycle=false) the context is destroyed and created as before.
func TestDeferredContextRecycling(t *testing.T) {
	const src = `
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
dc = dev.CreateDeferredContext
dc.ClearRenderTargetView rtv 1 0 0 1
cl = dc.FinishCommandList FALSE
dc.Release
RELEASE
cl.Release
expect calls DestroyCommandList
dc2 = dev.CreateDeferredContext
CREATE
dc2.ClearRenderTargetView rtv 0 1 0 1
cl2 = dc2.FinishCommandList FALSE
imm.ExecuteCommandList cl2 FALSE
sc.Present
expect pixel bb 1 1 == #00ff00ff
dc2.Release
cl2.Release
rtv.Release
bb.Release
sc.Release
dev.Release
expect live == 0
expect violations == 0
`
	for _, tc := range []struct{ desc, option, release, create string }{
		{"recycled", "", "expect calls Release AbandonCommandList DeferredContextState",
			"expect calls CreateDeferredContext RecycleCreateDeferredContext"},
		{"recycling off", "option driver.recycle=false\n", "expect calls Release AbandonCommandList DestroyDevice",
			"expect calls CreateDeferredContext CalcPrivateDeferredContextSize CreateDeferredContext"},
		{"RecycleCreateDeferredContext fails", "", "inject E_OUTOFMEMORY at=imm.RecycleCreateDeferredContext",
			"expect hr == E_OUTOFMEMORY\nexpect calls CreateDeferredContext RecycleCreateDeferredContext DestroyDevice\ndc2 = dev.CreateDeferredContext"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			s := tc.option + strings.NewReplacer("RELEASE", tc.release, "CREATE", tc.create).Replace(src)
			r := runSource(t, s)
			if sum := r.Summary(); !sum.OK() {
				t.Fatalf("%s", strings.Join(sum.Failures, "\n"))
			}
			var destroys, recycles int
			for _, e := range r.Events() {
				if e.Kind == trace.Call && e.Layer == trace.UMD && strings.HasPrefix(e.Ctx, "DC") && e.Name == "DestroyDevice" {
					destroys++
				}
				if e.Kind == trace.Call && e.Layer == trace.UMD && e.Name == "RecycleCreateDeferredContext" && e.Args.Str(trace.KeyDC) != "" {
					recycles++
				}
			}
			want := map[string][2]int{"recycled": {1, 1}, "recycling off": {4, 0}, "RecycleCreateDeferredContext fails": {2, 1}}[tc.desc]
			if destroys != want[0] || recycles != want[1] {
				t.Errorf("%d DestroyDevice of deferred contexts and %d reuses, want %d and %d", destroys, recycles, want[0], want[1])
			}
		})
	}
}
