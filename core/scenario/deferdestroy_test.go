package scenario

import (
	"strconv"
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestEveryDestroyDeferred: every destroy DDI is free-threaded, so the
// driver defers the destruction until a submission follows the object's
// last use on the immediate context ("Changes from Direct3D 10", rule
// DD-ORDER) -- not only DestroyResource. An active query, or one whose End
// rides on the unsubmitted command buffer, may be released: its allocation
// is deallocated after the pfnRenderCb that carries it, never inside
// DestroyQuery (which would leave the buffer naming a freed allocation, and
// the kernel would refuse it). With bug=DD-ORDER the driver destroys at
// once and the verifier names the rule.
func TestEveryDestroyDeferred(t *testing.T) {
	const setup = "dev, imm = D3D11CreateDevice\n" +
		"t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET\n" +
		"rtv = dev.CreateRenderTargetView t\n" +
		"imm.OMSetRenderTargets rtv\n"
	tests := []struct {
		desc string
		src  string
	}{
		{"an active occlusion query", setup + "q = dev.CreateQuery Query=OCCLUSION\nimm.Begin q\nimm.ClearRenderTargetView rtv 0 0 0 1\nq.Release\nimm.Flush\n"},
		{"an occlusion query whose End is unsubmitted", setup + "q = dev.CreateQuery Query=OCCLUSION\nimm.Begin q\nimm.ClearRenderTargetView rtv 0 0 0 1\nimm.End q\nq.Release\nimm.Flush\n"},
		{"a timestamp whose End is unsubmitted", setup + "q = dev.CreateQuery Query=TIMESTAMP\nimm.End q\nq.Release\nimm.Flush\n"},
		{"on another thread", setup + "q = dev.CreateQuery Query=OCCLUSION\nimm.Begin q\nimm.ClearRenderTargetView rtv 0 0 0 1\n" +
			"thread t1 {\n  q.Release\n  signal done\n}\nwait done\nimm.Flush\n"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := runSource(t, tt.src+"expect violations == 0\n")
			if s := r.Summary(); !s.OK() {
				t.Fatalf("run fails: %s", strings.Join(s.Failures, "\n"))
			}
			evs := r.Events()
			bySeq := map[uint64]*trace.Event{}
			destroyed, rendered, freed := false, false, false
			for i := range evs {
				e := &evs[i]
				bySeq[e.Seq] = e
				switch {
				case e.Kind == trace.Call && e.Name == "DestroyQuery":
					destroyed = true
				case e.Kind == trace.Return && e.Name == "pfnRenderCb":
					if e.HR != "S_OK" {
						t.Errorf("pfnRenderCb returned %s: %s", e.HR, e.Msg)
					}
					rendered = rendered || destroyed
				case e.Kind == trace.Call && e.Name == "pfnDeallocateCb" && strings.HasPrefix(e.Obj, "query"):
					for p := bySeq[e.Parent]; p != nil; p = bySeq[p.Parent] {
						if p.Name == "DestroyQuery" {
							t.Errorf("the query's allocation is deallocated inside DestroyQuery (#%d)", e.Seq)
						}
					}
					if !rendered {
						t.Errorf("the query's allocation is deallocated (#%d) before a pfnRenderCb follows DestroyQuery", e.Seq)
					}
					freed = true
				}
			}
			if !destroyed || !freed {
				t.Fatalf("DestroyQuery %v, allocation freed %v", destroyed, freed)
			}
			buggy := runSource(t, "option bug=DD-ORDER\n"+tt.src)
			found := false
			for _, v := range buggy.Violations() {
				found = found || v.Rule == "DD-ORDER"
			}
			if !found {
				t.Errorf("bug=DD-ORDER: the verifier reports %v, not DD-ORDER", buggy.Violations())
			}
		})
	}
}

// TestDeferredDestroyKeepsDriverObject: a shader, a state object or a view
// destroyed while the immediate context has unsubmitted commands lives on
// in the driver until a submission (expect live counts the driver's
// objects): its Destroy* DDI only queues it. A shader's code allocation
// goes with it, at the submission too.
func TestDeferredDestroyKeepsDriverObject(t *testing.T) {
	const setup = "dev, imm = D3D11CreateDevice\n" +
		"t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET|SHADER_RESOURCE\n" +
		"rtv = dev.CreateRenderTargetView t\n" +
		"imm.OMSetRenderTargets rtv\n" +
		"imm.ClearRenderTargetView rtv 0 0 0 1\n"
	tests := []struct {
		desc, create, obj string
	}{
		{"a shader", "x = dev.CreatePixelShader builtin:ps_vertexcolor", "x"},
		{"a blend state", "x = dev.CreateBlendState", "x"},
		{"a sampler", "x = dev.CreateSamplerState", "x"},
		{"a view", "x = dev.CreateShaderResourceView t", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			before, _ := runSource(t, setup).live()
			n, _ := runSource(t, setup+tt.create+"\n").live()
			// Released: the API object goes at once, the driver's (and
			// its allocations) wait for the Flush's submission.
			src := setup + tt.create + "\n" + tt.obj + ".Release\n" +
				"expect live == " + strconv.Itoa(n-1) + "\nimm.Flush\nexpect live == " + strconv.Itoa(before) + "\nexpect violations == 0\n"
			if s := runSource(t, src).Summary(); !s.OK() {
				t.Fatalf("%s", strings.Join(s.Failures, "\n"))
			}
		})
	}
}

// TestPrimaryNotDeferred: a swap chain's buffer released while its view is
// bound is destroyed inside the ClearState that unbinds it, not queued for
// the next Flush: "Primary destruction cannot be deferred by the Direct3D
// runtime" ("Changes from Direct3D 10", Primary Exceptions). An ordinary
// texture in the same place waits in the runtime's queue until the Flush.
func TestPrimaryNotDeferred(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
tex = dev.CreateTexture2D Width=16 Height=16 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
trtv = dev.CreateRenderTargetView tex
imm.OMSetRenderTargets rtv trtv
imm.ClearRenderTargetView rtv 1 0 0 1
rtv.Release
bb.Release
sc.Release
trtv.Release
tex.Release
imm.ClearState
imm.Flush
`
	r := runSource(t, src)
	if f := r.Summary().Failures; len(f) > 0 {
		t.Fatal(f)
	}
	var in string // the API call in progress
	where := map[string]string{}
	for _, e := range r.Events() {
		if e.From == trace.App && e.Layer == trace.Runtime {
			switch e.Kind {
			case trace.Call:
				in = e.Name
			case trace.Return:
				in = ""
			}
		}
		if e.Kind == trace.Call && e.Name == "DestroyResource" {
			where[e.Obj] = in
		}
	}
	if where["sc.buffer0"] != "ClearState" || where["tex"] != "Flush" {
		t.Errorf("DestroyResource inside %v, want sc.buffer0 in ClearState and tex in Flush", where)
	}
}

// TestSyncDestroySharedState: a state object released while bound and then
// handed back by an identical create is the application's again, so
// Release; ClearState; Flush leaves it alive and rule DD-SYNC has nothing
// to say.
func TestSyncDestroySharedState(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice
b = dev.CreateBlendState
imm.OMSetBlendState b
b.Release
b2 = dev.CreateBlendState
expect calls StateShared
imm.ClearState
imm.Flush
expect violations == 0
`
	r := runSource(t, src)
	if f := r.Summary().Failures; len(f) > 0 {
		t.Fatal(f)
	}
}
