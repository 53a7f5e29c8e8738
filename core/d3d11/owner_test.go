package d3d11

import (
	"strings"
	"testing"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// messages lists the debug-layer messages traced since seq after.
func (f *fakeStack) messages(after uint64) []trace.Event {
	var out []trace.Event
	f.rec.ViewSince(after, func(held []trace.Event) {
		for _, e := range held {
			if e.Kind == trace.Message && strings.HasPrefix(e.Msg, "D3D11") {
				out = append(out, e)
			}
		}
	})
	return out
}

// otherObjects are objects of every kind made by a second device.
type otherObjects struct {
	dev                     *Device
	vb, ib, cb, dyn, tex    *Resource
	rtv, srv, dsv           *View
	vs, ps                  *Shader
	blend, rs, depth, samp  *State
	occlusion, event        *Query
	list                    *CommandList
	ownTex, ownDyn, ownDest *Resource // of the first device
}

func makeOther(t *testing.T, f *fakeStack) *otherObjects {
	t.Helper()
	d2, _, err := f.rt.D3D11CreateDevice("dev2", 0)
	if err != nil {
		t.Fatal(err)
	}
	o := &otherObjects{dev: d2}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	tex := Texture2DDesc{Width: 4, Height: 4, Format: ddi.FormatR8G8B8A8Unorm, Usage: ddi.UsageDefault, BindFlags: ddi.BindRenderTarget | ddi.BindShaderResource}
	dyn := BufferDesc{ByteWidth: 16, Usage: ddi.UsageDynamic, BindFlags: ddi.BindVertexBuffer, CPUAccessFlags: ddi.CPUAccessWrite}
	o.vb, err = d2.CreateBuffer("vb2", vbDesc(), nil)
	must(err)
	o.ib, err = d2.CreateBuffer("ib2", BufferDesc{ByteWidth: 12, Usage: ddi.UsageDefault, BindFlags: ddi.BindIndexBuffer}, nil)
	must(err)
	o.cb, err = d2.CreateBuffer("cb2", BufferDesc{ByteWidth: 16, Usage: ddi.UsageDefault, BindFlags: ddi.BindConstantBuffer}, nil)
	must(err)
	o.dyn, err = d2.CreateBuffer("dyn2", dyn, nil)
	must(err)
	o.tex, err = d2.CreateTexture2D("tex2", tex, nil)
	must(err)
	ds, err := d2.CreateTexture2D("ds2", Texture2DDesc{Width: 4, Height: 4, Format: ddi.FormatD32Float, Usage: ddi.UsageDefault, BindFlags: ddi.BindDepthStencil}, nil)
	must(err)
	o.rtv, err = d2.CreateView("rtv2", ddi.ViewRTV, o.tex)
	must(err)
	o.srv, err = d2.CreateView("srv2", ddi.ViewSRV, o.tex)
	must(err)
	o.dsv, err = d2.CreateView("dsv2", ddi.ViewDSV, ds)
	must(err)
	o.vs, err = createBuiltin(d2, "vs2", "vs_passthrough")
	must(err)
	o.ps, err = createBuiltin(d2, "ps2", "ps_solid")
	must(err)
	o.blend, err = d2.CreateBlendState("blend2", ddi.DefaultBlendDesc())
	must(err)
	o.rs, err = d2.CreateRasterizerState("rs2", ddi.DefaultRasterizerDesc())
	must(err)
	o.depth, err = d2.CreateDepthStencilState("depth2", ddi.DefaultDepthStencilDesc())
	must(err)
	o.samp, err = d2.CreateSamplerState("samp2", ddi.DefaultSamplerDesc())
	must(err)
	o.occlusion, err = d2.CreateQuery("occ2", ddi.QueryOcclusion)
	must(err)
	o.event, err = d2.CreateQuery("event2", ddi.QueryEvent)
	must(err)
	dc, err := d2.CreateDeferredContext("dc2")
	must(err)
	must(dc.Draw(3, 0))
	o.list, err = dc.FinishCommandList("list2", false)
	must(err)
	o.ownTex, err = f.dev.CreateTexture2D("tex1", tex, nil)
	must(err)
	o.ownDest, err = f.dev.CreateTexture2D("dest1", tex, nil)
	must(err)
	o.ownDyn, err = f.dev.CreateBuffer("dyn1", dyn, nil)
	must(err)
	return o
}

// An object of one device passed to another device's context: a method
// that returns an HRESULT returns E_INVALIDARG, a void method does nothing;
// nothing reaches the driver and the debug layer names the method, the
// object and both devices. On the immediate context, a deferred context of
// a driver with command lists and an emulated one.
func TestObjectOfAnotherDevice(t *testing.T) {
	type call struct {
		method string
		obj    func(o *otherObjects) string
		hr     bool // returns an HRESULT
		do     func(c *DeviceContext, o *otherObjects) error
		ic     bool // the immediate context only
	}
	name := func(n string) func(*otherObjects) string { return func(*otherObjects) string { return n } }
	calls := []call{
		{"IASetVertexBuffers", name("vb2"), false, func(c *DeviceContext, o *otherObjects) error { return c.IASetVertexBuffers(0, o.vb, 12, 0) }, false},
		{"IASetIndexBuffer", name("ib2"), false, func(c *DeviceContext, o *otherObjects) error { return c.IASetIndexBuffer(o.ib, ddi.FormatR16Uint, 0) }, false},
		{"VSSetConstantBuffers", name("cb2"), false, func(c *DeviceContext, o *otherObjects) error { return c.VSSetConstantBuffers(0, o.cb) }, false},
		{"VSSetShader", name("vs2"), false, func(c *DeviceContext, o *otherObjects) error { return c.VSSetShader(o.vs) }, false},
		{"PSSetShader", name("ps2"), false, func(c *DeviceContext, o *otherObjects) error { return c.PSSetShader(o.ps) }, false},
		{"PSSetShaderResources", name("srv2"), false, func(c *DeviceContext, o *otherObjects) error { return c.PSSetShaderResources(0, o.srv) }, false},
		{"PSSetSamplers", name("samp2"), false, func(c *DeviceContext, o *otherObjects) error { return c.PSSetSamplers(0, o.samp) }, false},
		{"OMSetRenderTargets", name("rtv2"), false, func(c *DeviceContext, o *otherObjects) error { return c.OMSetRenderTargets([]*View{o.rtv}, nil) }, false},
		{"OMSetRenderTargets", name("dsv2"), false, func(c *DeviceContext, o *otherObjects) error { return c.OMSetRenderTargets(nil, o.dsv) }, false},
		{"OMSetBlendState", name("blend2"), false, func(c *DeviceContext, o *otherObjects) error {
			return c.OMSetBlendState(o.blend, [4]float32{1, 1, 1, 1}, ^uint32(0))
		}, false},
		{"OMSetDepthStencilState", name("depth2"), false, func(c *DeviceContext, o *otherObjects) error { return c.OMSetDepthStencilState(o.depth, 0) }, false},
		{"RSSetState", name("rs2"), false, func(c *DeviceContext, o *otherObjects) error { return c.RSSetState(o.rs) }, false},
		{"ClearRenderTargetView", name("rtv2"), false, func(c *DeviceContext, o *otherObjects) error {
			return c.ClearRenderTargetView(o.rtv, [4]float32{1, 0, 0, 1})
		}, false},
		{"ClearDepthStencilView", name("dsv2"), false, func(c *DeviceContext, o *otherObjects) error {
			return c.ClearDepthStencilView(o.dsv, ddi.ClearDepth, 1, 0)
		}, false},
		{"CopyResource", name("tex2"), false, func(c *DeviceContext, o *otherObjects) error { return c.CopyResource(o.ownDest, o.tex) }, false},
		{"CopyResource", name("tex2"), false, func(c *DeviceContext, o *otherObjects) error { return c.CopyResource(o.tex, o.ownTex) }, false},
		{"UpdateSubresource", name("tex2"), false, func(c *DeviceContext, o *otherObjects) error { return c.UpdateSubresource(o.tex, make([]byte, 64)) }, false},
		{"Begin", name("occ2"), false, func(c *DeviceContext, o *otherObjects) error { return c.Begin(o.occlusion) }, false},
		{"End", name("event2"), false, func(c *DeviceContext, o *otherObjects) error { return c.End(o.event) }, false},
		{"Unmap", name("dyn2"), false, func(c *DeviceContext, o *otherObjects) error { return c.Unmap(o.dyn) }, false},
		{"ExecuteCommandList", name("list2"), false, func(c *DeviceContext, o *otherObjects) error { return c.ExecuteCommandList(o.list, false) }, true},
		{"Map", name("dyn2"), true, func(c *DeviceContext, o *otherObjects) error {
			_, err := c.Map(o.dyn, ddi.MapWriteDiscard, 0)
			return err
		}, false},
		{"GetData", name("event2"), true, func(c *DeviceContext, o *otherObjects) error {
			_, hr, err := c.GetData(o.event)
			if hr != hresult.E_INVALIDARG {
				t.Errorf("GetData: HRESULT %v, want E_INVALIDARG", hr)
			}
			return err
		}, true},
	}
	for _, path := range []struct {
		desc     string
		cl       bool
		deferred bool
	}{{"immediate", true, false}, {"deferred", true, true}, {"emulated", false, true}} {
		for _, tc := range calls {
			if tc.ic && path.deferred {
				continue
			}
			t.Run(path.desc+"/"+tc.method+"/"+tc.obj(nil), func(t *testing.T) {
				f := mustStack(t, fakeOpts{commandLists: path.cl, debug: true})
				o := makeOther(t, f)
				ctx := f.ic
				if path.deferred {
					var err error
					if ctx, err = f.dev.CreateDeferredContext("dc"); err != nil {
						t.Fatal(err)
					}
				}
				f.log.reset()
				from := f.seq()
				err := tc.do(ctx, o)
				if tc.hr {
					if hresult.Of(err) != hresult.E_INVALIDARG {
						t.Fatalf("%s: %v, want E_INVALIDARG", tc.method, err)
					}
				} else if err != nil {
					t.Fatalf("%s is void in D3D11: it returned %v", tc.method, err)
				}
				if got := f.log.names(""); len(got) != 0 {
					t.Errorf("the call reached the driver: %q", got)
				}
				msgs := f.messages(from)
				if len(msgs) != 1 {
					t.Fatalf("debug messages: %v, want one", msgs)
				}
				m := msgs[0]
				for _, want := range []string{tc.method, tc.obj(o), "device dev2", "device dev,"} {
					if !strings.Contains(m.Msg, want) {
						t.Errorf("message %q does not name %q", m.Msg, want)
					}
				}
				if e, ok := ctx.contextKind.(*emulatedContext); ok && len(e.cmds) != 0 {
					t.Errorf("the emulated context recorded the call: %v", e.cmds)
				}
			})
		}
	}
}

// Without the debug layer the calls are refused alike, silently; creating a
// view onto another device's resource fails.
func TestObjectOfAnotherDeviceNoDebug(t *testing.T) {
	f := mustStack(t, fakeOpts{commandLists: true})
	o := makeOther(t, f)
	f.log.reset()
	from := f.seq()
	if err := f.ic.OMSetRenderTargets([]*View{o.rtv}, nil); err != nil {
		t.Fatalf("OMSetRenderTargets: %v", err)
	}
	if _, err := f.dev.CreateView("rtv", ddi.ViewRTV, o.tex); hresult.Of(err) != hresult.E_INVALIDARG {
		t.Fatalf("CreateRenderTargetView of another device's texture: %v, want E_INVALIDARG", err)
	}
	if got := f.log.names(""); len(got) != 0 {
		t.Errorf("the calls reached the driver: %q", got)
	}
	if m := f.messages(from); len(m) != 0 {
		t.Errorf("messages without the debug layer: %v", m)
	}
	// The second device's own context takes them.
	if err := o.dev.ImmediateContext().OMSetRenderTargets([]*View{o.rtv}, nil); err != nil {
		t.Fatal(err)
	}
	if got := f.log.names(""); len(got) != 1 || got[0] != "SetRenderTargets" {
		t.Errorf("own device: %q, want SetRenderTargets", got)
	}
}
