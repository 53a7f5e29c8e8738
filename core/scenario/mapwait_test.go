package scenario

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestMapWaitExplainsItself: a Map that must wait for the GPU (the SamBookshelf article on asynchronous Draw)
// says why in the trace (docs/architecture.md: every wait explains itself).
// The wait is the video memory manager's, inside pfnLockCb
// ("PFND3DDDI_LOCKCB callback function (d3dumddi.h)"): Dxgkrnl's
// WaitForFence, between the lock's call and return, names the resource
// (obj, and res = the locked allocation), the hazard and the fence, and
// the DMA buffer behind the fence — a buffer whose allocation list really
// uses that allocation the way the hazard says. `expect calls` cannot see
// args; this test reads them.
func TestMapWaitExplainsItself(t *testing.T) {
	const head = `dev, imm = D3D11CreateDevice
gpu = dev.CreateBuffer ByteWidth=16 Usage=DEFAULT BindFlags=VERTEX_BUFFER
stage = dev.CreateBuffer ByteWidth=16 Usage=STAGING CPUAccessFlags=READ|WRITE Data=u32[1 2 3 4]
`
	tests := []struct {
		desc, body string
		hazard     string
		access     string // how the DMA buffer behind the fence uses the allocation: ":w" written, ":r" read
	}{
		{"a read waits for a GPU write", "imm.CopyResource stage gpu\nimm.Map stage READ\nimm.Unmap stage\n", "RAW", ":w"},
		{"a write waits for a GPU read", "imm.CopyResource gpu stage\nimm.Map stage WRITE\nimm.Unmap stage\n", "WAR", ":r"},
		{"a write waits for a GPU write", "imm.CopyResource stage gpu\nimm.Map stage WRITE\nimm.Unmap stage\n", "WAW", ":w"},
		{"READ_WRITE after a GPU write", "imm.CopyResource stage gpu\nimm.Map stage READ_WRITE\nimm.Unmap stage\n", "WAW", ":w"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s, err := Load("mapwait.d3ds", []byte(head+tt.body))
			if err != nil {
				t.Fatal(err)
			}
			r := NewRun(s, Overrides{})
			if sum := r.Finish(); !sum.OK() {
				t.Fatalf("%v", sum.Failures)
			}
			evs := r.Events()
			i := slices.IndexFunc(evs, func(e trace.Event) bool { return e.Name == "pfnLockCb" && e.Kind == trace.Call })
			ret := slices.IndexFunc(evs, func(e trace.Event) bool { return e.Name == "pfnLockCb" && e.Kind == trace.Return })
			if i < 0 || ret < i {
				t.Fatal("no pfnLockCb")
			}
			res := evs[i].Handle
			var waits []trace.Event
			for _, e := range evs[i:ret] {
				if e.Name == "WaitForFence" {
					waits = append(waits, e)
				}
			}
			if slices.ContainsFunc(evs, func(e trace.Event) bool { return e.Name == "pfnWaitForSynchronizationObjectCb" }) {
				t.Error("a Map called pfnWaitForSynchronizationObjectCb: it waits inside pfnLockCb")
			}
			cbFence := ""
			if len(waits) > 0 {
				f, _ := waits[0].Args.Uint(trace.KeyFence)
				cbFence = strconv.FormatUint(f, 10)
			}
			if len(waits) != 2 {
				t.Fatalf("%d WaitForFence events inside pfnLockCb, want a start and an end", len(waits))
			}
			start, end := waits[0], waits[1]
			for _, w := range waits {
				fence, _ := w.Args.Uint(trace.KeyFence)
				dma, _ := w.Args.Uint(trace.KeyDMA)
				if w.Obj != "stage" || w.Args.Str(trace.KeyRes) != res || w.Args.Str(trace.KeyHazard) != tt.hazard ||
					strconv.FormatUint(fence, 10) != cbFence || w.DMA == 0 ||
					dma != w.DMA || !strings.Contains(w.Msg, tt.hazard) {
					t.Errorf("WaitForFence obj=%q args=%q dma=%d msg=%q: want obj stage, res=%s hazard=%s fence=%s dma=%d",
						w.Obj, w.Args, w.DMA, w.Msg, res, tt.hazard, cbFence, w.DMA)
				}
			}
			if start.Args.Has(trace.KeyDone) || !end.Args.Has(trace.KeyDone) || !strings.HasPrefix(end.Args.String(), "done ") {
				t.Errorf("start args %q, end args %q: only the end says done", start.Args, end.Args)
			}
			// The buffer named is the one that uses the resource.
			j := slices.IndexFunc(evs, func(e trace.Event) bool {
				return e.Name == "DxgkDdiRender" && e.Kind == trace.Call && e.DMA == start.DMA
			})
			if j < 0 {
				t.Fatalf("no DxgkDdiRender for DMA %d", start.DMA)
			}
			found := false
			for a := range evs[j].Args.Allocs() {
				found = found || a.Name() == res && a.Write == (tt.access == ":w")
			}
			if !found {
				t.Errorf("DMA %d's allocation list %q does not use %s as %s", start.DMA, evs[j].Args, res, tt.access)
			}
		})
	}
}
