package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestRuntimeDestroyQueue: the runtime's own deferred destruction
// ("Changes from Direct3D 10": "The Direct3D runtime also uses this same
// design when it must deal with similar issues", and flushes out "its
// deferred object destruction queue" in its amortized processing,
// pfnPerformAmortizedProcessingCb).
// An object released while bound is queued when the immediate context
// unbinds it -- dead for the API at once, destroyed later -- while a
// deferred context's unbinding destroys at once. Each case lists events
// that must occur in this order; an event is "Name", "Name:obj" or, for the
// queue, "DrainDestroyQueue:why:obj1 obj2", and "=" before it means its
// first occurrence in the trace (none earlier).
func TestRuntimeDestroyQueue(t *testing.T) {
	const setup = "dev, imm = D3D11CreateDevice\n" +
		"vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle\n" +
		"vb2 = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle\n"
	tests := []struct {
		name  string
		src   string
		order []string
		never []string // events that must not occur at all
	}{
		{"rebinding queues, Flush drains", setup + `imm.IASetVertexBuffers 0 vb
vb.Release
imm.IASetVertexBuffers 0 vb2
imm.IASetVertexBuffers 0 vb
expect hr == E_INVALIDARG
imm.Flush
vb2.Release
imm.ClearState
dev.Release
expect live == 0
`, []string{"ReleasedWhileBound:vb", "IASetVertexBuffers:vb2", "Flush", "=DrainDestroyQueue:Flush:vb", "=DestroyResource:vb", "ReleasedWhileBound:vb2", "=DrainDestroyQueue:device-released:vb2", "=DestroyResource:vb2", "DestroyDevice"}, nil},

		{"naming the released object again is refused; it stays bound", setup + `imm.IASetVertexBuffers 0 vb
vb.Release
imm.IASetVertexBuffers 0 vb
expect hr == E_INVALIDARG
imm.IASetVertexBuffers 0 vb
expect hr == E_INVALIDARG
imm.Flush
imm.IASetVertexBuffers 0 vb2
imm.Flush
vb2.Release
imm.ClearState
dev.Release
expect live == 0
`, []string{"ReleasedWhileBound:vb", "Flush", "IASetVertexBuffers:vb2", "=DrainDestroyQueue:Flush:vb", "=DestroyResource:vb"}, nil},

		{"amortized processing drains", setup + `sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
imm.IASetVertexBuffers 0 vb
vb.Release
imm.IASetVertexBuffers 0 vb2
imm.OMSetRenderTargets rtv
imm.ClearRenderTargetView rtv 0 0 0 1
sc.Present
imm.ClearState
vb2.Release
rtv.Release
bb.Release
sc.Release
dev.Release
expect live == 0
`, []string{"ReleasedWhileBound:vb", "pfnRenderCb", "pfnPerformAmortizedProcessingCb", "TrimHighWaterMarks", "=DrainDestroyQueue:amortized:vb", "=DestroyResource:vb"}, nil},

		{"a released device drains the queue and goes", setup + `imm.IASetVertexBuffers 0 vb
vb.Release
vb2.Release
imm.ClearState
dev.Release
expect live == 0
`, []string{"ClearState", "=DrainDestroyQueue:device-released:vb", "=DestroyResource:vb", "DestroyDevice"}, nil},

		{"a view waits for its queued view, not in the queue", "dev, imm = D3D11CreateDevice\n" + `t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
v = dev.CreateRenderTargetView t
imm.OMSetRenderTargets v
v.Release
t.Release
imm.ClearState
imm.Flush
dev.Release
expect live == 0
`, []string{"ReleasedWhileBound:v", "ClearState", "=DrainDestroyQueue:Flush:v", "=DestroyRenderTargetView:v", "=DestroyResource:t", "DestroyDevice"}, nil},

		{"a deferred context's unbinding destroys at once", setup + `dc = dev.CreateDeferredContext
dc.IASetVertexBuffers 0 vb
vb.Release
vb2.Release
cl = dc.FinishCommandList FALSE
cl.Release
dc.Release
dev.Release
expect live == 0
`, []string{"ReleasedWhileBound:vb", "FinishCommandList", "=DestroyResource:vb", "DestroyDevice"}, []string{"DrainDestroyQueue"}},

		{"a deferred context's unbinding waits for its handle", setup + `dc = dev.CreateDeferredContext
dc.IASetVertexBuffers 0 vb
vb.Release
vb2.Release
dc.ClearState
cl = dc.FinishCommandList FALSE
cl.Release
dc.Release
dev.Release
expect live == 0
`, []string{"ReleasedWhileBound:vb", "ClearState", "FinishCommandList", "=DestroyResource:vb", "DestroyDevice"}, []string{"DrainDestroyQueue"}},

		{"ExecuteCommandList restoring the state keeps a released binding", setup + `dc = dev.CreateDeferredContext
dc.IASetPrimitiveTopology TRIANGLELIST
cl = dc.FinishCommandList FALSE
imm.IASetVertexBuffers 0 vb
vb.Release
vb2.Release
imm.ExecuteCommandList cl TRUE
imm.Flush
imm.ClearState
imm.Flush
cl.Release
dc.Release
dev.Release
expect live == 0
`, []string{"ReleasedWhileBound:vb", "ExecuteCommandList", "IaSetVertexBuffers:vb", "ClearState", "=DrainDestroyQueue:Flush:vb", "=DestroyResource:vb"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runSource(t, tt.src+"expect violations == 0\n")
			if s := r.Summary(); !s.OK() {
				t.Fatalf("run fails: %s", strings.Join(s.Failures, "\n"))
			}
			at := -1
			evs := r.Events()
			for _, want := range tt.order {
				if first, ok := strings.CutPrefix(want, "="); ok {
					// its first occurrence: nothing of the kind earlier
					i := firstEvent(evs, first, 0)
					if i < 0 {
						t.Fatalf("no %s in the trace", first)
					}
					if i <= at {
						t.Fatalf("%s (event %d) comes before the event %d it must follow (order %v)", first, evs[i].Seq, evs[at].Seq, tt.order)
					}
					at = i
					continue
				}
				i := firstEvent(evs, want, at+1)
				if i < 0 {
					t.Fatalf("no %s after event %d (order %v)", want, at, tt.order)
				}
				at = i
			}
			for _, no := range tt.never {
				if i := firstEvent(evs, no, 0); i >= 0 {
					t.Errorf("unexpected %s: %s", no, evs[i].Msg)
				}
			}
		})
	}
}

// firstEvent finds the first Call or Message event from index from on that
// matches want (see TestRuntimeDestroyQueue).
func firstEvent(evs []trace.Event, want string, from int) int {
	parts := strings.SplitN(want, ":", 3)
	for i := from; i < len(evs); i++ {
		e := evs[i]
		if e.Kind == trace.Return || e.Name != parts[0] {
			continue
		}
		if e.Name == "DrainDestroyQueue" && len(parts) == 3 {
			if e.Args.Str(trace.KeyWhy) != parts[1] || !strings.HasSuffix(e.Msg, ": "+parts[2]) {
				continue
			}
		} else if len(parts) > 1 && e.Obj != parts[1] {
			continue
		}
		return i
	}
	return -1
}
