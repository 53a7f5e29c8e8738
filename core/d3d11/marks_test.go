package d3d11

import (
	"fmt"
	"testing"

	"d3dsim/core/ddi"
)

// marksCover reports the first slot bound at or above its table's mark
// (the state refresh, the unbinding and the pins look only below the
// marks: such a slot would be missed), or "".
func marksCover(c *DeviceContext) string {
	for i, r := range c.vb {
		if r != nil && i >= int(c.vbN) {
			return fmt.Sprintf("vertex buffer %d, mark %d", i, c.vbN)
		}
	}
	for st := range c.stages {
		t := &c.stages[st]
		for i, r := range t.cb {
			if r != nil && i >= int(t.cbN) {
				return fmt.Sprintf("%v constant buffer %d, mark %d", Stage(st), i, t.cbN)
			}
		}
		for i, v := range t.srv {
			if v != nil && i >= int(t.srvN) {
				return fmt.Sprintf("%v view %d, mark %d", Stage(st), i, t.srvN)
			}
		}
		for i, s := range t.samp {
			if s != nil && i >= int(t.sampN) {
				return fmt.Sprintf("%v sampler %d, mark %d", Stage(st), i, t.sampN)
			}
		}
	}
	return ""
}

// TestBindingMarksCover binds the first, a middle and the last slot of
// every table of the driven stages, with each setter, on the immediate
// context and on both kinds of deferred context, and checks after every
// call -- and after FinishCommandList, ExecuteCommandList with and without
// RestoreContextState, and ClearState -- that no bound slot is at or above
// its table's mark. Forgetting to move any one mark fails it.
func TestBindingMarksCover(t *testing.T) {
	bothListKinds(t, func(t *testing.T, f *fakeStack) {
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		vb, err := f.dev.CreateBuffer("vb", vbDesc(), nil)
		must(err)
		cb, err := f.dev.CreateBuffer("cb", BufferDesc{ByteWidth: 16, Usage: ddi.UsageDefault, BindFlags: ddi.BindConstantBuffer}, nil)
		must(err)
		tex, err := f.dev.CreateTexture2D("tex", Texture2DDesc{Width: 4, Height: 4, Format: ddi.FormatR8G8B8A8Unorm, Usage: ddi.UsageDefault, BindFlags: ddi.BindShaderResource}, nil)
		must(err)
		srv, err := f.dev.CreateView("srv", ddi.ViewSRV, tex)
		must(err)
		samp, err := f.dev.CreateSamplerState("samp", ddi.DefaultSamplerDesc())
		must(err)
		dc, err := f.dev.CreateDeferredContext("dc")
		must(err)
		check := func(what string, c *DeviceContext) {
			t.Helper()
			if s := marksCover(c); s != "" {
				t.Fatalf("%s: %s bound above the mark", what, s)
			}
		}
		set := func(c *DeviceContext) {
			t.Helper()
			for _, i := range []uint32{0, iaSlots / 2, iaSlots - 1} {
				must(c.IASetVertexBuffers(i, vb, 36, 0))
				check(fmt.Sprintf("IASetVertexBuffers %d", i), c)
			}
			for _, st := range []Stage{StageVS, StagePS} {
				for _, i := range []uint32{0, ddi.ConstantBufferSlots / 2, ddi.ConstantBufferSlots - 1} {
					must(c.SetConstantBuffers(st, i, []*Resource{cb}))
					check(fmt.Sprintf("%v constant buffer %d", st, i), c)
				}
				for _, i := range []uint32{0, ddi.ShaderResourceSlots / 2, ddi.ShaderResourceSlots - 1} {
					must(c.SetShaderResources(st, i, []*View{srv}))
					check(fmt.Sprintf("%v view %d", st, i), c)
				}
				for _, i := range []uint32{0, ddi.SamplerSlots / 2, ddi.SamplerSlots - 1} {
					must(c.SetSamplers(st, i, []*State{samp}))
					check(fmt.Sprintf("%v sampler %d", st, i), c)
				}
			}
		}
		set(dc)
		l, err := dc.FinishCommandList("cl", true)
		must(err)
		check("the deferred context after FinishCommandList(TRUE)", dc)
		set(f.ic)
		must(f.ic.ExecuteCommandList(l, true))
		check("ExecuteCommandList(TRUE)", f.ic)
		must(f.ic.ExecuteCommandList(l, false))
		check("ExecuteCommandList(FALSE)", f.ic)
		if f.ic.vbN != 0 || f.ic.stages[StagePS].srvN != 0 {
			t.Errorf("ExecuteCommandList(FALSE) left marks: vertex buffers %d, PS views %d", f.ic.vbN, f.ic.stages[StagePS].srvN)
		}
		set(f.ic)
		must(f.ic.ClearState())
		check("ClearState", f.ic)
	})
}
