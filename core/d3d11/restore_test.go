package d3d11

import (
	"testing"

	"d3dsim/core/ddi"
)

// RestoreContextState and RestoreDeferredContextState give back every
// vertex-buffer slot with its stride and offset and the index buffer with
// its format and offset, on both kinds of deferred context.
func TestRestoreEveryVertexBufferSlot(t *testing.T) {
	bothListKinds(t, func(t *testing.T, f *fakeStack) {
		vb, _ := f.dev.CreateBuffer("vb", vbDesc(), nil)
		ib, _ := f.dev.CreateBuffer("ib", BufferDesc{ByteWidth: 12, Usage: ddi.UsageDefault, BindFlags: ddi.BindIndexBuffer}, nil)
		dc, err := f.dev.CreateDeferredContext("dc")
		if err != nil {
			t.Fatal(err)
		}
		set := func(c *DeviceContext) {
			c.IASetVertexBuffers(0, vb, 36, 0)
			c.IASetVertexBuffers(5, vb, 12, 24)
			c.IASetIndexBuffer(ib, ddi.FormatR32Uint, 8)
		}
		check := func(what string, c *DeviceContext) {
			t.Helper()
			if c.vb[5] != vb || c.vbStride[5] != 12 || c.vbOffset[5] != 24 || c.vb[0] != vb || c.vbStride[0] != 36 ||
				c.ib != ib || c.ibFormat != ddi.FormatR32Uint || c.ibOffset != 8 {
				t.Errorf("%s: slot 5 %v stride %d offset %d, index buffer %v format %v offset %d", what,
					c.vb[5] != nil, c.vbStride[5], c.vbOffset[5], c.ib != nil, c.ibFormat, c.ibOffset)
			}
		}
		set(dc)
		l, err := dc.FinishCommandList("cl", true)
		if err != nil {
			t.Fatal(err)
		}
		check("deferred context after FinishCommandList(TRUE)", dc)
		set(f.ic)
		if err := f.ic.ExecuteCommandList(l, true); err != nil {
			t.Fatal(err)
		}
		check("immediate context after ExecuteCommandList(TRUE)", f.ic)
		if err := f.ic.ExecuteCommandList(l, false); err != nil {
			t.Fatal(err)
		}
		if f.ic.vb[5] != nil || f.ic.vbStride[5] != 0 || f.ic.ib != nil {
			t.Errorf("ExecuteCommandList(FALSE) left bindings")
		}
	})
}

// bothListKinds runs test on a stack with the driver's command lists and
// on one whose deferred contexts the runtime emulates (recycling on).
func bothListKinds(t *testing.T, test func(t *testing.T, f *fakeStack)) {
	for _, tc := range []struct {
		desc  string
		lists bool
	}{{"driver command lists", true}, {"emulated", false}} {
		t.Run(tc.desc, func(t *testing.T) { test(t, mustStack(t, fakeOpts{commandLists: tc.lists, recycle: true})) })
	}
}
